"""Time a 1,000-point design sweep over `medium`; prints one JSON line.

    python benchmarks/sweep.py [--workers N]   (default: one per core)

The grid: 5 GPU systems x 10 node counts x 2 fabrics x 5 GPU rack power caps x 2 power
bases = 1,000 points, each laid out by auto-place and evaluated in worker processes.
Target: < 60 s on 2 cores.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.design.templates import build_template  # noqa: E402
from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.sweep import parse_grid, run_sweep  # noqa: E402

GRID = {
    "gpu_system": ["hgx-h100-8", "hgx-b300-8", "dgx-h100", "dgx-b200", "amd-mi355x-8"],
    "nodes": [8, 12, 16, 20, 24, 28, 32, 36, 40, 48],
    "fabric": ["ib400", {"technology": "spx400", "switch_device": "sn5600-400"}],
    "rack": [{"power_cap_kw": kw} for kw in (20, 30, 40, 50, 60)],
    "power_basis": ["typical", "nameplate"],
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int)
    args = ap.parse_args()
    catalog = default_catalog()
    base = build_template("medium", catalog=catalog)
    grid = parse_grid(GRID, catalog)
    t0 = time.perf_counter()
    result = run_sweep(base, grid, workers=args.workers)
    seconds = time.perf_counter() - t0
    problems = sum(1 for r in result.rows if r["problem"])
    print(json.dumps({"benchmark": "sweep", "base": "medium", "points": len(result.rows), "problems": problems,
                      "workers": args.workers or os.cpu_count(), "seconds": round(seconds, 2),
                      "ms_per_point": round(seconds * 1000 / max(1, len(result.rows)), 1), "target_s": 60,
                      "load_average": [round(x, 2) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
