"""Vendor pack of the large templates: pages and seconds to export each (the target is at most
80 pages in under 10 s). Usage: PYTHONPATH=. python benchmarks/vendor_pack.py [TEMPLATE ...]"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from planner.design.templates import build_template, template_names
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from ui.export.files import ensure_app, export_drawing


def pdf_pages(path: Path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def main(names: list[str]) -> None:
    ensure_app()
    catalog = default_catalog()
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            plan = build_template(name, catalog=catalog)
            out = Path(folder) / f"{name}.pdf"
            start = time.perf_counter()
            export_drawing(plan, catalog, out, evaluate(plan, catalog))
            seconds = time.perf_counter() - start
            print(f"{name}: {len(plan.racks):,} racks, {pdf_pages(out)} pages, {seconds:.2f} s "
                  f"(evaluate + draw + write), load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or [n for n in template_names() if n in ("frontier-100k", "campus-400k", "campus-1m")])
