"""The racks' own energy storage and a ramped stop and restart, worked by hand, and fix choosing
the cheapest smoothing where each one is the cheapest.

GB300 NVL72: 65 J of storage per GPU in its power supplies (NVIDIA technical blog, "How New
GB300 NVL72 Features Provide Steady Power for AI", 2025); B300 TDP 1,400 W (the catalog's), so
with the default waiting draw of 30 % of the TDP a GPU swings by 1,400 - 420 = 980 W. The
medium template's figures are worked in test_power_dynamics.py.
"""

from __future__ import annotations

import pytest

from planner.design.build import design
from planner.design.intent import Intent
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, SetSetting
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate

CATALOG = default_catalog()
GB300_SWING_W = 576 * (1_400 - 0.3 * 1_400)  # 576 GPUs x 980 W = 564,480 W
STORAGE_J = 576 * 65  # 37,440 J = 10.4 Wh
MEDIUM_SWING_W = 128 * (700 - 0.3 * 700)  # 62,720 W
EDGE_S = 0.1


def _set(history, **values):
    for name, value in values.items():
        history.apply(SetSetting("facility", name, value))


def _grid_findings(report):
    return [f for f in report.findings if f.code.startswith("facility.grid")]


@pytest.fixture(scope="module")
def gb300_plan():
    return design(Intent(system="gb300-nvl72", gpus=576), CATALOG).plan


@pytest.fixture
def gb300(gb300_plan):
    return History(gb300_plan.model_copy(deep=True), CATALOG)


@pytest.fixture
def medium():
    return History(build_template("medium"), CATALOG)


def test_the_racks_storage_spreads_each_edge_of_a_gb300_plan(gb300):
    _set(gb300, power_smoothing="rack_storage")
    report = evaluate(gb300.plan, CATALOG)
    dyn = report.sections["power_dynamics"]
    assert report.sections["goodput"]["job_gpus"] == 576  # 8 racks of 72, no spares
    assert dyn["rack_storage_wh"] == pytest.approx(STORAGE_J / 3600)  # 10.4 Wh
    # an edge of S over T needs S T / 2 of storage: T = 2 x 37,440 J / 564,480 W = 130 / 980 = 0.1327 s,
    # longer than the GPUs' own 0.1 s and shorter than the step's wait (0.43 s): it fits in every phase
    t = 2 * STORAGE_J / GB300_SWING_W
    assert t == pytest.approx(130 / 980) and dyn["wait_s"] > t
    assert dyn["edge_s"] == pytest.approx(t, abs=1e-4)
    # the ramp falls from 564,480 / 0.1 = 5.645 MW/s to S^2 / 2E = 4.255 MW/s: a quarter less (1 - 0.1 / 0.1327)
    assert dyn["raw_swing_mw"] * 1e6 / EDGE_S == pytest.approx(5_644_800)
    assert dyn["ramp_mw_per_s"] == pytest.approx(GB300_SWING_W ** 2 / (2 * STORAGE_J) / 1e6, rel=1e-5)
    assert 1 - dyn["ramp_mw_per_s"] / 5.6448 == pytest.approx(0.246, abs=1e-3)
    # the swing and the drop stay (65 J is a tenth of a second of a GPU's swing; a phase lasts seconds);
    # the drop takes the same spread edge
    assert dyn["swing_mw"] == pytest.approx(GB300_SWING_W / 1e6)
    assert dyn["interruption_drop_mw"] == pytest.approx(GB300_SWING_W / 1e6)
    assert dyn["interruption_drop_s"] == pytest.approx(t, abs=1e-4)
    # it comes with the system: no capex, no energy
    assert (dyn["smoothing_capex_usd"], dyn["energy_cost_usd_per_year"]) == (0, 0)


def test_fix_takes_the_racks_storage_where_it_meets_the_ramp_limit(gb300):
    _set(gb300, grid_max_ramp_mw_per_s=5.0)  # between 4.255 (with the storage) and 5.645 MW/s (without)
    report = evaluate(gb300.plan, CATALOG)
    (found,) = _grid_findings(report)
    assert found.code == "facility.grid.ramp" and "rack energy storage" in found.message
    # the floor would burn (564,480 - 5 MW/s x 0.1 s = 64,480 W) while the GPUs wait; a battery costs capex:
    # the storage costs nothing, so it is the cheapest
    assert report.sections["power_dynamics"]["cheapest_smoothing"] == "rack_storage"
    result = fix_all(gb300)
    assert [c.label for c in result.applied] == [found.remedy.label]
    dyn = evaluate(gb300.plan, CATALOG).sections["power_dynamics"]
    assert dyn["smoothing"] == "rack_storage" and dyn["ramp_mw_per_s"] < 5.0
    assert not _grid_findings(evaluate(gb300.plan, CATALOG))
    gb300.undo()  # one undo step
    assert gb300.plan.settings.facility.power_smoothing == "none"


def test_the_racks_storage_needs_a_system_that_has_it(medium):
    _set(medium, power_smoothing="rack_storage")
    report = evaluate(medium.plan, CATALOG)
    (found,) = [f for f in report.findings if f.code == "facility.grid.no_rack_storage"]
    assert found.severity == "warning" and "GB300" in found.message
    dyn = report.sections["power_dynamics"]
    assert dyn["ramp_mw_per_s"] == pytest.approx(MEDIUM_SWING_W / EDGE_S / 1e6)  # not smoothed
    # and fix never offers it on a plan without it: HGX H100 has no storage
    _set(medium, power_smoothing="none", grid_max_ramp_mw_per_s=0.1)
    assert evaluate(medium.plan, CATALOG).sections["power_dynamics"]["cheapest_smoothing"] != "rack_storage"


