"""The floor: where each rack stands, and the load it puts on the floor.

Each data hall is its own floor (``planner.plan.campus``): rows never span halls. In a hall,
rows come from the racks' ``row`` names (rows in order of first appearance, racks in plan
order within a row); racks without a row fill rows of ``racks_per_row`` in plan order.
Rows face alternately: a cold aisle between rows 1 and 2, a hot aisle between 2 and 3,
and so on (hot/cold aisle containment), so the pitch from row to row alternates between
depth + cold aisle and depth + hot aisle.

Coordinates: ``floor_spots`` places each rack in its hall's own frame (x along the rows from
the first rack's left edge, y across them from the first row's centre line);
``campus_spots`` adds the hall's origin in its building and the building's on the campus,
one frame for every rack of the plan (what cable runs between halls and a campus drawing
need).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from planner.plan.campus import campus_of
from planner.plan.model import Plan, Rack
from planner.settings import FloorSettings


@dataclass(frozen=True, slots=True)
class Spot:
    row: int  # 0-based row index within the hall
    row_name: str
    position: int  # 0-based position along the row
    x_m: float  # centre of the rack along the row, in the hall's frame
    y_m: float  # centre of the rack across the rows, in the hall's frame
    hall: str = ""  # the hall's id


@dataclass(frozen=True, slots=True)
class CampusSpot:
    """Where a rack stands on the campus: its building and hall (ids), its row and place in
    the row, the centre of its footprint in the hall's frame (``hall_x_m``, ``hall_y_m``) and
    on the campus (``x_m``, ``y_m`` = building origin + hall origin + place in the hall)."""

    building: str
    hall: str
    row: int
    row_name: str
    position: int
    x_m: float
    y_m: float
    hall_x_m: float
    hall_y_m: float


def floor_load_kg_m2(total_kg: float, width_mm: float, depth_mm: float, aisle_share_mm: float = 0.0) -> float:
    """Static floor load: the rack's weight (equipment + enclosure) over its footprint,
    width x (depth + the aisle depth counted with it)."""
    area = width_mm / 1000 * (depth_mm + aisle_share_mm) / 1000
    return total_kg / area if area > 0 else 0.0


def aisle_share_to_carry_mm(total_kg: float, width_mm: float, depth_mm: float, rating_kg_m2: float,
                            step_mm: float = 50.0) -> float:
    """The aisle depth (in whole ``step_mm``) a rack must spread its load over for the floor to
    carry it: ``floor_load_kg_m2`` within ``rating_kg_m2`` when total / (width x (depth + aisle))
    <= rating, i.e. aisle >= total / (rating x width) - depth; 0 when its footprint carries it."""
    need_mm = total_kg / (rating_kg_m2 * width_mm / 1000) * 1000 - depth_mm
    return max(0.0, math.ceil(need_mm / step_mm - 1e-9) * step_mm)


def rows_of(racks: Iterable[Rack], s: FloorSettings) -> list[tuple[str, list]]:
    """(row name, racks in order) for every row of one hall's racks (in plan order)."""
    named: dict[str, list] = {}
    loose = []
    for r in racks:
        if r.row:
            named.setdefault(r.row, []).append(r)
        else:
            loose.append(r)
    rows = list(named.items())
    per = s.racks_per_row
    for i in range(0, len(loose), per):
        rows.append((f"({len(rows) + 1})", loose[i:i + per]))
    return rows


def _hall_spots(hall: str, racks: list[Rack], s: FloorSettings, spots: dict[str, Spot]) -> None:
    y = 0.0
    prev_depth = None
    for i, (name, row) in enumerate(rows_of(racks, s)):
        depth = max(r.depth_mm for r in row) / 1000
        if prev_depth is not None:
            aisle = (s.cold_aisle_mm if i % 2 == 1 else s.hot_aisle_mm) / 1000
            y += prev_depth / 2 + aisle + depth / 2
        x = 0.0
        for j, r in enumerate(row):
            w = r.width_mm / 1000
            spots[r.id] = Spot(i, name, j, x + w / 2, y, hall)
            x += w
        prev_depth = depth


