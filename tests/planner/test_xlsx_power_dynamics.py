"""The Power dynamics sheet recalculated by LibreOffice agrees with the report, and its grid
limit is live: a tighter limit typed into the workbook gives the floor's energy and the
battery the planner gives for that limit."""

import openpyxl
import pytest

from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from tests.planner.xlsx_helpers import error_cells, find_soffice, named, recalc, recalc_edited

CAT = default_catalog()


@pytest.fixture
def soffice():
    return find_soffice()


def _with_limit(plan, mw, smoothing):
    plan.settings.facility = plan.settings.facility.model_copy(
        update={"grid_max_swing_mw": mw, "power_smoothing": smoothing})
    return evaluate(plan, CAT).sections["power_dynamics"]


def test_power_dynamics_sheet_recalculated_equals_the_report_and_the_limit_is_live(soffice, tmp_path):
    plan = build_template("medium")
    battery = _with_limit(plan, 0.03, "site_battery")
    path = tmp_path / "medium.xlsx"
    write_workbook(plan, CAT, path, evaluate(plan, CAT))
    wb = recalc(soffice, path, tmp_path)
    assert error_cells(wb) == []
    # the unsmoothed wave: 128 GPUs x 490 W, every device typical at the peak (see test_power_dynamics)
    assert named(wb, "pd_swing_w") == pytest.approx(62_720)
    assert named(wb, "pd_peak_w") == pytest.approx(142_648)
    assert named(wb, "pd_floor_w") == pytest.approx(79_928)
    assert named(wb, "pd_period_s") == pytest.approx(battery["period_s"], abs=1e-3)
    assert named(wb, "pd_bess_w") == pytest.approx(battery["bess_mw"] * 1e6, abs=1)
    assert named(wb, "pd_bess_capex") == pytest.approx(battery["smoothing_capex_usd"], rel=1e-4)
    floor = _with_limit(plan, 0.03, "gpu_power_floor")
    assert named(wb, "pd_floor_usd_year") == pytest.approx(floor["energy_cost_usd_per_year"], rel=1e-4)
    # no rack storage on HGX H100: the edge stays the GPUs' 0.1 s, the ramp 62,720 / 0.1 W/s
    assert (named(wb, "pd_storage_j"), named(wb, "pd_rack_edge_s")) == (0, pytest.approx(0.1))
    assert named(wb, "pd_rack_ramp_w_per_s") == pytest.approx(627_200)
    # the battery with the stop ramped over the set minute: the report's figures for it
    plan.settings.facility = plan.settings.facility.model_copy(update={"job_ramps": True})
    ramped = _with_limit(plan, 0.03, "site_battery")
    assert named(wb, "pd_ramp_time_s") == pytest.approx(60.0)
    assert named(wb, "pd_ramp_gpu_usd_year") == pytest.approx(ramped["gpu_time_cost_usd_per_year"], rel=1e-4)
    assert named(wb, "pd_bess_step_capex") == pytest.approx(ramped["smoothing_capex_usd"], rel=1e-4)
    assert named(wb, "pd_bess_usd_year") + named(wb, "pd_ramp_burn_usd_year") == pytest.approx(
        ramped["energy_cost_usd_per_year"], rel=1e-4)

    # 20 kW typed into the workbook: the planner's figures at 20 kW
    edited = recalc_edited(soffice, path, tmp_path, grid_max_swing_mw=0.02)
    floor20, battery20 = _with_limit(plan, 0.02, "gpu_power_floor"), _with_limit(plan, 0.02, "site_battery")
    assert named(edited, "pd_shave_w") == pytest.approx(62_720 - 20_000)
    assert named(edited, "pd_floor_usd_year") == pytest.approx(floor20["energy_cost_usd_per_year"], rel=1e-4)
    assert named(edited, "pd_bess_capex") == pytest.approx(battery20["smoothing_capex_usd"], rel=1e-4)


def test_no_training_step_leaves_a_note(tmp_path):
    plan = build_template("medium")
    plan.settings.workload = plan.settings.workload.model_copy(update={"enabled": False})
    path = tmp_path / "off.xlsx"
    write_workbook(plan, CAT, path, evaluate(plan, CAT))
    ws = openpyxl.load_workbook(path)["Power dynamics"]
    assert "no training step" in ws.cell(2, 1).value
