"""The Schedule sheet recalculated by LibreOffice gives the report's schedule, and its lead
times are live: a transformer 13 weeks later in the workbook moves energization by 13 weeks,
as the planner does.

The two-building sample (tests/data/plan_v7.json): halls A1 (3 racks, 64 GPUs), A2 (2 racks,
32 GPUs), B1 (2 racks, 32 GPUs); every hall waits for the 128-week transformer, so hall A1 is
ready 128 + 8 + 3 / 5 = 136.6 weeks after the order, month ceil(956.2 / 30.4375) = 32.
"""

from pathlib import Path

import openpyxl
import pytest

from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import load_plan
from planner.report.evaluate import evaluate
from tests.planner.xlsx_helpers import error_cells, find_soffice, named, recalc, recalc_edited

CAT = default_catalog()
DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def soffice():
    return find_soffice()


def phase_rows(wb):
    """(phase, critical part, ready weeks, online month, capex) of each row of the phase table."""
    rows = list(wb["Schedule"].iter_rows(values_only=True))
    head = next(i for i, r in enumerate(rows) if r[0] == "Phase")
    names = rows[head]
    at = {name: names.index(name) for name in ("Critical part", "Ready, weeks", "Online from month", "Capex")}
    out = []
    for r in rows[head + 1:]:
        if not r[0]:
            break
        out.append((r[0], r[at["Critical part"]], r[at["Ready, weeks"]], r[at["Online from month"]],
                    r[at["Capex"]]))
    return out


def table(wb, first: str) -> list[tuple]:
    rows = list(wb["Schedule"].iter_rows(values_only=True))
    start = next(i for i, r in enumerate(rows) if r[0] == first) + 1
    out = []
    for r in rows[start:]:
        if not isinstance(r[0], (int, float)):
            break
        out.append(r)
    return out


def test_schedule_sheet_recalculated_equals_the_report_and_follows_the_lead_times(soffice, tmp_path):
    plan = load_plan(DATA / "plan_v7.json")
    report = evaluate(plan, CAT)
    sched = report.to_json()["schedule"]
    path = tmp_path / "campus.xlsx"
    write_workbook(plan, CAT, path, report)
    wb = recalc(soffice, path, tmp_path)
    assert error_cells(wb) == []
    assert [(name, crit, month) for name, crit, _, month, _ in phase_rows(wb)] == [
        ("Building A / Hall A1", "power transformer", 32), ("Building A / Hall A2", "power transformer", 32),
        ("Building B / Hall B1", "power transformer", 32)]
    assert [weeks for _, _, weeks, _, _ in phase_rows(wb)] == pytest.approx([136.6, 136.4, 136.4])
    assert [capex for *_, capex in phase_rows(wb)] == pytest.approx([p["capex_usd"] for p in sched["phases"]],
                                                                    abs=0.02)
    assert (named(wb, "sched_energized_month"), named(wb, "sched_energized_weeks")) == (32, pytest.approx(136.6))
    months = table(wb, "Month")
    assert [gpus for _, gpus, *_ in months[:33]] == sched["gpus_online_by_month"] == [0] * 32 + [128]
    assert months[-1][:2] == (32 + 12, 128)  # a year past energization, every GPU still online
    quarters = table(wb, "Quarter")
    assert [q[2] for q in quarters[:len(sched["capex_by_quarter"])]] == pytest.approx(
        [q["capex_usd"] for q in sched["capex_by_quarter"]], abs=0.05)
    assert sum(q[2] for q in quarters) == pytest.approx(report.to_json()["cost"]["capex_usd"], abs=0.05)
    # renting the 128 GPUs for the 32 months before energization, at the Costs sheet's rent
    rent = report.to_json()["cost"]["rent_usd_per_month"]
    assert named(wb, "sched_rent_spot") == pytest.approx(32 * rent["spot"], abs=0.05) == sched[
        "rent_while_building_usd"]["spot"]

    # the transformer 13 weeks later, typed into the workbook: 149.6 weeks = 1,047.2 days, month 35
    later = recalc_edited(soffice, path, tmp_path, transformer_weeks=128 + 13)
    assert named(later, "sched_energized_weeks") == pytest.approx(136.6 + 13)
    plan.settings.schedule.transformer_weeks = 128.0 + 13
    again = evaluate(plan, CAT).to_json()["schedule"]
    assert named(later, "sched_energized_month") == again["energized_month"] == 35
    assert [g for _, g, *_ in table(later, "Month")[:36]] == again["gpus_online_by_month"]
    assert named(later, "sched_rent_spot") == pytest.approx(35 * rent["spot"], abs=0.05) == again[
        "rent_while_building_usd"]["spot"]


def test_the_lead_times_are_assumptions_with_their_sources(tmp_path):
    plan = load_plan(DATA / "plan_v7.json")
    path = tmp_path / "campus.xlsx"
    write_workbook(plan, CAT, path)
    wb = openpyxl.load_workbook(path)
    rows = {r[4]: r for r in wb["Assumptions"].iter_rows(values_only=True) if r[4]}
    assert rows["transformer_weeks"][1] == 128 and "Wood Mackenzie" in rows["transformer_weeks"][3]
    assert rows["transformer_weeks"][5] == "Schedule (live formula)"
    assert rows["hall_commissioning_weeks"][1] == 8
