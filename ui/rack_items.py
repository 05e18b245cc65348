"""Graphics items of the elevation view: one RackItem per rack, one DeviceItem per placed device.

What a rack and its devices show — boxes in U, colours, names, figures — is the core's
elevation layout (``planner.report.elevation``), the same the exported elevations draw;
here it becomes pixels (U -> y) in the app's number notation.

Level of detail: below ``LABELS_FROM_LOD`` a rack draws its devices itself as plain
blocks and has no DeviceItems yet; they are created the first time the rack is drawn
close enough for labels, or when anything asks for ``RackItem.devices`` (selection,
tests). A 100,000-GPU plan therefore opens without building 18,000 device items.

Why it is long: the two graphics items paint by level of detail (blocks, one-line and
two-line labels, headers) and handle their own mouse input; what they show is the core's
elevation layout.
"""

from __future__ import annotations

import math

from shiboken6 import isValid
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem

from planner.hardware.catalog import DeviceType
from planner.plan.model import Placement, Rack
from planner.report.elevation import DeviceBox, RackHeading, device_box, rack_heading
from planner.facility.rack_result import RackResult
from planner.report import palette
from ui import fmt, theme
from ui.floor import LABELS_FROM_LOD

PAD = 6.0  # frame thickness around the U slots
CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache
RACK_W = theme.GUTTER_W + theme.RACK_BODY_W + PAD
# Flag combinations made once: or-ing Qt flags builds a Python enum value each time, which
# showed when opening 8,000 racks and drawing their labels.
BUTTONS = Qt.MouseButton.LeftButton | Qt.MouseButton.RightButton
LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


_min_text_px: float | None = None


def min_text_px() -> float:
    """The smallest text the view draws, in screen pixels: the app's normal font less 2 pt."""
    global _min_text_px
    if _min_text_px is None:
        font = QApplication.font()
        screen = QApplication.primaryScreen()
        dpi = screen.logicalDotsPerInchY() if screen is not None else 96.0
        pt = font.pointSizeF()
        _min_text_px = (pt - 2) * dpi / 72 if pt > 0 else font.pixelSize() - 2 * dpi / 72
    return _min_text_px


def text_px(base_px: float, lod: float) -> float:
    """A font's pixel size in scene units: ``base_px``, or larger so that it is at least
    ``min_text_px()`` on screen at the painter's scale ``lod``."""
    return max(base_px, min_text_px() / max(lod, 1e-6))


def rack_height_px(height_u: int) -> float:
    return theme.HEADER_H + 2 * PAD + height_u * theme.U_PX


def device_rect(rack: RackItem, u: int, u_height: int) -> QRectF:
    """Where a device of ``u_height`` at bottom slot ``u`` is drawn, in the rack's coordinates."""
    return QRectF(theme.GUTTER_W + 1, rack.slot_top(u + u_height - 1) + 1, theme.RACK_BODY_W - 2,
                  u_height * theme.U_PX - 2)


