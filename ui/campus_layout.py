"""Where the rack view puts each rack of a campus: racks in rows per data hall, halls in their
buildings, buildings on the campus, in scene pixels.

Inside a hall the racks stand in rows as they always have (``ui.floor.floor_rows``: rack
elevations side by side, bottoms aligned). The halls of a building, and the buildings of the
campus, are arranged as their positions lie (``Hall.x_m``/``y_m`` in its building,
``Building.x_m``/``y_m`` on the campus): those at the same y form a line, left to right by x,
the lines top to bottom by y. Distances are not to scale -- a rack's elevation is drawn far
larger than its footprint -- so each box stands a gap after the one before it. Boxes that all
share one position (a campus whose positions were never set) are put in a grid about as wide
as it is tall.

A plan of one hall has no outlines and its racks stand where they always did: the outline and
its name band would only take room.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF

from planner.plan.campus import campus_of
from ui import theme
from ui.floor import floor_rows
from ui.rack_items import RACK_W, rack_height_px

HALL_PAD, HALL_HEAD, HALL_GAP = 40.0, 150.0, 160.0
"""Room around a hall's racks, the band above them for its name, and between two halls."""
BUILDING_PAD, BUILDING_HEAD, BUILDING_GAP = 60.0, 160.0, 600.0
EMPTY_HALL = QRectF(0, 0, 2 * RACK_W + theme.RACK_GAP, 400.0)
"""The size of a hall without racks, so that its outline and name still show."""


@dataclass(slots=True)
class HallBox:
    id: str
    name: str
    building: str
    rect: QRectF  # its outline
    rows: list[list[str]]  # rack ids, row by row


@dataclass(slots=True)
class BuildingBox:
    id: str
    name: str
    rect: QRectF
    halls: list[str]


@dataclass(slots=True)
class CampusLayout:
    positions: dict[str, QPointF] = field(default_factory=dict)  # each rack item's position
    rects: dict[str, QRectF] = field(default_factory=dict)  # each rack's block on the floor
    halls: list[HallBox] = field(default_factory=list)
    buildings: list[BuildingBox] = field(default_factory=list)
    outlined: bool = False  # more than one hall: halls and buildings are drawn
    _hall_of: dict[str, HallBox] = field(default_factory=dict, repr=False)

    @property
    def rows(self) -> list[list[str]]:
        return [row for hall in self.halls for row in hall.rows]

    def hall(self, hall_id: str) -> HallBox | None:
        return next((h for h in self.halls if h.id == hall_id), None)

    def building(self, building_id: str) -> BuildingBox | None:
        return next((b for b in self.buildings if b.id == building_id), None)

    def hall_of(self, rack_id: str) -> HallBox | None:
        if not self._hall_of:  # made on first use (a layout is made anew on every relayout)
            self._hall_of = {rid: h for h in self.halls for row in h.rows for rid in row}
        return self._hall_of.get(rack_id)

    def bounds(self) -> QRectF:
        """The buildings' outlines, or (one hall, no outlines) the racks' blocks."""
        return _union(b.rect for b in self.buildings) if self.outlined else _union(self.rects.values())


def _union(rects) -> QRectF:
    out = QRectF()
    for r in rects:
        out = out.united(r)
    return out


