"""Open ``frontier-100k`` in the desktop app to the first paint of the rack view; prints one JSON line.

The plan (12,500 nodes, 100,000 GPUs) is saved to a file first; then, several times, a fresh
process starts the app on it exactly as ``cluster-planner PLAN`` does. The time runs from
just before that process is started (interpreter start, imports, loading the file,
evaluation, building the view) until the first paint event of the rack view's viewport
has been handled. Peak memory is that process's ru_maxrss after the whole floor has also
been drawn zoomed out. Targets: open < 5 s, peak memory < 1 GB (issue "Scale: a
100,000-GPU plan stays live").

    QT_QPA_PLATFORM=offscreen python3 benchmarks/app_open_frontier.py [--template campus-400k] [--runs N]

campus-400k (8,481 racks, 27,176 devices) and campus-1m (21,256 racks, 68,028 devices): open < 3 s,
peak memory < 1.5 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from planner.design.templates import build_template  # noqa: E402
from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.plan.fileio import save_plan  # noqa: E402

PROBE = Path(__file__).resolve().parent / "_app_probe.py"
# open to first paint s, peak MB
LIMITS = {"frontier-100k": (5.0, 1024), "campus-400k": (3.0, 1536), "campus-1m": (3.0, 1536)}


def timed_start(args: list[str], config_dir: str, extra_env: dict | None = None) -> dict:
    """Start the probe in a fresh process; its figures plus ``first_paint_s`` from before the start.

    Python may write its bytecode (``PYTHONDONTWRITEBYTECODE`` is dropped for the child), as it
    does on a user's machine: an untimed first start compiles the app's modules once, the timed
    ones read them, instead of compiling some 150 modules on every start."""
    env = dict(os.environ, XDG_CONFIG_HOME=config_dir, **(extra_env or {}))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    start = time.time()
    out = subprocess.run([sys.executable, str(PROBE), *args], env=env, capture_output=True, text=True, check=True,
                         cwd=ROOT)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("{")][-1]
    figures = json.loads(line)
    figures["first_paint_s"] = figures["first_paint_epoch"] - start
    figures["imported_s"] = figures["imported_epoch"] - start
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--template", choices=sorted(LIMITS), default="frontier-100k")
    args = parser.parse_args()
    open_limit, rss_limit = LIMITS[args.template]
    catalog = default_catalog()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{args.template}.json"
        save_plan(build_template(args.template, catalog=catalog), path)
        timed_start(["app", str(path)], tmp)  # untimed: the file cache and the bytecode, as after installing
        runs = [timed_start(["app", str(path)], tmp, {"PROBE_FIT": "1"}) for _ in range(args.runs)]
    opens = [r["first_paint_s"] for r in runs]
    rss = max(r["maxrss_mb"] for r in runs)
    print(json.dumps({
        "load_average": round(os.getloadavg()[0], 2),
        "benchmark": "app_open_frontier", "template": args.template,
        "platform": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
        "racks": runs[0]["racks"], "devices": runs[0]["devices"], "runs": len(runs),
        "open_to_first_paint_s": round(statistics.median(opens), 3), "open_max_s": round(max(opens), 3),
        "imports_s": round(statistics.median(r["imported_s"] for r in runs), 3),
        "zoomed_out_full_paint_s": round(statistics.median(r["fit_paint_s"] for r in runs), 3),
        "peak_rss_mb": rss, "open_limit_s": open_limit, "rss_limit_mb": rss_limit,
        "ok": statistics.median(opens) < open_limit and max(opens) < open_limit and rss < rss_limit,
    }))


if __name__ == "__main__":
    main()