class DeviceItem(QGraphicsObject):
    """A placed device: a block coloured by category, labelled, U-high. Dragging it starts a move."""

    def __init__(self, placement: Placement, device: DeviceType | None, parent: RackItem):
        super().__init__(parent)
        self._rect = self._bounds = QRectF()  # before any call that may ask Qt for the bounding rect
        self._drawn: tuple | None = None
        self.placement = None
        self.placement_id = placement.id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setAcceptedMouseButtons(BUTTONS)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setCacheMode(CACHE)  # labels are the costly part; redrawn only when the item changes
        self._press: QPointF | None = None
        self.sync(placement, device, "typical")

    def sync(self, placement: Placement, device: DeviceType | None, basis: str, box: DeviceBox | None = None) -> None:
        rack: RackItem = self.parentItem()  # type: ignore[assignment]
        box = box if box is not None else device_box(placement, device, basis)
        drawn = (box, placement.u, placement.label, placement.device, device, basis, rack.rack.height_u)
        if drawn == self._drawn and placement is self.placement:
            return  # unchanged: its cached drawing stays (an edit re-syncs every device of the rack)
        self._drawn = drawn
        self.placement = placement
        self.device = device
        self.basis = basis
        self.box = box
        rect = device_rect(rack, self.box.u, self.box.height_u)
        if rect.size() != self._rect.size():
            self.prepareGeometryChange()
            self._rect = QRectF(0, 0, rect.width(), rect.height())
            self._bounds = self._rect.adjusted(-2, -2, 2, 2)
        self.setPos(rect.topLeft())
        tip = f"{placement.label or placement.id} — {device.title if device else placement.device}"
        if device:
            tip += (f"\n{device.u_height}U at U{placement.u}, {fmt.watts(device.power_typical_w)} typical, "
                    f"{fmt.watts(device.power_max_w)} nameplate")
        self.setToolTip(tip)
        self.update()

    def boundingRect(self) -> QRectF:
        # kept, not made on each call: Qt asks about 500 times per repaint of the rack view
        # (campus-400k, 2026-12-01), 0.3-0.8 ms of the drop's 16 ms frame
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        r = self._rect
        box = self.box
        base = QColor(box.fill)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(base.lighter(135), 1))
        painter.setBrush(QBrush(base))
        painter.drawRoundedRect(r, 3, 3)
        if self.isSelected():
            painter.setPen(QPen(theme.SELECTION, 2.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(r.adjusted(1, 1, -1, -1), 3, 3)
        if option.levelOfDetailFromTransform(painter.worldTransform()) < LABELS_FROM_LOD:
            return  # zoomed far out: blocks only, which keeps thousands of racks fast to draw
        ink = QColor(box.ink)
        painter.setPen(ink)
        font = QFont(painter.font())
        px = text_px(11, option.levelOfDetailFromTransform(painter.worldTransform()))
        font.setPixelSize(round(px))
        one_u = r.height() < theme.U_PX * 1.5
        if r.height() < px:
            return  # text this small on screen would not be legible: the tooltip names it
        text_r = r.adjusted(6, 0, -6, 0)
        name, model, power = box.name, box.model, fmt.local(box.power)
        metrics = QFontMetricsF(font)
        if one_u or r.height() < 2 * (px + 3) + 2:
            font.setBold(True)
            painter.setFont(font)
            name_w = min(QFontMetricsF(font).horizontalAdvance(name) + 8, text_r.width() * 0.45)
            painter.drawText(QRectF(text_r.left(), r.top(), name_w, r.height()),
                             LEFT,
                             QFontMetricsF(font).elidedText(name, Qt.TextElideMode.ElideRight, name_w))
            font.setBold(False)
            painter.setFont(font)
            power_w = metrics.horizontalAdvance(power) + 8
            painter.drawText(text_r, RIGHT, power)
            room = text_r.width() - name_w - power_w
            if room > 30:
                painter.setPen(QColor(ink.red(), ink.green(), ink.blue(), 190))
                painter.drawText(QRectF(text_r.left() + name_w, r.top(), room, r.height()),
                                 LEFT,
                                 metrics.elidedText(model, Qt.TextElideMode.ElideRight, room))
        else:
            line = px + 3
            font.setBold(True)
            painter.setFont(font)
            top = QRectF(text_r.left(), r.top() + 2, text_r.width(), line)
            power_w = metrics.horizontalAdvance(power) + 8
            painter.drawText(top.adjusted(0, 0, -power_w, 0), LEFT,
                             QFontMetricsF(font).elidedText(name, Qt.TextElideMode.ElideRight,
                                                            max(0.0, text_r.width() - power_w)))
            font.setBold(False)
            painter.setFont(font)
            painter.drawText(top, RIGHT, power)
            painter.setPen(QColor(ink.red(), ink.green(), ink.blue(), 200))
            below = QRectF(text_r.left(), r.top() + 2 + line, text_r.width(), line)
            painter.drawText(below, LEFT,
                             metrics.elidedText(model, Qt.TextElideMode.ElideRight, text_r.width()))

    # -- dragging a placed device -------------------------------------------------------
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.pos()
            if not self.isSelected():
                if not (event.modifiers() & Qt.KeyboardModifier.ControlModifier):
                    self.scene().clearSelection()
                self.setSelected(True)
            elif event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self.setSelected(False)
            event.accept()
        else:
            event.ignore()

    def mouseMoveEvent(self, event) -> None:
        if self._press is None or not self.device:
            return
        if (event.pos() - self._press).manhattanLength() < QApplication.startDragDistance():
            return
        grab_u = self.device.u_height - 1 - int(self._press.y() // theme.U_PX)
        self._press = None
        view = self.scene().views()[0] if self.scene() and self.scene().views() else None
        if view is not None:
            view.start_device_drag(self, max(0, min(self.device.u_height - 1, grab_u)))

    def mouseReleaseEvent(self, event) -> None:
        self._press = None
        event.accept()


class RackItem(QGraphicsItem):
    """A rack: header (name, cooling, power bar used / cap kW), U numbers with U1 at the bottom, slots."""

    def __init__(self, rack: Rack, result: RackResult | None):
        super().__init__()
        self._rect = QRectF(0, 0, RACK_W, rack_height_px(rack.height_u))
        self.rack_id = rack.id
        self._devices: dict[str, DeviceItem] = {}
        self._materialised = False  # DeviceItems exist (see the module docstring)
        self._members: dict[str, Placement] = {}
        self._boxes: dict[str, DeviceBox] | None = None  # the core's layout of the members, made when first drawn
        self._heading: RackHeading | None = None
        self._catalog = None
        self._basis = "typical"
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setAcceptedMouseButtons(BUTTONS)
        self.setCacheMode(CACHE)  # slot lines and U numbers are redrawn only when the rack changes
        self.rack = rack
        self.result = result

    @property
    def devices(self) -> dict[str, DeviceItem]:
        """The rack's device items by placement id (created on first use)."""
        self.materialise()
        return self._devices

    @property
    def materialised(self) -> bool:
        return self._materialised

    def materialise(self, redraw: bool = True) -> None:
        """Create the DeviceItems of this rack if they do not exist yet (``redraw`` False: the
        rack is about to be drawn anyway)."""
        if self._materialised or self._catalog is None:
            return
        self._materialised = True
        self._sync_devices()
        if redraw:
            self.update()

    # -- geometry -----------------------------------------------------------------------
    def slot_top(self, u: int) -> float:
        """Local y of the top edge of slot ``u`` (U1 is the bottom slot)."""
        return theme.HEADER_H + PAD + (self.rack.height_u - u) * theme.U_PX

    def u_at(self, local_y: float) -> int:
        """The slot under a local y (may be outside 1..height: the caller checks the fit)."""
        return self.rack.height_u - math.floor((local_y - theme.HEADER_H - PAD) / theme.U_PX)

    def body_rect(self) -> QRectF:
        return QRectF(theme.GUTTER_W, theme.HEADER_H + PAD, theme.RACK_BODY_W, self.rack.height_u * theme.U_PX)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-3, -3, 3, 3)

    # -- model -> item ------------------------------------------------------------------
    def sync(self, rack: Rack, members: dict[str, Placement], result: RackResult | None, catalog, basis: str) -> None:
        """Bring this rack's drawing up to date with the plan and its evaluation."""
        if rack.height_u != self.rack.height_u or self._rect.height() != rack_height_px(rack.height_u):
            self.prepareGeometryChange()
            self._rect = QRectF(0, 0, RACK_W, rack_height_px(rack.height_u))
        self.rack, self.result = rack, result
        self._members, self._catalog, self._basis = dict(members), catalog, basis
        self._boxes, self._heading = None, None
        if self._materialised:
            self._sync_devices()
        self.update()

    def boxes(self) -> dict[str, DeviceBox]:
        """The rack's devices as the core lays them out (``planner.report.elevation``), by placement id."""
        if self._boxes is None:
            catalog, basis = self._catalog, self._basis
            self._boxes = {pid: device_box(p, catalog.get(p.device), basis) for pid, p in self._members.items()}
        return self._boxes

    def _sync_devices(self) -> None:
        members, catalog, basis = self._members, self._catalog, self._basis
        boxes = self.boxes()
        for pid in [pid for pid in self._devices if pid not in members]:
            item = self._devices.pop(pid)
            item.setParentItem(None)
            if item.scene():
                item.scene().removeItem(item)
        for pid, p in members.items():
            item = self._devices.get(pid)
            if item is None:
                self._devices[pid] = item = DeviceItem(p, catalog.get(p.device), self)
            item.sync(p, catalog.get(p.device), basis, boxes[pid])

    def mousePressEvent(self, event) -> None:
        # at medium zoom the devices may not be items yet: a click on one selects it
        if not self._materialised and event.button() == Qt.MouseButton.LeftButton:
            self.materialise()
            hit = next((d for d in self._devices.values()
                        if d.mapRectToParent(d.boundingRect()).contains(event.pos())), None)
            if hit is not None:
                if not (event.modifiers() & Qt.KeyboardModifier.ControlModifier):
                    self.scene().clearSelection()
                hit.setSelected(True)
                event.accept()
                return
        super().mousePressEvent(event)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        rack, res = self.rack, self.result
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        frame = QRectF(theme.GUTTER_W - PAD, theme.HEADER_H, theme.RACK_BODY_W + 2 * PAD,
                       rack.height_u * theme.U_PX + 2 * PAD)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.RACK_FRAME)
        painter.drawRoundedRect(frame, 4, 4)
        body = self.body_rect()
        painter.setBrush(theme.RACK_INTERIOR)
        painter.drawRect(body)
        # slot lines and U numbers
        font = QFont(painter.font())
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        u_px = text_px(9, lod)
        font.setPixelSize(round(u_px))
        painter.setFont(font)
        # U numbers no smaller than the minimum text: every U where they fit, else every 5th, and
        # none where the gutter is narrower than the widest (a clipped "42" read "2")
        every = 1 if u_px <= theme.U_PX else 5 if u_px <= 5 * theme.U_PX else 0
        if QFontMetricsF(font).horizontalAdvance(str(rack.height_u)) > theme.GUTTER_W - 2:  # the box drawn in
            every = 0
        detail = lod >= LABELS_FROM_LOD
        if detail and not self._materialised:
            _materialise_soon(self)  # not while the scene is being painted
        if not self._materialised:
            self._paint_device_blocks(painter)
        for u in range(1, rack.height_u + 1) if detail else ():
            y = self.slot_top(u)
            painter.setPen(QPen(theme.RACK_SLOT_LINE, 1))
            painter.drawLine(QPointF(body.left(), y), QPointF(body.right(), y))
            if every and (u % every == 0 or u == 1):
                painter.setPen(theme.RACK_MUTED_TEXT)
                painter.drawText(QRectF(-PAD, y + theme.U_PX / 2 - u_px, theme.GUTTER_W - 2, 2 * u_px),
                                 RIGHT, str(u))
        self._paint_header(painter, rack, res)
        if self.isSelected():
            painter.setPen(QPen(theme.SELECTION, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(self._rect.adjusted(1, 1, -1, -1), 5, 5)

    def _paint_device_blocks(self, painter: QPainter) -> None:
        """Devices as plain category-coloured blocks, before they are items of their own."""
        if self._catalog is None:
            return
        by_colour: dict[str, list[QRectF]] = {}
        for box in self.boxes().values():
            by_colour.setdefault(box.fill, []).append(device_rect(self, box.u, box.height_u))
        painter.setPen(Qt.PenStyle.NoPen)
        for colour, rects in by_colour.items():
            painter.setBrush(QColor(colour))
            painter.drawRects(rects)

    def _paint_header(self, painter: QPainter, rack: Rack, res: RackResult | None) -> None:
        left = theme.GUTTER_W - PAD
        width = theme.RACK_BODY_W + 2 * PAD
        lod = painter.worldTransform().m11()
        name_px, tag_px, bar_px = text_px(13, lod), text_px(10, lod), text_px(11, lod)
        row = QRectF(left, 0, width, 21)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(round(name_px))
        painter.setFont(font)
        name_w = QFontMetricsF(font).horizontalAdvance(rack.name)
        if name_px <= row.height() + 4:  # legible text only
            painter.setPen(theme.RACK_TEXT)
            painter.drawText(row, LEFT,
                             QFontMetricsF(font).elidedText(rack.name, Qt.TextElideMode.ElideRight, width))
        font.setBold(False)
        font.setPixelSize(round(tag_px))
        painter.setFont(font)
        tag = self.heading().height_tag
        if tag_px <= row.height() and name_w + QFontMetricsF(font).horizontalAdvance(tag) + 8 <= width:
            painter.setPen(theme.RACK_MUTED_TEXT)
            painter.drawText(row, RIGHT, tag)
        bar = QRectF(left, 23, width, 20)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(palette.RACK_HEADER))
        painter.drawRoundedRect(bar, 3, 3)
        if res is not None:
            heading = self.heading()
            fill = QRectF(bar.left(), bar.top(), bar.width() * min(1.0, heading.load), bar.height())
            painter.setBrush(QColor(heading.load_colour))
            painter.drawRoundedRect(fill, 3, 3)
            font.setPixelSize(round(bar_px))
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(QColor("white"))
            if bar_px <= bar.height() + 4:
                painter.drawText(bar.adjusted(6, 0, -6, 0), Qt.AlignmentFlag.AlignCenter, self.power_text())
            else:
                self._paint_zoomed_out_power(painter, font, left, width, bar_px, heading)

    def _paint_zoomed_out_power(self, painter: QPainter, font: QFont, left: float, width: float, px: float,
                                heading) -> None:
        """Zoomed out, the header's rows are too short for its words: a tab of the load colour
        over the top of the rack holds the rack's name above its load (``zoomed_out_lines``)."""
        lines = self.zoomed_out_lines(QFontMetricsF(font), width)
        if not lines:
            return
        row_h = px * 1.25
        tab = QRectF(left, 0, width, max(44.0, row_h * len(lines)))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(heading.load_colour))
        painter.drawRoundedRect(tab, 3, 3)
        painter.setPen(QColor("white"))
        top = tab.top() + (tab.height() - row_h * len(lines)) / 2
        for i, text in enumerate(lines):
            painter.drawText(QRectF(left, top + i * row_h, width, row_h), Qt.AlignmentFlag.AlignCenter, text)

    def zoomed_out_lines(self, metrics: QFontMetricsF, width: float) -> list[str]:
        """The zoomed-out tab's lines: the rack's name (cut in the middle to the rack's width:
        "GP…01", as racks' names differ at their ends) above the fuller "28.0 / 30 kW" if it
        fits the width, else the share of the cap; none when not even the share fits. Without
        the name, racks seen whole could not be told apart."""
        room = width - 8
        for load in (self.power_text(), fmt.local(f"{100 * self.heading().load:.0f} %")):
            if metrics.horizontalAdvance(load) <= room:
                name = metrics.elidedText(self.rack.name, Qt.TextElideMode.ElideMiddle, room)
                return [name, load] if name.replace("…", "") else [load]
        return []

    def heading(self) -> RackHeading:
        """The words above the rack, as the core's elevation layout writes them (made once per sync)."""
        if self._heading is None:
            self._heading = rack_heading(self.rack, self.result)
        return self._heading

    def power_text(self) -> str:
        return fmt.local(self.heading().power)

    def power_bar_colour(self) -> QColor:
        return QColor(self.heading().load_colour)


_pending: list[RackItem] = []


def _materialise_soon(rack: RackItem) -> None:
    """Create the rack's device items right after the current paint (adding items while
    the scene paints is not allowed); the rack draws plain blocks until then."""
    if not _pending:
        QTimer.singleShot(0, _materialise_pending)
    if rack not in _pending:
        _pending.append(rack)


def _materialise_pending() -> None:
    racks = list(_pending)
    _pending.clear()
    for rack in racks:
        if isValid(rack) and rack.scene() is not None:  # the scene may have gone meanwhile
            rack.materialise()
