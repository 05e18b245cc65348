"""Design from intent, timed in-process (no interpreter start, no file written); prints one
JSON line. Target, 2-core machine: a 100,000-GPU intent (12,500 HGX H100 nodes on NDR400,
a 70B model) designed in under 2 s.

    python3 benchmarks/design.py [--gpus N] [--system ID] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.design.build import design  # noqa: E402
from planner.design.intent import Intent  # noqa: E402
from planner.hardware.catalog import default_catalog  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpus", type=int, default=100_000)
    ap.add_argument("--system", default="hgx-h100-8")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    catalog = default_catalog()
    intent = Intent(system=args.system, gpus=args.gpus, fabric="ib400", tiers="3", model="llama3-70b",
                    power_basis="nameplate", rack_kw=69)
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = design(intent, catalog)
        times.append(time.perf_counter() - t0)
    plan = result.plan
    print(json.dumps({"gpus": args.gpus, "system": args.system, "racks": len(plan.racks),
                      "devices": len(plan.placements), "design_s_best": round(min(times), 3),
                      "design_s_median": round(sorted(times)[len(times) // 2], 3), "target_s": 2.0}))


if __name__ == "__main__":
    main()
