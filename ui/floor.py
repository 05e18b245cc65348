"""The floor: how racks are arranged in rows, and the zoomed-out drawing of every rack as a block.

Below ``FLOOR_BELOW_LOD`` the rack view hides the per-rack items and this one item draws
the whole floor (a block per rack, coloured by load, outlined red when the rack has an
error), in one paint call; a 100,000-GPU plan (about 3,000 racks) stays fast to draw.
Rows come from the racks' ``row`` field when the plan sets it, otherwise racks are
packed in order into rows wide enough that the floor is roughly as wide as it is tall.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from planner.report import palette
from ui import theme

FLOOR_BELOW_LOD = 0.1
"""Below this zoom a rack is under ~30 px wide: racks are drawn as blocks by the floor."""
LABELS_FROM_LOD = 0.3
"""From this zoom device blocks carry their labels (below it text would be under 4 px)."""

ERROR_OUTLINE = QColor(palette.FLOOR_ERROR)
MAX_CLIP_AREAS = 32
"""A clip of more rectangles than this is drawn by its bounding rectangle (one lookup, not many)."""


def floor_rows(racks: list, rack_height_px, rack_pitch_px: float) -> list[list]:
    """Racks grouped into rows, in plan order.

    Racks with a ``row`` name are grouped by it (rows in order of first appearance);
    without names, racks fill rows of ``theme.RACKS_PER_ROW``, widened for big plans to a
    multiple of it so that the floor is about square (``rack_height_px(rack)`` and the
    pitch give the aspect)."""
    if not racks:
        return []
    if any(r.row for r in racks):
        rows: dict[str, list] = {}
        for r in racks:
            rows.setdefault(r.row, []).append(r)
        return list(rows.values())
    per_row = theme.RACKS_PER_ROW
    tall = rack_height_px(racks[0]) + theme.ROW_GAP
    square = math.sqrt(len(racks) * tall / rack_pitch_px)
    if square > per_row:
        per_row *= math.ceil(square / per_row)
    return [racks[i:i + per_row] for i in range(0, len(racks), per_row)]


class _HallRows:
    """One hall's rows for looking racks up: rows by their tops, racks in a row by their right
    edges (a hall's rows never overlap; two halls' rows may stand side by side)."""

    def __init__(self, rects: dict[str, QRectF], rows: list[list[str]]):
        self.rects = rects
        self.rows: list[tuple[float, float, list[str]]] = []  # (top, bottom, rack ids) per row
        self.bounds = QRectF()
        for ids in rows:
            if not ids:
                continue
            row_rect = QRectF()
            for rid in ids:
                row_rect = row_rect.united(rects[rid])
            self.rows.append((row_rect.top(), row_rect.bottom(), sorted(ids, key=lambda rid: rects[rid].left())))
            self.bounds = self.bounds.united(row_rect)
        self.rows.sort(key=lambda row: row[0])
        self.tops = [top for top, _, _ in self.rows]
        self.rights = [[rects[rid].right() for rid in ids] for _, _, ids in self.rows]

    def rack_at(self, x: float, y: float) -> str | None:
        i = bisect_right(self.tops, y) - 1
        if i < 0:
            return None
        top, bottom, ids = self.rows[i]
        if y > bottom:
            return None
        for rid in ids:
            if self.rects[rid].contains(x, y):
                return rid
        return None

    def racks_in(self, area: QRectF, found: list[str]) -> None:
        first = max(0, bisect_right(self.tops, area.top()) - 1)
        for i in range(first, len(self.rows)):
            top, bottom, ids = self.rows[i]
            if top > area.bottom():
                break
            if bottom < area.top():
                continue
            rights = self.rights[i]
            for j in range(bisect_left(rights, area.left()), len(ids)):
                rid = ids[j]
                if self.rects[rid].left() > area.right():
                    break
                found.append(rid)


class FloorItem(QGraphicsItem):
    """Every rack as a block coloured by load (one item, one paint call for the whole floor)."""

    def __init__(self):
        super().__init__()
        self.setZValue(-10)
        # Drawn once into a pixmap of the screen (of the part on screen when zoomed in); a
        # rack's new colour redraws its own block only (``set_state``), not thousands of them.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._bounds = QRectF()
        self._rects: dict[str, QRectF] = {}
        self._colour: dict[str, str] = {}
        self._error: set[str] = set()
        self._halls: list[_HallRows] = []  # the rows of each hall (halls stand side by side)
        self.selected: str | None = None

    def set_layout(self, rects: dict[str, QRectF], halls: list[list[list[str]]]) -> None:
        """Rack rectangles in scene coordinates, and the rack ids of each row, hall by hall."""
        self.prepareGeometryChange()
        self._rects = dict(rects)
        self._halls = [_HallRows(self._rects, rows) for rows in halls]
        self._halls = [h for h in self._halls if h.rows]
        bounds = QRectF()
        for h in self._halls:
            bounds = bounds.united(h.bounds)
        self._bounds = bounds
        self.update()

    def set_state(self, rack_id: str, result) -> None:
        """The load colour and error mark of one rack (from its RackResult)."""
        if result is None:
            colour, error = palette.FLOOR_UNKNOWN, False
        else:
            colour = theme.bar_colour(result.load_fraction).name()
            error = any(f.severity == "error" for f in result.findings)
        self._colour[rack_id] = colour
        (self._error.add if error else self._error.discard)(rack_id)
        rect = self._rects.get(rack_id)
        if rect is not None and self.isVisible():
            self.update(rect.adjusted(-4, -4, 4, 4))

    def forget(self, rack_id: str) -> None:
        self._colour.pop(rack_id, None)
        self._error.discard(rack_id)

    def colour(self, rack_id: str) -> str | None:
        return self._colour.get(rack_id)

    def has_error(self, rack_id: str) -> bool:
        return rack_id in self._error

    def rack_rect(self, rack_id: str) -> QRectF | None:
        return self._rects.get(rack_id)

    def rows(self) -> list[tuple[float, float, list[str]]]:
        """(top, bottom, rack ids left to right) of every row, hall by hall, top to bottom in each."""
        return [row for h in self._halls for row in h.rows]

    def hall_rows(self) -> list[list[tuple[float, float, list[str]]]]:
        return [h.rows for h in self._halls]

    def rack_at(self, x: float, y: float) -> str | None:
        """The rack whose block contains the scene point (x, y), by hall, row, then rack."""
        for h in self._halls:
            if h.bounds.contains(x, y):
                rid = h.rack_at(x, y)
                if rid is not None:
                    return rid
        return None

    def boundingRect(self) -> QRectF:
        return self._bounds.adjusted(-4, -4, 4, 4)

    def racks_in(self, area: QRectF) -> list[str]:
        """The racks whose blocks meet ``area`` (scene coordinates): rows by their tops, racks
        within a row by their right edges, so a small area looks at a few racks only."""
        found: list[str] = []
        for h in self._halls:
            if h.bounds.intersects(area) or h.bounds.contains(area.topLeft()):
                h.racks_in(area, found)
        return found

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        # A redraw of a few blocks (one rack's new colour, two after a move) arrives as the
        # bounding rectangle of them all, which can span the floor; the painter's clip holds
        # just the blocks, so those are what is looked up and drawn.
        areas = [option.exposedRect]
        if painter.hasClipping():
            clip = [QRectF(r) for r in painter.clipRegion()]
            if 0 < len(clip) <= MAX_CLIP_AREAS:
                areas = [r.adjusted(-2, -2, 2, 2).intersected(option.exposedRect) for r in clip]
        by_colour: dict[str, list[QRectF]] = {}
        errors: list[QRectF] = []
        # one area (a whole redraw) has each rack once; clip rectangles can share a rack
        racks = self.racks_in(areas[0]) if len(areas) == 1 else dict.fromkeys(
            rid for area in areas for rid in self.racks_in(area))
        for rid in racks:
            rect = self._rects[rid]
            by_colour.setdefault(self._colour.get(rid, palette.FLOOR_UNKNOWN), []).append(rect)
            if rid in self._error:
                errors.append(rect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        for colour, rects in by_colour.items():
            painter.setBrush(QBrush(QColor(colour)))
            painter.drawRects(rects)
        if errors:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            pen = QPen(ERROR_OUTLINE, 2)
            pen.setCosmetic(True)  # 2 screen pixels at any zoom
            painter.setPen(pen)
            painter.drawRects(errors)
        if self.selected and self.selected in self._rects:
            pen = QPen(theme.SELECTION, 3)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self._rects[self.selected])
