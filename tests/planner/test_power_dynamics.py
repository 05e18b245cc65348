"""The training load's swing for the grid, worked by hand on the medium template.

Medium: 16 HGX H100 nodes (128 GPUs, H100 SXM TDP 700 W: NVIDIA H100 datasheet), 10
QM9700, 1 SN5600, 7 storage appliances, 2 in-rack CDUs, 1 management switch, at the
catalog's typical draws. The step's phases (compute, bubble, exposed communication) and
the checkpoint's stall are the workload and goodput sections' own (tested there); the power
arithmetic on them is done here by hand.
"""

from __future__ import annotations

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, SetSetting
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate

CATALOG = default_catalog()

# typical draws, W: 16 x 7,000 (HGX H100 node) + 10 x 1,294 (QM9700) + 2,028 (SN5600)
# + 7 x 1,800 (storage appliance) + 2 x 1,500 (CDU) + 80 (management switch)
PEAK_W = 16 * 7_000 + 10 * 1_294 + 2_028 + 7 * 1_800 + 2 * 1_500 + 80  # 142,648 W
# 128 GPUs from 700 W (TDP, computing) to 0.3 x 700 = 210 W (waiting): 128 x 490 = 62,720 W
SWING_W = 128 * (700 - 0.3 * 700)
EDGE_S = 0.1  # the default time a GPU takes between its two draws


@pytest.fixture
def history():
    return History(build_template("medium"), CATALOG)


def _dyn(plan):
    report = evaluate(plan, CATALOG)
    return report, report.sections["power_dynamics"]


def _set(history, **values):
    for name, value in values.items():
        history.apply(SetSetting("facility", name, value))


def _wait_share(report):
    """Share of the time the GPUs wait: a checkpoint's stall every interval, and in the steps
    between, the bubble and the exposed communication of each step."""
    work, good = report.sections["workload"], report.sections["goodput"]
    stall_s, interval_s = good["checkpoint_block_s"], good["checkpoint_interval_min"] * 60
    k = stall_s / (interval_s + stall_s)
    wait_s = work["bubble_s"] + work["exposed_comm_s"]
    return k + (1 - k) * wait_s / work["step_time_s"]


def test_the_medium_waveform_worked_by_hand(history):
    report, dyn = _dyn(history.plan)
    work = report.sections["workload"]
    assert dyn["peak_mw"] == pytest.approx(PEAK_W / 1e6)  # 0.142648 MW
    assert dyn["floor_mw"] == pytest.approx((PEAK_W - SWING_W) / 1e6)  # 142,648 - 62,720 = 79,928 W
    assert dyn["swing_mw"] == pytest.approx(0.06272)
    # one swing per step: compute + bubble + exposed communication
    assert dyn["period_s"] == pytest.approx(work["compute_s"] + work["bubble_s"] + work["exposed_comm_s"], abs=1e-3)
    assert dyn["ramp_mw_per_s"] == pytest.approx(0.06272 / EDGE_S)  # 0.6272 MW/s
    assert dyn["interruption_drop_mw"] == pytest.approx(0.06272)  # the job's GPUs all stop computing
    # as often as the goodput model interrupts the job
    assert dyn["interruptions_per_day"] == report.sections["goodput"]["interruptions_per_day"]
    # the mean: the trough, plus the swing for the share of the time the GPUs compute
    assert dyn["mean_mw"] == pytest.approx((PEAK_W - SWING_W + SWING_W * (1 - _wait_share(report))) / 1e6, abs=1e-6)
    assert (dyn["smoothing"], dyn["bess_mw"], dyn["bess_mwh"], dyn["energy_cost_usd_per_year"]) == ("none", 0, 0, 0)
    assert [f for f in report.findings if f.code.startswith("facility.grid")] == []  # no limits by default


def test_a_spare_node_waits_throughout(history):
    history.apply(SetSetting("reliability", "spare_nodes", 8))
    history.apply(SetSetting("workload", "dp", 2))  # TP 8 x PP 4 x DP 2 on the 64 GPUs the job keeps
    report, dyn = _dyn(history.plan)
    assert report.sections["workload"]["step_time_s"]
    # 8 spare nodes = 64 GPUs at 210 W all the time: the peak loses 64 x 490 W, the swing is 64 GPUs'
    assert dyn["peak_mw"] == pytest.approx((PEAK_W - 64 * 490) / 1e6)
    assert dyn["swing_mw"] == pytest.approx(64 * 490 / 1e6)


