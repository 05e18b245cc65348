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


@dataclass(slots=True, frozen=True)
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
