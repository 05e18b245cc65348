"""Time and peak memory of each export of the largest plan the limits allow; one JSON line
per format. Each export runs as ``cluster-planner export`` in its own process, so its peak
resident memory is its own.

Target (README "Size limits"): under 2 GB of memory for every export of a plan at the
limits; the NetBox folder (``--formats netbox``), whose rows stream into their files, under 1.5 GB. The plan is the frontier template grown to ``--racks`` racks (default: 10,000,
the limit; SVG draws at most 3,000 and PNG about 1,000, so those formats are measured at
their own limits).
Run: python3 benchmarks/export_limits.py [--racks N] [--formats xlsx,pdf,svg,png,netbox]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from planner.design.templates import build_template  # noqa: E402
from planner.plan.fileio import save_plan  # noqa: E402
from planner.plan.model import MAX_RACKS  # noqa: E402

FORMAT_LIMITS = {"svg": 3_000, "png": 1_000}
TARGET_KB = 2 * 1024 * 1024
FORMAT_TARGETS_KB = {"netbox": 1536 * 1024}


def plan_with(racks: int):
    """The frontier template trimmed (or grown by its node count) to ``racks`` racks."""
    nodes = 12_500
    plan = build_template("frontier-100k", nodes=nodes)
    while len(plan.racks) < racks and nodes < 100_000:
        nodes = int(nodes * racks / len(plan.racks)) + 1
        plan = build_template("frontier-100k", nodes=min(nodes, 100_000))
    keep = {r.id for r in plan.racks[:racks]}
    plan.racks = [r for r in plan.racks if r.id in keep]
    plan.placements = [p for p in plan.placements if p.rack in keep]
    return plan


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--racks", type=int, default=MAX_RACKS)
    parser.add_argument("--formats", default="xlsx,pdf,svg,png")
    parser.add_argument("--template", help="export this template as built (e.g. campus-400k) instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.formats.split(","):
            racks = min(args.racks, FORMAT_LIMITS.get(fmt, args.racks))
            plan = build_template(args.template) if args.template else plan_with(racks)
            src = Path(folder) / f"plan-{racks}.json"
            if not src.exists():
                save_plan(plan, src, keep=0)
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            start = time.perf_counter()
            out = ["-o", str(Path(folder) / "netbox"), "--netbox"] if fmt == "netbox" else \
                ["-o", str(Path(folder) / f"out.{fmt}")]
            done = subprocess.run([sys.executable, "-m", "cluster_planner", "export", str(src), *out],
                                  capture_output=True, text=True,
                                  env=dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen"))
            seconds = time.perf_counter() - start
            target_kb = FORMAT_TARGETS_KB.get(fmt, TARGET_KB)
            peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            print(json.dumps({"load_average": round(os.getloadavg()[0], 2), "benchmark": "export_limits", "format": fmt, "racks": len(plan.racks),
                              "devices": len(plan.placements), "exit": done.returncode,
                              "error": done.stderr.strip()[:200], "seconds": round(seconds, 1),
                              "peak_mb": round(peak_kb / 1024) if peak_kb > before else None,
                              "target_mb": target_kb // 1024, "ok": done.returncode == 0 and peak_kb < target_kb}),
                  flush=True)


if __name__ == "__main__":
    main()