def test_a_swing_limit_below_the_swing_is_a_finding_and_fix_brings_it_under(history):
    _set(history, grid_max_swing_mw=0.03)
    report, dyn = _dyn(history.plan)
    found = [f for f in report.findings if f.code == "facility.grid.swing"]
    assert len(found) == 1 and found[0].severity == "error"
    assert "62.72 kW" in found[0].message and "30 kW" in found[0].message
    # the two remedies over the 36-month horizon, by hand
    work, good = report.sections["workload"], report.sections["goodput"]
    c = work["compute_s"]
    wait = work["bubble_s"] + work["exposed_comm_s"]
    x = SWING_W - 30_000  # 32,720 W to take off the swing
    # floor: the GPUs burn 32.72 kW more while they wait, at PUE 1.56 and $0.12/kWh
    floor_usd_year = x / 1000 * _wait_share(report) * 8_760 * 1.56 * 0.12
    # battery: discharges a = x wait / (c + wait) while computing, charges b = x - a while waiting,
    # holds b over the longest wait (the step's, or the checkpoint's stall): about 42 Wh, but is
    # built with at least a quarter hour at its power: 27.4 kW x 0.25 h = 6.9 kWh
    a = x * wait / (c + wait)
    b = x - a
    kwh = max(b * max(wait, good["checkpoint_block_s"]) / 3600, max(a, b) * 0.25) / 1000
    assert kwh == pytest.approx(max(a, b) * 0.25 / 1000)
    battery_capex = max(a, b) / 1000 * 300 + kwh * 300
    losses_usd_year = a * c / 3.6e6 * (1 / 0.85 - 1) * 8_760 * 3600 / (c + wait) * 0.12
    assert battery_capex + 3 * losses_usd_year < 3 * floor_usd_year  # about $12.8k against $27k
    assert dyn["cheapest_smoothing"] == "site_battery"
    assert f"${battery_capex:,.0f} capex" in found[0].message

    result = fix_all(history)
    assert [c.label for c in result.applied if "battery" in c.label] == [found[0].remedy.label]
    report, dyn = _dyn(history.plan)
    assert dyn["swing_mw"] == pytest.approx(0.03)
    assert dyn["smoothing"] == "site_battery"
    assert dyn["bess_mw"] == pytest.approx(max(a, b) / 1e6, abs=1e-6)
    assert dyn["bess_mwh"] == pytest.approx(kwh / 1000, abs=1e-6)
    assert dyn["smoothing_capex_usd"] == pytest.approx(battery_capex, rel=1e-5)  # the step rounded to 0.1 ms
    assert not [f for f in report.findings if f.code.startswith("facility.grid")]
    history.undo()  # the remedy is one undo step
    assert history.plan.settings.facility.power_smoothing == "none"


def test_the_power_floor_lowers_the_swing_and_costs_its_energy(history):
    _set(history, grid_max_swing_mw=0.03, power_smoothing="gpu_power_floor")
    report, dyn = _dyn(history.plan)
    assert dyn["swing_mw"] == pytest.approx(0.03)
    assert dyn["floor_mw"] == pytest.approx((PEAK_W - 30_000) / 1e6)  # the trough lifted to 30 kW under the peak
    assert dyn["peak_mw"] == pytest.approx(PEAK_W / 1e6)
    # each GPU waits at 210 + 32,720 / 128 = 465.6 W
    assert dyn["gpu_floor_w"] == pytest.approx(210 + 32_720 / 128, abs=1e-3)
    lifted_kwh_year = 32.72 * _wait_share(report) * 8_760  # about 48,600 kWh of IT energy a year
    assert dyn["energy_cost_usd_per_year"] == pytest.approx(lifted_kwh_year * 1.56 * 0.12, rel=1e-5)
    assert dyn["ramp_mw_per_s"] == pytest.approx(0.03 / EDGE_S)
    assert not [f for f in report.findings if f.code.startswith("facility.grid")]
    # the burn in opex: the cost section's opex plus a twelfth of it; over 36 months in the TCO
    cost = report.sections["cost"]
    assert dyn["opex_with_smoothing_usd_per_month"] == pytest.approx(
        cost["opex_usd_per_month"] + lifted_kwh_year * 1.56 * 0.12 / 12, rel=1e-6)
    assert dyn["tco_with_smoothing_usd"] == pytest.approx(cost["tco_usd"] + 3 * lifted_kwh_year * 1.56 * 0.12,
                                                          rel=1e-6)


