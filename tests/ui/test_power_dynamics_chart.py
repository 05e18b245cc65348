"""The Power dynamics chart plots the section's trace: the medium template's load between its
peak and trough once per step (worked by hand in tests/planner/test_power_dynamics.py), the
smoothed load beside it and the swing limit drawn."""

from __future__ import annotations

import numpy as np
import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.model import Plan
from planner.report.evaluate import evaluate
from ui.charts.panel import ChartsPanel
from ui.charts.power_dynamics import PowerDynamicsChart

CATALOG = default_catalog()
# kW, as the chart plots a plan under a megawatt: 142,648 W typical; 128 GPUs x 490 W less while waiting
PEAK_KW, FLOOR_KW = 142.648, 79.928


def _chart(qtbot, plan):
    chart = PowerDynamicsChart()
    qtbot.addWidget(chart)
    report = evaluate(plan, CATALOG)
    chart.update_report(report)
    return chart, report.sections["power_dynamics"]


def test_the_chart_plots_the_swing_once_per_step(qtbot):
    chart, d = _chart(qtbot, build_template("medium"))
    t, raw = chart.raw.getData()
    assert max(raw) == pytest.approx(PEAK_KW) and min(raw) == pytest.approx(FLOOR_KW)
    # the load falls at the end of each step's compute: one fall per period, three steps shown
    falls = [t[i] for i in range(1, len(raw)) if raw[i] < raw[i - 1]]
    assert falls[1] - falls[0] == pytest.approx(d["period_s"], abs=1e-3)
    assert falls[2] - falls[1] == pytest.approx(d["period_s"], abs=1e-3)
    # no smoothing: the smoothed curve is the raw one; no limit drawn
    assert list(chart.smoothed.getData()[1]) == pytest.approx(list(raw))
    assert chart.swing_limit.getData()[0] is None or len(chart.swing_limit.getData()[0]) == 0
    assert not chart.is_empty and chart.load_axis.unit == "kW"
    # and the legend names only the line drawn
    assert [label.text for _, label in chart.legend.items] == ["IT load, not smoothed"]


def test_a_smoothed_plan_shows_both_curves_and_the_limit(qtbot):
    plan = build_template("medium")
    plan.settings.facility = plan.settings.facility.model_copy(
        update={"grid_max_swing_mw": 0.03, "power_smoothing": "gpu_power_floor"})
    chart, d = _chart(qtbot, plan)
    _, smoothed = chart.smoothed.getData()
    # the floor lifts the trough to 30 kW under the peak
    assert max(smoothed) == pytest.approx(PEAK_KW) and min(smoothed) == pytest.approx(PEAK_KW - 30)
    assert min(chart.raw.getData()[1]) == pytest.approx(FLOOR_KW)
    _, limit = chart.swing_limit.getData()
    assert list(limit) == pytest.approx([PEAK_KW - 30 + 30] * 2)  # trough + the allowed swing
    assert "GPU power floor" in chart.legend.getLabel(chart.smoothed).text
    assert len(chart.legend.items) == 3  # the unsmoothed line and the limit are drawn and listed
    # the limit set aside again: its line and its legend entry go
    plan.settings.facility = plan.settings.facility.model_copy(update={"grid_max_swing_mw": None})
    chart.update_report(evaluate(plan, CATALOG))
    assert sorted(label.text for _, label in chart.legend.items) == ["Smoothed: GPU power floor", "Unsmoothed"]


def test_no_training_step_is_one_sentence(qtbot):
    chart, _ = _chart(qtbot, Plan(name="Empty"))
    assert chart.is_empty and "No power dynamics" in chart.empty_note.text()


def test_the_panel_has_a_power_dynamics_tab(qtbot):
    panel = ChartsPanel()
    qtbot.addWidget(panel)
    assert "Power dynamics" in [panel.tabText(i) for i in range(panel.count())]
    assert isinstance(panel.power_dynamics, PowerDynamicsChart)


def test_a_ramp_limit_is_drawn_as_the_swing_it_allows(qtbot):
    plan = build_template("medium")
    plan.settings.facility = plan.settings.facility.model_copy(update={"grid_max_ramp_mw_per_s": 0.1})
    chart, _ = _chart(qtbot, plan)
    # 0.1 MW/s over the 0.1 s a GPU takes between its draws: 10 kW over the unsmoothed trough
    assert list(chart.swing_limit.getData()[1]) == pytest.approx([FLOOR_KW + 10] * 2)
    assert "ramps at most 100" in chart.legend.getLabel(chart.swing_limit).text


def test_a_ramped_stop_is_drawn_falling_over_its_minute(qtbot):
    plan = build_template("medium")
    plan.settings.facility = plan.settings.facility.model_copy(
        update={"grid_max_swing_mw": 0.03, "power_smoothing": "site_battery", "job_ramps": True})
    chart, d = _chart(qtbot, plan)
    t, smoothed = chart.smoothed.getData()
    # after three steps the interruption: the smoothed load falls from its peak by its drop over the set
    # 60 s (the raw one within the GPUs' 0.1 s), and the curve runs to the end of that minute
    drop_kw = d["interruption_drop_mw"] * 1e3
    start = 3 * d["period_s"] + d["compute_s"] / 2
    assert t[-1] == pytest.approx(start + 60, abs=1e-3)
    assert smoothed[-1] == pytest.approx(d["peak_mw"] * 1e3 - drop_kw)
    # a straight ramp: half the drop after half the minute
    assert np.interp(start + 30, t, smoothed) == pytest.approx(d["peak_mw"] * 1e3 - drop_kw / 2, rel=1e-4)
    assert "stop ramped over 60" in chart.legend.getLabel(chart.smoothed).text


def test_the_racks_storage_is_drawn_with_slower_edges(qtbot):
    from planner.design.build import design
    from planner.design.intent import Intent

    plan = design(Intent(system="gb300-nvl72", gpus=576), CATALOG).plan
    plan.settings.facility = plan.settings.facility.model_copy(update={"power_smoothing": "rack_storage"})
    chart, _ = _chart(qtbot, plan)
    t, raw = chart.raw.getData()
    _, smoothed = chart.smoothed.getData()
    # the first rise: the raw load is at its peak after the GPUs' 0.1 s, the smoothed one only after
    # 2 x 65 J / 980 W = 0.1327 s (576 GPUs of GB300 NVL72); at 0.1 s it has risen 0.1 / 0.1327 of the way
    i = list(t).index(pytest.approx(0.1))
    assert raw[i] == pytest.approx(max(raw))
    assert (smoothed[i] - min(raw)) / (max(raw) - min(raw)) == pytest.approx(0.1 / (130 / 980), rel=1e-3)
    assert "rack energy storage" in chart.legend.getLabel(chart.smoothed).text
