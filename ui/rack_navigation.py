"""Zoom, level of detail and keyboard navigation of the rack view (mixed into ``RackView``).

Keys (the view has focus) are the table ``VIEW_KEYS``, which both handles them and lists
them in Help > Keyboard shortcuts: arrows move the selection to the neighbouring rack
(left, right, and up/down to the rack in the same place of the row above or below) and
scroll it into view -- with a single device selected, up/down nudge it instead; with
nothing selected the arrows scroll. ``+``/``-`` zoom, Home shows the whole floor, Enter
zooms into the selected rack, Esc clears the selection (during a drag: cancels it). On a
campus of several halls Page Up / Page Down zoom out / in a level (``ui.campus_navigation``).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt

from ui import theme
from ui.floor import FLOOR_BELOW_LOD, LABELS_FROM_LOD
from ui.rack_items import DeviceItem, RackItem

ZOOM_MIN, ZOOM_MAX, ZOOM_STEP = 0.15, 4.0, 1.15
READABLE_ZOOM = 0.6  # where select() and Enter take the user from the floor overview

K = Qt.Key


@dataclass(frozen=True, slots=True)
class ViewKey:
    keys: tuple[Qt.Key, ...]
    what: str
    handler: str
    """Name of the view method taking the key; it returns False when the key does not apply."""


VIEW_KEYS: tuple[ViewKey, ...] = (
    ViewKey((K.Key_Up, K.Key_Down), "Move the selected device one U up / down", "_key_nudge"),
    ViewKey((K.Key_Left, K.Key_Right, K.Key_Up, K.Key_Down),
            "Select the rack to the left / right, or in the row above / below", "_key_neighbour"),
    ViewKey((K.Key_Plus, K.Key_Equal), "Zoom the rack view in", "_key_zoom_in"),
    ViewKey((K.Key_Minus,), "Zoom the rack view out", "_key_zoom_out"),
    ViewKey((K.Key_Home,), "Show the whole floor", "_key_home"),
    ViewKey((K.Key_Return, K.Key_Enter), "Zoom into the selected rack", "_key_enter"),
    ViewKey((K.Key_PageUp,), "Zoom out a level: to the hall, the building, the whole campus", "_key_level_out"),
    ViewKey((K.Key_PageDown,), "Zoom in a level: to the building, the hall, a rack", "_key_level_in"),
    ViewKey((K.Key_Escape,), "Cancel a drag; otherwise clear the selection", "_key_escape"),
)
"""The rack view's own keys (no modifier), in the order they are tried."""


