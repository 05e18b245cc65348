"""Drag and drop in the rack view (mixed into ``RackView``): palette drags, moving a placed
device within or between racks, and on the zoomed-out floor, with a ghost that tells the
consequence before the drop (green, amber with the figures, red with the reason; the
status bar says the same), auto-scroll near the view's edge, and Esc to cancel.

A drag entering the view is accepted wherever it enters (background, gutters, headers):
Qt sends no more moves for the rest of a gesture that entered refused. On the floor a U is
under a pixel, so a drop goes to the U pointed at if the device fits there, else to the
rack's lowest free slot (``planner.plan.space.slot_near``).

Why it is long: one gesture, from the drag entering the view to the drop or Esc, with its
ghost and the ghost's words; its states (palette or placed device, rack or floor zoom) share
the same handlers.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QDrag, QPen
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsRectItem, QGraphicsSimpleTextItem

from planner.plan.commands import AddDevice, MoveDevice
from planner.plan.names import next_label
from planner.plan.rackscale import PlaceRackScaleSystem
from planner.plan.space import placement_near, slot_near
from planner.report import palette
from planner.report.whatif import Consequence, port_shortfall, rack_consequence
from planner.text import with_article
from ui import theme
from ui.mime import DragPayload, from_mime, to_mime
from ui.rack_items import DeviceItem

class GhostLabel(QGraphicsRectItem):
    """The words beside the drag ghost ("fits", "38.0 / 30 kW (typical)", "overlaps node-6"): a
    framed label right of the ghost, the same size at every zoom, where the pointer's payload is not."""

    PAD = 4

    def __init__(self):
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(1001)
        self.setBrush(QBrush(QColor(palette.CHART_BACKGROUND)))
        self.text = QGraphicsSimpleTextItem(self)
        self.text.setPos(self.PAD, self.PAD)
        self.setVisible(False)

    def show_words(self, words: str, state: str, anchor) -> None:
        self.text.setText(words)
        self.text.setBrush(QBrush(theme.GHOST_COLOURS[state].darker(170)))
        self.setPen(QPen(theme.GHOST_COLOURS[state].darker(130), 1.5))
        box = self.text.boundingRect()
        self.setRect(0, 0, box.width() + 2 * self.PAD, box.height() + 2 * self.PAD)
        self.setPos(anchor)
        self.setVisible(True)


AUTOSCROLL_MARGIN = 36  # px from the viewport's edge where a drag scrolls the view
AUTOSCROLL_STEP = 18  # px per 30 ms tick


