"""The report's cost section: bill of materials, capex, opex, rent, break-even and TCO."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from planner.costs.bom import BomLine, bom_total_usd, build_bom, device_lines, parts_bill
from planner.costs.model import CostResult, evaluate_costs
from planner.costs.parts import schedule_lines, tier_lines
from planner.network.cables import build_schedule
from planner.costs.prices import apply_price_overrides
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.figures import Figures, detail, figure
from planner.findings import Finding


def _money(d: dict[str, float | None], digits: int = 2) -> dict[str, float | None]:
    return {k: (None if v is None else round(v, digits)) for k, v in d.items()}


@lru_cache(maxsize=64)
def _cents(values: tuple[float, ...]) -> tuple[float, ...]:
    """A curve rounded to the cent (kept: the rent curves stay the same from edit to edit)."""
    return tuple(round(x, 2) for x in values)


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
    break_even_text: dict[str, str] = figure(title="Break-even vs renting", unit="name")
    break_even_usd: dict[str, float | None] = figure(title="Spent by break-even", unit="$")
    horizon_months: int = figure(title="Horizon", unit="months")
    tco_usd: float = figure(title="Total cost of ownership over the horizon", unit="$")
    rent_total_usd: dict[str, float] = figure(title="Renting over the horizon", unit="$")
    cost_per_gpu_hour: dict[str, float | None] = figure(title="Cost per GPU-hour", unit="$/GPU-h")
    curves: dict[str, list[float]] = figure(title="Cumulative spend by month", unit="$")
    bom: tuple[BomLine, ...] = figure(title="Bill of materials")
    it_power_kw: float = figure(title="IT power", unit="kW")
    utilisation: float = figure(title="Utilisation", unit="fraction")
    hardware_usd: float = figure(0.0, title="Hardware (bill of materials)", unit="$")
    project_costs_usd: dict[str, float] = figure(title="Project costs on top of the hardware", unit="$",
                                                 factory=dict)
    support_usd_per_month: float = figure(0.0, title="Support and warranty", unit="$/month")
    software_usd_per_month: float = figure(0.0, title="Software licences", unit="$/month")
    depreciation_usd_per_year: float = figure(0.0, title="Depreciation (straight line)", unit="$/year")
    discount_rate: float = figure(0.0, title="Discount rate", unit="fraction")
    npv_usd: dict[str, float] = figure(title="NPV of building instead of renting", unit="$", factory=dict)
    irr: dict[str, float | None] = figure(title="IRR of building instead of renting (per year)", unit="fraction",
                                          factory=dict)
    cost_per_million_tokens_usd: float | None = figure(None, title="Cost per million training tokens, build",
                                                       unit="$/M tokens")
    currency: str = figure("USD", title="Reporting currency", unit="name")
    usd_exchange_rate: float = figure(1.0, title="Exchange rate (currency units per US dollar)", unit="x")
    tco_in_currency: float = figure(0.0, title="Total cost of ownership in the reporting currency", unit="")
    # the bill of parts by kind and catalog id (``planner.costs.bom.parts_bill``)
    parts: dict[str, dict[str, int]] = figure(title="Parts by catalog id", factory=dict)
    result: CostResult | None = detail()  # unrounded, for the workbook's cached values

    @classmethod
    def of(cls, r: CostResult, lines: list[BomLine], it_power_kw: float, utilisation: float,
           discount_rate: float = 0.0, parts: dict[str, dict[str, int]] | None = None) -> CostSection:
        return cls(
            capex_usd=round(r.capex_usd, 2),
            opex_usd_per_month=round(r.opex_usd_per_month, 2),
            energy_usd_per_month=round(r.energy_usd_per_month, 2),
            facility_usd_per_month=round(r.facility_usd_per_month, 2),
            staffing_usd_per_month=round(r.staffing_usd_per_month, 2),
            rent_usd_per_month=_money(r.rent_usd_per_month),
            break_even_months=dict(r.break_even_months),
            break_even_text=dict(r.break_even_text),
            break_even_usd=_money(r.break_even_usd),
            horizon_months=r.horizon_months,
            tco_usd=round(r.tco_usd, 2),
            rent_total_usd=_money(r.rent_total_usd),
            cost_per_gpu_hour=_money(r.cost_per_gpu_hour, 4),
            curves={k: list(_cents(tuple(v))) if k != "months" else v for k, v in r.curves.items()},
            bom=tuple(lines),
            it_power_kw=round(it_power_kw, 6),
            utilisation=utilisation,
            hardware_usd=round(r.hardware_usd, 2),
            project_costs_usd=_money(r.project_costs_usd),
            support_usd_per_month=round(r.support_usd_per_month, 2),
            software_usd_per_month=round(r.software_usd_per_month, 2),
            depreciation_usd_per_year=round(r.depreciation_usd_per_year, 2),
            discount_rate=discount_rate,
            npv_usd=_money(r.npv_usd),
            irr=_money(r.irr, 6),
            cost_per_million_tokens_usd=None if r.cost_per_million_tokens_usd is None
            else round(r.cost_per_million_tokens_usd, 4),
            currency=r.currency,
            usd_exchange_rate=r.usd_exchange_rate,
            tco_in_currency=round(r.tco_usd * r.usd_exchange_rate, 2),
            parts=parts or {},
            result=r,
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
    schedule = routed_schedule(ctx, size)
    # the same settings and device counts (ctx.cache) with the same totals (and, on a plan
    # priced from its cable schedule, the same schedule: routed again when the layout changes)
    # give the same costs. The last few are kept: moving a device back and forth, or undo and
    # redo, returns to totals seen a moment ago.
    enclosures = rack_enclosures(plan, ctx.counts, ctx.catalog)
    key = (totals, len(plan.racks), enclosures, getattr(network, "tokens_per_s", None), schedule)
    recent = ctx.cache.setdefault("cost", {})
    out = recent.pop(key, None)
    if out is None:
        out = _evaluate_cost(ctx, plan, s, totals, network, size, schedule, enclosures)
        if len(recent) >= RECENT_COSTS:
            del recent[next(iter(recent))]  # the oldest
    recent[key] = out  # the newest last
    return out


RECENT_COSTS = 8


def rack_enclosures(plan, counts: dict[str, int], catalog) -> int:
    """Racks that need an enclosure bought: a rack-scale system (an NVL72) comes in its own
    rack, priced with it. Placements are read only when the plan has such a system."""
    systems = {i for i in counts if (d := catalog.get(i)) is not None and d.is_rack_scale}
    if not systems:
        return len(plan.racks)
    return len(plan.racks) - len({p.rack for p in plan.placements if p.device in systems})


def _evaluate_cost(ctx, plan, s, totals, network, size, schedule,
                   enclosures: int) -> tuple[CostSection, list[Finding]]:
    # the cabling lines follow from the schedule (or the fabric's size), the device counts and
    # the settings: kept while those stay (ctx.cache lives as long as the counts and settings)
    source = schedule if schedule is not None else size
    cached = ctx.cache.get("cabling")
    if cached is not None and cached[0] is source:
        cabling = cached[1]
    else:
        parts = ctx.cache.setdefault("parts", {})
        cabling = (schedule_lines(schedule, ctx.catalog, s, parts=parts) if schedule is not None else
                   tier_lines(size, ctx.catalog, ctx.counts, plan.settings.fabric.switch_device, s, parts=parts))
        ctx.cache["cabling"] = (source, cabling)
    devices = ctx.cache.get("device_lines")
    if devices is None:
        devices = ctx.cache["device_lines"] = device_lines(ctx.counts, ctx.catalog)
    lines, problems = build_bom(
        devices=devices, counts=ctx.counts, catalog=ctx.catalog, settings=s, racks=enclosures,
        pdus_needed=totals.pdus, power=plan.settings.power, cabling=cabling,
        cdus_needed=totals.cdus, cdu_device=plan.settings.facility.cdu_device, nodes=totals.nodes,
        it_kw=totals.it_power_kw)
    lines = apply_price_overrides(lines, plan.price_overrides)
    findings = [Finding("warning", "cost.bom.incomplete", p) for p in problems]
    result = evaluate_costs(s, capex_usd=bom_total_usd(lines), gpus=totals.gpus, nodes=totals.nodes,
                            it_kw=billed_kw(s.colocation_basis, totals), pue=totals.pue,
                            energy_kw=totals.it_power_typical_kw, tokens_per_s=getattr(network, "tokens_per_s", None))
    parts = parts_bill(lines, ctx.counts, ctx.catalog)
    return CostSection.of(result, lines, totals.it_power_kw, s.utilisation, s.discount_rate, parts), findings


# Plans with more links than this are priced per fabric tier: routing every run on each
# edit (about 1 us a link on columns; frontier-100k's 346,000 links take 0.4 s) would hold
# the app up.
MAX_ROUTED_LINKS = 20_000


def routed_schedule(ctx, size):
    """The plan's cable schedule when its links (fabric cables plus about two management
    or storage links per device) are at most ``MAX_ROUTED_LINKS``, else None. Kept in the
    evaluator's memo, which it clears when the layout (racks, devices, floor, fabric) changes."""
    plan = ctx.plan
    if (size.cables if size is not None else 0) + 2 * len(plan.placements) > MAX_ROUTED_LINKS:
        return None
    schedule = ctx.memo.get("cable_schedule")
    if schedule is None:
        schedule = ctx.memo["cable_schedule"] = build_schedule(plan, ctx.catalog)
    return schedule


def billed_kw(basis: str, totals) -> float:
    """The kW a colocation contract bills: committed (the racks' power caps), nameplate or typical."""
    if basis == "committed":
        return totals.cap_mw / 1e6
    return totals.it_power_nameplate_kw if basis == "nameplate" else totals.it_power_typical_kw
