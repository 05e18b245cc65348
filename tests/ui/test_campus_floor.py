"""The floor view of a campus: halls and buildings outlined with their names and figures, the
zoom from the whole campus to a building, a hall and a rack (keys, double-click, menus), racks
moved to another hall, devices dragged across halls; a plan of one hall looks as it did.

The campus is ``tests/ui/campus_plan.py``'s: building North (halls N1: GPU-01..06 and N2:
GPU-07..12, N2 40 m behind N1) and building South 300 m east (hall S1: the network, storage
and CDU racks). Each GPU rack holds four 7 kW (typical) HGX H100 nodes of 8 GPUs: 28 kW and
32 GPUs a rack.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QMenu

from planner.design.templates import build_template
from planner.plan.hall_commands import MoveRacksToHall
from tests.ui.campus_plan import two_building_plan
from tests.ui.conftest import rack_named, send_drag, slot_pos
from ui import theme
from ui.mime import DragPayload, to_mime
from ui.rack_navigation import READABLE_ZOOM


def _window(qtbot, plan, catalog):
    from ui.app import ensure_application
    from ui.document import Document
    from ui.main_window import MainWindow

    ensure_application()
    w = MainWindow(Document(plan, catalog))
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    w.resize(1440, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def campus(qtbot, catalog):
    return _window(qtbot, two_building_plan(catalog), catalog)


def _visible(view) -> QRectF:
    return view.mapToScene(view.viewport().rect()).boundingRect()


def _fills_view(view, rect: QRectF) -> bool:
    """``rect`` is all on screen and spans most of the view's width or height."""
    visible = _visible(view)
    return visible.contains(rect) and (rect.width() > 0.85 * visible.width() or rect.height() > 0.85 * visible.height())


def _racks(plan, *names):
    return [rack_named(plan, n).id for n in names]


def _key(view, key):
    view.setFocus()
    from PySide6.QtTest import QTest
    QTest.keyClick(view.viewport(), key)


def test_a_plan_of_one_hall_has_no_outlines_and_its_racks_stand_where_they_always_did(qtbot, catalog):
    w = _window(qtbot, build_template("medium", catalog=catalog), catalog)
    view = w.view
    assert not view.campus.outlined and not view.outlines.isVisible() and not view.outlines.labels.isVisible()
    # row A: GPU-01..04 side by side, one rack pitch apart: a rack 26 + 210 + 6 px wide and a 46 px gap
    xs = [view.racks[rid].pos().x() for rid in _racks(w.doc.plan, "GPU-01", "GPU-02", "GPU-03", "GPU-04")]
    assert xs == [0.0, 288.0, 576.0, 864.0]
    assert view.racks[rack_named(w.doc.plan, "GPU-01").id].pos().y() == 0.0
    # the scene is the racks and a margin, no band for a name above them
    assert view.scene().sceneRect().top() == -30.0
    zoom = view.zoom_level()
    _key(view, Qt.Key.Key_PageDown)  # no levels to zoom through: the key is the scroll area's
    assert view.zoom_level() == zoom
    w.go_to_menu.parent().aboutToShow.emit()  # the View menu opens: nothing to go to
    assert not w.go_to_menu.isEnabled()


def test_halls_stand_in_their_buildings_as_the_campus_places_them_each_around_its_racks(campus):
    view, plan = campus.view, campus.doc.plan
    north, south = view.campus.building("N"), view.campus.building("S")
    n1, n2, s1 = (view.campus.hall(h) for h in ("N1", "N2", "S1"))
    for hall, names in ((n1, [f"GPU-{i:02d}" for i in range(1, 7)]), (n2, [f"GPU-{i:02d}" for i in range(7, 13)]),
                        (s1, ["NET-01", "NET-02", "STOR-01", "STOR-02", "CDU-01"])):
        assert all(hall.rect.contains(view.floor.rack_rect(rid)) for rid in _racks(plan, *names)), hall.id
    assert north.rect.contains(n1.rect) and north.rect.contains(n2.rect) and south.rect.contains(s1.rect)
    assert not north.rect.intersects(south.rect) and not n1.rect.intersects(n2.rect)
    assert n2.rect.top() > n1.rect.bottom() and n2.rect.left() == n1.rect.left()  # N2 is 40 m behind N1
    assert south.rect.left() > north.rect.right() and south.rect.top() == north.rect.top()  # 300 m east