class RackDragAndDrop:
    # -- drag and drop ------------------------------------------------------------------
    def start_device_drag(self, item: DeviceItem, grab_u: int) -> None:
        """Drag a placed device to another U or rack (one MoveDevice, one undo step)."""
        drag = QDrag(self)
        drag.setMimeData(to_mime(DragPayload(item.placement.device, item.placement_id, grab_u)))
        self._dragged = item
        item.setOpacity(0.35)
        try:
            drag.exec(Qt.DropAction.MoveAction)
        finally:
            if self._dragged is not None and self._dragged.scene() is not None:
                self._dragged.setOpacity(1.0)
            self._dragged = None
            self._end_drag()

    # -- moving a device on the zoomed-out floor -----------------------------------------
    def mousePressEvent(self, event) -> None:
        """On the zoomed-out floor a press on a block selects its rack, and dragging from it
        carries one of its devices (see ``floor_device``); elsewhere the view pans."""
        if self.floor_mode and event.button() == Qt.MouseButton.LeftButton:
            scene_pos = self.mapToScene(event.position().toPoint())
            rid = self.floor.rack_at(scene_pos.x(), scene_pos.y())
            if rid is not None:
                self._floor_press = (event.position().toPoint(), rid, self._kept_selection_devices())
                self._select_rack_keeping_zoom(rid)
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        press = self._floor_press
        if press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            if (event.position().toPoint() - press[0]).manhattanLength() >= QApplication.startDragDistance():
                self._floor_press = None
                placement = self.floor_device(press[1], self.mapToScene(press[0]), press[2])
                if placement is not None:
                    self.start_floor_drag(placement)
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        self._floor_press = None
        super().mouseReleaseEvent(event)

    def floor_device(self, rack_id: str, scene_pos, selected: list[str] = ()) -> str | None:
        """The device a drag from a floor block carries: a ``selected`` device if one is in that
        rack, else the one at the height pressed, else the nearest one to it (a U is under a
        pixel there); None for an empty rack."""
        members = self.doc.plan.rack_members(rack_id)
        for pid in selected:
            if pid in members:
                return pid
        item = self.racks[rack_id]
        u = item.u_at(item.mapFromScene(scene_pos).y())
        return placement_near(self.doc.plan, self.doc.catalog, item.rack, u)

    def _kept_selection_devices(self) -> list[str]:
        return [i.placement_id for i in self._kept_selection if isinstance(i, DeviceItem)]

    def start_floor_drag(self, placement_id: str) -> None:
        """Drag a placed device from its block on the floor (one MoveDevice, one undo step)."""
        p = self.doc.plan.placement(placement_id)
        device = self.doc.catalog.get(p.device) if p is not None else None
        if device is None:
            return
        rack = self.doc.plan.rack(p.rack)
        self.hint.emit(f"Moving {p.label or p.id} ({device.model}) from {rack.name}: drop it on a rack")
        drag = QDrag(self)
        drag.setMimeData(to_mime(DragPayload(p.device, placement_id, 0)))
        try:
            drag.exec(Qt.DropAction.MoveAction)
        finally:
            self._end_drag()

    def _target(self, pos, payload: DragPayload):
        """(rack item, bottom U, device, Consequence) for a drag at viewport ``pos``; None off the racks.
        On the zoomed-out floor the device goes to the U pointed at if it fits there, else to
        the rack's lowest free slot for it."""
        device = self.doc.catalog.get(payload.device)
        scene_pos = self.mapToScene(pos)
        rack_item = self.rack_item_at(scene_pos)
        if rack_item is None or device is None:
            return None
        u = rack_item.u_at(rack_item.mapFromScene(scene_pos).y()) - payload.grab_u
        if self.floor_mode:
            moving = frozenset({payload.placement}) if payload.placement else frozenset()
            u = slot_near(self.doc.plan, self.doc.catalog, rack_item.rack, u, device, moving)
        consequence = rack_consequence(self.doc.plan, self.doc.catalog, rack_item.rack_id, u, device,
                                       payload.placement)
        if consequence.problem is None and self._port_note:
            consequence = Consequence(failing=consequence.failing + (self._port_note,),
                                      words=consequence.words + ("fabric ports short",))
        return rack_item, u, device, consequence

    def _show_ghost(self, target) -> None:
        rack_item, u, device, consequence = target
        colour = theme.GHOST_COLOURS[consequence.state]
        if self.floor_mode:
            # a slot is under a pixel here: the ghost covers the whole block in its colour, framed in
            # white a few pixels out (blocks are coloured by load in the same hues)
            margin = 3 / max(1e-6, self.transform().m11())
            self.ghost.setRect(self.floor.rack_rect(rack_item.rack_id).adjusted(-margin, -margin, margin, margin))
            frame = QPen(QColor(palette.GHOST_FRAME), 2)
            frame.setCosmetic(True)
            self.ghost.setPen(frame)
            colour = QColor(colour)
            colour.setAlpha(235)
        else:
            top = rack_item.slot_top(u + device.u_height - 1)
            rect = QRectF(theme.GUTTER_W, top, theme.RACK_BODY_W, device.u_height * theme.U_PX)
            self.ghost.setRect(rack_item.mapRectToScene(rect))
            self.ghost.setPen(QPen(colour.darker(130), 2, Qt.PenStyle.DashLine))
        self.ghost.setBrush(QBrush(colour))
        self.ghost.setVisible(True)
        rect, scale = self.ghost.rect(), max(1e-6, self.transform().m11())
        self.ghost_label.show_words(consequence.label, consequence.state, rect.topRight() + QPointF(6 / scale, 0))
        right = self.mapFromScene(rect.topRight()).x() + 6 + self.ghost_label.rect().width()
        if right > self.viewport().width():  # no room right of the ghost: left of it
            self.ghost_label.setPos(rect.topLeft() - QPointF((6 + self.ghost_label.rect().width()) / scale, 0))
        self.ghost_state = consequence.state
        self.ghost_ok, self.ghost_problem = consequence.problem is None, consequence.problem
        where = f"{device.model} at U{u} of {rack_item.rack.name}"
        self.hint.emit(f"{where}: {consequence.sentence()}" if consequence.state != "ok" else where)

    @property
    def ghost_words(self) -> str | None:
        """The ghost label's text while a drag shows one."""
        return self.ghost_label.text.text() if self.ghost_label.isVisible() else None

    def _hide_ghost(self) -> None:
        self.ghost.setVisible(False)
        self.ghost_label.setVisible(False)
        self.ghost_ok, self.ghost_problem, self.ghost_state = False, None, None

    def _end_drag(self) -> None:
        self._hide_ghost()
        self._scroll_timer.stop()
        self._drag_payload = None

    def dragEnterEvent(self, event) -> None:
        payload = from_mime(event.mimeData())
        if payload is None:
            event.ignore()
            return
        self._drag_payload = payload
        device = self.doc.catalog.get(payload.device)
        self._port_note = (port_shortfall(self.doc.plan, self.doc.catalog, device)
                           if device is not None and not payload.placement else None)
        self._follow_drag(event)
        # Accept the entry wherever it happens (background, gutters, headers): a drag entering
        # refused would get no more moves from Qt for the rest of the gesture.
        event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        if from_mime(event.mimeData()) is None:
            event.ignore()
            return
        if self._follow_drag(event):
            event.acceptProposedAction()
        else:
            event.ignore()  # no drop here; Qt keeps sending moves

    def _floor_system(self, payload):
        """The rack-scale system (an NVL72) a palette drag carries: it can be dropped on the floor."""
        device = self.doc.catalog.get(payload.device) if payload and not payload.placement else None
        return device if device is not None and device.is_rack_scale else None

    def _follow_drag(self, event) -> bool:
        """Ghost, status sentence and auto-scroll for a drag at the event's position; True where it may drop."""
        pos = event.position().toPoint()
        self._drag_pos = pos
        self._scroll_step = self._edge_step(pos)
        if self._scroll_step != (0, 0) and not self._scroll_timer.isActive():
            self._scroll_timer.start()
        return self._update_drag_target(pos)

    def _update_drag_target(self, pos) -> bool:
        payload = self._drag_payload
        target = self._target(pos, payload) if payload else None
        if target is None:
            self._hide_ghost()
            system = self._floor_system(payload)
            if system is not None:  # on the floor: the system arrives as a rack of its own type
                self.hint.emit(f"Drop to add {with_article(system.model)} as a rack of its own")
                return True
            self.hint.emit("Drop onto a free slot of a rack")
            return False
        self._show_ghost(target)
        return target[3].problem is None

    def _edge_step(self, pos) -> tuple[int, int]:
        """Scroll steps (x, y) while a drag is within ``AUTOSCROLL_MARGIN`` of the viewport's edge."""
        vp = self.viewport().rect()
        m = AUTOSCROLL_MARGIN

        def step(p: int, size: int) -> int:
            if p < m:
                return -AUTOSCROLL_STEP
            if p > size - m:
                return AUTOSCROLL_STEP
            return 0
        return step(pos.x(), vp.width()), step(pos.y(), vp.height())

    def _auto_scroll(self) -> None:
        if self._drag_payload is None or self._scroll_step == (0, 0):
            self._scroll_timer.stop()
            return
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + self._scroll_step[0])
        v.setValue(v.value() + self._scroll_step[1])
        self._update_drag_target(self._drag_pos)

    def dragLeaveEvent(self, event) -> None:
        # Qt ends a drag released where the view refused it, or cancelled with Esc, with a leave:
        # say why nothing happened.
        message = (f"Not placed: {self.ghost_problem}" if self.ghost_problem else
                   "Drag cancelled: nothing placed" if self.ghost.isVisible() else None)
        self._end_drag()
        if message:
            self.hint.emit(message)
        event.accept()

    def dropEvent(self, event) -> None:
        payload = from_mime(event.mimeData())
        target = self._target(event.position().toPoint(), payload) if payload else None
        self._end_drag()
        system = self._floor_system(payload) if target is None else None
        if system is not None:
            if self.doc.apply(PlaceRackScaleSystem(system.id)):
                event.acceptProposedAction()
                self.select(self.doc.plan.racks[-1].id)
            return
        if target is None or target[3].problem is not None:
            self.hint.emit(f"Not placed: {target[3].problem}" if target is not None else
                           "Not placed: drop onto a free slot of a rack")
            event.ignore()
            return
        rack_item, u, device, consequence = target
        if payload.placement:
            command = MoveDevice(payload.placement, rack_item.rack_id, u)
        else:
            command = AddDevice(device.id, rack_item.rack_id, u, label=next_label(self.doc.plan, self.doc.catalog, device))
        if self.doc.apply(command):
            event.acceptProposedAction()
            if self.floor_mode:  # stay on the floor: the rack it went to is selected
                self._select_rack_keeping_zoom(rack_item.rack_id)
            else:
                self.select(command.placement_id)
            if consequence.failing:
                self.hint.emit(f"Placed {device.model} at U{u} of {rack_item.rack.name}, but "
                               + "; ".join(consequence.failing))
        else:
            event.ignore()
