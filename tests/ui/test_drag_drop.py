"""Acceptance 1, 2 and 4 of the desktop app: dropping from the palette, refused drops, moves between racks."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import rack_named, send_drag, slot_pos
from ui import theme
from ui.mime import DEVICE_MIME, DragPayload, from_mime, to_mime

# The medium template (16 x 4U HGX H100 nodes at 7 kW typical) lays out:
#   GPU-01..04: 4 nodes each at U1, U5, U9, U13 -> 4 x 7.0 = 28.0 kW of a 30 kW cap
#   STOR-01: 7 parallel-filesystem appliances at U1-U14, 7 x 1.8 kW = 12.6 kW of a 25 kW cap
#   CDU-01: 2 CDUs at U1-U8, 2 x 1.5 = 3.0 kW of a 30 kW cap
#   IT power 112 (nodes) + 12.94 (10 x QM9700 at 1.294 with optics) + 2.028 (SN5600 with optics)
#            + 3.0 (CDUs) + 0.08 (mgmt switch) + 12.6 (storage) = 142.648 kW


def test_drop_from_palette_places_device_at_that_u_and_undo_removes_it(window):
    doc, view = window.doc, window.view
    stor = rack_named(doc.plan, "STOR-01")
    mime = window.palette_panel.mime_for("h100x4-workhorse")  # the palette's own drag data
    assert mime.hasFormat(DEVICE_MIME)
    pos = slot_pos(view, stor.id, 20)

    send_drag(view, mime, pos, drop=False)
    assert view.ghost.isVisible() and view.ghost_ok
    assert view.ghost.brush().color() == theme.GHOST_OK  # green where it fits
    send_drag(view, mime, pos)

    placed = [p for p in doc.plan.rack_members(stor.id).values() if p.device == "h100x4-workhorse"]
    assert [p.u for p in placed] == [20]
    # 4 x H100 workhorse: 3.6 kW typical -> STOR-01 rises from 12.6 to 16.2 kW
    assert view.racks[stor.id].power_text() == "16.2 / 25 kW"
    # IT power 142.648 + 3.6 = 146.248 kW; facility x PUE 1.56 = 228.15 kW; GPUs 128 + 4
    assert window.summary.text("it_kw") == "146.2 kW"
    assert window.summary.text("facility_kw") == "228.1 kW"
    assert window.summary.text("gpus") == "132"
    assert window.undo_action.text() == "&Undo Add Generic 4 x H100 NVLink workstation node"

    window.undo_action.trigger()
    assert not [p for p in doc.plan.rack_members(stor.id).values() if p.device == "h100x4-workhorse"]
    assert view.racks[stor.id].power_text() == "12.6 / 25 kW"
    assert window.summary.text("it_kw") == "142.6 kW"
    assert window.summary.text("gpus") == "128"


def test_overlapping_drop_is_refused_and_the_ghost_was_red(window):
    doc, view = window.doc, window.view
    gpu1 = rack_named(doc.plan, "GPU-01")
    before = doc.plan.model_dump()
    steps = doc.undo_stack.count()
    mime = window.palette_panel.mime_for("hgx-h100-8")
    # a 4U node at U10 would cover U10-U13, over node-3 at U9-U12
    pos = slot_pos(view, gpu1.id, 10)
    send_drag(view, mime, pos, drop=False)
    assert view.ghost.isVisible() and not view.ghost_ok
    assert view.ghost.brush().color() == theme.GHOST_BLOCKED
    assert "overlaps" in view.ghost_problem
    event = send_drag(view, mime, pos)
    assert not event.isAccepted()
    assert doc.plan.model_dump() == before
    assert doc.undo_stack.count() == steps


def test_drop_sticking_out_of_the_rack_is_refused(window):
    doc, view = window.doc, window.view
    gpu1 = rack_named(doc.plan, "GPU-01")
    before = doc.plan.model_dump()
    mime = window.palette_panel.mime_for("hgx-h100-8")
    # U40 + 4U -> U40-U43, above the top of a 42U rack
    pos = slot_pos(view, gpu1.id, 40)
    send_drag(view, mime, pos, drop=False)
    assert view.ghost.brush().color() == theme.GHOST_BLOCKED
    assert "stick out" in view.ghost_problem
    send_drag(view, mime, pos)
    assert doc.plan.model_dump() == before


def test_moving_a_device_to_another_rack_updates_both_racks_in_one_undo_step(window):
    doc, view = window.doc, window.view
    # the liquid-cooled node moves to the other liquid-cooled rack (the air-cooled STOR-01 refuses it)
    gpu1, cdu = rack_named(doc.plan, "GPU-01"), rack_named(doc.plan, "CDU-01")
    node = next(p for p in doc.plan.rack_members(gpu1.id).values() if p.u == 13)
    steps = doc.undo_stack.count()
    mime = to_mime(DragPayload(node.device, node.id, grab_u=0))  # what dragging a placed device carries
    send_drag(view, mime, slot_pos(view, cdu.id, 20))

    assert (doc.plan.placement(node.id).rack, doc.plan.placement(node.id).u) == (cdu.id, 20)
    # GPU-01 loses a 7 kW node: 28 -> 21 kW; CDU-01 gains it: 3.0 -> 10.0 kW
    assert view.racks[gpu1.id].power_text() == "21.0 / 30 kW"
    assert view.racks[cdu.id].power_text() == "10.0 / 30 kW"
    assert node.id in view.racks[cdu.id].devices and node.id not in view.racks[gpu1.id].devices
    assert doc.undo_stack.count() == steps + 1  # one drag, one undo step
    window.undo_action.trigger()
    assert (doc.plan.placement(node.id).rack, doc.plan.placement(node.id).u) == (gpu1.id, 13)
    assert view.racks[gpu1.id].power_text() == "28.0 / 30 kW"


def test_a_moved_device_stays_selected_through_undo_and_redo(window):
    doc, view = window.doc, window.view
    gpu1, cdu = rack_named(doc.plan, "GPU-01"), rack_named(doc.plan, "CDU-01")
    node = next(p for p in doc.plan.rack_members(gpu1.id).values() if p.u == 13)
    assert view.select(node.id) and view.selected_devices() == [node.id]
    send_drag(view, to_mime(DragPayload(node.device, node.id, grab_u=0)), slot_pos(view, cdu.id, 20))
    view.select(node.id)
    assert view.selected_devices() == [node.id]
    # the undo puts it back in GPU-01 as another item: still the one selected, and the
    # inspector still shows it
    window.undo_action.trigger()
    assert doc.plan.placement(node.id).rack == gpu1.id
    assert view.selected_devices() == [node.id] and view.racks[gpu1.id].devices[node.id].isSelected()
    window.redo_action.trigger()
    assert doc.plan.placement(node.id).rack == cdu.id and view.selected_devices() == [node.id]


def test_moving_within_a_rack_keeps_the_grabbed_u_under_the_pointer(window):
    doc, view = window.doc, window.view
    gpu1 = rack_named(doc.plan, "GPU-01")
    node = next(p for p in doc.plan.rack_members(gpu1.id).values() if p.u == 13)
    # holding the node by its third U (grab_u 2) and pointing at U35 puts its bottom at U33
    send_drag(view, to_mime(DragPayload(node.device, node.id, grab_u=2)), slot_pos(view, gpu1.id, 35))
    assert doc.plan.placement(node.id).u == 33


def test_pressing_and_moving_on_a_device_starts_a_move_drag(window, monkeypatch):
    view = window.view
    gpu1 = rack_named(window.doc.plan, "GPU-01")
    node = next(p for p in window.doc.plan.rack_members(gpu1.id).values() if p.u == 1)
    started = []
    monkeypatch.setattr(view, "start_device_drag", lambda item, grab_u: started.append((item.placement_id, grab_u)))
    press = slot_pos(view, gpu1.id, 3)  # the node spans U1-U4; U3 is its third U
    vp = view.viewport()
    for kind, pos, buttons in ((QMouseEvent.Type.MouseButtonPress, press, Qt.MouseButton.LeftButton),
                               (QMouseEvent.Type.MouseMove, press + press.__class__(0, -30), Qt.MouseButton.LeftButton)):
        QApplication.sendEvent(vp, QMouseEvent(kind, QPointF(pos), QPointF(vp.mapToGlobal(pos)), Qt.MouseButton.LeftButton
                                               if kind == QMouseEvent.Type.MouseButtonPress else Qt.MouseButton.NoButton,
                                               buttons, Qt.KeyboardModifier.NoModifier))
    assert started == [(node.id, 2)]
    assert view.selected_devices() == [node.id]


def test_palette_search_filters_and_payload_round_trips(window):
    palette = window.palette_panel
    palette.search.setText("qm97")
    assert sorted(palette.visible_device_ids()) == ["qm9700", "qm9700-hdr", "qm9700-ndr200"]
    palette.search.clear()
    assert len(palette.visible_device_ids()) == len(window.doc.catalog)
    assert from_mime(palette.mime_for("sn5600")) == DragPayload("sn5600")


def _mouse(view, kind, pos, button, buttons):
    vp = view.viewport()
    QApplication.sendEvent(vp, QMouseEvent(kind, QPointF(pos), QPointF(vp.mapToGlobal(pos)), button, buttons,
                                           Qt.KeyboardModifier.NoModifier))


def test_ctrl_wheel_zooms_and_dragging_the_background_pans(window):
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QWheelEvent

    view = window.view
    vp = view.viewport()
    centre = QPointF(vp.width() / 2, vp.height() / 2)
    before = view.zoom_level()
    wheel = QWheelEvent(centre, QPointF(vp.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(vp, wheel)
    assert abs(view.zoom_level() - before * 1.15) < 1e-6  # one notch = x1.15

    view.zoom_by(3.0)  # zoomed in so the scene is wider than the view
    gpu1 = rack_named(window.doc.plan, "GPU-01")
    # the gap between two racks is canvas: press there and drag left
    item = view.racks[gpu1.id]
    gap = view.mapFromScene(item.sceneBoundingRect().right() + theme.RACK_GAP / 2, item.sceneBoundingRect().center().y())
    scroll = view.horizontalScrollBar().value()
    _mouse(view, QMouseEvent.Type.MouseButtonPress, gap, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton)
    for dx in (10, 40, 80):
        _mouse(view, QMouseEvent.Type.MouseMove, gap - gap.__class__(dx, 0), Qt.MouseButton.NoButton,
               Qt.MouseButton.LeftButton)
    _mouse(view, QMouseEvent.Type.MouseButtonRelease, gap - gap.__class__(80, 0), Qt.MouseButton.LeftButton,
           Qt.MouseButton.NoButton)
    assert view.horizontalScrollBar().value() == scroll + 80  # the canvas followed the pointer



def test_ghost_is_amber_over_a_rack_at_its_cap_with_the_figures(window):
    view = window.view
    gpu1 = rack_named(window.doc.plan, "GPU-01")
    mime = window.palette_panel.mime_for("hgx-h100-8")
    # GPU-01: 4 x 7.0 kW = 28.0 of 30 kW; a fifth node at U33 would make 35.0 kW
    send_drag(view, mime, slot_pos(view, gpu1.id, 33), drop=False)
    assert view.ghost_state == "warning" and view.ghost.brush().color() == theme.GHOST_WARN
    assert "GPU-01 would draw 35.0 / 30 kW" in window.statusBar().currentMessage()


def test_ghost_is_red_with_the_reason_for_a_liquid_node_over_an_air_rack(window):
    view = window.view
    net = rack_named(window.doc.plan, "NET-01")
    before = window.doc.plan.model_dump()
    mime = window.palette_panel.mime_for("hgx-h100-8")
    event = send_drag(view, mime, slot_pos(view, net.id, 30))
    assert not event.isAccepted() and window.doc.plan.model_dump() == before
    assert window.statusBar().currentMessage().startswith("Not placed: ")
    assert "NET-01 is an air-cooled rack" in window.statusBar().currentMessage()


def test_a_drag_entering_over_the_background_stays_alive_until_a_slot(window):
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent

    view = window.view
    stor = rack_named(window.doc.plan, "STOR-01")
    mime = window.palette_panel.mime_for("h100x4-workhorse")
    target = slot_pos(view, stor.id, 20)
    # the floor between STOR-01 and the rack left of it (away from the view's edges, which scroll)
    gap = view.mapFromScene(view.racks[stor.id].mapToScene(-theme.RACK_GAP / 2, 0)).x()
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    enter = QDragEnterEvent(QPoint(gap, target.y()), actions, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), enter)
    assert enter.isAccepted()  # entering over the background keeps the drag
    move = QDragMoveEvent(QPoint(gap + 1, target.y()), actions, mime, Qt.MouseButton.LeftButton,
                          Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), move)
    assert not view.ghost.isVisible() and not move.isAccepted()  # no drop on the background
    send_drag(view, mime, target)
    assert [p.u for p in window.doc.plan.rack_members(stor.id).values() if p.device == "h100x4-workhorse"] == [20]
    assert window.doc.plan.placements[-1].label == "node-17"


def test_a_drag_near_the_views_edge_scrolls_it_and_leaving_stops(window, qtbot):
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent

    view = window.view
    view.resize(500, 400)  # narrower than the seven racks: there is somewhere to scroll to
    view.zoom_to_rack_height()
    QApplication.processEvents()
    bar = view.horizontalScrollBar()
    bar.setValue(0)
    mime = window.palette_panel.mime_for("h100x4-workhorse")
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    vp = view.viewport()
    near_right = QPoint(vp.width() - 5, vp.height() // 2)
    for cls in (QDragEnterEvent, QDragMoveEvent):
        QApplication.sendEvent(vp, cls(near_right, actions, mime, Qt.MouseButton.LeftButton,
                                       Qt.KeyboardModifier.NoModifier))
    qtbot.waitUntil(lambda: bar.value() > 100, timeout=3000)  # it keeps scrolling while the pointer rests
    QApplication.sendEvent(vp, QDragLeaveEvent())
    stopped = bar.value()
    qtbot.wait(200)
    assert bar.value() == stopped and not view.ghost.isVisible()


def test_an_nvl72_dropped_on_the_floor_becomes_a_rack_of_its_own_and_an_air_rack_refuses_it(window):
    doc, view = window.doc, window.view
    stor = rack_named(doc.plan, "STOR-01")  # air-cooled
    mime = window.palette_panel.mime_for("gb200-nvl72")
    pos = slot_pos(view, stor.id, 1)
    send_drag(view, mime, pos, drop=False)
    assert view.ghost.brush().color() == theme.GHOST_BLOCKED
    assert "liquid-cooled only" in view.ghost_problem and "air-cooled rack" in view.ghost_problem
    racks = len(doc.plan.racks)
    # the floor beside the last rack: no rack under the pointer
    last = view.racks[doc.plan.racks[-1].id].sceneBoundingRect()
    view.centerOn(last.right() + 3 * theme.RACK_GAP, last.center().y())
    QApplication.processEvents()
    floor = view.mapFromScene(last.right() + 2 * theme.RACK_GAP, last.center().y())
    assert view.rack_item_at(view.mapToScene(floor)) is None
    event = send_drag(view, mime, floor)
    assert event.isAccepted()
    assert len(doc.plan.racks) == racks + 1
    rack = doc.plan.racks[-1]
    assert (rack.rack_type, rack.height_u, rack.cooling, rack.power_cap_kw) == ("nvl72-mgx-48u", 48, "liquid", 140)
    assert [p.device for p in doc.plan.rack_members(rack.id).values()] == ["gb200-nvl72"]
    assert window.summary.text("gpus") == "200"  # 128 + 72
    window.undo_action.trigger()  # one undo step takes the rack and the system away
    assert len(doc.plan.racks) == racks and window.summary.text("gpus") == "128"
