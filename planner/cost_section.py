"""The report's cost section: bill of materials, capex, opex, rent, break-even and TCO."""

from __future__ import annotations

from typing import Any

from planner.bom import build_bom, bom_total_usd
from planner.cost import evaluate_costs
from planner.network import FabricSizingError, plan_fabric
from planner.report import Finding


def evaluate_cost(ctx) -> tuple[dict[str, Any], list[Finding]]:
    """Cost figures for the plan. O(device types + racks): counts are aggregated and each
    rack contributes one power figure (for its PDUs)."""
    plan = ctx.plan
    s = plan.settings.costs
    totals = ctx.totals
    findings: list[Finding] = []
    try:
        size = plan_fabric(ctx.counts, ctx.catalog, plan.settings.fabric)
    except FabricSizingError:
        size = None  # the network section reports it; no cables can be counted
    lines, problems = build_bom(
        counts=ctx.counts, catalog=ctx.catalog, settings=s, racks=len(plan.racks),
        rack_powers_kw=(r.power_kw for r in ctx.racks.values()), fabric_size=size,
        cdus_needed=totals.cdus, cdu_device=plan.settings.facility.cdu_device, nodes=totals.nodes)
    findings += [Finding("warning", "cost.bom.incomplete", p) for p in problems]
    capex = bom_total_usd(lines)
    result = evaluate_costs(s, capex_usd=capex, gpus=totals.gpus, nodes=totals.nodes,
                            it_kw=totals.it_power_kw, pue=totals.pue)
    section = result.to_json()
    section["bom"] = [line.to_json() for line in lines]
    section["it_power_kw"] = round(totals.it_power_kw, 6)
    section["utilisation"] = s.utilisation
    return section, findings
