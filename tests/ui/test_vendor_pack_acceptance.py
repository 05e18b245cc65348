"""The vendor pack has the acceptance tests: each command with the plan's numbers, its
expected figure and pass threshold, as the acceptance command writes them."""

import subprocess

import pytest

from planner.design.templates import build_template
from planner.report.evaluate import evaluate
from ui.export.files import export_drawing

pytestmark = pytest.mark.needs_tool("pdftotext")


@pytest.mark.parametrize("template", ["medium", "gb200-nvl72-su"])
def test_acceptance_pages_list_the_commands_and_thresholds(tmp_path, catalog, template):
    plan = build_template(template, catalog=catalog)
    export_drawing(plan, catalog, tmp_path / "pack.pdf", evaluate(plan, catalog))
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "pack.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = "\n".join(p for p in text.split("\f") if "Acceptance tests" in p and "Contents" not in p)
    flat = " ".join(pages.split())
    assert "all_reduce_perf" in flat and "ib_write_bw" in flat and "dcgmi diag -r 3" in flat
    if template == "medium":
        # 16 x 8 H100: 128 ranks; cross-node busbw 350.6 GB/s expected, pass at 262.9 (66 % of 400)
        assert "mpirun -np 128 -N 8" in flat
        assert "350.6 GB/s" in flat and "262.9 GB/s (66 % of line rate)" in flat
    else:
        # 8 NVL72 racks of 18 trays x 4 GPUs: one rank per GPU, 4 per tray; the rack's NVLink ring
        # 1,800 / 2 x 0.80 = 720 GB/s, pass at 540 (60 % of 900)
        assert "mpirun -np 72 -N 4" in flat and "540.0 GB/s (60 % of line rate)" in flat