class FloorNavigation:
    # -- zoom and pan -------------------------------------------------------------------
    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            self.zoom_by(ZOOM_STEP ** steps)
            event.accept()
        else:
            super().wheelEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._auto_zoom:
            self.zoom_to_rack_height()
        self.visibleAreaChanged.emit()

    def fit_zoom(self) -> float:
        """The zoom at which the whole floor fits the viewport."""
        rect, vp = self.scene().sceneRect(), self.viewport().rect()
        if rect.isEmpty() or vp.isEmpty():
            return 1.0
        return min(vp.width() / rect.width(), vp.height() / rect.height())

    def zoom_by(self, factor: float) -> None:
        self._auto_zoom = False
        current = self.transform().m11()
        self.set_zoom(current * factor)

    def set_zoom(self, zoom: float) -> None:
        """Scale to ``zoom`` (clamped from the whole floor to ZOOM_MAX), keeping the anchor."""
        current = self.transform().m11()
        target = max(min(ZOOM_MIN, self.fit_zoom()), min(ZOOM_MAX, zoom))
        self.scale(target / current, target / current)
        self.update_detail()

    def zoom_to_fit(self) -> None:
        self._auto_zoom = False
        rect = self.scene().sceneRect()
        margin = 0.02 * max(rect.width(), rect.height())  # room for scroll bars that come and go
        for _ in range(2):  # again once the scroll bars have come or gone with the first fit
            self.fitInView(rect.adjusted(-margin, -margin, margin, margin), Qt.AspectRatioMode.KeepAspectRatio)
        if self.transform().m11() > 1.0:
            self.resetTransform()
        self.centerOn(rect.center())
        self.update_detail()

    def update_detail(self) -> None:
        """Floor blocks below FLOOR_BELOW_LOD, rack items above (selection kept across)."""
        floor = self.transform().m11() < FLOOR_BELOW_LOD
        if floor != self.floor_mode:
            self._quiet_selection = True
            try:
                if floor:
                    self._kept_selection = self.scene().selectedItems()
                    rack = next((i.rack_id if isinstance(i, RackItem) else i.parentItem().rack_id
                                 for i in self._kept_selection), None)
                    self.floor.selected = rack
                    self.floor_mode = True
                    self.layer.setVisible(False)
                    self.floor.setVisible(True)
                else:
                    self.floor_mode = False
                    self.floor.setVisible(False)
                    self.layer.setVisible(True)
                    for item in self._kept_selection:
                        if item.scene() is self.scene():
                            item.setSelected(True)
                    self._kept_selection = []
            finally:
                self._quiet_selection = False
        self.visibleAreaChanged.emit()

    def paintEvent(self, event) -> None:
        if (self.transform().m11() < FLOOR_BELOW_LOD) != self.floor_mode:
            self.update_detail()  # zoomed by Qt itself (fitInView, scale): switch before drawing
        if not self.floor_mode and self.transform().m11() >= LABELS_FROM_LOD:
            # racks about to be drawn close enough for labels get their device items first,
            # so they are drawn once, complete (not as blocks, then again with the items)
            area = self.mapToScene(event.rect()).boundingRect()
            for item in self.scene().items(area, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
                if isinstance(item, RackItem) and not item.materialised:
                    item.materialise(redraw=False)
        super().paintEvent(event)

    def zoom_to_rack_height(self) -> None:
        """Readable start: the first row of racks fills the height, the row starts at the left."""
        self._auto_zoom = True
        if self.campus.outlined:  # the first hall's first row (the plan's first racks may stand in two halls)
            first = [self.racks[rid] for rid in (self.rows[0] if self.rows else [])[:theme.RACKS_PER_ROW]]
        else:
            first = [self.racks[r.id] for r in self.doc.plan.racks[:theme.RACKS_PER_ROW] if r.id in self.racks]
        if not first:
            self.resetTransform()
            return
        row = QRectF()
        for item in first:
            row = row.united(item.sceneBoundingRect())
        row = row.adjusted(-20, -12, 20, 12)
        hall = self.campus.hall_of(first[0].rack_id) if self.campus.outlined else None
        if hall is not None:  # and the name of the hall above it
            row.setTopLeft(hall.rect.topLeft() - QPointF(8, 8))
        vp = self.viewport().rect()
        # The height left with the horizontal scroll bar shown, whether it shows or not: fitted
        # to the viewport as it is, a zoom that hid or showed the bar resized the viewport and
        # was fitted again, for ever (the app hung at 1920 x 1080 with the charts 360 px tall).
        bar = self.horizontalScrollBar()
        height = vp.height() - (0 if bar.isVisible() else bar.sizeHint().height())
        scale = max(ZOOM_MIN, min(1.0, height / row.height()))
        self.resetTransform()
        self.scale(scale, scale)
        self.update_detail()
        self.centerOn(row.left() + vp.width() / (2 * scale), row.center().y())

    def zoom_level(self) -> float:
        return self.transform().m11()

    # -- keyboard navigation -------------------------------------------------------------
    def _rack_of_selection(self) -> str | None:
        for item in self._selected_items():
            if isinstance(item, RackItem):
                return item.rack_id
            if isinstance(item, DeviceItem):
                return item.parentItem().rack_id
        return None

    def neighbour_rack(self, rack_id: str, key) -> str | None:
        """The rack left/right of ``rack_id`` in its row, or at the same place in the row above/below."""
        for r, row in enumerate(self.rows):
            if rack_id in row:
                col = row.index(rack_id)
                if key == Qt.Key.Key_Left:
                    return row[col - 1] if col > 0 else None
                if key == Qt.Key.Key_Right:
                    return row[col + 1] if col + 1 < len(row) else None
                other = r - 1 if key == Qt.Key.Key_Up else r + 1
                if 0 <= other < len(self.rows):
                    return self.rows[other][min(col, len(self.rows[other]) - 1)]
                return None
        return None

    def navigate_key(self, event) -> bool:
        """Handle one of ``VIEW_KEYS``; False when the key is not one (or does not apply now)."""
        key, mods = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods and not (mods == Qt.KeyboardModifier.ShiftModifier and key == Qt.Key.Key_Plus):
            return False  # "+" is Shift+= on many layouts; other modified keys are the actions'
        return any(key in vk.keys and getattr(self, vk.handler)(key) for vk in VIEW_KEYS)

    def _key_nudge(self, key) -> bool:
        devices = self.selected_devices()
        if len(devices) != 1:
            return False
        self.nudge(devices[0], 1 if key == Qt.Key.Key_Up else -1)
        return True

    def _key_neighbour(self, key) -> bool:
        rack = self._rack_of_selection()
        if rack is None:
            return False  # nothing selected: the arrows scroll
        target = self.neighbour_rack(rack, key)
        if target is not None:
            self._select_rack_keeping_zoom(target)
        return True

    def _key_zoom_in(self, _key) -> bool:
        self.zoom_by(1.25)
        return True

    def _key_zoom_out(self, _key) -> bool:
        self.zoom_by(0.8)
        return True

    def _key_home(self, _key) -> bool:
        self.zoom_to_fit()
        return True

    def _key_enter(self, _key) -> bool:
        rack = self._rack_of_selection()
        if rack is None:
            return False
        self._auto_zoom = False
        self.set_zoom(max(READABLE_ZOOM, self.transform().m11()))
        self.centre_on_rack(rack)
        return True

    def _key_escape(self, _key) -> bool:
        self.scene().clearSelection()
        if self.floor_mode:
            self._kept_selection = []
            self.floor.selected = None
            self.floor.update()
            self.selectionChangedTo.emit()
        return True

    def _select_rack_keeping_zoom(self, rack_id: str) -> None:
        if self.floor_mode:
            self.floor.selected = rack_id
            self._kept_selection = [self.racks[rack_id]]
            self.floor.update()
            if not self._on_screen(rack_id):
                self.centre_on_rack(rack_id)
            self.selectionChangedTo.emit()
            return
        self.scene().clearSelection()
        self.racks[rack_id].setSelected(True)
        self.show_top_of(self.racks[rack_id].sceneBoundingRect())

    def show_top_of(self, rect) -> None:
        """Scroll so that ``rect`` is in view; of a rack taller than the view, its top: the name
        and power bar a selection is recognised by (Qt would show an end of it at random)."""
        room = self.mapToScene(self.viewport().rect()).boundingRect().height() - 80
        if 0 < room < rect.height():
            rect = QRectF(rect.x(), rect.y(), rect.width(), room)
        self.ensureVisible(rect, 40, 40)

    def _on_screen(self, rack_id: str) -> bool:
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        return visible.contains(self.floor.rack_rect(rack_id))
