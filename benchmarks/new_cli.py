"""`cluster-planner new --template T -o plan.json` as a user runs it: a fresh interpreter
each run (imports, design, the plan's check, the file written and verified), timed from
outside; prints one JSON line with each run's seconds, the maximum and the machine's load at
the start. Target, 2-core machine: campus-1m under 10 s.

    python3 benchmarks/new_cli.py [--template campus-1m] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMITS = {"campus-1m": 10.0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--template", default="campus-1m")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    load = os.getloadavg()[0]
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for k in range(args.runs):
            out = Path(folder) / f"plan-{k}.json"
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "planner", "new", "--template", args.template, "-o", str(out)],
                           cwd=ROOT, check=True, capture_output=True)
            times.append(round(time.perf_counter() - t0, 2))
    limit = LIMITS.get(args.template)
    print(json.dumps({"benchmark": "new_cli", "template": args.template, "runs_s": times, "max_s": max(times),
                      "load_average": round(load, 2), "limit_s": limit,
                      "ok": None if limit is None else max(times) < limit}))


if __name__ == "__main__":
    main()
