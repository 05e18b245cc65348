"""The rack elevations: racks side by side, drag and drop with a snapped ghost, zoom and pan.

The view redraws only the racks a change set names; racks are laid out in rows
(``ui.floor.floor_rows``) so a plan with thousands of racks stays navigable. Zoomed far
out (below ``FLOOR_BELOW_LOD``) the rack items are hidden and one FloorItem draws every
rack as a block coloured by load; the selection is kept meanwhile and restored.

Why it is long: the scene, the drag and drop with its ghost, selection, keyboard moves and
zoom all act on the same rack and device items and their change-set updates; navigation of
the floor already lives in ``ui.rack_navigation``.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QDrag, QKeySequence, QPainter, QPen
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsRectItem, QGraphicsScene, QGraphicsView, QMenu

from planner.plan.changes import ChangeSet
from planner.plan.commands import AddDevice, MoveDevice, RemoveDevices, RemoveRack
from planner.plan.names import next_label
from planner.plan.rackscale import PlaceRackScaleSystem
from planner.plan.space import lowest_free_u, slot_near
from planner.report.whatif import Consequence, port_shortfall, rack_consequence
from ui import theme
from ui.document import Document
from ui.floor import FloorItem, floor_rows
from ui.rack_navigation import READABLE_ZOOM, FloorNavigation
from ui.mime import DragPayload, from_mime, to_mime
from ui.rack_items import RACK_W, DeviceItem, RackItem, rack_height_px



AUTOSCROLL_MARGIN = 36  # px from the viewport's edge where a drag scrolls the view
AUTOSCROLL_STEP = 18  # px per 30 ms tick


class _RackLayer:
    """Every rack item, shown or hidden together (the floor view hides them in one call).

    The rack items stay top-level items of the scene: its index then finds the few racks on
    screen, where children of one parent item would each be asked for their bounds on every
    repaint (2,500 Python calls per frame on a 100,000-GPU plan)."""

    def __init__(self, racks: dict[str, RackItem]):
        self._racks = racks
        self._visible = True

    def isVisible(self) -> bool:
        return self._visible

    def setVisible(self, visible: bool) -> None:
        if visible != self._visible:
            self._visible = visible
            for item in self._racks.values():
                item.setVisible(visible)


class RackView(FloorNavigation, QGraphicsView):
    selectionChangedTo = Signal()
    """The selected racks/devices changed (read them with selected_devices / selected_rack)."""
    hint = Signal(str)
    """A one-line status message (why a drop is blocked, what a drop did)."""
    editRackRequested = Signal(str)
    autoPlaceRequested = Signal(str)
    propertiesRequested = Signal()
    visibleAreaChanged = Signal()
    """The part of the floor on screen moved or was zoomed (the overview follows it)."""
    floorChanged = Signal(object)
    """Rack ids whose block colour changed, or None after a relayout (the overview redraws)."""

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.setScene(QGraphicsScene(self))
        self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setBackgroundBrush(QBrush(theme.CANVAS))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setAcceptDrops(True)
        self.setObjectName("RackView")
        self.racks: dict[str, RackItem] = {}
        self.layer = _RackLayer(self.racks)
        self.floor = FloorItem()
        self.floor.setVisible(False)
        self.scene().addItem(self.floor)
        self.floor_mode = False
        self._kept_selection: list = []
        self._quiet_selection = False
        self.horizontalScrollBar().valueChanged.connect(self.visibleAreaChanged)
        self.verticalScrollBar().valueChanged.connect(self.visibleAreaChanged)
        self.ghost = QGraphicsRectItem()
        self.ghost.setZValue(1000)
        self.ghost.setVisible(False)
        self.ghost_ok = False
        self.ghost_problem: str | None = None
        self.ghost_state: str | None = None
        """"ok", "warning" or "blocked" while a ghost is shown (green, amber, red)."""
        self.scene().addItem(self.ghost)
        self._drag_payload: DragPayload | None = None
        self._port_note: str | None = None
        self._drag_pos = None
        self._scroll_step = (0, 0)
        self._scroll_timer = QTimer(self)
        self._scroll_timer.setInterval(30)
        self._scroll_timer.timeout.connect(self._auto_scroll)
        self._dragged: DeviceItem | None = None
        # (viewport point, rack id, devices selected before) of a press on a block of the zoomed-out floor
        self._floor_press = None
        self._nudge_session = 0
        self._auto_zoom = True  # keep the first row fitted to the height until the user zooms
        self.scene().selectionChanged.connect(self._selection_changed)
        doc.changed.connect(self.on_changed)
        self._build_actions()
        self.rebuild()

    # -- model -> view ------------------------------------------------------------------
    def rebuild(self) -> None:
        for rid in list(self.racks):
            self._remove_rack_item(rid)
        report = self.doc.report
        for rack in self.doc.plan.racks:
            self._add_rack_item(rack, report)
        self.relayout()

    def _add_rack_item(self, rack, report) -> RackItem:
        item = RackItem(rack, report.rack(rack.id))
        item.setVisible(self.layer.isVisible())
        self.scene().addItem(item)
        self.racks[rack.id] = item
        item.sync(rack, self.doc.plan.rack_members(rack.id), report.rack(rack.id), self.doc.catalog,
                  self.doc.plan.settings.facility.power_basis)
        self.floor.set_state(rack.id, report.rack(rack.id))
        return item

    def _remove_rack_item(self, rack_id: str) -> None:
        item = self.racks.pop(rack_id)
        item.setParentItem(None)
        self.scene().removeItem(item)
        self.floor.forget(rack_id)

    def on_changed(self, changes: ChangeSet, report) -> None:
        plan = self.doc.plan
        if changes.catalog:
            self.rebuild()
            return
        layout = changes.structure
        if changes.structure:
            for rid in [rid for rid in self.racks if plan.rack(rid) is None]:
                self._remove_rack_item(rid)
        todo = self.racks.keys() if changes.needs_full else changes.racks
        basis = plan.settings.facility.power_basis
        for rid in list(todo):
            rack = plan.rack(rid)
            if rack is None:
                continue
            item = self.racks.get(rid)
            if item is None:
                self._add_rack_item(rack, report)
                layout = True
                continue
            height_before = item.boundingRect().height()  # the Rack itself was edited in place
            item.sync(rack, plan.rack_members(rid), report.rack(rid), self.doc.catalog, basis)
            self.floor.set_state(rid, report.rack(rid))
            layout = layout or item.boundingRect().height() != height_before
        if layout:
            self.relayout()
        else:
            self.floorChanged.emit(list(todo))

    def relayout(self) -> None:
        """Rows of racks, bottoms aligned like a real row on a floor."""
        racks = [r for r in self.doc.plan.racks if r.id in self.racks]
        rows = floor_rows(racks, lambda r: rack_height_px(r.height_u), RACK_W + theme.RACK_GAP)
        self.rows: list[list[str]] = [[r.id for r in row] for row in rows]
        y = 0.0
        rects: dict[str, QRectF] = {}
        for row in self.rows:
            items = [self.racks[rid] for rid in row]
            row_h = max(i.boundingRect().height() for i in items)
            for col, item in enumerate(items):
                h = item.boundingRect().height()
                item.setPos(col * (RACK_W + theme.RACK_GAP), y + row_h - h)
                rects[item.rack_id] = QRectF(item.pos().x(), item.pos().y(), RACK_W, h - 6)
            y += row_h + theme.ROW_GAP
        rect = QRectF()
        for r in rects.values():
            rect = rect.united(r)
        self.floor.set_layout(rects, self.rows)
        self.scene().setSceneRect(rect.adjusted(-40, -30, 40, 30))
        self.floorChanged.emit(None)

    # -- selection ----------------------------------------------------------------------
    def _selection_changed(self) -> None:
        if self._quiet_selection:
            return
        self._nudge_session += 1  # arrow-key nudges merge into one undo step until the selection changes
        self.selectionChangedTo.emit()

    def _selected_items(self) -> list:
        return self._kept_selection if self.floor_mode else self.scene().selectedItems()

    def selected_devices(self) -> list[str]:
        return [i.placement_id for i in self._selected_items() if isinstance(i, DeviceItem)]

    def selected_rack(self) -> str | None:
        racks = [i.rack_id for i in self._selected_items() if isinstance(i, RackItem)]
        return racks[0] if racks else None

    def select(self, where: str | None) -> bool:
        """Select and scroll to a rack or device id (what a finding points at)."""
        if where is None:
            return False
        item = self.racks.get(where)
        if item is None:
            p = self.doc.plan.placement(where)
            rack_item = self.racks.get(p.rack) if p else None
            item = rack_item.devices.get(where) if rack_item else None
        if item is None:
            return False
        if self.floor_mode:  # hidden items cannot be selected: come close enough to see it
            self.set_zoom(READABLE_ZOOM)
        self.scene().clearSelection()
        item.setSelected(True)
        self.ensureVisible(item.sceneBoundingRect(), 40, 40)
        return True

    def centre_on_rack(self, rack_id: str) -> bool:
        """Scroll so that a rack is in the middle of the view (the overview's click)."""
        rect = self.floor.rack_rect(rack_id)
        if rect is None:
            return False
        self.centerOn(rect.center())
        return True

    def rack_item_at(self, scene_pos) -> RackItem | None:
        if self.floor_mode:
            rid = self.floor.rack_at(scene_pos.x(), scene_pos.y())
            return self.racks.get(rid) if rid else None
        for item in self.scene().items(scene_pos):
            if isinstance(item, RackItem):
                return item
            if isinstance(item, DeviceItem):
                return item.parentItem()
        return None

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
        if not members:
            return None
        item = self.racks[rack_id]
        u = item.u_at(item.mapFromScene(scene_pos).y())
        catalog = self.doc.catalog

        def distance(p) -> int:
            top = p.u + (catalog[p.device].u_height if p.device in catalog else 1) - 1
            return 0 if p.u <= u <= top else min(abs(u - p.u), abs(u - top))
        return min(members.values(), key=lambda p: (distance(p), p.u)).id

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
            consequence = Consequence(failing=consequence.failing + (self._port_note,))
        return rack_item, u, device, consequence

    def _show_ghost(self, target) -> None:
        rack_item, u, device, consequence = target
        colour = theme.GHOST_COLOURS[consequence.state]
        if self.floor_mode:
            # a slot is under a pixel here: the ghost covers the whole block in its colour, framed in
            # white a few pixels out (blocks are coloured by load in the same hues)
            margin = 3 / max(1e-6, self.transform().m11())
            self.ghost.setRect(self.floor.rack_rect(rack_item.rack_id).adjusted(-margin, -margin, margin, margin))
            frame = QPen(Qt.GlobalColor.white, 2)
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
        self.ghost_state = consequence.state
        self.ghost_ok, self.ghost_problem = consequence.problem is None, consequence.problem
        where = f"{device.model} at U{u} of {rack_item.rack.name}"
        self.hint.emit(f"{where}: {consequence.sentence()}" if consequence.state != "ok" else where)

    def _hide_ghost(self) -> None:
        self.ghost.setVisible(False)
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
                self.hint.emit(f"Drop to add a {system.model} as a rack of its own")
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

    # -- keyboard and context menu --------------------------------------------------------
    def _build_actions(self) -> None:
        self.delete_action = QAction("Remove", self)
        self.delete_action.setShortcuts([QKeySequence.StandardKey.Delete, QKeySequence(Qt.Key.Key_Backspace)])
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete_action.triggered.connect(self.remove_selection)
        self.addAction(self.delete_action)

    def keyPressEvent(self, event) -> None:
        if self.navigate_key(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def nudge(self, placement_id: str, step: int) -> bool:
        """Move a device one U up or down; consecutive nudges are one undo step."""
        p = self.doc.plan.placement(placement_id)
        if p is None:
            return False
        ok = self.doc.apply(MoveDevice(p.id, p.rack, p.u + step), merge_key=("nudge", p.id, self._nudge_session))
        if ok:
            self.racks[p.rack].devices[p.id].setSelected(True)
        return ok

    def remove_selection(self) -> None:
        devices = self.selected_devices()
        if devices:
            self.doc.apply(RemoveDevices(devices))
        elif self.selected_rack():
            self.doc.apply(RemoveRack(self.selected_rack()))

    def duplicate(self, placement_id: str) -> None:
        p = self.doc.plan.placement(placement_id)
        device = self.doc.catalog.get(p.device) if p else None
        if device is None:
            return
        rack = self.doc.plan.rack(p.rack)
        u = lowest_free_u(self.doc.plan, self.doc.catalog, rack, device.u_height)
        if u is None:
            self.doc.error.emit(f"{rack.name} has no free {device.u_height}U slot for a copy of {device.model}")
            return
        command = AddDevice(device.id, rack.id, u, label=next_label(self.doc.plan, self.doc.catalog, device))
        if self.doc.apply(command):
            self.select(command.placement_id)

    def contextMenuEvent(self, event) -> None:
        scene_pos = self.mapToScene(event.pos())
        device_item = next((i for i in self.scene().items(scene_pos) if isinstance(i, DeviceItem)), None)
        rack_item = self.rack_item_at(scene_pos)
        menu = QMenu(self)
        if device_item is not None:
            if not device_item.isSelected():
                self.select(device_item.placement_id)
            menu.addAction("Duplicate", lambda: self.duplicate(device_item.placement_id))
            menu.addAction("Remove", self.remove_selection)
            menu.addSeparator()
            menu.addAction("Properties…", self.propertiesRequested.emit)
        elif rack_item is not None:
            self.select(rack_item.rack_id)
            rid = rack_item.rack_id
            menu.addAction("Edit rack…", lambda: self.editRackRequested.emit(rid))
            menu.addAction("Auto-place nodes…", lambda: self.autoPlaceRequested.emit(rid))
            menu.addSeparator()
            menu.addAction("Remove rack", lambda: self.doc.apply(RemoveRack(rid)))
        else:
            return
        menu.exec(event.globalPos())