def test_a_ramp_limit_is_a_swing_limit_over_the_edge_time(history):
    _set(history, grid_max_ramp_mw_per_s=0.1)
    report, _ = _dyn(history.plan)
    found = [f for f in report.findings if f.code == "facility.grid.ramp"]
    assert len(found) == 1 and "627.2 kW/s" in found[0].message and "100 kW/s" in found[0].message
    _set(history, power_smoothing="gpu_power_floor")
    _, dyn = _dyn(history.plan)
    # 0.1 MW/s over a 0.1 s edge: at most 10 kW of swing
    assert dyn["swing_mw"] == pytest.approx(0.01)
    assert dyn["ramp_mw_per_s"] == pytest.approx(0.1)


def test_no_training_step_gives_no_waveform(history):
    history.apply(SetSetting("workload", "enabled", False))
    report, dyn = _dyn(history.plan)
    assert dyn["peak_mw"] is None and dyn["swing_mw"] is None and dyn["smoothing"] == "none"
    assert not [f for f in report.findings if f.code.startswith("facility.grid")]


def test_check_json_has_the_power_dynamics_keys(history):
    from planner.report.compare import report_json

    out = report_json(history.plan, CATALOG)
    for key in ("peak_mw", "floor_mw", "swing_mw", "period_s", "ramp_mw_per_s", "interruption_drop_mw", "smoothing",
                "bess_mw", "bess_mwh", "energy_cost_usd_per_year"):
        assert key in out["power_dynamics"]


def test_a_period_in_the_band_the_grid_avoids_is_a_warning(history):
    report, dyn = _dyn(history.plan)
    period = dyn["period_s"]  # 34.6 s
    _set(history, grid_avoid_period_min_s=30.0, grid_avoid_period_max_s=40.0)
    report, _ = _dyn(history.plan)
    (found,) = [f for f in report.findings if f.code == "facility.grid.period"]
    assert found.severity == "warning" and f"{period:,.2f} s" in found.message and "30-40 s" in found.message
    assert f"{1 / period:,.3f} Hz" in found.message  # 0.030 Hz
    _set(history, grid_avoid_period_min_s=1.0, grid_avoid_period_max_s=10.0)
    report, _ = _dyn(history.plan)
    assert not [f for f in report.findings if f.code == "facility.grid.period"]


def test_a_gpu_types_own_waiting_draw_wins(history):
    import copy

    catalog = copy.copy(CATALOG)
    node = CATALOG["hgx-h100-8"]
    catalog._devices = {**CATALOG._devices,
                        node.id: node.model_copy(update={"gpu": node.gpu.model_copy(update={"comm_power_w": 100.0})})}
    dyn = evaluate(history.plan, catalog).sections["power_dynamics"]
    assert dyn["swing_mw"] == pytest.approx(128 * (700 - 100) / 1e6)  # 76.8 kW
    assert dyn["gpu_wait_w"] == pytest.approx(100.0)


def test_a_battery_under_a_ramp_limit_takes_the_interruption_drop(history):
    _set(history, grid_max_ramp_mw_per_s=0.1, power_smoothing="site_battery")
    report, dyn = _dyn(history.plan)
    work, good = report.sections["workload"], report.sections["goodput"]
    c, wait = work["compute_s"], work["bubble_s"] + work["exposed_comm_s"]
    x = SWING_W - 0.1e6 * EDGE_S  # 0.1 MW/s over a 0.1 s edge allows 10 kW: 52,720 W to shave
    a = x * wait / (c + wait)
    b = x - a
    drop = SWING_W - a  # the load falls from the battery-held peak to the unsmoothed trough
    # the grid ramps down at 0.1 MW/s while the battery takes the rest: drop^2 / (2 x 0.1 MW/s)
    # and at least a quarter hour at its power
    joules = max(b * max(wait, good["checkpoint_block_s"]), drop * drop / (2 * 0.1e6), max(a, b, drop) * 900)
    assert dyn["swing_mw"] == pytest.approx(0.01)
    assert dyn["bess_mw"] == pytest.approx(max(a, b, drop) / 1e6, abs=1e-6)
    assert dyn["bess_mwh"] == pytest.approx(joules / 3.6e9, abs=1e-6)
    assert dyn["ramp_mw_per_s"] == pytest.approx(0.1)
    assert dyn["interruption_drop_mw"] == pytest.approx(drop / 1e6, abs=1e-6)
