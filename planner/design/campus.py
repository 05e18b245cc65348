"""Racks of a design stood in the buildings and halls of a campus (``Intent.campus``).

Each kind of rack (GPU, network, storage, CDU: the racks a rack spec's prefix names) is
spread evenly over the halls, in plan order: hall ``i`` of ``H`` takes racks
``floor(i x n / H)`` up to ``floor((i + 1) x n / H)`` of each kind, so every hall holds its
share of the GPUs with the switches, storage and CDUs beside them, and no hall is more than
one rack of a kind larger than another. Each hall's racks stand in rows of the same length
(``set_rows``' rule on the largest hall), the rows named by hall so that no two halls share
a row name. Halls stand side by side along their rows in a building, buildings one behind
the other on the campus, with the gaps of ``CampusSpec``.
"""

from __future__ import annotations

import re

from planner.design.intent import CampusSpec
from planner.design.racks import row_length
from planner.facility.floor import floor_spots
from planner.plan.model import Building, Hall, Plan, Rack
from planner.plan.rack_types import type_letter


def stand_in_halls(plan: Plan, spec: CampusSpec) -> None:
    """Give the plan ``spec``'s buildings and halls and every rack its hall and row."""
    halls = [(b, h) for b in range(1, spec.buildings + 1) for h in range(1, spec.halls_per_building + 1)]
    hall_ids = [f"b{b}-hall-{h}" for b, h in halls]
    members: list[list[Rack]] = [[] for _ in halls]
    for kind in _kinds(plan.racks):
        n = len(kind)
        for i in range(len(halls)):
            members[i] += kind[i * n // len(halls):(i + 1) * n // len(halls)]
    per = row_length(plan, max((len(m) for m in members), default=0))
    for (b, h), hall_id, racks in zip(halls, hall_ids, members):
        for i, rack in enumerate(racks):
            rack.hall = hall_id
            rack.row = f"B{b}H{h}-{type_letter(i // per)}"
    plan.buildings = [Building(id=f"building-{b}", name=f"Building {b}", halls=[
        Hall(id=f"b{b}-hall-{h}", name=f"Hall {h}") for h in range(1, spec.halls_per_building + 1)])
        for b in range(1, spec.buildings + 1)]
    _place(plan, spec)


def _kinds(racks: list[Rack]) -> list[list[Rack]]:
    """The racks by kind (their name without its number: "NVL-", "NET-"), kinds in order of
    first appearance, racks in plan order."""
    out: dict[str, list[Rack]] = {}
    for r in racks:
        out.setdefault(re.sub(r"\d+$", "", r.name), []).append(r)
    return list(out.values())


def _place(plan: Plan, spec: CampusSpec) -> None:
    """Hall origins in their building and building origins on the campus, from the largest
    hall's floor: halls ``hall_gap_m`` apart along the rows, buildings ``building_gap_m``
    apart across them."""
    width = depth = 0.0
    for rack_id, spot in floor_spots(plan, plan.settings.floor).items():
        rack = plan.rack(rack_id)
        width = max(width, spot.x_m + rack.width_mm / 2000)
        depth = max(depth, spot.y_m + rack.depth_mm / 2000)
    for j, building in enumerate(plan.buildings):
        building.y_m = round(j * (depth + spec.building_gap_m), 3)
        for i, hall in enumerate(building.halls):
            hall.x_m = round(i * (width + spec.hall_gap_m), 3)
