"""One set of charts: the Charts dock and the Charts page show the same chart objects, fed once
per edit; while the page shows them the dock is hidden, so a person never sees them twice."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import rack_named, send_drag, slot_pos
from ui.charts.panel import TABS, ChartsPanel
from ui.charts.rack_power import RackPowerChart


def _every_chart(window):
    for index in range(len(TABS)):
        window.charts.chart_at(index)
    QApplication.processEvents()


def test_the_window_builds_each_chart_once(window, qtbot):
    _every_chart(window)
    assert len(window.findChildren(ChartsPanel)) == 1
    assert len(window.findChildren(RackPowerChart)) == 1
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # the Charts page
    _every_chart(window)
    assert len(window.findChildren(ChartsPanel)) == 1  # the page built none of its own
    assert len(window.findChildren(RackPowerChart)) == 1
    assert window.chart_page is window.charts


def test_the_page_takes_the_charts_from_the_dock_and_gives_them_back(window, qtbot):
    assert window.charts_dock.isVisible() and window.charts.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.pages.currentWidget() is window.charts and window.charts.isVisible()
    assert not window.charts_dock.isVisible()  # the charts are shown once, in the middle
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.pages.currentWidget() is window.view
    assert window.charts_dock.isVisible() and window.charts_dock.widget() is window.charts
    assert window.charts.isVisible()


def test_a_dock_closed_before_the_page_stays_closed_after_it(window, qtbot):
    window.charts_dock.toggleViewAction().trigger()
    assert not window.charts_dock.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.charts.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert not window.charts_dock.isVisible()  # as the person left it
    window.charts_dock.toggleViewAction().trigger()
    assert window.charts_dock.isVisible() and window.charts.isVisible()


def test_asking_for_the_dock_on_the_page_brings_the_racks_and_the_docked_charts_back(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    window.charts_dock.toggleViewAction().trigger()  # View > Charts while the page shows them
    assert window.pages.currentWidget() is window.view
    assert window.charts_dock.isVisible() and window.charts_dock.widget() is window.charts
    assert window.racks_page_action.isChecked()


def test_an_edit_on_the_racks_shows_on_the_page_it_was_made_from(window, qtbot):
    # STOR-01: 7 appliances, 12.6 kW typical; a 4 x H100 node adds 3.6 kW (tests/ui/test_window_charts.py)
    chart = window.charts.rack_power
    stor = rack_named(window.doc.plan, "STOR-01")
    send_drag(window.view, window.palette_panel.mime_for("h100x4-workhorse"), slot_pos(window.view, stor.id, 20))
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    i = chart.rack_ids.index(stor.id)
    assert float(chart.typical_bars.opts["height"][i]) == pytest.approx(16.2)


def test_closing_on_the_charts_page_keeps_the_dock_for_the_next_start(window, qtbot, catalog):
    from planner.design.templates import build_template
    from ui.document import Document
    from ui.main_window import MainWindow

    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    window.save_layout()  # as closing does
    assert window.pages.currentWidget() is window.charts and not window.charts_dock.isVisible()
    again = MainWindow(Document(build_template("single-node", catalog=catalog), catalog))
    qtbot.addWidget(again)
    again.show()
    assert again.pages.currentWidget() is again.view and not again.charts_dock.isHidden()
