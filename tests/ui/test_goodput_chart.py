"""The goodput chart plots the goodput section's curve: ETTR and goodput against the job's
size, the plan's point marked, the checkpoint interval on the right axis."""

from __future__ import annotations

import math
import re

import numpy as np

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.model import Plan
from planner.report.evaluate import evaluate
from ui.charts.goodput import GoodputChart
from ui.charts.panel import ChartsPanel


def test_the_chart_plots_the_curve_and_marks_the_plan(qtbot):
    chart = GoodputChart()
    qtbot.addWidget(chart)
    report = evaluate(build_template("medium"), default_catalog())
    chart.update_report(report)
    g = report.sections["goodput"]
    x, y = chart.ettr.xData, chart.ettr.yData  # as given (getData() is in log10 on a log axis)
    # medium: 16 nodes of 8 GPUs; the curve runs over 1, 2, 4, ... 64 nodes = 8 ... 512 GPUs
    assert list(x) == [8, 16, 32, 64, 128, 256, 512]
    assert list(y) == [100 * p.ettr for p in g.curve]
    _, interval = chart.interval.getData()
    assert list(interval) == [p.checkpoint_interval_min for p in g.curve]
    assert list(chart.goodput.yData) == [p.goodput_tokens_per_s for p in g.curve]
    px, py = chart.plan_point.getData()
    assert (px[0], py[0]) == (math.log10(128), 100 * g.ettr)  # the star: log axis positions
    assert f"ETTR {100 * g.ettr:.1f}%" in chart.plan_label.toPlainText()
    assert not chart.message.isVisible()


def test_no_training_no_curve_and_a_note(qtbot):
    chart = GoodputChart()
    qtbot.addWidget(chart)
    chart.show()
    chart.update_report(evaluate(Plan(name="Empty"), default_catalog()))
    assert chart.ettr.xData is None or len(chart.ettr.xData) == 0
    assert "No goodput figures" in chart.message.toPlainText()


def test_the_panel_has_a_goodput_tab(qtbot):
    panel = ChartsPanel()
    qtbot.addWidget(panel)
    assert panel.tabText(5) == "Goodput"
    assert isinstance(panel.goodput, GoodputChart)
    assert np.isfinite(panel.goodput.plot.viewRange()[0]).all()


def test_the_size_axis_names_at_most_six_sizes_so_they_stay_apart(qtbot):
    chart = GoodputChart()
    qtbot.addWidget(chart)
    plan = build_template("medium", nodes=128)  # 1,024 GPUs: the curve runs 8 ... 4,096 GPUs
    chart.update_report(evaluate(plan, default_catalog()))
    ticks = chart.plot.getAxis("bottom")._tickLevels[0]
    # nine doubling sizes beside the plan's 1,024 (its star): every other, counted from the first
    assert [label for _, label in ticks] == ["8", "32", "128", "512", "2,048"]


def test_the_plans_own_size_is_named_in_a_run_of_doublings(qtbot):
    # medium: 128 GPUs on a curve of 8 ... 512 (7 sizes): every other from the first, 128
    # among them (it was left out, the plan's star standing in a gap of the labels)
    chart = GoodputChart()
    qtbot.addWidget(chart)
    chart.update_report(evaluate(build_template("medium"), default_catalog()))
    ticks = chart.plot.getAxis("bottom")._tickLevels[0]
    assert [label for _, label in ticks] == ["8", "32", "128", "512"]


def test_each_restart_path_has_its_line_and_the_plan_follows_its_own(qtbot):
    chart = GoodputChart()
    qtbot.addWidget(chart)
    plan = build_template("medium")
    report = evaluate(plan, default_catalog())
    chart.update_report(report)
    curve = report.sections["goodput"].curve
    for path in ("cold", "warm", "replica"):
        assert list(chart.paths[path].yData) == [100 * p.ettr_by_path[path] for p in curve]
    # the plan recovers cold: its line is the cold one, and a faster path never trains less
    assert list(chart.ettr.yData) == list(chart.paths["cold"].yData)
    assert all(p.ettr_by_path["replica"] >= p.ettr_by_path["warm"] >= p.ettr_by_path["cold"] for p in curve)
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"restart_path": "replica"})
    chart.update_report(evaluate(plan, default_catalog()))
    assert list(chart.ettr.yData) == list(chart.paths["replica"].yData)
    names = [re.sub("<[^>]+>", "", label.text) for _, label in chart.legend.items]
    assert "ETTR if cold / warm / replica (dotted)" in names
    # one swatch cannot show three lines: each path's word is in its line's colour
    entry = next(label.text for _, label in chart.legend.items if "replica" in label.text)
    for path in ("cold", "warm", "replica"):
        colour = chart.paths[path].opts["pen"].color().name().lower()
        assert f'<span style="color: {colour}">{path}</span>' in entry.lower(), path


def test_the_plan_label_stays_inside_the_plot_at_either_end_of_the_sizes(qtbot):
    """The plan's label stands beside its point on the side with room: a one-node plan is the
    curve's smallest size, and its label ran off the plot's left edge."""
    chart = GoodputChart()
    qtbot.addWidget(chart)
    chart.resize(700, 700)  # tall: the label inside the plot, not in the legend
    chart.show()
    for nodes in (1, 16):
        chart.update_report(evaluate(build_template("medium", nodes=nodes), default_catalog()))
        qtbot.wait(50)
        assert chart.plan_label.isVisible()
        box = chart.plot.vb.sceneBoundingRect()
        label = chart.plan_label.sceneBoundingRect()
        assert box.left() <= label.left() and label.right() <= box.right(), (nodes, label, box)
    # one node of medium holds no training layout: the goodput plot's note, wrapped inside it
    chart.update_report(evaluate(build_template("medium", nodes=1), default_catalog()))
    qtbot.wait(50)
    note, box = chart.goodput_message, chart.goodput_plot.vb.sceneBoundingRect()
    assert note.isVisible() and "No goodput in tokens/s" in note.toPlainText()
    assert box.left() <= note.sceneBoundingRect().left() and note.sceneBoundingRect().right() <= box.right()
