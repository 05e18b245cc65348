"""The Charts page: the charts at a reading size in the middle of the window, one key from
the racks; every chart there shows its data with no axis text over another or cut off, at
1440 x 900 and 1920 x 1080; an empty chart is a sentence, not axes."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from planner.plan.commands import AddDevice, SetSetting
from tests.ui.chart_text import cut_labels, overlaps, shown_chart, text_rects
from tests.ui.conftest import rack_named

SIZES = [(1280, 800), (1440, 900), (1920, 1080)]


def _page(window, size, index):
    window.resize(*size)
    window._default_dock_sizes()
    window.show_charts_page()
    return shown_chart(window.chart_page, index)


def test_ctrl_2_shows_the_charts_and_ctrl_1_the_racks(window, qtbot):
    assert window.pages.currentWidget() is window.view
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.pages.currentWidget() is window.chart_page
    assert window.chart_page.width() > 0.5 * window.width()  # a page of its own, not the dock's strip
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.pages.currentWidget() is window.view


@pytest.mark.parametrize("size", SIZES)
def test_rack_power_page_plots_each_racks_pair_and_no_text_collides(window, size):
    chart = _page(window, size, 0)
    # GPU-01: 4 x DGX H100, 7 kW typical and 10.2 kW nameplate each (builtin catalog)
    i = chart.rack_ids.index(rack_named(window.doc.plan, "GPU-01").id)
    assert chart.typical_bars.opts["height"][i] == pytest.approx(28.0)
    assert chart.nameplate_bars.opts["height"][i] == pytest.approx(40.8)
    assert any(text.endswith(" kW") for text, _ in text_rects(chart))  # the unit on the ticks
    assert not overlaps(chart), overlaps(chart)


@pytest.mark.parametrize("size", SIZES)
def test_build_vs_rent_page_starts_the_build_at_its_capex_and_no_text_collides(window, size):
    chart = _page(window, size, 1)
    _months, build = chart.curves["build"].getData()
    assert build[0] == pytest.approx(window.doc.report.cost.capex_usd)
    assert len(chart.curves) >= 2  # the build and at least one rental
    assert any(text.startswith("$") for text, _ in text_rects(chart))
    assert not overlaps(chart), overlaps(chart)


@pytest.mark.parametrize("size", SIZES)
def test_fabrics_page_highlights_the_plans_fabric_and_no_text_collides(window, size):
    chart = _page(window, size, 2)
    assert chart.highlighted == "ib400" and len(chart.fabric_ids) >= 6
    texts = [text for text, _ in text_rects(chart)]
    assert any(t.endswith(" ms") for t in texts) and any(t.endswith(" %") for t in texts)
    assert not overlaps(chart, labels=True), overlaps(chart, labels=True)
    assert not cut_labels(chart), cut_labels(chart)  # "1,167 ms" whole after its bar at 1280 x 800


@pytest.mark.parametrize("size", SIZES)
def test_scaling_page_marks_128_gpus_and_no_text_collides(window, size):
    chart = _page(window, size, 3)
    x, _y = chart.plan_point_xy()
    assert x == 128  # 16 nodes x 8 GPUs
    # the plan's figures beside its point, whole (at 1280 x 800 "... if nothing failed" ran off the plot)
    assert not overlaps(chart, labels=True), overlaps(chart, labels=True)
    assert not cut_labels(chart), cut_labels(chart)


@pytest.mark.parametrize("size", SIZES)
def test_facility_page_plots_it_and_facility_power_and_no_text_collides(window, size):
    chart = _page(window, size, 4)
    # 142.648 kW IT (typical) x PUE 1.56 = 222.531 kW (tests/ui/test_charts.py works the sum)
    assert list(chart.power_bars.opts["height"]) == pytest.approx([142.648, 222.531], abs=0.01)
    assert chart.legend.isVisible() and chart.legend.sceneBoundingRect().top() > \
        chart.rack_plot.vb.sceneBoundingRect().bottom()  # under the bars, not over them
    assert not overlaps(chart), overlaps(chart)


@pytest.mark.parametrize("size", SIZES)
def test_goodput_page_marks_the_plans_128_gpus_and_no_text_collides(window, size):
    chart = _page(window, size, 5)
    assert window.chart_page.tabText(5) == "Goodput"
    # the star at 16 nodes x 8 GPUs (x is log10 on the log axis), on the ETTR curve
    (x,), (y,) = chart.plan_point.getData()
    assert 10 ** x == pytest.approx(128) and y == pytest.approx(100 * window.doc.report.sections["goodput"].ettr)
    assert not overlaps(chart), overlaps(chart)


def test_an_empty_chart_is_one_centred_sentence_without_axes(window):
    doc = window.doc
    stor = rack_named(doc.plan, "STOR-01")
    assert doc.apply(AddDevice("dgx-h100", stor.id, 20))  # 136 GPUs: TP x PP x DP no longer matches
    chart = _page(window, SIZES[0], 3)
    assert chart.is_empty and chart.empty_note.isVisible()
    assert chart.empty_note.text().startswith("No training figures")
    assert not chart.ci.isVisible()  # no axes ticking 0.2 to 1.0 over nothing
    note = chart.empty_note.geometry()
    assert abs(note.center().x() - chart.width() / 2) <= 2 and abs(note.center().y() - chart.height() / 2) <= 2
    window.undo_action.trigger()
    QApplication.processEvents()
    assert not chart.is_empty and chart.ci.isVisible()


def test_the_sweeps_pareto_chart_before_a_run_says_so_and_after_plots_the_points(qtbot):
    from ui.sweep_dialog import NO_POINTS, ParetoChart

    chart = ParetoChart()
    qtbot.addWidget(chart)
    chart.resize(900, 560)
    chart.show()
    qtbot.waitExposed(chart)
    assert chart.is_empty and chart.empty_note.text() == NO_POINTS  # not "$1 $1 $0 $0"
    rows = [{"capex_usd": 7.0e6 + 1.0e6 * i, "it_power_kw": 140.0 + 30 * i} for i in range(4)]
    chart.show_rows(rows, [0], "capex_usd", "it_power_kw")
    chart.grab()
    QApplication.processEvents()
    assert not chart.is_empty
    assert list(chart.front.getData()[0]) == [7.0e6] and len(chart.others.getData()[0]) == 3
    texts = [text for text, _ in text_rects(chart)]
    assert any(t.startswith("$") and t.endswith("M") for t in texts) and any(t.endswith(" kW") for t in texts)
    assert not overlaps(chart), overlaps(chart)


def test_the_theme_is_one_for_the_dock_the_page_and_the_sweep(window):
    from ui.charts import theme
    from ui.sweep_dialog import ParetoChart

    charts = [window.charts.rack_power, window.chart_page.rack_power, ParetoChart()]
    for chart in charts:
        plot = next(iter(i for i in chart.ci.items if hasattr(i, "getAxis")))
        axis = plot.getAxis("left")
        assert axis.style["tickFont"].pointSize() == theme.FONT_PT
        assert axis.textPen().color().name() == theme.FOREGROUND.lower()
    charts[-1].deleteLater()
