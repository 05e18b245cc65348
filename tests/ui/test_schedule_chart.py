"""The schedule chart plots the schedule section: a bar per phase from the order to its ready
week (the wait for its critical part, then install), the critical part named at the bar, and
the GPUs online by month.

The two-building sample (tests/data/plan_v7.json) in colocation: the plant in place (0
weeks), GPU systems 20 weeks, switches 26, storage 30; commissioning 8 weeks; one crew a hall
(3 racks in A1: 0.6 weeks, 2 racks in A2 and B1: 0.4 weeks). A month is 30.4375 days.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import load_plan
from planner.plan.model import Plan
from planner.report.evaluate import evaluate
from ui.charts.panel import ChartsPanel
from ui.charts.schedule import ScheduleChart

DATA = Path(__file__).resolve().parents[1] / "data"
CAT = default_catalog()


def colocation():
    plan = load_plan(DATA / "plan_v7.json")
    s = plan.settings.schedule
    for name in ("transformer_weeks", "switchgear_weeks", "ups_weeks", "generator_weeks", "cooling_weeks"):
        setattr(s, name, 0.0)
    s.gpu_systems_weeks, s.switches_weeks, s.storage_weeks = 20.0, 26.0, 30.0
    return plan


def m(weeks):
    return weeks * 7 / 30.4375


def test_each_phase_is_a_bar_from_the_order_to_its_ready_week_its_gate_named(qtbot):
    chart = ScheduleChart()
    qtbot.addWidget(chart)
    chart.update_report(evaluate(colocation(), CAT))
    assert chart.phase_names == ["Building A / Hall A1", "Building A / Hall A2", "Building B / Hall B1"]
    waiting, install = chart.waiting.opts, chart.install.opts
    # waiting for the critical part: GPU systems 20, switches 26, storage 30 weeks
    assert list(waiting["x1"]) == pytest.approx([m(20), m(26), m(30)])
    assert list(install["x0"]) == pytest.approx([m(20), m(26), m(30)])
    # then commissioning and install: ready 28.6, 34.4, 38.4 weeks = months 6.6, 7.9, 8.8
    assert list(install["x1"]) == pytest.approx([m(28.6), m(34.4), m(38.4)])
    assert [label.toPlainText().strip() for label in chart.part_labels[:3]] == [
        "GPU systems, month 7", "network switches, month 8", "storage, month 9"]
    assert chart.energized.value() == pytest.approx(m(38.4))
    # the GPUs online: none until month 7, hall A1's 64, A2's 32 from month 8, B1's 32 from 9
    assert list(chart.online.yData) == [0] * 7 + [64, 96, 128]
    assert chart.legend.getLabel(chart.energized_sample).text == "Energized month 9 after the order"


def test_a_plan_without_racks_says_so(qtbot):
    chart = ScheduleChart()
    qtbot.addWidget(chart)
    chart.update_report(evaluate(Plan(name="Empty"), CAT))
    assert chart.is_empty and "No schedule" in chart.empty_note.text()


def test_the_panel_has_a_schedule_tab(qtbot):
    panel = ChartsPanel()
    qtbot.addWidget(panel)
    assert panel.tabText(panel.count() - 1) == "Schedule"
    assert isinstance(panel.schedule, ScheduleChart)


def test_the_summary_strip_shows_when_the_plan_is_energized_and_what_gates_it(qtbot):
    from ui.summary_strip import SummaryStrip

    strip = SummaryStrip()
    qtbot.addWidget(strip)
    # the format 9 sample: ordered 2027-01-04, transformers in place, switchgear 52 weeks:
    # hall A1 ready 52 + 8 + 0.6 = 60.6 weeks = 424.2 days after the order, 2028-03-04
    strip.show_report(evaluate(load_plan(DATA / "plan_v9.json"), CAT))
    assert strip.text("energized") == "2028-03"
    tip = strip.figures["energized"].toolTip()
    assert "month 14 after the order (2028-03-04)" in tip and "switchgear (52 weeks) gates it" in tip
    strip.show_report(evaluate(colocation(), CAT))  # no order date: the month after the order
    assert strip.text("energized") == "9 mo"


def test_the_training_run_is_shaded_under_the_gpus_online_from_its_start_to_its_end(qtbot):
    from tests.planner.test_schedule_run_cost import moved, two_halls

    # halls A1 (64 GPUs, month 7) and A2 (64, month 9), trained on from the first: months 7
    # and 8 on hall A1's 64 GPUs, then all 128 until the run's end (worked out in
    # tests/planner/test_schedule_run_cost.py)
    plan = moved(two_halls(), CAT)
    plan.settings.schedule.train_from = "first_phase"
    report = evaluate(plan, CAT)
    s = report.sections["schedule"]
    chart = ScheduleChart()
    qtbot.addWidget(chart)
    chart.update_report(report)
    assert list(chart.training.xData) == pytest.approx([7, 8, 9, s.training_done_month])
    assert list(chart.training.yData) == [64, 64, 128]
    assert 9 < s.training_done_month < 10
    assert chart.online_plot.toolTip() == f"Training, months 7 to {s.training_done_month:,.1f}"
    # a plan with no run to train: nothing shaded
    plan.settings.workload.inference = True
    chart.update_report(evaluate(plan, CAT))
    assert len(chart.training.xData or []) == 0
    assert chart.online_plot.toolTip() == "No training run"


def test_short_and_wide_the_run_is_on_the_month_scale_and_each_legend_row_holds_together(qtbot):
    from PySide6.QtWidgets import QApplication

    chart = ScheduleChart()
    qtbot.addWidget(chart)
    chart.resize(950, 400)  # the dock at the window's default size: the short, wide layout
    chart.show()
    qtbot.waitExposed(chart)
    report = evaluate(load_plan(DATA / "plan_v9.json"), CAT)
    chart.update_report(report)
    QApplication.processEvents()
    assert chart.compact
    # the format 9 sample trains from month 14 to its last month: the whole run on both plots
    done = report.sections["schedule"].training_done_month
    assert done > 50
    for plot in (chart.gantt, chart.online_plot):
        assert plot.viewRange()[0][1] >= done
    # each legend entry's sample beside its text, not a row's height apart
    for sample, label in chart.legend.items:
        a, b = sample.sceneBoundingRect(), label.sceneBoundingRect()
        assert abs(a.center().y() - b.center().y()) < 8, label.text


def test_bars_that_wait_for_one_part_name_only_their_month(qtbot):
    # medium's one phase waits for the power transformer (the legend names it): its bar's end
    # says the month alone, which fits the dock ("power transformer, month 33" ran off it)
    chart = ScheduleChart()
    qtbot.addWidget(chart)
    plan = build_template("medium")
    plan.settings.schedule.plant = "new"  # built with the cluster (in colocation its CDUs gate it)
    report = evaluate(plan, CAT)
    phases = report.sections["schedule"].phases
    assert len({p.critical_part for p in phases}) == 1
    chart.update_report(report)
    assert [label.toPlainText().strip() for label in chart.part_labels[:len(phases)]] == [
        f"month {p.ready_month}" for p in phases]
    assert "Waiting for the power transformer" in chart.legend.getLabel(chart.waiting).text


@pytest.mark.parametrize("width, beside", [(830, False), (1200, True)])
def test_short_and_wide_the_legend_stays_in_view(qtbot, width, beside):
    # At the dock's short height, the legend stands right of the two plots where the width
    # holds its longest entry ("Energized month 14 after the order (2028-03-04)", about 300 px),
    # else in a strip under them: at 830 px it ran past the right edge, cut mid-word.
    from PySide6.QtWidgets import QApplication

    chart = ScheduleChart()
    qtbot.addWidget(chart)
    chart.resize(width, 380)
    chart.show()
    qtbot.waitExposed(chart)
    chart.update_report(evaluate(load_plan(DATA / "plan_v9.json"), CAT))
    QApplication.processEvents()
    assert chart.compact and chart.legend_beside is beside
    for _, label in chart.legend.items:
        assert label.sceneBoundingRect().left() >= 0
        assert label.sceneBoundingRect().left() + label.item.boundingRect().width() <= width, label.text
    assert chart.online_plot.sceneBoundingRect().right() <= width
    legend, online = chart.legend.sceneBoundingRect(), chart.online_plot.sceneBoundingRect()
    assert (legend.left() >= online.right()) is beside
    assert (legend.top() >= online.bottom()) is not beside
