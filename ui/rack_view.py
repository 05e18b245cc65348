"""The rack elevations: racks side by side, drag and drop with a snapped ghost, zoom and pan.

The view redraws only the racks a change set names; racks are laid out in rows
(``ui.floor.floor_rows``) so a plan with thousands of racks stays navigable. Zoomed far
out (below ``FLOOR_BELOW_LOD``) the rack items are hidden and one FloorItem draws every
rack as a block coloured by load; the selection is kept meanwhile and restored.

Why it is long: the scene's rack items and their change-set updates, the selection, the
keyboard edits and the context menu all act on the same items. Navigation of the floor
(zoom, level of detail, keys) lives in ``ui.rack_navigation``, zoom by campus level in
``ui.campus_navigation`` and drag and drop with its ghost in ``ui.rack_drag``; all are mixed
into ``RackView``.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QKeySequence, QPainter
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene, QGraphicsView, QMenu

from planner.plan.changes import ChangeSet
from planner.plan.commands import AddDevice, MoveDevice, RemoveDevices, RemoveRack
from planner.plan.hall_commands import MoveRacksToHall
from planner.plan.names import next_label
from planner.plan.space import lowest_free_u
from ui import theme
from ui.document import Document
from ui.campus_items import CampusOutlines
from ui.campus_layout import lay_out_campus
from ui.floor import FloorItem
from ui.rack_drag import GhostLabel, RackDragAndDrop
from ui.campus_navigation import CampusNavigation
from ui.rack_navigation import READABLE_ZOOM, FloorNavigation
from ui.mime import DragPayload
from ui.rack_items import RACK_W, DeviceItem, RackItem, rack_height_px





class _RackLayer:
    """Every rack item, on the scene or off it together: the zoomed-out floor draws the racks
    as blocks (``FloorItem``) and takes the rack items off the scene meanwhile.

    The rack items are top-level items of the scene: its index then finds the few racks on
    screen, where children of one parent item would each be asked for their bounds on every
    repaint (2,500 Python calls per frame on a 100,000-GPU plan). Hidden but left on the
    scene, they would still be in its index, and every paint of the floor went through them:
    3.8 ms a paint on campus-400k's 9,015 racks, 0.2 ms with them off the scene (taking them
    off costs 40 ms once, on zooming out; putting them back 8 ms)."""

    def __init__(self, scene, racks: dict[str, RackItem]):
        self._scene = scene
        self._racks = racks
        self._visible = True

    def isVisible(self) -> bool:
        return self._visible

    def setVisible(self, visible: bool) -> None:
        if visible != self._visible:
            self._visible = visible
            for item in self._racks.values():
                if visible:
                    self._scene.addItem(item)
                else:
                    self._scene.removeItem(item)

    def add(self, item: RackItem) -> None:
        """A new rack item: on the scene unless the floor shows blocks."""
        if self._visible:
            self._scene.addItem(item)

    def remove(self, item: RackItem) -> None:
        if item.scene() is not None:
            item.scene().removeItem(item)


class RackView(CampusNavigation, FloorNavigation, RackDragAndDrop, QGraphicsView):
    selectionChangedTo = Signal()
    """The selected racks/devices changed (read them with selected_devices / selected_rack)."""
    hint = Signal(str)
    """A one-line status message (why a drop is blocked, what a drop did)."""
    editRackRequested = Signal(str)
    autoPlaceRequested = Signal(str)
    propertiesRequested = Signal()
    replaceRequested = Signal()
    """Replace all … with … for the selected devices' type."""
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
        self.layer = _RackLayer(self.scene(), self.racks)
        self.floor = FloorItem()
        self.floor.setVisible(False)
        self.scene().addItem(self.floor)
        self.outlines = CampusOutlines()  # the halls and buildings (none for a plan of one hall)
        self.place_label = self.make_place_label()
        self.scene().addItem(self.outlines)
        self.scene().addItem(self.outlines.labels)
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
        self.ghost_label = GhostLabel()
        self.scene().addItem(self.ghost_label)
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
        self.layer.add(item)
        self.racks[rack.id] = item
        item.sync(rack, self.doc.plan.rack_members(rack.id), report.rack(rack.id), self.doc.catalog,
                  self.doc.plan.settings.facility.power_basis)
        self.floor.set_state(rack.id, report.rack(rack.id))
        return item

    def _remove_rack_item(self, rack_id: str) -> None:
        item = self.racks.pop(rack_id)
        item.setParentItem(None)
        self.layer.remove(item)
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
        # devices selected before: a move undone (or redone) puts them in another rack as new
        # items, selected again there as they were
        chosen = [] if self.floor_mode else self.selected_devices()
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
        self._reselect(chosen)
        if layout:
            self.relayout()
        else:
            self.outlines.labels.set_report(report, basis)
            self.floorChanged.emit(list(todo))

    def _reselect(self, placement_ids: list[str]) -> None:
        """Select again the devices of ``placement_ids`` that are still placed."""
        for pid in placement_ids:
            p = self.doc.plan.placement(pid)
            rack_item = self.racks.get(p.rack) if p is not None else None
            item = rack_item.devices.get(pid) if rack_item is not None else None
            if item is not None and not item.isSelected():
                item.setSelected(True)

    def relayout(self) -> None:
        """Rows of racks, bottoms aligned like a real row on a floor, hall by hall
        (``ui.campus_layout``); the halls and buildings outlined when there are several."""
        racks = [r for r in self.doc.plan.racks if r.id in self.racks]
        self.campus = lay_out_campus(self.doc.plan, racks, lambda rid: self.racks[rid].boundingRect().height())
        self.rows: list[list[str]] = self.campus.rows
        for rid, pos in self.campus.positions.items():
            self.racks[rid].setPos(pos)
        self.floor.set_layout(self.campus.rects, [h.rows for h in self.campus.halls])
        self.outlines.set_campus(self.campus, self.doc.report, self.doc.plan.settings.facility.power_basis)
        self.scene().setSceneRect(self.campus.bounds().adjusted(-40, -30, 40, 30))
        self.floorChanged.emit(None)
        self.update_place()

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
        self.show_top_of(item.sceneBoundingRect())
        return True

    def centre_on_rack(self, rack_id: str) -> bool:
        """Scroll so that a rack is in the middle of the view (the overview's click); a rack
        taller than the view shows its top, its name and power bar, not its middle."""
        rect = self.floor.rack_rect(rack_id)
        if rect is None:
            return False
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        y = rect.center().y() if rect.height() <= shown.height() else rect.top() + 0.48 * shown.height()
        self.centerOn(QPointF(rect.center().x(), y))
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
            menu.addAction("Replace all … with …", self.replaceRequested.emit)
            menu.addSeparator()
            menu.addAction("Properties…", self.propertiesRequested.emit)
        elif rack_item is not None:
            self.select(rack_item.rack_id)
            rid = rack_item.rack_id
            menu.addAction("Edit rack…", lambda: self.editRackRequested.emit(rid))
            menu.addAction("Auto-place nodes…", lambda: self.autoPlaceRequested.emit(rid))
            if self.campus.outlined:
                self._add_hall_menu(menu, rid)
            menu.addSeparator()
            menu.addAction("Remove rack", lambda: self.doc.apply(RemoveRack(rid)))
        elif self.campus.outlined:
            self._add_zoom_to(menu, scene_pos)
        else:
            return
        menu.exec(event.globalPos())

    def _add_hall_menu(self, menu: QMenu, rack_id: str) -> QMenu:
        """"Move to hall ▸": every other hall of the campus (one MoveRacksToHall)."""
        own = self.campus.hall_of(rack_id)
        sub = menu.addMenu("Move to hall")
        for b in self.campus.buildings:
            for hall_id in b.halls:
                hall = self.campus.hall(hall_id)
                if hall is not own:
                    sub.addAction(f"{hall.name} ({b.name})",
                                  lambda h=hall_id: self.doc.apply(MoveRacksToHall([rack_id], h)))
        return sub

    def _add_zoom_to(self, menu: QMenu, scene_pos) -> None:
        """Beside the racks: zoom to the hall or building under the pointer, or the whole campus."""
        for b in self.campus.buildings:
            if b.rect.contains(scene_pos):
                for hall_id in b.halls:
                    hall = self.campus.hall(hall_id)
                    if hall.rect.contains(scene_pos):
                        menu.addAction(f"Zoom to {hall.name}", lambda: self.zoom_to_area(hall.rect))
                menu.addAction(f"Zoom to {b.name}", lambda b=b: self.zoom_to_area(b.rect))
        menu.addAction("Show the whole campus", self.zoom_to_fit)
