"""`check` as text and as JSON on a template, in-process (the plan designed and saved first,
then each read and evaluated as the command does); prints one JSON line with the machine's
load. Target (any size): text no slower than JSON + 30 %.

    python3 benchmarks/check_cli.py [--template campus-1m] [--repeat R]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.cli import main as cli  # noqa: E402


def timed(args: list[str]) -> float:
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        cli(args)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--template", default="campus-1m")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "plan.json")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            cli(["new", "--template", args.template, "-o", path])
        load = os.getloadavg()[0]
        text = min(timed(["check", path]) for _ in range(args.repeat))
        as_json = min(timed(["check", path, "--json"]) for _ in range(args.repeat))
    print(json.dumps({"template": args.template, "text_s": round(text, 2), "json_s": round(as_json, 2),
                      "text_over_json": round(text / as_json, 2), "target": "text <= 1.3 x json",
                      "load_avg_1min": round(load, 2)}))


if __name__ == "__main__":
    main()
