"""The floor: where each rack stands, and the load it puts on the floor.

Rows come from the racks' ``row`` names (rows in order of first appearance, racks in plan
order within a row); racks without a row fill rows of ``racks_per_row`` in plan order.
Rows face alternately: a cold aisle between rows 1 and 2, a hot aisle between 2 and 3,
and so on (hot/cold aisle containment), so the pitch from row to row alternates between
depth + cold aisle and depth + hot aisle.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.plan.model import Plan
from planner.settings import FloorSettings


@dataclass(frozen=True, slots=True)
class Spot:
    row: int  # 0-based row index
    row_name: str
    position: int  # 0-based position along the row
    x_m: float  # centre of the rack along the row
    y_m: float  # centre of the rack across the rows


def floor_load_kg_m2(total_kg: float, width_mm: float, depth_mm: float, aisle_share_mm: float = 0.0) -> float:
    """Static floor load: the rack's weight (equipment + enclosure) over its footprint,
    width x (depth + the aisle depth counted with it)."""
    area = width_mm / 1000 * (depth_mm + aisle_share_mm) / 1000
    return total_kg / area if area > 0 else 0.0


def rows_of(plan: Plan, s: FloorSettings) -> list[tuple[str, list]]:
    """(row name, racks in order) for every row on the floor."""
    named: dict[str, list] = {}
    loose = []
    for r in plan.racks:
        if r.row:
            named.setdefault(r.row, []).append(r)
        else:
            loose.append(r)
    rows = list(named.items())
    per = s.racks_per_row
    for i in range(0, len(loose), per):
        rows.append((f"({len(rows) + 1})", loose[i:i + per]))
    return rows


def floor_spots(plan: Plan, s: FloorSettings) -> dict[str, Spot]:
    """Every rack's place: row, position and the centre of its footprint in metres."""
    spots: dict[str, Spot] = {}
    y = 0.0
    prev_depth = None
    for i, (name, racks) in enumerate(rows_of(plan, s)):
        depth = max(r.depth_mm for r in racks) / 1000
        if prev_depth is not None:
            aisle = (s.cold_aisle_mm if i % 2 == 1 else s.hot_aisle_mm) / 1000
            y += prev_depth / 2 + aisle + depth / 2
        x = 0.0
        for j, r in enumerate(racks):
            w = r.width_mm / 1000
            spots[r.id] = Spot(i, name, j, x + w / 2, y)
            x += w
        prev_depth = depth
    return spots


def row_pitch_m(depth_mm: float, s: FloorSettings, from_row: int) -> float:
    """Centre-to-centre distance from row ``from_row`` to the next one (0-based)."""
    aisle = s.cold_aisle_mm if from_row % 2 == 0 else s.hot_aisle_mm
    return (depth_mm + aisle) / 1000


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


def floor_layout(plan: Plan, s: FloorSettings) -> FloorLayout:
    """Footprints, rows and aisles from ``floor_spots``: a rack stands centred on its spot;
    the aisle between rows i and i + 1 is cold after row 1, 3, ... (i even), hot otherwise."""
    spots = floor_spots(plan, s)
    racks: dict[str, tuple[float, float, float, float]] = {}
    bands: dict[int, list] = {}
    for r in plan.racks:
        sp = spots[r.id]
        w, d = r.width_mm / 1000, r.depth_mm / 1000
        racks[r.id] = (sp.x_m - w / 2, sp.y_m - d / 2, w, d)
        bands.setdefault(sp.row, []).append((r, sp))
    rows, aisles = [], []
    for i in sorted(bands):
        members = bands[i]
        y0 = min(racks[r.id][1] for r, _ in members)
        y1 = max(racks[r.id][1] + racks[r.id][3] for r, _ in members)
        width = max(racks[r.id][0] + racks[r.id][2] for r, _ in members)
        rows.append(FloorRow(members[0][1].row_name, y0, y1, width, tuple(r.id for r, _ in members)))
    for i in range(len(rows) - 1):
        aisles.append(Aisle("cold" if i % 2 == 0 else "hot", rows[i].y1_m, rows[i + 1].y0_m))
    width = max((row.width_m for row in rows), default=0.0)
    depth = rows[-1].y1_m - rows[0].y0_m if rows else 0.0
    return FloorLayout(racks, tuple(rows), tuple(aisles), width, depth)
