"""The vendor pack has a goodput page: the expected interruptions, the checkpoint interval
and ETTR, with their units, as the report gives them."""

import subprocess

import pytest

from planner.design.templates import build_template
from planner.report.evaluate import evaluate
from ui.export.files import export_drawing
from ui.export.sections import goodput_rows

@pytest.mark.needs_tool("pdftotext")
def test_goodput_page_gives_the_reports_figures_on_one_page(tmp_path, catalog):
    plan = build_template("medium", catalog=catalog)
    report = evaluate(plan, catalog)
    g = report.sections["goodput"]
    export_drawing(plan, catalog, tmp_path / "pack.pdf", report)
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "pack.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = [p for p in text.split("\f") if "Goodput: failures, checkpoints" in p and "Contents" not in p]
    assert len(pages) == 1
    page = pages[0]
    assert f"{100 * g.ettr:.1f}%" in page  # 99.6%
    assert f"{g.mtbf_h:,.2f} h" in page and f"{g.checkpoint_interval_min:,.2f} min" in page
    assert f"{g.time_to_train_days:,.1f} days" in page
    for raw in ("mtbf_h", "ettr ", "True", "False"):
        assert raw not in page, raw



def test_goodput_rows_name_the_hosts_an_nvl72_rack_is(catalog):
    # the GB200 scalable unit: 8 NVL72 racks x 18 compute trays = 144 hosts whose failures
    # the interruptions count, no spare (8 x (72 x 0.3029 + 18 x 0.4792) / 1,000 x 3 = 0.73)
    report = evaluate(build_template("gb200-nvl72-su", catalog=catalog), catalog)
    rows = {label.split(" (")[0]: value for label, value in goodput_rows(report)}
    assert (rows["GPUs the job runs on"], rows["Hosts the job runs on"]) == ("576", "144")
