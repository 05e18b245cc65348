"""Design from intent, timed in-process (no interpreter start, no file written), the layout
search included; prints one JSON line a size. Target, 2-core machine: a 100,000-GPU intent
(12,500 HGX H100 nodes on NDR400, a 70B model) designed in under 2 s. Each line gives the
machine's load average at its start: figures taken on a loaded machine are not comparable.
A million GPUs in 8-GPU nodes are past a plan's size limits (25,000 racks), and the design
refuses them as soon as its racks are laid out; that size is then designed as a user is told
to: from the campus-1m template (GB200 NVL72 racks over a campus's halls), and its line says so.

    python3 benchmarks/design.py [--gpus N [N ...]] [--system ID] [--model PRESET] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.design.build import design  # noqa: E402
from planner.design.intent import DesignError, Intent  # noqa: E402
from planner.design.templates import design_from  # noqa: E402
from planner.hardware.catalog import default_catalog  # noqa: E402

SIZES = (1_024, 16_384, 100_000, 1_000_000)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpus", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--system", default="hgx-h100-8")
    ap.add_argument("--model", default="llama3-70b")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    catalog = default_catalog()
    for gpus in args.gpus:
        intent = Intent(system=args.system, gpus=gpus, fabric="ib400", tiers="3", model=args.model,
                        power_basis="nameplate", rack_kw=69)
        load = os.getloadavg()[0]
        times, template = [], None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            try:
                result = design(intent, catalog) if template is None else design_from(template, catalog)
            except DesignError as exc:
                if "more than a plan may have" not in str(exc):
                    raise
                print(json.dumps({"gpus": gpus, "system": args.system, "refused_s": round(time.perf_counter() - t0, 3),
                                  "refused": str(exc)}), flush=True)
                template = "campus-1m"
                t0 = time.perf_counter()
                result = design_from(template, catalog)
            times.append(time.perf_counter() - t0)
        plan, best = result.plan, (result.layouts[0] if result.layouts else None)
        placed = sum(catalog[p.device].gpus for p in plan.placements if catalog[p.device].gpu)
        print(json.dumps({"gpus": gpus if template is None else placed,
                          "system": args.system if template is None else f"template {template}",
                          "model": args.model if template is None else plan.settings.workload.model,
                          "racks": len(plan.racks),
                          "devices": len(plan.placements), "layout": best.describe() if best else None,
                          "mfu": round(best.step.mfu, 4) if best else None,
                          "design_s_best": round(min(times), 3),
                          "design_s_median": round(sorted(times)[len(times) // 2], 3), "target_s": 2.0,
                          "load_avg_1min": round(load, 2)}), flush=True)


if __name__ == "__main__":
    main()
