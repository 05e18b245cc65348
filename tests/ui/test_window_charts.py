"""The charts docked in the real main window follow every edit, and a click on a bar selects its rack."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu

from tests.ui.conftest import rack_named, send_drag, slot_pos

# The medium template's STOR-01 holds 7 parallel-filesystem appliances: 7 x 1.8 kW typical
# = 12.6 kW, 7 x 2.4 kW nameplate = 16.8 kW (builtin catalog, pfs-appliance). A "Generic
# 4 x H100 NVLink workstation node" draws 3.6 kW typical and 5.0 kW nameplate, so dropping
# one into STOR-01 makes 16.2 kW typical and 21.8 kW nameplate.


def bars(chart, rack_id):
    i = chart.rack_ids.index(rack_id)
    return float(chart.typical_bars.opts["height"][i]), float(chart.nameplate_bars.opts["height"][i])


def test_charts_are_docked_next_to_the_checks_and_toggled_from_the_view_menu(window):
    assert window.charts_dock.widget() is window.charts
    assert window.dockWidgetArea(window.charts_dock) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert window.charts_dock.isVisible()
    view_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&View")
    assert window.charts_dock.toggleViewAction() in view_menu.actions()
    assert [window.charts.tabText(i) for i in range(window.charts.count())] == [
        "Rack power", "Build vs rent", "Fabrics", "Scaling", "Facility", "Goodput", "Power dynamics", "Schedule"]


def test_the_visible_chart_is_drawn_after_the_window_paints_and_others_on_first_view(window, qtbot):
    panel = window.charts
    qtbot.waitUntil(lambda: "rack_power" in panel._built, timeout=3000)
    assert panel.currentWidget() is panel._built["rack_power"]
    assert "scaling" not in panel._built  # not built until its tab is shown
    panel.setCurrentIndex(3)
    scaling = panel.currentWidget()
    assert panel._built["scaling"] is scaling
    # it caught up with the current report: the plan's own point is plotted
    xs, _ys = scaling.plan_point.getData()
    assert list(xs) == [128]  # 16 nodes x 8 GPUs


def test_dropping_a_node_raises_its_racks_bar_and_undo_lowers_it(window):
    doc, view, chart = window.doc, window.view, window.charts.rack_power
    stor = rack_named(doc.plan, "STOR-01")
    gpu1 = rack_named(doc.plan, "GPU-01")
    assert bars(chart, stor.id) == pytest.approx((12.6, 16.8))
    assert bars(chart, gpu1.id) == pytest.approx((28.0, 40.8))  # 4 x 7 kW, 4 x 10.2 kW

    send_drag(view, window.palette_panel.mime_for("h100x4-workhorse"), slot_pos(view, stor.id, 20))

    assert bars(chart, stor.id) == pytest.approx((16.2, 21.8))  # + 3.6 kW typical, + 5.0 kW nameplate
    assert bars(chart, gpu1.id) == pytest.approx((28.0, 40.8))  # the other racks did not move
    window.undo_action.trigger()
    assert bars(chart, stor.id) == pytest.approx((12.6, 16.8))


def test_hidden_charts_catch_up_when_shown(window):
    doc, view, chart = window.doc, window.view, window.charts.rack_power
    stor = rack_named(doc.plan, "STOR-01")
    window.charts_dock.toggleViewAction().trigger()
    assert not window.charts_dock.isVisible()
    send_drag(view, window.palette_panel.mime_for("h100x4-workhorse"), slot_pos(view, stor.id, 20))
    window.charts_dock.toggleViewAction().trigger()
    assert window.charts_dock.isVisible()
    assert bars(chart, stor.id) == pytest.approx((16.2, 21.8))


def test_clicking_a_bar_selects_that_rack_in_the_view(window, qtbot):
    chart = window.charts.rack_power
    gpu3 = rack_named(window.doc.plan, "GPU-03")
    window.charts.setCurrentWidget(chart)
    assert window.view.selected_rack() != gpu3.id
    qtbot.wait(20)
    pos = chart.mapFromScene(chart.bar_scene_pos(gpu3.id))
    qtbot.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert window.view.selected_rack() == gpu3.id
    assert window.edit_rack_action.isEnabled()  # the window treats it as the selected rack
