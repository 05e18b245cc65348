"""Time to export the `massive` template (48 nodes, 384 GPUs) to Excel; prints one JSON line.

Target: under 2 s (issue "Bill of materials, costs, rent vs build, and the Excel workbook").
Run: python3 benchmarks/export_xlsx.py
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.export.xlsx import write_workbook  # noqa: E402
from planner.design.templates import build_template  # noqa: E402


def main() -> None:
    catalog = default_catalog()
    plan = build_template("massive", catalog=catalog)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "massive.xlsx"
        start = time.perf_counter()
        write_workbook(plan, catalog, out)  # evaluates the plan, builds and writes the workbook
        seconds = time.perf_counter() - start
        size = out.stat().st_size
    print(json.dumps({"load_average": round(os.getloadavg()[0], 2), "benchmark": "export_xlsx", "template": "massive", "devices": len(plan.placements),
                      "racks": len(plan.racks), "seconds": round(seconds, 3), "bytes": size,
                      "target_seconds": 2.0, "ok": seconds < 2.0}))


if __name__ == "__main__":
    main()