def test_each_building_and_hall_is_labelled_with_its_name_and_figures_inside_its_outline(campus, qtbot):
    view = campus.view
    _key(view, Qt.Key.Key_Home)
    figures = view.outlines.labels.figures
    # North: GPU-01..12, 12 x 32 = 384 GPUs, 12 x 28 kW = 336 kW; hall N1 half of it
    assert figures("building", "N") == "2 halls · 12 racks · 384 GPUs · 336.0 kW IT"
    assert figures("hall", "N1") == "6 racks · 192 GPUs · 168.0 kW IT"
    # row B: NET-01 and NET-02 (the storage leaf-spine beside the fabric's switches), STOR-01 and -02, CDU-01
    assert figures("hall", "S1").startswith("5 racks · 0 GPUs · ")
    labels = {key: (name, shown, rect) for key, name, shown, rect in
              view.outlines.labels.label_rects(view.viewportTransform())}
    assert set(labels) == {("building", "N"), ("building", "S"), ("hall", "N1"), ("hall", "N2"), ("hall", "S1")}
    assert [labels[k][0] for k in sorted(labels)] == ["North", "South", "Hall N1", "Hall N2", "Hall S1"]
    for (kind, box_id), (_name, shown, _rect) in labels.items():  # whole figures from the first, as many as fit
        assert shown and figures(kind, box_id).startswith(shown) and not shown.endswith("·")
    image = view.viewport().grab().toImage()
    for key, (name, _figures, rect) in labels.items():
        box = view.campus.building(key[1]) if key[0] == "building" else view.campus.hall(key[1])
        assert view.mapFromScene(box.rect).boundingRect().contains(rect.toRect()), key
        # the name is drawn there: light text on the label's dark plate
        light = sum(1 for x in range(int(rect.left()), int(rect.right()))
                    for y in range(int(rect.top()), int(rect.top()) + 24)
                    if image.pixelColor(x, y).lightness() > 150)
        assert light > 30, key
    # the hall labels sit below their building's, not over it
    assert labels["hall", "N1"][2].top() >= labels["building", "N"][2].bottom()


def test_page_down_zooms_from_the_campus_to_a_building_a_hall_and_a_rack_and_page_up_back(campus):
    view, plan = campus.view, campus.doc.plan
    _key(view, Qt.Key.Key_Home)
    assert _visible(view).contains(view.campus.bounds())
    view._select_rack_keeping_zoom(rack_named(plan, "GPU-10").id)  # in hall N2 of North
    _key(view, Qt.Key.Key_PageDown)
    assert _fills_view(view, view.campus.building("N").rect)
    _key(view, Qt.Key.Key_PageDown)
    assert _fills_view(view, view.campus.hall("N2").rect)
    _key(view, Qt.Key.Key_PageDown)
    gpu10 = rack_named(plan, "GPU-10").id
    assert view.zoom_level() >= READABLE_ZOOM and not view.floor_mode
    assert _visible(view).contains(view.floor.rack_rect(gpu10).center())
    _key(view, Qt.Key.Key_PageUp)
    assert _fills_view(view, view.campus.hall("N2").rect)
    _key(view, Qt.Key.Key_PageUp)
    assert _fills_view(view, view.campus.building("N").rect)
    _key(view, Qt.Key.Key_PageUp)
    assert _visible(view).contains(view.campus.bounds())


