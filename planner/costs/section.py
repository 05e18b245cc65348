"""The report's cost section: bill of materials, capex, opex, rent, break-even and TCO."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from planner.costs.bom import BomLine, bom_total_usd, build_bom
from planner.costs.model import CostResult, evaluate_costs
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.report.model import Finding


@dataclass(slots=True)
class CostSection:
    """The cost model's result with its bill of materials. ``to_json()`` is the report
    contract; item access (``section["capex_usd"]``) reads the same JSON."""

    result: CostResult
    lines: list[BomLine]
    it_power_kw: float
    utilisation: float
    _json: dict[str, Any] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        if self._json is None:
            out = self.result.to_json()
            out["bom"] = [line.to_json() for line in self.lines]
            out["it_power_kw"] = round(self.it_power_kw, 6)
            out["utilisation"] = self.utilisation
            self._json = out
        return self._json

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_json().get(key, default)


def evaluate_cost(ctx) -> tuple[CostSection, list[Finding]]:
    """Cost figures for the plan. O(device types + distinct rack powers): counts are
    aggregated, and so are the racks' PDUs."""
    plan = ctx.plan
    s = plan.settings.costs
    totals = ctx.totals
    try:
        size = plan_fabric(ctx.counts, ctx.catalog, plan.settings.fabric)
    except FabricSizingError:
        size = None  # the network section reports it; no cables can be counted
    lines, problems = build_bom(
        counts=ctx.counts, catalog=ctx.catalog, settings=s, racks=len(plan.racks),
        pdus_needed=totals.pdus, power=plan.settings.power, fabric_size=size,
        cdus_needed=totals.cdus, cdu_device=plan.settings.facility.cdu_device, nodes=totals.nodes)
    findings = [Finding("warning", "cost.bom.incomplete", p) for p in problems]
    result = evaluate_costs(s, capex_usd=bom_total_usd(lines), gpus=totals.gpus, nodes=totals.nodes,
                            it_kw=billed_kw(s.colocation_basis, totals), pue=totals.pue,
                            energy_kw=totals.it_power_typical_kw)
    return CostSection(result, lines, totals.it_power_kw, s.utilisation), findings


def billed_kw(basis: str, totals) -> float:
    """The kW a colocation contract bills: committed (the racks' power caps), nameplate or typical."""
    if basis == "committed":
        return totals.cap_mw / 1e6
    return totals.it_power_nameplate_kw if basis == "nameplate" else totals.it_power_typical_kw
