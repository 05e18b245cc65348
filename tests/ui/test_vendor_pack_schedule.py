"""The vendor pack has a Schedule page: each phase's critical part and ready week and month,
and the lead times the plan assumes.

The format 9 sample (tests/data/plan_v9.json): ordered 2027-01-04, its transformers in place
(0 weeks), GPU systems 20 weeks; the switchgear (52 weeks, named before the generator sets'
equal 52) gates every hall: A1 (3 racks) 52 + 8 + 3 / 5 = 60.6 weeks, A2 and B1 (2 racks)
60.4 weeks; 60.6 weeks = 424.2 days: month 14, 2028-03-04.
"""

import subprocess
from pathlib import Path

import pytest

from planner.plan.fileio import load_plan
from planner.report.evaluate import evaluate
from ui.export.files import export_drawing

pytestmark = pytest.mark.needs_tool("pdftotext")
DATA = Path(__file__).resolve().parents[1] / "data"


def test_schedule_page_gives_each_phase_its_gate_and_ready_date(tmp_path, catalog):
    plan = load_plan(DATA / "plan_v9.json")
    export_drawing(plan, catalog, tmp_path / "pack.pdf", evaluate(plan, catalog))
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "pack.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = [p for p in text.split("\f") if "Schedule: phases and lead times" in p and "Contents" not in p]
    assert len(pages) == 1
    page = pages[0]
    assert "ordered on 2027-01-04" in page and "month 14 after the order (2028-03-04)" in page
    lines = {line.split()[4]: line for line in page.splitlines() if "Building" in line and "Hall" in line}
    assert set(lines) == {"A1", "A2", "B1"}
    assert "switchgear" in lines["A1"] and "60.6" in lines["A1"] and "month 14 (2028-03-04)" in lines["A1"]
    assert "60.4" in lines["B1"] and "(2028-03-02)" in lines["B1"]  # 422.8 days: 423
    assert "power transformer" in page and "0 weeks" in page and "20 weeks" in page
    assert "$" not in page  # prices are the buyer's: only with prices asked for


def _schedule_page(plan, catalog, path, with_prices):
    export_drawing(plan, catalog, path, evaluate(plan, catalog), with_prices=with_prices)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    page = next(p for p in text.split("\f") if "Schedule: phases and lead times" in p and "Contents" not in p)
    return " ".join(page.split())


def test_schedule_page_gives_the_training_run_and_with_prices_its_cost(tmp_path, catalog):
    plan = load_plan(DATA / "plan_v9.json")
    days = evaluate(plan, catalog).sections["schedule"].training_days
    # energized in month 14 (above); the run then takes its days on every GPU: month
    # 14 + days / (365.25 / 12), to two decimals as the report gives it
    done = round(14 + days / (365.25 / 12), 2)
    plain = _schedule_page(plan, catalog, tmp_path / "plain.pdf", with_prices=False)
    assert f"Training from month 14 (energization) to month {done:g} after the order." in plain
    assert "$" not in plain
    priced = _schedule_page(plan, catalog, tmp_path / "priced.pdf", with_prices=True)
    line = priced[priced.index(f"Training from month 14 (energization) to month {done:g} after the order:"):]
    assert all(f"{name} $" in line for name in ("rent spot", "rent on demand", "build"))
