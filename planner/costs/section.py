"""The report's cost section: bill of materials, capex, opex, rent, break-even and TCO."""

from __future__ import annotations

from dataclasses import dataclass

from planner.costs.bom import BomLine, bom_total_usd, build_bom
from planner.costs.model import CostResult, evaluate_costs
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.report.figures import Figures, figure
from planner.report.model import Finding


def _money(d: dict[str, float | None], digits: int = 2) -> dict[str, float | None]:
    return {k: (None if v is None else round(v, digits)) for k, v in d.items()}


@dataclass(frozen=True, slots=True)
class CostSection(Figures):
    """The cost model's figures (money in US dollars, rounded to the cent) and the bill of materials."""

    capex_usd: float = figure(title="Capex", unit="$")
    opex_usd_per_month: float = figure(title="Opex", unit="$/month")
    energy_usd_per_month: float = figure(title="Energy", unit="$/month")
    facility_usd_per_month: float = figure(title="Facility", unit="$/month")
    staffing_usd_per_month: float = figure(title="Staffing", unit="$/month")
    rent_usd_per_month: dict[str, float] = figure(title="Renting the same GPUs", unit="$/month")
    break_even_months: dict[str, float | None] = figure(title="Building pays off vs renting after", unit="months",
                                                        none="not within the horizon")
    break_even_usd: dict[str, float | None] = figure(title="Spent by break-even", unit="$",
                                                     none="not within the horizon")
    horizon_months: int = figure(title="Horizon", unit="months")
    tco_usd: float = figure(title="Total cost of ownership over the horizon", unit="$")
    rent_total_usd: dict[str, float] = figure(title="Renting over the horizon", unit="$")
    cost_per_gpu_hour: dict[str, float | None] = figure(title="Cost per GPU-hour", unit="$/GPU-h")
    curves: dict[str, list[float]] = figure(title="Cumulative spend by month", unit="$")
    bom: tuple[BomLine, ...] = figure(title="Bill of materials")
    it_power_kw: float = figure(title="IT power", unit="kW")
    utilisation: float = figure(title="Utilisation", unit="fraction")

    @classmethod
    def of(cls, r: CostResult, lines: list[BomLine], it_power_kw: float, utilisation: float) -> CostSection:
        return cls(
            capex_usd=round(r.capex_usd, 2),
            opex_usd_per_month=round(r.opex_usd_per_month, 2),
            energy_usd_per_month=round(r.energy_usd_per_month, 2),
            facility_usd_per_month=round(r.facility_usd_per_month, 2),
            staffing_usd_per_month=round(r.staffing_usd_per_month, 2),
            rent_usd_per_month=_money(r.rent_usd_per_month),
            break_even_months=dict(r.break_even_months),
            break_even_usd=_money(r.break_even_usd),
            horizon_months=r.horizon_months,
            tco_usd=round(r.tco_usd, 2),
            rent_total_usd=_money(r.rent_total_usd),
            cost_per_gpu_hour=_money(r.cost_per_gpu_hour, 4),
            curves={k: [round(x, 2) for x in v] if k != "months" else v for k, v in r.curves.items()},
            bom=tuple(lines),
            it_power_kw=round(it_power_kw, 6),
            utilisation=utilisation,
        )


def evaluate_cost(ctx) -> tuple[CostSection, list[Finding]]:
    """Cost figures for the plan. O(device types + distinct rack powers): counts are
    aggregated, and so are the racks' PDUs."""
    plan = ctx.plan
    s = plan.settings.costs
    totals = ctx.totals
    network = ctx.sections.get("network")
    if network is not None:
        size = network.size  # sized once per evaluation, by the network section
    else:
        try:
            size = plan_fabric(ctx.counts, ctx.catalog, plan.settings.fabric)
        except FabricSizingError:
            size = None  # no cables can be counted
    lines, problems = build_bom(
        counts=ctx.counts, catalog=ctx.catalog, settings=s, racks=len(plan.racks),
        pdus_needed=totals.pdus, power=plan.settings.power, fabric_size=size,
        cdus_needed=totals.cdus, cdu_device=plan.settings.facility.cdu_device, nodes=totals.nodes)
    findings = [Finding("warning", "cost.bom.incomplete", p) for p in problems]
    result = evaluate_costs(s, capex_usd=bom_total_usd(lines), gpus=totals.gpus, nodes=totals.nodes,
                            it_kw=billed_kw(s.colocation_basis, totals), pue=totals.pue,
                            energy_kw=totals.it_power_typical_kw)
    return CostSection.of(result, lines, totals.it_power_kw, s.utilisation), findings


def billed_kw(basis: str, totals) -> float:
    """The kW a colocation contract bills: committed (the racks' power caps), nameplate or typical."""
    if basis == "committed":
        return totals.cap_mw / 1e6
    return totals.it_power_nameplate_kw if basis == "nameplate" else totals.it_power_typical_kw
