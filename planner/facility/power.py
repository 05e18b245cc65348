"""Rack power, weight and air-cooling checks: one rack at a time."""

from __future__ import annotations

from planner.hardware.catalog import Catalog
from planner.plan.model import Plan, Rack
from planner.report.model import Finding, RackResult
from planner.settings import FacilitySettings
from planner.plan.space import space_findings


def evaluate_rack(plan: Plan, rack: Rack, catalog: Catalog, facility: FacilitySettings) -> RackResult:
    """Sum a rack's power (both bases), weight, space and GPUs, and check it against its limits.

    Power over the cap on the plan's basis is an error; on the typical basis a nameplate
    above the cap is a warning (DGX H100: 7 kW typical, 10.2 kW nameplate); an air-cooled rack above the
    air-cooling limit is a warning (the guide measured 18% throughput loss from thermal
    throttling); weight over the rack's rating is an error (a 1.36 t NVL72 on a floor or
    rack rated below it is not a planning risk but a structural one).
    """
    basis = facility.power_basis
    res = RackResult(id=rack.id, name=rack.name, height_u=rack.height_u, cooling=rack.cooling,
                     cap_kw=rack.power_cap_kw, max_weight_kg=rack.max_weight_kg, basis=basis)
    counts = res.counts
    spans = []
    liquid_rack = rack.cooling != "air"  # liquid or hybrid: plumbed to a CDU
    for p in plan.rack_members(rack.id).values():
        d = catalog.get(p.device)
        if d is None:
            res.findings.append(Finding("error", "device.unknown_type",
                                        f"Device {p.id} has type '{p.device}', which the catalog does not have", p.id))
            continue
        counts[d.id] = counts.get(d.id, 0) + 1
        typ = round(d.power_typical_w * 1000)
        nam = round(d.power_max_w * 1000)
        res.typical_mw += typ
        res.nameplate_mw += nam
        res.weight_g += round(d.weight_kg * 1000)
        res.used_u += d.u_height
        spans.append((p.u, p.u + d.u_height - 1, p.id))
        if d.gpu is not None:
            res.nodes += 1
            res.gpus += d.gpu.count
            if liquid_rack or d.cooling == "liquid":
                res.liquid_nodes += 1
                res.liquid_heat_mw += nam if basis == "nameplate" else typ
            if d.cooling == "liquid" and not liquid_rack:
                res.findings.append(Finding(
                    "error" if d.is_rack_scale else "warning", "rack.cooling.liquid_device_in_air_rack",
                    f"{d.model} ({p.label or p.id}) is liquid-cooled but rack {rack.name} is air-cooled: "
                    "set the rack's cooling to liquid and plumb it to a CDU", p.id))
    spans.sort()
    for sev, code, msg, where in space_findings(rack, spans):
        res.findings.append(Finding(sev, code, msg, where))

    power = res.power_kw
    if power > rack.power_cap_kw + 1e-9:
        res.findings.append(Finding(
            "error", "rack.power.over_cap",
            f"Rack {rack.name} draws {power:.1f} kW ({basis}) against its {rack.power_cap_kw:g} kW cap "
            f"({power - rack.power_cap_kw:.1f} kW over)", rack.id))
    nameplate = res.power_nameplate_kw
    if basis == "typical" and power <= rack.power_cap_kw + 1e-9 < nameplate:
        res.findings.append(Finding(
            "warning", "rack.power.nameplate_over_cap",
            f"Rack {rack.name} fits its {rack.power_cap_kw:g} kW cap at typical draw ({power:.1f} kW) but its "
            f"nameplate is {nameplate:.1f} kW: circuits and PDUs must carry the rating, and a power spike can "
            "trip the breaker. Confirm the facility allows it, or plan on the nameplate basis", rack.id))
    if rack.cooling == "air" and power > facility.air_cooling_limit_kw + 1e-9:
        res.findings.append(Finding(
            "warning", "rack.cooling.air_limit",
            f"Air-cooled rack {rack.name} dissipates {power:.1f} kW, above the {facility.air_cooling_limit_kw:g} kW "
            "air-cooling limit: the planning guide saw thermal throttling cost 18% of throughput with air "
            "cooling; use direct-to-chip liquid cooling", rack.id))
    if res.weight_kg > rack.max_weight_kg + 1e-9:
        res.findings.append(Finding(
            "error", "rack.weight.over_limit",
            f"Rack {rack.name} carries {res.weight_kg:.0f} kg, above its {rack.max_weight_kg:g} kg rating", rack.id))
    return res
