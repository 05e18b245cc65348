"""Rack power, weight and air-cooling checks: one rack at a time."""

from __future__ import annotations

from collections.abc import Iterable

from planner.facility.distribution import feed_findings, shelf_findings, size_feeds, split_cords
from planner.facility.floor import floor_load_kg_m2
from planner.facility.heat import capture_fraction, door_milliwatts, liquid_heat_of, water_l_min
from planner.facility.rack_remedies import SPLIT_CODES, cooling_remedy, move_remedy, with_remedies
from planner.facility.rack_result import RackResult
from planner.findings import Finding
from planner.hardware.catalog import Catalog
from planner.plan.autoplace import enclosure_weight_kg
from planner.plan.model import Placement, Plan, Rack
from planner.plan.space import space_findings
from planner.settings import GUIDE


def evaluate_rack(plan: Plan, rack: Rack, catalog: Catalog, facility=None,
                  members: Iterable[Placement] | None = None, *, remedies: bool = True) -> RackResult:
    """Sum a rack's power (both bases), weight, space and GPUs, and check it against its limits.

    ``members`` replaces the rack's devices in the plan (a what-if: the rack with one more);
    ``remedies`` False leaves the rack checks without their remedies (a what-if needs none).

    Power over the cap on the plan's basis is an error; on the typical basis a nameplate
    above the cap is a warning (DGX H100: 7 kW typical, 10.2 kW nameplate); an air-cooled rack above the
    air-cooling limit is a warning (N. Dixit, "The GPU Cluster That Actually Works for Deep Learning
    in 2026", SIVARO, measured 18% throughput loss from thermal
    throttling), and so is the air remainder of a liquid-cooled rack; weight over the rack's
    rating is an error (a 1.36 t NVL72 on a floor or rack rated below it is not a planning
    risk but a structural one); floor load over the floor's rating is an error. Feeds and
    PDUs are sized on the nameplate (``planner.facility.distribution``).
    """
    settings = plan.settings
    facility, power_s, floor_s = settings.facility, settings.power, settings.floor
    basis = facility.power_basis
    res = RackResult(id=rack.id, name=rack.name, height_u=rack.height_u, cooling=rack.cooling,
                     cap_kw=rack.power_cap_kw, max_weight_kg=rack.max_weight_kg, basis=basis)
    counts = res.counts
    spans = []
    names: dict[str, str] = {}  # placement id -> its label, for the messages
    liquid_rack = rack.cooling != "air"  # liquid or hybrid: plumbed to a CDU
    feeds_n = 1 if power_s.feed_redundancy == "N" else 2
    cords = [[0, 0] for _ in range(feeds_n)]
    liquid_typ = 0  # heat to liquid on the typical basis, for the air remainder on the plan's basis
    types: dict[str, list] = {}  # device type -> [the type, how many]: the sums are worked out per type
    air_gpus: bool | None = None  # whether air-cooled GPU nodes share the rack (only asked when it matters)
    for p in plan.rack_members(rack.id).values() if members is None else members:
        d = catalog.get(p.device)
        if d is None:
            res.findings.append(Finding("error", "device.unknown_type",
                                        f"Device {p.id} has type '{p.device}', which the catalog does not have", p.id))
            continue
        kind = types.get(d.id)
        if kind is None:
            types[d.id] = [d, 1]
        else:
            kind[1] += 1
        res.used_u += d.u_height
        spans.append((p.u, p.u + d.u_height - 1, p.id))
        if p.label:
            names[p.id] = p.label
        if d.power_shelves is not None:
            res.findings.extend(shelf_findings(d, p.label or p.id, rack.name, rack.id))
        if d.gpu is not None and d.cooling == "liquid" and not liquid_rack:
            if air_gpus is None:  # worked out once, for the first liquid-cooled node found here
                air_gpus = any((q := catalog.get(m.device)) is not None and q.gpu is not None and q.cooling == "air"
                               for m in (plan.rack_members(rack.id).values() if members is None else members))
            res.findings.append(Finding(
                "error" if d.is_rack_scale else "warning", "rack.cooling.liquid_device_in_air_rack",
                f"{d.model} ({p.label or p.id}) is liquid-cooled but rack {rack.name} is air-cooled: "
                + ("move it to a liquid-cooled rack (air-cooled GPU nodes share this one)" if air_gpus else
                   "set the rack's cooling to liquid and plumb it to a CDU"), p.id,
                remedy=move_remedy(d, p.id, p.label or p.id) if air_gpus else cooling_remedy(rack)))
    # each type's integers once, times its count: the same integers as device by device, and
    # a rack of 15 switches and appliances of 3 types in 66-73 us instead of 91-101 (campus-1m's
    # network racks, two of which each drop there re-evaluates; CPU time, 2-core machine,
    # 2026-12-06)
    for d, n in types.values():
        counts[d.id] = n
        typ = round(d.power_typical_w * 1000)
        res.typical_milliwatts += n * typ
        res.nameplate_milliwatts += n * round(d.power_max_w * 1000)
        res.weight_g += n * round(d.weight_kg * 1000)
        liquid_typ += n * round(typ * capture_fraction(d, liquid_rack, facility))
        if d.power_inlets is not None:
            for i, k in enumerate(split_cords(d.power_inlets.c13, feeds_n)):
                cords[i][0] += n * k
            for i, k in enumerate(split_cords(d.power_inlets.c19, feeds_n)):
                cords[i][1] += n * k
        if d.rack_type is not None or d.power_shelves is not None:  # rack-scale: power shelves feed a bus bar
            res.busbar = True
        if d.power_shelves is not None:
            res.power_shelves += n * d.power_shelves.count
        if d.gpu is not None:
            res.nodes += n
            res.gpus += n * d.gpu.count
    spans.sort()
    for sev, code, msg, where in space_findings(rack, spans, names):
        res.findings.append(Finding(sev, code, msg, where))

    # Heat: what the cold plates do not take goes to air; a rear-door heat exchanger takes
    # air heat to water up to its capacity.
    res.liquid_nodes, res.heat_liquid_milliwatts = liquid_heat_of(types.values(), liquid_rack, rack.rear_door_hx, facility)
    res.heat_air_milliwatts = res.nameplate_milliwatts - res.heat_liquid_milliwatts
    if basis == "nameplate":
        air_basis_milliwatts = res.heat_air_milliwatts
    else:
        air_basis_milliwatts = res.typical_milliwatts - liquid_typ
        if rack.rear_door_hx:
            air_basis_milliwatts -= door_milliwatts(air_basis_milliwatts, facility)
    res.water_l_min = water_l_min(res.heat_liquid_milliwatts / 1e6, facility)

    # Feeds and PDUs on the nameplate.
    pdu = catalog.get(power_s.pdu_device)
    if pdu is not None and pdu.pdu_kw(power_s.continuous_derating):
        res.pdu_model = pdu.model
        res.feeds = size_feeds(res.power_nameplate_kw, tuple((a, b) for a, b in cords), pdu, power_s)

    # Floor: equipment and enclosure over the footprint. A rack-scale system (an NVL72) is
    # its own rack and its weight is the whole of it (1.36 t in all): no second enclosure.
    res.own_rack = any(d.is_rack_scale for i in counts if (d := catalog.get(i)) is not None)
    res.enclosure_kg = enclosure_weight_kg(floor_s, res.own_rack)
    res.rear_door = rack.rear_door_hx
    res.footprint_m2 = rack.width_mm * rack.depth_mm / 1e6
    res.floor_load_kg_m2 = floor_load_kg_m2(res.total_weight_kg, rack.width_mm, rack.depth_mm,
                                            floor_s.aisle_share_mm)
    res.air_basis_milliwatts = air_basis_milliwatts
    res.findings.extend(rack_findings(plan, rack, res, catalog, remedies=remedies))
    return res


