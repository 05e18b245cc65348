"""The Charts dock at the window's default size (1440 x 900: the dock is about 860 x 170 px
beside the Checks): every tab shows plots a user can read, with no text over another, cut by
the chart's edge or cut by its plot; a taller dock gets the Charts page's layout back.

Readable height: a plot's view box is at least 60 px tall. At the charts' 9-pt tick font a
tick label is about 14 px tall, and pyqtgraph puts one label per label height and a gap, so
60 px holds three labelled grid lines: the fewest to read a bar or a curve against."""

import pytest
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.chart_text import cut_labels, overlaps, shown_chart, text_rects

DEFAULT = (1440, 900)
READABLE_PX = 60
TABS = ["Rack power", "Build vs rent", "Fabrics", "Scaling", "Facility", "Goodput", "Power dynamics", "Schedule"]


def _docked(window, index, size=DEFAULT):
    window.resize(*size)
    window._default_dock_sizes()
    QApplication.processEvents()
    return shown_chart(window.charts, index)


def _plots(chart):
    return [i for i in chart.ci.items if isinstance(i, pg.PlotItem) and i.isVisible()]


def _box(item):
    return item.vb.sceneBoundingRect() if isinstance(item, pg.PlotItem) else item.sceneBoundingRect()


@pytest.mark.parametrize("index", range(len(TABS)), ids=TABS)
def test_every_docked_chart_has_readable_plots_and_no_text_collides(window, index):
    chart = _docked(window, index)
    assert window.charts.tabText(index) == TABS[index]
    assert chart.height() < 200 and chart.width() > 700  # the short, wide strip this is about
    plots = _plots(chart)
    assert plots
    for plot in plots:
        assert plot.vb.sceneBoundingRect().height() >= READABLE_PX, (TABS[index], plot.vb.sceneBoundingRect())
    assert not overlaps(chart, labels=True), overlaps(chart, labels=True)
    assert not cut_labels(chart), cut_labels(chart)


def test_docked_build_vs_rent_keeps_its_legend_right_of_the_plot(window):
    chart = _docked(window, 1)
    # the five series and the break-even marker in one column beside the plot, all on the chart
    assert _box(chart.legend).left() >= _box(chart.plot).right()
    names = [label.text for _, label in chart.legend.items]
    assert "Build (capex + opex)" in names and len(names) == len(chart.curves) + 1
    assert chart.plot.getAxis("left").labelText == "Cost"  # "Cumulative cost" is taller than the plot


def test_docked_facility_and_goodput_lay_their_plots_side_by_side(window):
    facility = _docked(window, 4)
    power, cooling, racks = (_box(p) for p in (facility.power_plot, facility.cooling_plot, facility.rack_plot))
    assert power.right() < cooling.left() < cooling.right() < racks.left() < _box(facility.legend).left()
    assert power.top() == cooling.top() == racks.top()
    # 142.648 kW IT (typical) x PUE 1.56 = 222.531 kW (tests/ui/test_charts.py works the sum), both labelled
    assert [t.toPlainText() for t in facility.power_labels] == ["142.6 kW", "222.5 kW"]
    goodput = _docked(window, 5)
    ettr, tokens = _box(goodput.plot), _box(goodput.goodput_plot)
    assert ettr.right() < tokens.left() and ettr.top() == tokens.top()


def test_the_plans_figures_move_into_the_legend_of_a_short_chart(window):
    chart = _docked(window, 3)
    work = window.doc.report.workload
    assert not chart.plan_label.isVisible()  # inside a short plot it ran off the bottom
    legend = [label.text for _, label in chart.legend.items]
    assert any("This plan: 128 GPUs" in t and f"MFU {100 * work.mfu:.1f}% end to end" in t for t in legend), legend
    goodput = _docked(window, 5)
    ettr = window.doc.report.sections["goodput"].ettr
    assert any(f"ETTR {100 * ettr:.1f}%" in label.text for _, label in goodput.legend.items)


@pytest.mark.parametrize("index", [1, 3, 4, 5, 6], ids=[TABS[i] for i in (1, 3, 4, 5, 6)])
def test_a_taller_dock_gets_the_stacked_layout_and_a_shorter_one_the_wide_one_again(window, index):
    chart = _docked(window, index)
    assert chart.compact
    window.resizeDocks([window.charts_dock], [560], Qt.Orientation.Vertical)
    QApplication.processEvents()
    chart.grab()
    QApplication.processEvents()
    assert chart.height() >= chart.compact_below and not chart.compact
    plots = _plots(chart)
    legend = _box(chart.legend)
    assert all(legend.top() >= p.vb.sceneBoundingRect().bottom() for p in plots)  # under the plots
    for plot in plots:
        assert plot.vb.sceneBoundingRect().height() >= READABLE_PX
    assert not overlaps(chart, labels=True), overlaps(chart, labels=True)
    window._default_dock_sizes()
    QApplication.processEvents()
    chart.grab()
    QApplication.processEvents()
    assert chart.compact and _box(chart.legend).left() >= max(p.vb.sceneBoundingRect().right() for p in _plots(chart))
    assert not overlaps(chart, labels=True), overlaps(chart, labels=True)


def test_the_charts_page_keeps_its_tall_layout(window):
    window.resize(*DEFAULT)
    window._default_dock_sizes()
    window.show_charts_page()
    for index in range(len(TABS)):
        window.chart_page.setCurrentIndex(index)
        QApplication.processEvents()
        chart = window.chart_page.chart_at(index)
        QApplication.processEvents()
        assert not chart.compact
        texts = [text for text, _ in text_rects(chart)]
        if index == 4:  # the full titles, not the dock's short ones
            assert "By rack: feeds A and B, heat to liquid and to air" in texts


@pytest.mark.parametrize("index", range(len(TABS)), ids=TABS)
def test_the_dock_cannot_shrink_a_chart_below_where_it_reads(window, index):
    chart = _docked(window, index)
    window.resizeDocks([window.charts_dock], [60], Qt.Orientation.Vertical)  # dragged as low as it goes
    QApplication.processEvents()
    chart.grab()
    QApplication.processEvents()
    assert chart.height() < 170  # shorter than at the default size, where the checks above ran
    for plot in _plots(chart):
        assert plot.vb.sceneBoundingRect().height() >= READABLE_PX, (TABS[index], plot.vb.sceneBoundingRect())
    assert not overlaps(chart, labels=True), overlaps(chart, labels=True)
    assert not cut_labels(chart), cut_labels(chart)


@pytest.mark.parametrize("index", range(len(TABS)), ids=TABS)
def test_every_docked_chart_is_readable_at_1280_by_800(window, index):
    """The smallest screen the app supports: the dock about 770 x 160 px. The Schedule's and
    the Fabrics' titles give way to their plots (the tab names the chart), and the Fabrics'
    figures to the plan's own where the eight rows are shorter than a line of text."""
    chart = _docked(window, index, (1280, 800))
    for plot in _plots(chart):
        assert plot.vb.sceneBoundingRect().height() >= READABLE_PX, (TABS[index], plot.vb.sceneBoundingRect())
    assert not overlaps(chart, labels=True), overlaps(chart, labels=True)
    assert not cut_labels(chart), cut_labels(chart)
