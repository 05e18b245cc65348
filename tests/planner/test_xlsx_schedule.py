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
from planner.plan.model import Plan
from planner.report.evaluate import evaluate
from tests.planner.xlsx_helpers import error_cells, find_soffice, named, recalc, recalc_edited

CAT = default_catalog()
DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def soffice():
    return find_soffice()


def exported(soffice, plan, tmp_path):
    """(the plan's report, its workbook's path, the workbook recalculated by LibreOffice, which
    has no error cells)."""
    report = evaluate(plan, CAT)
    path = tmp_path / "plan.xlsx"
    write_workbook(plan, CAT, path, report)
    wb = recalc(soffice, path, tmp_path)
    assert error_cells(wb) == []
    return report, path, wb


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
    report, path, wb = exported(soffice, plan, tmp_path)
    sched = report.to_json()["schedule"]
    assert [(name, crit, month) for name, crit, _, month, _ in phase_rows(wb)] == [
        ("Building A / Hall A1", "power transformer", 32), ("Building A / Hall A2", "power transformer", 32),
        ("Building B / Hall B1", "power transformer", 32)]
    assert [weeks for _, _, weeks, _, _ in phase_rows(wb)] == pytest.approx([136.6, 136.4, 136.4])
    assert [capex for *_, capex in phase_rows(wb)] == pytest.approx([p["capex_usd"] for p in sched["phases"]],
                                                                    abs=0.02)
    assert (named(wb, "sched_energized_month"), named(wb, "sched_energized_weeks")) == (32, pytest.approx(136.6))
    months = table(wb, "Month")
    assert [gpus for _, gpus, *_ in months[:33]] == sched["gpus_online_by_month"] == [0] * 32 + [128]
    # the 15T-token run from month 32 takes the workload's 1,432.5 days = 47.06 months of
    # 30.44 days, to month 79.06: the table runs a year past the month it ends in, every GPU
    # still online
    assert report.sections["schedule"].training_days == pytest.approx(1432.46, abs=0.01)
    assert sched["training_done_month"] == pytest.approx(32 + 1432.46 / (365.25 / 12), abs=0.01)
    assert months[-1][:2] == (79 + 1 + 12, 128)
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


def run_rows(wb):
    """(month, GPUs online, GPUs training, the run's hours, build, spot rent) of each month row
    the run takes hours in, and the row past the table ("later")."""
    rows = list(wb["Schedule"].iter_rows(values_only=True))
    head = next(i for i, r in enumerate(rows) if r[0] == "Month")
    at = {name: rows[head].index(name) for name in ("GPUs training", "Run's hours", "Run, build",
                                                     "Run, rent spot / preemptible")}
    out = []
    for r in rows[head + 1:]:
        if r[0] is None:
            break
        if r[at["Run's hours"]]:
            out.append((r[0], r[1], r[at["GPUs training"]], r[at["Run's hours"]], r[at["Run, build"]],
                        r[at["Run, rent spot / preemptible"]]))
    return out


def test_the_training_run_on_the_calendar_recalculates_to_the_report_and_follows_the_lead_times(soffice, tmp_path):
    from tests.planner.test_schedule_run_cost import moved, two_halls

    # halls A1 (64 GPUs, month 7) and A2 (64 GPUs, month 9), training from the first
    # (tests/planner/test_schedule_run_cost.py works the run out by hand)
    plan = moved(two_halls(), CAT)
    plan.settings.schedule.train_from = "first_phase"
    report, path, wb = exported(soffice, plan, tmp_path)
    sched = report.to_json()["schedule"]
    by_month = sched["training_cost_by_month"]
    assert [row[:3] for row in run_rows(wb)] == [(m["month"], m["gpus_online"], m["gpus_training"])
                                                 for m in by_month] == [(7, 64, 64), (8, 64, 64), (9, 128, 128)]
    assert [row[3:] for row in run_rows(wb)] == [
        (pytest.approx(m["hours"], abs=0.001), pytest.approx(m["build_usd"], abs=0.01),
         pytest.approx(m["rent_usd"]["spot"], abs=0.01)) for m in by_month]
    assert named(wb, "sched_run_build") == pytest.approx(sched["training_cost_usd"]["build"], abs=0.05)
    for option in ("spot", "reserved_1yr", "reserved_3yr", "on_demand"):
        assert named(wb, f"sched_run_rent_{option}") == pytest.approx(sched["training_cost_usd"][f"rent_{option}"],
                                                                      abs=0.05)
    assert named(wb, "sched_run_done_month") == pytest.approx(sched["training_done_month"], abs=0.005)
    # the months after the run's end train on no GPU, recalculated as the report has them
    rows = list(wb["Schedule"].iter_rows(values_only=True))
    head = next(i for i, r in enumerate(rows) if r[0] == "Month")
    after = [r[rows[head].index("GPUs training")] for r in rows[head + 1:]
             if isinstance(r[0], (int, float)) and r[0] > sched["training_done_month"]]
    assert after and set(after) == {0}

    # storage 9 weeks later, typed into the workbook: hall A2 ready 47.8 weeks = 334.6 days
    # after the order, month 11; the run's 128 x 24 D = 140,553 GPU-hours take hall A1's 64
    # GPUs 3 x 46,752 in months 7 to 9 and the 297 left in month 10: done there on hall A1
    later = recalc_edited(soffice, path, tmp_path, storage_weeks=30 + 9)
    plan.settings.schedule.storage_weeks = 30.0 + 9
    again = evaluate(plan, CAT).to_json()["schedule"]
    assert again["phases"][1]["ready_month"] == 11
    assert [row[:3] for row in run_rows(later)] == [(m["month"], m["gpus_online"], m["gpus_training"])
                                                    for m in again["training_cost_by_month"]] == [
        (7, 64, 64), (8, 64, 64), (9, 64, 64), (10, 64, 64)]
    assert named(later, "sched_run_done_month") == pytest.approx(again["training_done_month"], abs=0.005)
    assert again["training_done_month"] == pytest.approx(10 + (sched["training_gpu_hours"] - 3 * 46_752) / 64 / 730.5,
                                                         abs=0.005)
    assert named(later, "sched_run_build") == pytest.approx(again["training_cost_usd"]["build"], abs=0.05)
    assert named(later, "sched_run_rent_spot") == pytest.approx(again["training_cost_usd"]["rent_spot"], abs=0.05)


def test_a_plan_without_gpus_rents_nothing_while_it_builds(soffice, tmp_path):
    # The medium template with its GPU nodes taken out (switches, storage and racks stay):
    # nothing to rent, so renting while building is $0 in the workbook as in the report, not
    # #DIV/0!.
    from planner.design.templates import build_template

    data = build_template("medium", catalog=CAT).model_dump()
    data["placements"] = [p for p in data["placements"] if CAT.get(p["device"]).gpu is None]
    plan = Plan.model_validate(data)
    report, _, wb = exported(soffice, plan, tmp_path)  # asserts no error cell
    assert report.to_json()["schedule"]["rent_while_building_usd"]["spot"] == 0.0
    assert named(wb, "sched_rent_spot") == 0