def rack_findings(plan: Plan, rack: Rack, res: RackResult, catalog: Catalog, *,
                  remedies: bool = True) -> list[Finding]:
    """The checks of a whole rack against its limits, from its figures: feeds and PDUs, floor
    load, power cap, nameplate, air cooling, weight. They name the rack, and only the rack,
    so that racks of the same shape share their figures and differ only in these texts.
    Each carries its remedy (``planner.facility.rack_remedies``) unless ``remedies`` is False."""
    settings = plan.settings
    facility, power_s, floor_s = settings.facility, settings.power, settings.floor
    basis = facility.power_basis
    air_basis_milliwatts = res.air_basis_milliwatts
    liquid_rack = rack.cooling != "air"
    findings: list[Finding] = []
    pdu = catalog.get(power_s.pdu_device)
    if pdu is not None and pdu.pdu_kw(power_s.continuous_derating):
        findings.extend(feed_findings(rack.name, rack.id, res.power_nameplate_kw, res.feeds, pdu, power_s,
                                      busbar=res.busbar))
    if res.floor_load_kg_m2 > floor_s.floor_rating_kg_m2 + 1e-9:
        findings.append(Finding(
            "error", "rack.floor.over_rating",
            f"Rack {rack.name} puts {res.floor_load_kg_m2:,.0f} kg/m² on the floor ({res.total_weight_kg:,.0f} kg "
            f"with its {res.enclosure_kg:g} kg enclosure over {rack.width_mm} x "
            f"{rack.depth_mm + floor_s.aisle_share_mm:g} mm), above the floor's {floor_s.floor_rating_kg_m2:,.0f} "
            "kg/m² rating: spread the load over more racks or have the floor reinforced", rack.id))

    power = res.power_kw
    if power > rack.power_cap_kw + 1e-9:
        findings.append(Finding(
            "error", "rack.power.over_cap",
            f"Rack {rack.name} draws {_over_kw(power, rack.power_cap_kw)} kW ({basis}) against its "
            f"{rack.power_cap_kw:g} kW cap ({_over_kw(power - rack.power_cap_kw, 0.0)} kW over)", rack.id))
    nameplate = res.power_nameplate_kw
    if basis == "typical" and power <= rack.power_cap_kw + 1e-9 < nameplate:
        findings.append(Finding(
            "warning", "rack.power.nameplate_over_cap",
            f"Rack {rack.name} fits its {rack.power_cap_kw:g} kW cap at typical draw ({power:,.1f} kW) but its "
            f"nameplate is {nameplate:,.1f} kW: circuits and PDUs must carry the rating, and a power spike can "
            "trip the breaker. Confirm the facility allows it, or plan on the nameplate basis", rack.id))
    if rack.cooling == "air" and air_basis_milliwatts / 1e6 > facility.air_cooling_limit_kw + 1e-9:
        findings.append(Finding(
            "warning", "rack.cooling.air_limit",
            f"Air-cooled rack {rack.name} puts {air_basis_milliwatts / 1e6:,.1f} kW into the air, above the {facility.air_cooling_limit_kw:g} kW "
            f"air-cooling limit: {GUIDE}, saw thermal throttling cost 18% of throughput with air "
            "cooling; use direct-to-chip liquid cooling", rack.id))
    if liquid_rack and air_basis_milliwatts / 1e6 > facility.air_cooling_limit_kw + 1e-9:
        findings.append(Finding(
            "warning", "rack.cooling.air_remainder",
            f"Liquid-cooled rack {rack.name} still puts {air_basis_milliwatts / 1e6:,.1f} kW ({basis}) into the air, above "
            f"the {facility.air_cooling_limit_kw:g} kW air-cooling limit: air-cooled devices put all their heat into "
            "the air, and cold plates do not take memory, NIC and power-supply heat; add a rear-door heat exchanger "
            "or spread the nodes", rack.id))
    if res.weight_kg > rack.max_weight_kg + 1e-9:
        findings.append(Finding(
            "error", "rack.weight.over_limit",
            f"Rack {rack.name} carries {res.weight_kg:.0f} kg, above its {rack.max_weight_kg:g} kg rating", rack.id))
    if not remedies:
        return findings
    return with_remedies(findings, plan, rack, res, catalog,
                         lambda members: holds_too_much(plan, rack, catalog, members))


def holds_too_much(plan: Plan, rack: Rack, catalog: Catalog, members: Iterable[Placement] | None = None) -> bool:
    """Whether the rack (or it with ``members`` instead) fails a check a split mends."""
    findings = evaluate_rack(plan, rack, catalog, members=members, remedies=False).findings
    return any(f.code in SPLIT_CODES for f in findings)


def _over_kw(kw: float, cap_kw: float) -> str:
    """A draw over a cap to the digit that shows it over: "25.0" would read as the 25 kW cap
    itself when 10 W over it ("25.01", "0.01")."""
    digits = next((d for d in range(1, 6) if round(kw, d) != round(cap_kw, d)), 6)
    return f"{kw:,.{digits}f}"
