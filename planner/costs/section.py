"""The report's cost section: bill of materials, capex, opex, rent, break-even and TCO.

Why it is long: the bill's cabling is priced two ways here, from the routed cable schedule
or, above ``MAX_ROUTED_LINKS`` links, per fabric tier and network from the halls' run mixes,
with the memo entries that keep each part while a drop leaves it; that half is the next to
move to a module of its own (tests patch ``MAX_ROUTED_LINKS`` and ``core_geometry`` here)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from planner.costs.bom import BomLine, bom_counts, bom_total_usd, build_bom, device_lines, parts_bill
from planner.costs.campus_tiers import CoreRuns, core_geometry, core_runs
from planner.costs.hall_tiers import NETWORK_ASSUMPTION, estimate_network_runs, estimate_trunk_runs, in_hall_runs
from planner.costs.model import CostResult, evaluate_costs
from planner.costs.parts import TIER_NETWORK, end_modules, fabric_modules_per_tier, fabric_node, schedule_lines
from planner.costs.per_tier import network_ends, network_lines, network_links, tier_lines, trunk_lines
from planner.network.cables import CableSchedule, build_schedule
from planner.network.media import COPPER
from planner.network.routes import reach_findings
from planner.costs.prices import apply_price_overrides, unmatched_override_findings
from planner.costs.spares import spares_usd, stocked_spares_line
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.figures import Figures, detail, figure
from planner.workload.section import plan_job_nodes, plan_rent_factor
from planner.findings import Finding


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
    rent_usd_per_month: dict[str, float] = figure(title="Renting the job's GPUs", unit="$/month")
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
    rented_gpus: int = figure(0, title="GPUs rented (the job's, no hot spares)", unit="GPUs",
                              description="What renting pays for and what delivers a GPU-hour: the placed GPUs "
                              "less the hot spares, which a cloud does not rent out idle")
    rent_gpu_factor: float = figure(1.0, title="Rental rate of the plan's GPUs against an H100's", unit="x",
                                    description="The rental rates of the settings are H100 rates; the plan's GPUs rent "
                                    "at them times this (their price per GPU over the H100's, or the figure set)")
    tco_in_currency: float = figure(0.0, title="Total cost of ownership in the reporting currency", unit="")
    cables_routed: bool = figure(True, title="Cables priced run by run from the cable schedule", unit="name",
                                 description="Off: the plan has more links than the planner routes on each edit; "
                                 "its cabling is priced per fabric tier (cluster-planner cables routes every link)")
    cable_routing_limit_links: int = figure(0, title="Most links routed on each edit")
    # the bill of parts by kind and catalog id (``planner.costs.bom.parts_bill``)
    parts: dict[str, dict[str, int]] = figure(title="Parts by catalog id", factory=dict)
    spares_usd: dict[str, float] = figure(title="Spares: hot spares placed and spares stocked", unit="$",
                                          factory=dict, description="Hot spares are in the placed nodes' line, "
                                          "stocked spares (compute trays of rack-scale systems) a line of their own")
    result: CostResult | None = detail()  # unrounded, for the workbook's cached values

    @classmethod
    def of(cls, r: CostResult, lines: list[BomLine], it_power_kw: float, utilisation: float,
           discount_rate: float = 0.0, cables_routed: bool = True,
           parts: dict[str, dict[str, int]] | None = None,
           spares: dict[str, float] | None = None, rounded: dict[str, list[float]] | None = None) -> CostSection:
        """``rounded``: curves of ``r.curves`` already rounded to the cent (the rental options'),
        used as they are."""
        rounded = rounded or {}
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
            curves={k: v if k == "months" else rounded[k] if k in rounded else [round(x, 2) for x in v]
                    for k, v in r.curves.items()},
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
            rented_gpus=r.rented_gpus,
            rent_gpu_factor=round(r.rent_gpu_factor, 6),
            tco_in_currency=round(r.tco_usd * r.usd_exchange_rate, 2),
            cables_routed=cables_routed,
            cable_routing_limit_links=MAX_ROUTED_LINKS,
            parts=parts or {},
            spares_usd=spares or {},
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
    wired = plan_cabling(ctx, size)
    schedule, core = wired.schedule, wired.core
    # the devices' lines and the stocked spares' read the counts (and the reliability
    # settings) alone: kept while they stay, as a repricing of the cabling leaves them
    # (0.05 ms of each fabric switch moved to another hall on campus-1m; CPU time, 2026-12-05)
    devices = ctx.memo.get("device lines", ("counts",), device_lines, ctx.counts, ctx.catalog)
    lines, problems = build_bom(
        devices=devices, counts=ctx.counts, catalog=ctx.catalog, settings=s,
        racks=totals.racks - totals.own_racks, pdus_needed=totals.pdus, power=plan.settings.power,
        cdus_needed=totals.cdus, cdu_device=plan.settings.facility.cdu_device, nodes=totals.nodes,
        it_kw=totals.it_power_kw, rear_doors=totals.rear_doors, cabling=list(wired.lines))
    stocked = ctx.memo.get("stocked spares line", ("counts", "settings.reliability"), stocked_spares_line, ctx.counts,
                           ctx.catalog, plan.settings.reliability)
    lines = apply_price_overrides(lines + ([stocked] if stocked is not None else []), plan.price_overrides)
    findings = [Finding("warning", "cost.bom.incomplete", p) for p in problems]
    findings += unmatched_override_findings(lines, plan.price_overrides)
    if s.currency != "USD" and s.usd_exchange_rate == 1.0:
        findings.append(Finding(
            "warning", "cost.currency.rate",
            f"Costs are reported in {s.currency} at 1.00 {s.currency} per US dollar, the default rate for US dollars: "
            f"enter the rate your finance team uses (Settings > Costs, Exchange rate)"))
    if schedule is not None:  # a routed schedule knows every run's length: those beyond every reach
        findings += reach_findings(schedule)
    elif core is not None:  # and the estimate over the halls its longest runs'
        findings += core.findings
    job = plan_job_nodes(ctx)
    result = evaluate_costs(s, capex_usd=bom_total_usd(lines), gpus=totals.gpus, nodes=totals.nodes,
                            job_gpus=min(totals.gpus, job.gpus),
                            it_kw=billed_kw(s.colocation_basis, totals), pue=totals.pue,
                            energy_kw=totals.it_power_typical_kw, tokens_per_s=getattr(network, "tokens_per_s", None),
                            # each rental option's monthly IRR, kept while the memo lives to start the next
                            # repricing's from (``irr_each``)
                            irr_start=ctx.memo.get("irr start", (), dict), rent_factor=plan_rent_factor(ctx))
    # renting the plan's GPUs month by month reads their number and the cost settings alone:
    # a repricing of the hardware (a fabric switch moved to another hall, on campus-1m) keeps
    # the rental curves rounded to the cent, 148 of the 185 figures the section rounds (0.1 ms
    # of each such move; CPU time, 2-core machine, 2026-12-05)
    rent = {k: v for k, v in result.curves.items() if k not in ("months", "build")}
    section = CostSection.of(result, lines, totals.it_power_kw, s.utilisation, s.discount_rate,
                             cables_routed=schedule is not None, parts=parts_bill(lines, ctx.counts, ctx.catalog),
                             spares=spares_usd(lines, ctx.counts, ctx.catalog, plan.settings.reliability),
                             rounded=ctx.memo.get("rent curves", ("counts", "settings.costs", "settings.reliability"),
                                                  _cents, rent))
    return section, findings


def _cents(curves: dict[str, list[float]]) -> dict[str, list[float]]:
    return {k: [round(x, 2) for x in v] for k, v in curves.items()}


@dataclass(frozen=True, slots=True)
class Cabling:
    """The plan's cables and optics as the bill of materials buys them (``lines``), and what
    the network section shows of them: the fabric's modules by tier (the sum is the bill's
    "Transceivers" count) and its links on fibre and on copper. From the routed cable schedule
    (``schedule``) when the plan has at most ``MAX_ROUTED_LINKS`` links, else the per-tier
    estimate (``estimated``; ``core``: a campus's core runs over its halls)."""

    lines: tuple[BomLine, ...]
    schedule: CableSchedule | None
    core: CoreRuns | None
    modules_per_tier: dict[str, int] = field(default_factory=dict)
    optical_links: int = 0
    copper_links: int = 0

    @property
    def estimated(self) -> bool:
        return self.schedule is None

    @property
    def modules(self) -> int:
        return bom_counts(self.lines)["transceiver"]


def plan_cabling(ctx, size) -> Cabling:
    """The plan's ``Cabling``, kept in the evaluator's memo while what it reads stays (a price
    edit re-prices it; the layout only when the schedule is routed). The network section and
    the cost section read the same one, so the count they show is one."""
    return ctx.memo.get("cabling", CABLING_READS, _cabling, ctx, size)


CABLING_READS = ("counts", "hall fabric", "settings.costs", "settings.fabric", "settings.floor")


def _cabling(ctx, size) -> Cabling:
    plan, catalog, s = ctx.plan, ctx.catalog, ctx.plan.settings.costs
    schedule = routed_schedule(ctx, size)
    if schedule is None:
        core, hall = campus_core_runs(ctx, size), in_hall_runs(ctx, size, fabric_node(ctx.counts, catalog))
        parts = ctx.memo.get("cabling parts", (), dict)  # kept until the catalog changes
        below, networks = ctx.memo.get("cabling below the core", BELOW_CORE_READS, _below_core, ctx, size, parts, hall)
        trunks = ctx.memo.get("storage trunk lines", TRUNK_READS, _trunk_lines, ctx, parts)
        lines = below + tier_lines(size, catalog, ctx.counts, plan.settings.fabric.switch_device, s, core, parts,
                                   hall, ("spine-core",)) + networks + trunks
        per_tier: Counter = Counter()
        for line in lines:
            if line.counts_as == "transceiver":
                per_tier[line.tier] += line.quantity
        links = size.cables_by_tier() if size is not None else {}
        copper = links.get("node-leaf", 0) if s.node_leaf_dac else 0  # the setting's passive copper
        copper += hall.copper_links(s.node_leaf_dac) if hall is not None else 0  # and the runs short enough
        return Cabling(tuple(lines), None, core, dict(per_tier), sum(links.values()) - copper, copper)
    parts: dict = {}
    optics = end_modules(schedule, catalog, parts)
    lines = schedule_lines(schedule, catalog, s, optics, parts)
    optical = copper = 0
    for kind, n in schedule.kind_counts():
        if kind.network == "compute":
            if kind.medium.name in COPPER:
                copper += n
            else:
                optical += n
    # links whose switch is not placed: assumed optical, as the bill buys them
    optical += sum(n for tier, n in schedule.unrouted.items() if TIER_NETWORK.get(tier) == "compute")
    return Cabling(tuple(lines), schedule, None, fabric_modules_per_tier(schedule, optics), optical, copper)


# Below the core tier a plan priced per tier reads the halls only through their run mixes
# ("in-hall runs"): a fabric switch moved to another hall (half the random moves on campus-1m)
# reprices the core alone; the rest was 0.1 ms of each (CPU, 2-core machine, 2026-12-05). The
# storage leaf-spines' switch-to-switch runs are lines of their own (``_trunk_lines``).
BELOW_CORE_READS = ("counts", "settings.costs", "settings.fabric", "in-hall runs")


def _trunk_lines(ctx, parts: dict) -> list[BomLine]:
    """The storage leaf-spines' switch-to-switch lines of a plan priced per tier, by each
    hall's ("storage trunks": a drop that changes a hall's leaves reprices these alone)."""
    trunks = ctx.storage_trunks
    if not trunks:
        return []
    switch = ctx.catalog[ctx.plan.settings.fabric.storage_switch_device]
    return trunk_lines(ctx.catalog, switch.id, sum(t.links for t in trunks.values()), ctx.plan.settings.costs, parts,
                       estimate_trunk_runs(ctx, trunks, switch),
                       f"Per network, by the lengths its halls give ({NETWORK_ASSUMPTION}): ")


# not the fabric switches' halls: the estimate reads each hall's racks and footprint (``storage trunks``),
# not which racks its storage switches stand in
TRUNK_READS = ("storage trunks", "settings.costs", "settings.fabric", "settings.floor")


def _below_core(ctx, size, parts: dict, hall) -> tuple[list[BomLine], list[BomLine]]:
    """The lines of the fabric's tiers below the core (by the lengths its halls give: ``hall``)
    and of the storage and management networks (by the lengths their halls give them), of a
    plan priced per tier."""
    catalog, s, fabric = ctx.catalog, ctx.plan.settings.costs, ctx.plan.settings.fabric
    storage_switch = fabric.storage_switch_device if fabric.storage_fabric == "separate" else fabric.switch_device
    ends = network_ends(ctx.counts, catalog, storage_switch)
    links = network_links(ends)
    runs = ctx.memo.get("network runs", NETWORK_RUNS_READS, estimate_network_runs, ctx, links,
                        fabric_node(ctx.counts, catalog))
    how = f"Per network, by the lengths its halls give ({NETWORK_ASSUMPTION}): "
    return (tier_lines(size, catalog, ctx.counts, fabric.switch_device, s, None, parts, hall,
                       ("node-leaf", "leaf-spine")),
            network_lines(ctx.counts, catalog, storage_switch, s, parts, runs, how, ends))


# the storage and management runs read the devices (their ports), the halls' kinds (their
# geometry, ``hall_tiers.hall_kinds``) and the fabric and floor settings
NETWORK_RUNS_READS = ("counts", "hall kinds", "settings.fabric", "settings.floor")


# The one limit on routing every run: a plan with more links than this is priced per fabric
# tier, and the workbook and the vendor pack show its cabling as the BOM counts it; the cost
# section says which (``cables_routed``, ``cable_routing_limit_links``). Routing every run
# again after an edit (about 1 us a link; frontier-100k's 346,000 links take 0.4 s) would
# hold the app up.
MAX_ROUTED_LINKS = 20_000


def routed_schedule(ctx, size):
    """The plan's cable schedule when its links (fabric cables plus about two management
    or storage links per device) are at most ``MAX_ROUTED_LINKS``, else None. Kept in the
    evaluator's memo while the layout and the settings it reads stay (an edit of a price
    prices the same schedule)."""
    if (size.cables if size is not None else 0) + 2 * sum(ctx.counts.values()) > MAX_ROUTED_LINKS:
        return None
    return ctx.memo.get("cable schedule", SCHEDULE_READS, build_schedule, ctx.plan, ctx.catalog)


SCHEDULE_READS = ("layout", "settings.fabric", "settings.floor")


def campus_core_runs(ctx, size) -> CoreRuns | None:
    """A campus's spine-to-core links over its halls (``planner.costs.campus_tiers``), for a
    three-tier fabric priced per tier; from each hall's racks, floor and fabric switches
    (``EvalContext.hall_fabric``), so a move inside a hall, or of a device other than a fabric
    switch between halls, leaves it."""
    if size is None or size.tiers != 3 or len(ctx.hall_fabric) < 2:
        return None
    switch = ctx.catalog.get(ctx.plan.settings.fabric.switch_device)
    if switch is None or switch.switch is None:
        return None
    geometry = ctx.memo.get("campus core geometry", CORE_GEOMETRY_READS, core_geometry, ctx.plan, ctx.hall_fabric,
                            switch.switch.gbps_per_port, ctx.catalog)
    return core_runs(ctx.plan, geometry, ctx.hall_fabric, size.cables_by_tier().get("spine-core", 0))


CORE_GEOMETRY_READS = ("hall floor", "settings.floor", "settings.fabric")


def billed_kw(basis: str, totals) -> float:
    """The kW a colocation contract bills: committed (the racks' power caps), nameplate or typical."""
    if basis == "committed":
        return totals.cap_milliwatts / 1e6
    return totals.it_power_nameplate_kw if basis == "nameplate" else totals.it_power_typical_kw
