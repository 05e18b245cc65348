"""Start to first paint: the app on its default plan against a bare PySide6 window with one
pyqtgraph plot, measured side by side in one run; prints one JSON line.

Each start is a fresh process (alternating app / bare, several runs each); the time runs
from just before the process is started until the first paint event of the app's rack view
(or of the bare window's plot) has been handled. Medians are compared.
Target: app <= 1.5 x bare (issue "Scale: a 100,000-GPU plan stays live").

    QT_QPA_PLATFORM=offscreen python3 benchmarks/app_start_vs_bare.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from app_open_frontier import timed_start  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    app_s, bare_s = [], []
    with tempfile.TemporaryDirectory() as tmp:
        timed_start(["bare"], tmp)  # untimed: the file cache and the bytecode for both
        timed_start(["app"], tmp)
        for _ in range(args.runs):
            app_s.append(timed_start(["app"], tmp)["first_paint_s"])
            bare_s.append(timed_start(["bare"], tmp)["first_paint_s"])
    app_median, bare_median = statistics.median(app_s), statistics.median(bare_s)
    ratio = app_median / bare_median
    print(json.dumps({
        "load_average": round(os.getloadavg()[0], 2),
        "benchmark": "app_start_vs_bare", "platform": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
        "runs": args.runs, "app_first_paint_s": round(app_median, 3), "bare_first_paint_s": round(bare_median, 3),
        "app_runs_s": [round(t, 3) for t in app_s], "bare_runs_s": [round(t, 3) for t in bare_s],
        "ratio": round(ratio, 3), "limit_ratio": 1.5, "ok": ratio <= 1.5,
    }))


if __name__ == "__main__":
    main()
