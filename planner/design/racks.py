"""Rack helpers of the design: rows on the floor, a GPU rack's cooling by its system, the liquid
load the CDUs are sized on, the racks with room for a CDU, switch labels."""

from __future__ import annotations

import math

from planner.facility.heat import liquid_heat
from planner.hardware.catalog import Catalog, DeviceType
from planner.plan.model import Plan
from planner.plan.rack_types import type_letter


def set_rows(plan: Plan) -> None:
    """Stand the racks in rows of the floor setting's length, in plan order (GPU racks,
    then network, storage and CDU racks at the end of the last row). A big plan gets longer
    rows, a multiple of the setting, so the hall stays about as wide as it is deep (and the
    setting says so)."""
    per = row_length(plan, len(plan.racks))
    for i, rack in enumerate(plan.racks):
        rack.row = type_letter(i // per)  # rows lettered as floor plans do: A, ..., Z, AA


def row_length(plan: Plan, racks: int) -> int:
    """Racks per row for a hall of ``racks`` racks: the floor setting, or a multiple of it
    near the square root of ``racks`` (set in the plan's floor settings)."""
    per = plan.settings.floor.racks_per_row
    square = math.isqrt(racks)
    if square > per:
        per *= math.ceil(square / per)
        plan.settings.floor = plan.settings.floor.model_copy(update={"racks_per_row": per})
    return per


def system_rack_cooling(asked: str, system: DeviceType) -> str:
    """The cooling of a GPU rack of ``system`` where ``asked`` is asked: a liquid-cooled system's
    racks are liquid whatever is asked (no air carries the heat off its cold plates), an air-cooled
    server's racks are air (no cold plates: its heat goes into the air whatever the rack, within
    the air limit, with a rear-door heat exchanger above it). Where this is not what was asked the
    design says so (``design.cooling.intent``)."""
    if asked == "air" and system.cooling == "liquid":
        return "liquid"
    if asked in ("liquid", "hybrid") and system.cooling == "air" and not system.is_rack_scale:
        return "air"
    return asked


def liquid_load(plan: Plan, catalog: Catalog, racks: list[str] | None = None) -> tuple[int, float]:
    """Liquid-cooled GPU nodes and the design heat to liquid (kW) of the placed devices, rack
    by rack as the check counts them (``planner.facility.heat.liquid_heat``): what the CDUs
    are sized on. ``racks``: only these racks (one hall's)."""
    nodes = milliwatts = 0
    for rack in plan.racks if racks is None else [plan.rack(r) for r in racks]:
        devices = [d for p in plan.rack_members(rack.id).values() if (d := catalog.get(p.device)) is not None]
        n, mw = liquid_heat(devices, rack.cooling != "air", rack.rear_door_hx, plan.settings.facility)
        nodes += n
        milliwatts += mw
    return nodes, milliwatts / 1e6


def switch_label(catalog: Catalog, device_id: str) -> str:
    """Label prefix of the compute-fabric switches by what they are: "ib-" InfiniBand, "eth-" Ethernet."""
    d = catalog.get(device_id)
    return "ib-" if d is not None and d.switch and d.switch.technology == "infiniband" else "eth-"


def racks_with_room(plan: Plan, catalog: Catalog, rack_ids: list[str], device_id: str) -> list[str]:
    """The liquid-cooled racks among ``rack_ids`` that take one more ``device_id`` within
    their power cap on both bases (typical and nameplate) and their height. CDUs belong in
    the liquid-cooled racks they serve, but not in a rack already at its cap: there they
    go to a liquid-cooled row-end rack instead (the guide's GPU racks run 28 of 30 kW
    typical, 40.8 kW nameplate)."""
    d = catalog.get(device_id)
    if d is None:
        return []
    out = []
    for rid in rack_ids:
        rack = plan.rack(rid)
        if rack is None or rack.cooling == "air":
            continue
        members = [catalog[p.device] for p in plan.rack_members(rid).values() if p.device in catalog]
        used_u = sum(m.u_height for m in members)
        nameplate_kw = (sum(m.power_w("nameplate") for m in members) + d.power_w("nameplate")) / 1000
        typical_kw = (sum(m.power_w("typical") for m in members) + d.power_w("typical")) / 1000
        if used_u + d.u_height <= rack.height_u and max(nameplate_kw, typical_kw) <= rack.power_cap_kw:
            out.append(rid)
    return out
