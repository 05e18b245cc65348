"""Time a full evaluation of a template plan; prints one JSON line.

    python benchmarks/evaluate.py [TEMPLATE ...]   (default: massive)
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.report.evaluate import Evaluator  # noqa: E402
from planner.design.templates import build_template  # noqa: E402


def main() -> None:
    catalog = default_catalog()
    for name in sys.argv[1:] or ["massive"]:
        plan = build_template(name, catalog=catalog)
        Evaluator(plan, catalog).evaluate()  # warm caches and imports
        times = []
        for _ in range(50):
            t0 = time.perf_counter()
            Evaluator(plan, catalog).evaluate()
            times.append((time.perf_counter() - t0) * 1e3)
        print(json.dumps({"load_average": round(os.getloadavg()[0], 2), "benchmark": "evaluate_full", "template": name, "racks": len(plan.racks),
                          "devices": len(plan.placements), "median_ms": round(statistics.median(times), 3),
                          "max_ms": round(max(times), 3), "target_ms": 50}))


if __name__ == "__main__":
    main()