def floor_spots(plan: Plan, s: FloorSettings) -> dict[str, Spot]:
    """Every rack's place in its hall: row, position and the centre of its footprint in
    metres, in the hall's frame (halls in campus order, racks in plan order)."""
    spots: dict[str, Spot] = {}
    for hall, racks in campus_of(plan).racks_by_hall(plan.racks).items():
        _hall_spots(hall, racks, s, spots)
    return spots


def campus_spots(plan: Plan, s: FloorSettings | None = None) -> dict[str, CampusSpot]:
    """Every rack's place on the campus, by rack id: ``floor_spots`` (with the floor settings
    ``s``, the plan's when None) moved by its hall's origin in its building (``Hall.x_m``,
    ``y_m``) and its building's on the campus (``Building.x_m``, ``y_m``). One pass over the
    racks; the distance between two racks' ``x_m``/``y_m`` is straight-line on the campus."""
    campus = campus_of(plan)
    out: dict[str, CampusSpot] = {}
    for rack_id, sp in floor_spots(plan, s if s is not None else plan.settings.floor).items():
        b, h = campus.halls[sp.hall]
        out[rack_id] = CampusSpot(b.id, h.id, sp.row, sp.row_name, sp.position, b.x_m + h.x_m + sp.x_m,
                                  b.y_m + h.y_m + sp.y_m, sp.x_m, sp.y_m)
    return out


@dataclass(frozen=True, slots=True)
class Aisle:
    kind: str  # "cold" or "hot"
    y0_m: float  # from the front of the floor plan
    y1_m: float


@dataclass(frozen=True, slots=True)
class FloorRow:
    name: str
    y0_m: float  # the racks' front edge... the row's band across the floor
    y1_m: float
    width_m: float  # along the row, end to end
    racks: tuple[str, ...]  # rack ids in order


@dataclass(frozen=True, slots=True)
class FloorLayout:
    """The floor as a drawing needs it: each rack's footprint (x, y of its corner, width,
    depth in metres), the rows' bands and the aisles between them, and the overall size."""

    racks: dict[str, tuple[float, float, float, float]]
    rows: tuple[FloorRow, ...]
    aisles: tuple[Aisle, ...]
    width_m: float
    depth_m: float


def floor_layout(plan: Plan, s: FloorSettings, hall: str | None = None) -> FloorLayout:
    """Footprints, rows and aisles of one hall (by id; None: every hall, each in its own
    frame, which for a plan of one hall is its floor) from ``floor_spots``: a rack stands
    centred on its spot; the aisle between rows i and i + 1 of a hall is cold after row 1,
    3, ... (i even), hot otherwise."""
    spots = floor_spots(plan, s)  # halls in campus order, each row by row
    racks: dict[str, tuple[float, float, float, float]] = {}
    bands: dict[tuple[str, int], list] = {}
    for rack_id, sp in spots.items():
        if hall is not None and sp.hall != hall:
            continue
        r = plan.rack(rack_id)
        w, d = r.width_mm / 1000, r.depth_mm / 1000
        racks[r.id] = (sp.x_m - w / 2, sp.y_m - d / 2, w, d)
        bands.setdefault((sp.hall, sp.row), []).append((r, sp))
    rows, aisles = [], []
    keys = list(bands)
    for key in keys:
        members = bands[key]
        y0 = min(racks[r.id][1] for r, _ in members)
        y1 = max(racks[r.id][1] + racks[r.id][3] for r, _ in members)
        width = max(racks[r.id][0] + racks[r.id][2] for r, _ in members)
        rows.append(FloorRow(members[0][1].row_name, y0, y1, width, tuple(r.id for r, _ in members)))
    for i in range(len(rows) - 1):
        (hall_a, row_a), (hall_b, _) = keys[i], keys[i + 1]
        if hall_a == hall_b:  # no aisle from one hall's last row to the next hall's first
            aisles.append(Aisle("cold" if row_a % 2 == 0 else "hot", rows[i].y1_m, rows[i + 1].y0_m))
    width = max((row.width_m for row in rows), default=0.0)
    depth = max(row.y1_m for row in rows) - min(row.y0_m for row in rows) if rows else 0.0
    return FloorLayout(racks, tuple(rows), tuple(aisles), width, depth)