def _battery(report, ramp_limit_w_per_s):
    """The site battery on the medium template under a ramp limit, by hand: a = x l / (c + l),
    b = x - a, the drop the swing less a."""
    work = report.sections["workload"]
    c, wait = work["compute_s"], work["bubble_s"] + work["exposed_comm_s"]
    x = MEDIUM_SWING_W - ramp_limit_w_per_s * EDGE_S  # 0.1 MW/s x 0.1 s = 10 kW allowed: 52,720 W to shave
    a = x * wait / (c + wait)
    return a, x - a, MEDIUM_SWING_W - a, c, wait


def test_a_ramped_stop_and_restart_spares_the_battery_the_drop(medium):
    _set(medium, grid_max_ramp_mw_per_s=0.1, power_smoothing="site_battery", job_ramps=True)
    report = evaluate(medium.plan, CATALOG)
    dyn, good = report.sections["power_dynamics"], report.sections["goodput"]
    a, b, drop, c, wait = _battery(report, 0.1e6)
    # the drop (about 53.8 kW) over the set minute, not at the grid's 0.1 MW/s: 0.9 kW/s; the step's edges
    # keep the 10 kW the limit allows over 0.1 s, so the load ramps at the limit, not over it
    ramp_s = max(60.0, drop / 0.1e6)
    assert ramp_s == 60.0 and dyn["job_ramp_s"] == pytest.approx(60.0)
    assert dyn["interruption_drop_s"] == pytest.approx(60.0)
    assert dyn["ramp_mw_per_s"] == pytest.approx(0.1)
    assert not _grid_findings(report)
    # the battery holds the step only: max(a, b), a quarter hour of it
    assert dyn["bess_mw"] == pytest.approx(max(a, b) / 1e6, abs=1e-6)
    assert dyn["bess_mwh"] == pytest.approx(max(a, b) * 0.25 / 1e6, abs=1e-6)
    # each interruption: the job's 128 GPUs idle half the minute on average while brought back (1.07 GPU-h),
    # and the stop burns drop x 30 s; interruptions a day x 365 (8,760 h a year)
    per_year = good["interruptions_per_day"] * 365
    gpu_hour_usd = report.sections["cost"]["cost_per_gpu_hour"]["build"]
    assert dyn["gpu_time_cost_usd_per_year"] == pytest.approx(128 * 30 / 3600 * per_year * gpu_hour_usd, rel=1e-3)
    burn_usd = drop * 30 / 3.6e6 * per_year * 1.56 * 0.12
    losses_usd = a * c / 3.6e6 * (1 / 0.85 - 1) * 8_760 * 3600 / (c + wait) * 0.12
    assert dyn["energy_cost_usd_per_year"] == pytest.approx(losses_usd + burn_usd, rel=1e-4)


def _costs_36_months(report, ramp_s):
    """Battery alone, and battery with the ramped stop and restart, over 36 months (3 years), by hand."""
    a, b, drop, _, _ = _battery(report, 0.1e6)
    good = report.sections["goodput"]
    per_year = good["interruptions_per_day"] * 365
    # alone: rated for the drop too, and drop^2 / (2 R) of energy or a quarter hour, whichever is more
    alone_w = max(a, b, drop)
    alone_wh = max(drop * drop / (2 * 0.1e6) / 3600, alone_w * 0.25)
    alone = alone_w / 1000 * 300 + alone_wh / 1000 * 300
    # ramped: the step only, plus the GPU time and the burn of each interruption
    ramped_w = max(a, b)
    gpu_time = 128 * ramp_s / 2 / 3600 * per_year * report.sections["cost"]["cost_per_gpu_hour"]["build"]
    burn = drop * ramp_s / 2 / 3.6e6 * per_year * 1.56 * 0.12
    ramped = ramped_w / 1000 * 300 + ramped_w * 0.25 / 1000 * 300 + 3 * (gpu_time + burn)
    return alone, ramped  # the battery's losses are the same in both


def test_fix_ramps_the_stop_where_that_is_cheaper_than_a_bigger_battery(medium):
    _set(medium, grid_max_ramp_mw_per_s=0.1)
    report = evaluate(medium.plan, CATALOG)
    alone, ramped = _costs_36_months(report, 60.0)
    assert ramped < alone  # about $16,700 against $20,200 (the losses, the same in both, left out)
    dyn = report.sections["power_dynamics"]
    assert (dyn["cheapest_smoothing"], dyn["cheapest_job_ramps"]) == ("site_battery", True)
    (found,) = _grid_findings(report)
    assert "ramped over 60 s" in found.message and "a year of GPU time" in found.message
    fix_all(medium)
    f = medium.plan.settings.facility
    assert (f.power_smoothing, f.job_ramps) == ("site_battery", True)
    assert not _grid_findings(evaluate(medium.plan, CATALOG))
    medium.undo()  # both settings in one undo step
    f = medium.plan.settings.facility
    assert (f.power_smoothing, f.job_ramps) == ("none", False)


def test_fix_keeps_the_bigger_battery_where_ramping_costs_more(medium):
    # ramps of a day: 128 GPUs idle 12 h at each of the interruptions a year
    _set(medium, grid_max_ramp_mw_per_s=0.1, job_ramp_s=86_400.0)
    report = evaluate(medium.plan, CATALOG)
    alone, ramped = _costs_36_months(report, 86_400.0)
    assert alone < ramped
    dyn = report.sections["power_dynamics"]
    assert (dyn["cheapest_smoothing"], dyn["cheapest_job_ramps"]) == ("site_battery", False)
    fix_all(medium)
    f = medium.plan.settings.facility
    assert (f.power_smoothing, f.job_ramps) == ("site_battery", False)
    assert not _grid_findings(evaluate(medium.plan, CATALOG))
