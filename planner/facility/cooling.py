"""Liquid cooling: how many CDUs the plan needs and whether the placed ones suffice."""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.findings import Finding, Remedy
from planner.hardware.catalog import Catalog
from planner.numbers import counted
from planner.settings import FacilitySettings


def cdus_needed(liquid_nodes: int, liquid_heat_kw: float, facility: FacilitySettings, catalog: Catalog) -> int:
    """CDUs by policy. By capacity: ceil(design heat to liquid / CDU kW), plus one spare
    (N+1) or doubled (2N). The rule of N. Dixit, "The GPU Cluster That Actually Works for
    Deep Learning in 2026", SIVARO: one per N liquid-cooled nodes (N = 8)."""
    if facility.cdu_policy == "capacity":
        cdu = catalog.get(facility.cdu_device)
        capacity = cdu.cdu_capacity_kw if cdu and cdu.cdu_capacity_kw else None
        if not capacity or liquid_heat_kw <= 0:
            return 0
        n = math.ceil(liquid_heat_kw / capacity - 1e-9)
        return {"N": n, "N+1": n + 1, "2N": 2 * n}[facility.cdu_redundancy]
    if liquid_nodes == 0:
        return 0
    return math.ceil(liquid_nodes / facility.nodes_per_cdu)


@dataclass(frozen=True, slots=True)
class Cooling:
    """The liquid-cooling figures of a plan: CDUs needed by policy, placed, their rated capacity."""

    cdus: int = 0
    cdus_placed: int = 0
    cdu_capacity_kw: float = 0.0
    short: bool = False  # fewer CDUs than the policy asks, or less capacity than the heat


def evaluate_cooling(liquid_nodes: int, liquid_heat_milliwatts: int, counts: dict[str, int], facility: FacilitySettings,
                     catalog: Catalog) -> tuple[Cooling, list[Finding]]:
    findings: list[Finding] = []
    heat_kw = liquid_heat_milliwatts / 1e6
    placed = 0
    placed_kw = 0.0
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is not None and d.category == "cdu":
            placed += n
            placed_kw += n * (d.cdu_capacity_kw or 0.0)
    needed = cdus_needed(liquid_nodes, heat_kw, facility, catalog)
    short = False
    liquid = liquid_nodes or heat_kw > 0
    if facility.cdu_policy == "capacity" and catalog.get(facility.cdu_device) is None and liquid:
        findings.append(Finding("error", "cooling.cdu.unknown_model",
                                f"CDU model '{facility.cdu_device}' is not in the catalog"))
    if liquid and placed < needed:
        short = True
        findings.append(Finding(
            "error", "cooling.cdu.short",
            f"{liquid_nodes} liquid-cooled nodes ({heat_kw:,.1f} kW of design heat to liquid) need {needed} CDU"
            f"{'s' if needed != 1 else ''} by the {_policy_text(facility, catalog)}; {placed} placed",
            remedy=_add_cdus(facility, catalog, needed - placed)))
    elif liquid and placed_kw + 1e-9 < heat_kw:
        short = True
        findings.append(Finding(
            "error", "cooling.cdu.capacity",
            f"The placed CDUs remove {placed_kw:,.0f} kW but the racks put {heat_kw:,.1f} kW of design heat into liquid"))
    if not liquid and placed:
        findings.append(Finding("info", "cooling.cdu.unused",
                                f"{counted(placed, 'CDU')} placed but no node is liquid-cooled"))
    return Cooling(needed, placed, placed_kw, short), findings


def _add_cdus(facility: FacilitySettings, catalog: Catalog, count: int) -> Remedy | None:
    cdu = catalog.get(facility.cdu_device)
    if cdu is None:
        return None
    return Remedy("add_cdus", f"Add {count} x {cdu.model} to the liquid-cooled racks",
                  (("device", cdu.id), ("count", count)))


def _policy_text(facility: FacilitySettings, catalog: Catalog) -> str:
    if facility.cdu_policy == "capacity":
        cdu = catalog.get(facility.cdu_device)
        kw = cdu.cdu_capacity_kw if cdu else 0
        return f"capacity rule ({kw:g} kW per CDU, {facility.cdu_redundancy})"
    return f"rule of one CDU per {facility.nodes_per_cdu} nodes"
