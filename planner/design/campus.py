"""Racks of a design stood in the buildings and halls of a campus (``Intent.campus``).

Each kind of rack (GPU, network, storage, CDU: the racks a rack spec's prefix names) is
spread evenly over the halls, in plan order: hall ``i`` of ``H`` takes racks
``floor(i x n / H)`` up to ``floor((i + 1) x n / H)`` of each kind, so every hall holds its
share of the GPUs with the switches, storage and CDUs beside them, and no hall is more than
one rack of a kind larger than another; a hall then gets the CDUs its own heat to liquid
needs (a CDU's loop serves its own hall: ``_Layout.hall_cdus``). Each hall's racks stand in rows of the same length
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


def assign_halls(plan: Plan, spec: CampusSpec) -> None:
    """Give the plan ``spec``'s buildings and halls and every rack its hall: each kind of
    rack spread evenly over the halls."""
    plan.buildings = [Building(id=f"building-{b}", name=f"Building {b}", halls=[
        Hall(id=f"b{b}-hall-{h}", name=f"Hall {h}") for h in range(1, spec.halls_per_building + 1)])
        for b in range(1, spec.buildings + 1)]
    halls = plan.hall_ids()
    for kind in _kinds(plan.racks):
        n = len(kind)
        for i, hall_id in enumerate(halls):
            for rack in kind[i * n // len(halls):(i + 1) * n // len(halls)]:
                rack.hall = hall_id


def set_hall_rows(plan: Plan, spec: CampusSpec) -> None:
    """Every hall's racks in rows (named by hall), and the halls and buildings placed."""
    members: dict[str, list[Rack]] = {hall_id: [] for hall_id in plan.hall_ids()}
    for rack in plan.racks:
        members[rack.hall].append(rack)
    per = row_length(plan, max((len(m) for m in members.values()), default=0))
    for b, building in enumerate(plan.buildings, start=1):
        for h, hall in enumerate(building.halls, start=1):
            for i, rack in enumerate(members[hall.id]):
                rack.row = f"B{b}H{h}-{type_letter(i // per)}"
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