def _double_click(view, scene_point: QPointF) -> None:
    pos = QPointF(view.mapFromScene(scene_point))
    event = QMouseEvent(QEvent.Type.MouseButtonDblClick, pos, view.viewport().mapToGlobal(pos),
                        Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


def test_a_double_click_in_an_outline_zooms_to_its_building_then_to_the_hall(campus):
    view = campus.view
    _key(view, Qt.Key.Key_Home)
    s1 = view.campus.hall("S1").rect
    beside = QPointF(s1.right() - 20, s1.bottom() - 20)  # in hall S1, below and right of its racks
    _double_click(view, beside)
    assert _fills_view(view, view.campus.building("S").rect)
    _double_click(view, beside)
    assert _fills_view(view, s1)


def test_the_view_menu_and_the_context_menu_go_to_a_hall_or_building(campus):
    view = campus.view
    _key(view, Qt.Key.Key_Home)
    campus.go_to_menu.aboutToShow.emit()
    actions = {a.text().strip(): a for a in campus.go_to_menu.actions()}
    assert list(actions) == ["North", "Hall N1", "Hall N2", "South", "Hall S1"]
    actions["Hall N2"].trigger()
    assert _fills_view(view, view.campus.hall("N2").rect)
    actions["South"].trigger()
    assert _fills_view(view, view.campus.building("S").rect)
    menu = QMenu()
    view._add_zoom_to(menu, QPointF(view.campus.hall("S1").rect.bottomRight() - QPointF(10, 10)))
    assert [a.text() for a in menu.actions()] == ["Zoom to Hall S1", "Zoom to South", "Show the whole campus"]


def test_a_rack_moved_to_another_hall_stands_inside_that_halls_outline(campus):
    view, plan, doc = campus.view, campus.doc.plan, campus.doc
    gpu1 = rack_named(plan, "GPU-01").id
    menu = QMenu()
    move = {a.text(): a for a in view._add_hall_menu(menu, gpu1).actions()}
    assert list(move) == ["Hall N2 (North)", "Hall S1 (South)"]  # not its own hall N1
    move["Hall S1 (South)"].trigger()
    assert plan.rack(gpu1).hall == "S1"
    assert view.campus.hall("S1").rect.contains(view.floor.rack_rect(gpu1))
    assert not view.campus.hall("N1").rect.intersects(view.floor.rack_rect(gpu1))
    figures = view.outlines.labels
    assert figures.figures("hall", "N1") == "5 racks · 160 GPUs · 140.0 kW IT"  # 5 x 32 GPUs, 5 x 28 kW
    assert figures.figures("hall", "S1").startswith("6 racks · 32 GPUs · ")
    doc.undo_stack.undo()
    assert view.campus.hall("N1").rect.contains(view.floor.rack_rect(gpu1))
    assert doc.apply(MoveRacksToHall([gpu1], "N2"))
    assert view.campus.hall("N2").rect.contains(view.floor.rack_rect(gpu1))


def test_a_device_dragged_to_a_rack_of_another_building_moves_and_both_halls_figures_follow(campus):
    view, plan, doc = campus.view, campus.doc.plan, campus.doc
    gpu1, cdu = rack_named(plan, "GPU-01"), rack_named(plan, "CDU-01")  # hall N1 of North, hall S1 of South
    node = next(p for p in plan.rack_members(gpu1.id).values() if p.u == 13)
    s1_before = view.outlines.labels.figures("hall", "S1")
    send_drag(view, to_mime(DragPayload(node.device, node.id, grab_u=0)), slot_pos(view, cdu.id, 20))
    assert (plan.placement(node.id).rack, plan.placement(node.id).u) == (cdu.id, 20)
    # a 7 kW node and its 8 GPUs leave N1: 168 -> 161 kW, 192 -> 184 GPUs
    assert view.outlines.labels.figures("hall", "N1") == "6 racks · 184 GPUs · 161.0 kW IT"
    assert view.outlines.labels.figures("hall", "S1") != s1_before


def test_on_the_zoomed_out_campus_a_drop_on_a_block_of_another_hall_moves_the_device(campus):
    view, plan = campus.view, campus.doc.plan
    view.resetTransform()
    view.scale(0.05, 0.05)  # the floor of blocks (further out than this small campus lets a user zoom)
    view.update_detail()
    assert view.floor_mode
    gpu7, cdu = rack_named(plan, "GPU-07"), rack_named(plan, "CDU-01")  # hall N2, hall S1
    node = next(p for p in plan.rack_members(gpu7.id).values() if p.u == 13)
    block = view.floor.rack_rect(cdu.id)
    view.centerOn(block.center())
    QApplication.processEvents()
    send_drag(view, to_mime(DragPayload(node.device, node.id, grab_u=0)), view.mapFromScene(block.center()))
    assert plan.placement(node.id).rack == cdu.id


def test_the_overview_outlines_the_buildings_and_a_click_on_a_rack_of_any_hall_goes_to_it(campus):
    overview = campus.overview
    overview.resize(400, 300)
    image = overview._render()
    north = overview.to_widget(campus.view.campus.building("N").rect)
    # the building's outline line, in the middle of its top edge
    assert image.pixelColor(QPoint(int(north.center().x()), int(north.top()))) == theme.BUILDING_LINE
    for name in ("GPU-03", "GPU-09", "STOR-02"):  # one in each hall, side by side and one behind the other
        rid = rack_named(campus.doc.plan, name).id
        assert overview.go_to(overview.to_widget(campus.view.floor.rack_rect(rid)).center()) == rid


def test_the_labels_give_it_power_on_the_plans_basis_as_the_summary_does(campus):
    from planner.plan.commands import SetSetting

    assert campus.doc.apply(SetSetting("facility", "power_basis", "nameplate"))
    # a GPU rack's four nodes: 40.8 kW nameplate (10.2 kW each); hall N1's six: 244.8 kW
    assert campus.view.outlines.labels.figures("hall", "N1") == "6 racks · 192 GPUs · 244.8 kW IT"
    assert campus.view.outlines.labels.figures("building", "N") == "2 halls · 12 racks · 384 GPUs · 489.6 kW IT"


def test_close_up_the_corner_says_which_building_and_hall_the_view_is_in(campus, qtbot):
    view, plan = campus.view, campus.doc.plan
    label = view.place_label
    north = next(b for b in plan.buildings if b.id == "N")
    n2 = next(h for h in north.halls if h.id == "N2")
    _key(view, Qt.Key.Key_Home)
    assert not label.isVisible()  # the whole campus: every outline's name is on screen
    view.zoom_to_hall("N2")
    assert not label.isVisible()  # the hall's own name shows
    assert view.zoom_to_rack(rack_named(plan, "GPU-10").id)
    assert label.isVisible() and label.text() == f"{north.name} › {n2.name}"
    assert view.viewport().geometry().contains(label.geometry())  # in the view's corner, whole
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert view.zoom_to_rack(rack_named(plan, "NET-01").id)  # building South, hall S1
    south = next(b for b in plan.buildings if b.id == "S")
    assert label.text() == f"{south.name} › {south.halls[0].name}"


def test_a_plan_of_one_hall_never_shows_the_corner_label(qtbot, catalog):
    w = _window(qtbot, build_template("medium", catalog=catalog), catalog)
    w.view.zoom_to_rack(rack_named(w.doc.plan, "GPU-01").id)
    assert not w.view.place_label.isVisible()


def test_page_down_goes_back_in_where_page_up_went_out_from(campus):
    """From a rack of South's hall S1 out to the campus, then back in: the same hall and rack,
    not the middle of the campus; once the view is panned, in goes to the middle again."""
    view, plan = campus.view, campus.doc.plan
    start = rack_named(plan, "STOR-01").id  # in hall S1 of South, away from the campus's middle
    view.zoom_to_rack(start)
    view.scene().clearSelection()  # nothing selected: the levels go by the view's middle
    for _ in range(3):
        _key(view, Qt.Key.Key_PageUp)
    assert _visible(view).contains(view.campus.bounds())
    _key(view, Qt.Key.Key_PageDown)
    assert _fills_view(view, view.campus.building("S").rect)
    _key(view, Qt.Key.Key_PageDown)
    assert _fills_view(view, view.campus.hall("S1").rect)
    _key(view, Qt.Key.Key_PageDown)
    assert view.zoom_level() >= READABLE_ZOOM
    assert _visible(view).contains(view.floor.rack_rect(start).center())
    # out again, then to North by View > Go to building: the way back is forgotten, and in
    # goes to a hall of North, the building the view is on
    _key(view, Qt.Key.Key_PageUp)
    _key(view, Qt.Key.Key_PageUp)
    _key(view, Qt.Key.Key_PageUp)
    view.zoom_to_building("N")
    _key(view, Qt.Key.Key_PageDown)
    assert any(_fills_view(view, view.campus.hall(h).rect) for h in ("N1", "N2"))