def arrange(places: list[tuple[float, float]], sizes: list[tuple[float, float]], gap: float) -> list[QPointF]:
    """Top-left corners for boxes of ``sizes`` whose positions are ``places`` (x, y in metres):
    lines of equal y top to bottom, left to right by x in a line, ``gap`` between boxes; boxes
    that all share one position fill a grid about as wide as it is tall."""
    n = len(places)
    if n > 1 and len(set(places)) == 1:
        cols = math.ceil(math.sqrt(n))
        places = [(float(i % cols), float(i // cols)) for i in range(n)]
    lines: dict[float, list[int]] = {}
    for i in sorted(range(n), key=lambda i: (places[i][1], places[i][0])):
        lines.setdefault(places[i][1], []).append(i)
    corners = [QPointF()] * n
    y = 0.0
    for members in lines.values():
        x = 0.0
        for i in members:
            corners[i] = QPointF(x, y)
            x += sizes[i][0] + gap
        y += max(sizes[i][1] for i in members) + gap
    return corners


def _lay_out_hall(racks: list, height_of) -> tuple[list[list[str]], dict[str, tuple[float, float, float]],
                                                   QRectF | None]:
    """A hall's racks in rows from (0, 0), as the rack view always laid out its floor: rows of
    ids, each rack's (x, y, height) and the racks' extent (None: no racks). Plain numbers
    until the campus is placed: the rack items' points and blocks are made once, where they
    stand (made per hall and moved twice, they took 0.35 s of opening campus-1m)."""
    rows = floor_rows(racks, lambda r: rack_height_px(r.height_u), RACK_W + theme.RACK_GAP)
    ids = [[r.id for r in row] for row in rows]
    spots: dict[str, tuple[float, float, float]] = {}
    pitch = RACK_W + theme.RACK_GAP
    y = right = bottom = 0.0
    top = None
    for row in ids:
        heights = [height_of(rid) for rid in row]
        row_h = max(heights)
        for col, (rid, h) in enumerate(zip(row, heights)):
            spots[rid] = (col * pitch, y + row_h - h, h)
            top = y + row_h - h if top is None else min(top, y + row_h - h)
            bottom = max(bottom, y + row_h - 6)
        right = max(right, (len(row) - 1) * pitch + RACK_W)
        y += row_h + theme.ROW_GAP
    extent = QRectF(0.0, top, right, bottom - top) if spots else None
    return ids, spots, extent


def _place(out: CampusLayout, spots: dict[str, tuple[float, float, float]], dx: float, dy: float) -> None:
    """Each rack item's position and floor block, ``(dx, dy)`` from where its hall laid it out."""
    positions, rects = out.positions, out.rects
    for rid, (x, y, h) in spots.items():
        positions[rid] = QPointF(x + dx, y + dy)
        rects[rid] = QRectF(x + dx, y + dy, RACK_W, h - 6)


def lay_out_campus(plan, racks: list, height_of) -> CampusLayout:
    """Every rack's place (``racks`` in plan order; ``height_of(rack_id)`` its item's height),
    each hall's and building's outline."""
    campus = campus_of(plan)
    by_hall = campus.racks_by_hall(racks)
    out = CampusLayout(outlined=len(campus.halls) > 1)
    if not out.outlined:
        hall_id, (building, hall) = next(iter(campus.halls.items()))
        rows, spots, extent = _lay_out_hall(by_hall[hall_id], height_of)
        _place(out, spots, 0.0, 0.0)
        out.halls = [HallBox(hall.id, hall.name, building.id, extent or QRectF(), rows)]
        out.buildings = [BuildingBox(building.id, building.name, out.halls[0].rect, [hall.id])]
        return out
    laid_out: list[tuple[object, dict, float, float]] = []  # (hall box, spots, dx, dy) in its building
    inner = []
    for building in campus.buildings:
        laid = [_lay_out_hall(by_hall[h.id], height_of) for h in building.halls]
        outlines = [(extent or QRectF(EMPTY_HALL)).adjusted(-HALL_PAD, -HALL_PAD - HALL_HEAD, HALL_PAD, HALL_PAD)
                    for _, _, extent in laid]
        corners = arrange([(h.x_m, h.y_m) for h in building.halls],
                          [(r.width(), r.height()) for r in outlines], HALL_GAP)
        boxes = []
        for hall, (rows, spots, _), outline, corner in zip(building.halls, laid, outlines, corners):
            shift = corner - outline.topLeft()
            box = HallBox(hall.id, hall.name, building.id, outline.translated(shift), rows)
            boxes.append(box)
            laid_out.append((box, spots, shift.x(), shift.y()))
        rect = _union(b.rect for b in boxes)
        inner.append(rect.adjusted(-BUILDING_PAD, -BUILDING_PAD - BUILDING_HEAD, BUILDING_PAD, BUILDING_PAD))
        out.halls += boxes
    corners = arrange([(b.x_m, b.y_m) for b in campus.buildings], [(r.width(), r.height()) for r in inner],
                      BUILDING_GAP)
    shift_of = {}
    for building, rect, corner in zip(campus.buildings, inner, corners):
        shift = corner - rect.topLeft()
        shift_of[building.id] = shift
        out.buildings.append(BuildingBox(building.id, building.name, rect.translated(shift),
                                         [h.id for h in building.halls]))
    for box, spots, dx, dy in laid_out:
        shift = shift_of[box.building]
        box.rect.translate(shift)
        _place(out, spots, dx + shift.x(), dy + shift.y())
    return out
