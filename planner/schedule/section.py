"""The report's schedule section: the plan's phases, when each is ready and what gates it,
GPUs online by month and capex by quarter (``planner.schedule.model``).

Phases are the data halls that hold racks (on a campus of several), or the scalable units of
the compute fabric (a single hall): the units are installed one after another by the hall's
crews, each taking its share of the plan's racks, IT power and capex in proportion to its
nodes; a plan whose fabric has no scalable units is one phase. A hall's capex is the plan's
capex shared by the halls in proportion to the catalog price of the devices standing in each.
O(halls x device types), or O(scalable units): it reads the halls' sums, never a rack.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.figures import Figures, detail, figure
from planner.findings import Finding
from planner.workload.section import plan_rent_factor
from planner.plan.campus import campus_of
from planner.schedule.run_cost import CalendarPrices, run_on_calendar
from planner.schedule.training import break_even_after_order, rent_while_building
from planner.schedule.model import (MONTH_DAYS, PART_NAMES, PhaseInput, PhaseTime, capex_by_quarter, date_after,
                                    gpus_online, lead_weeks, parts_needed, phase_time, plant_of, shares)


# what the schedule reads of the totals: the GPUs, nodes and racks it phases, their power
SCHEDULE_TOTALS = tuple(f"totals.{name}" for name in (
    "gpus", "nodes", "racks", "typical_milliwatts", "nameplate_milliwatts", "basis"))
# what the scalable units' phases read: those totals, the fabric's unit size, the device types
# (the parts to wait for) and the schedule settings (lead times, crews, the order date)
UNIT_READS = ("counts", *SCHEDULE_TOTALS, "network", "settings.schedule", "settings.costs")  # costs: plant_of

@dataclass(frozen=True, slots=True)
class PhaseFigures(Figures):
    name: str = figure("", title="Phase", unit="name")
    gpus: int = figure(0, title="GPUs")
    racks: int = figure(0, title="Racks")
    it_mw: float = figure(0.0, title="IT power on the plan's basis", unit="MW")
    parts: tuple[str, ...] = figure((), title="Parts it waits for", unit="name")
    ready_weeks: float = figure(0.0, title="Ready, weeks after the order", unit="weeks")
    ready_month: int = figure(0, title="Online from month", description="months after the order")
    ready_date: str | None = figure(None, title="Ready on", unit="name", none="no order date")
    critical_part: str = figure("", title="Critical part", unit="name",
                                description="the part with the longest lead time it needs")
    capex_usd: float = figure(0.0, title="Capex", unit="$")
    # what the workbook's formulas start from (``planner.schedule.model.PhaseInput``)
    racks_installed: float = detail(0.0)
    crew_racks: int = detail(0)
    weight: float = detail(0.0)


@dataclass(frozen=True, slots=True)
class ScheduleSection(Figures):
    phase_by: str = figure("", title="Comes online", unit="name", description="hall, scalable_unit or plan")
    order_date: str | None = figure(None, title="Order date", unit="name", none="not set")
    phases: tuple[PhaseFigures, ...] = figure((), title="Phases")
    first_ready_month: int = figure(0, title="First phase online from month")
    energized_month: int = figure(0, title="Energized from month", description="months after the order")
    energized_weeks: float = figure(0.0, title="Energized, weeks after the order", unit="weeks")
    energized_date: str | None = figure(None, title="Energized on", unit="name", none="no order date")
    critical_part: str = figure("", title="Critical part", unit="name",
                                description="what gates the last phase")
    gpus_online_by_month: tuple[int, ...] = figure((), title="GPUs online by month",
                                                   description="month 0 (the order) to energization")
    capex_by_quarter: tuple[dict, ...] = figure((), title="Capex by quarter after the order", unit="$")
    lead_weeks: dict[str, float] = figure(title="Lead times", unit="weeks", factory=dict)
    train_from: str = figure("energized", title="Training starts", unit="name",
                             description="energized or first_phase (a setting)")
    training_start_month: int | None = figure(None, title="Training starts in month", none="no training run")
    training_done_month: float | None = figure(None, title="Training done in month", unit="x",
                                               none="no training run", description="months after the order")
    training_done_date: str | None = figure(None, title="Training done on", unit="name", none="no order date")
    rent_while_building_usd: dict[str, float] = figure(
        title="Renting the GPUs not yet online until energized", unit="$", factory=dict)
    break_even_month_after_order: dict[str, float | None] = figure(
        title="Break-even vs renting, months after the order", unit="months", none="not within the horizon",
        factory=dict)
    training_replica_gpus: int | None = figure(None, title="GPUs a model replica takes (TP x CP x PP)",
                                               none="no training run")
    training_job_gpus: int | None = figure(None, title="GPUs the training job runs on", none="no training run")
    training_gpu_hours: float | None = figure(None, title="The training run's GPU-hours", unit="GPU-h",
                                              none="no training run",
                                              description="the workload's days to train x 24 x the job's GPUs")
    training_cost_usd: dict[str, float] = figure(
        title="The training run's cost on the calendar", unit="$", factory=dict, empty="no training run",
        description="build: capex of the phases online over the horizon + opex of the IT power energized, for the "
        "run's hours in each month; rent_<option>: the GPUs online for those hours (planner.schedule.run_cost)")
    training_cost_by_month: tuple[dict, ...] = figure(
        (), title="The training run by month", unit="$",
        description="month, gpus_online, gpus_training, hours, gpu_hours, build_usd, rent_usd per option")
    # what the workbook's formulas start from: the workload's days unrounded, the prices by month
    training_days: float | None = detail()
    training_prices: CalendarPrices | None = detail()


def evaluate_schedule(ctx) -> tuple[ScheduleSection, list[Finding]]:
    """The plan's phases, when each is ready and what gates it, its GPUs online by month and
    capex by quarter, and the training run and renting on that calendar."""
    s = ctx.plan.settings.schedule
    cost = ctx.sections.get("cost")
    capex = cost.capex_usd if cost is not None else 0.0
    leads = lead_weeks(s)
    by, inputs, weights, times, fields = _phases(ctx, leads)
    capex_each = shares(capex, weights)
    phases = tuple(PhaseFigures(**f, capex_usd=c) for f, c in zip(fields, capex_each))
    months = [t.ready_month for t in times]
    last = max(times, key=lambda t: t.ready_weeks, default=None)
    energized = max(months, default=0)
    online = gpus_online(months, [p.gpus for p in inputs], energized)
    section = ScheduleSection(
        phase_by=by, order_date=s.order_date or None, phases=phases, first_ready_month=min(months, default=0),
        energized_month=energized, energized_weeks=round(last.ready_weeks, 2) if last else 0.0,
        energized_date=date_after(s.order_date, last.ready_weeks * 7) if last else None,
        critical_part=last.critical_part if last else "",
        gpus_online_by_month=tuple(online),
        capex_by_quarter=tuple(
            {"quarter": q + 1, "first_month": 3 * q, "starts": date_after(s.order_date, 3 * q * MONTH_DAYS),
             "capex_usd": usd}
            for q, usd in enumerate(capex_by_quarter(months, capex_each, s.deposit_pct, energized))),
        lead_weeks=leads, train_from=s.train_from, **_connected(ctx, s, phases, online),
    )
    return section, _findings(ctx, section)


def _connected(ctx, s, phases: tuple[PhaseFigures, ...], online: list[int]) -> dict:
    """The training run and renting on the build-out's calendar (``planner.schedule.training``,
    ``planner.schedule.run_cost``): ``online`` the GPUs online in months 0 to energized."""
    months = [p.ready_month for p in phases]
    energized = max(months, default=0)
    cost, work = ctx.sections.get("cost"), ctx.sections.get("workload")
    out: dict = {}
    if cost is not None and months:
        out["rent_while_building_usd"] = rent_while_building(online, ctx.totals.gpus, cost.rent_usd_per_month)
        out["break_even_month_after_order"] = break_even_after_order(energized, cost.break_even_months)
    days = getattr(work, "train_days", None)  # unrounded, as the workload's run cost prices it
    w = ctx.plan.settings.workload
    if not months or not days or not w.enabled or w.inference:
        return out
    start = energized if s.train_from == "energized" else min(months)
    replica = w.tp * w.cp * w.pp
    job = replica * w.dp
    prices = None if cost is None else _prices(ctx, phases, cost, energized)
    out.update(training_start_month=start, training_replica_gpus=replica, training_job_gpus=job,
               training_gpu_hours=round(days * 24 * job, 1), training_days=days, training_prices=prices)
    run = run_on_calendar(online, start, days * 24 * job, replica, job, prices)
    if run is None:
        return out
    out.update(training_done_month=round(run.end_month, 2),
               training_done_date=date_after(s.order_date, run.end_month * MONTH_DAYS))
    if cost is not None:
        out.update(training_cost_usd=run.total_usd, training_cost_by_month=tuple(
            {"month": r.month, "gpus_online": r.gpus_online, "gpus_training": r.gpus_training,
             "hours": round(r.hours, 3), "gpu_hours": round(r.gpu_hours, 1), "build_usd": round(r.build_usd, 2),
             "rent_usd": {k: round(v, 2) for k, v in r.rent_usd.items()}} for r in run.months))
    return out


def _prices(ctx, phases: tuple[PhaseFigures, ...], cost, energized: int) -> CalendarPrices:
    """Month by month to energization: the capex of the phases online and their share of the
    plan's IT power (by GPUs when no phase draws power); the cost model's rates."""
    costs = ctx.plan.settings.costs
    power = [p.it_mw for p in phases] if sum(p.it_mw for p in phases) > 0 else [float(p.gpus) for p in phases]
    whole = sum(power) or 1.0
    added_capex, added_power = [0.0] * (energized + 1), [0.0] * (energized + 1)
    for p, x in zip(phases, power):  # each phase from its ready month on (one pass: campus-1m has 32 phases)
        added_capex[p.ready_month] += p.capex_usd
        added_power[p.ready_month] += x
    capex, share, c, x = [], [], 0.0, 0.0
    for m in range(energized + 1):
        c += added_capex[m]
        x += added_power[m]
        capex.append(c)
        share.append(x / whole)
    rates = {k: rate * (1.0 + costs.rent_uplift) for k, rate in costs.rental_rates(plan_rent_factor(ctx)).items()}
    return CalendarPrices(capex, share, cost.opex_usd_per_month, cost.horizon_months, costs.hours_per_month, rates)


def _phases(ctx, leads: dict[str, float]) -> tuple[str, list[PhaseInput], list[float], list[PhaseTime], list[dict]]:
    """(what the phases are, each phase's inputs, the weights its capex is shared by, when
    each is ready, each one's figures but its capex)."""
    s = ctx.plan.settings.schedule
    # the halls holding racks, from their fabric figures (which change with their racks), then
    # each one's own sums: a drop inside a hall changes its sums' PDUs and findings, which no
    # phase reads, so the schedule does not read every hall's sums
    occupied = [h for h, fabric in ctx.hall_fabric.items() if fabric.racks]
    by = s.phase_by if s.phase_by != "auto" else ("hall" if len(occupied) > 1 else "scalable_unit")
    if by == "hall":
        return by, *_hall_phases(ctx, {h: ctx.halls[h] for h in occupied}, leads)
    # kept while the totals and the fabric's units stay: a repricing (a fabric switch moved to
    # a rack where it stacks otherwise) shares the capex out again over the same phases --
    # campus-400k's 78 units were 1.6 ms of such a drop, its p95 target 2 ms (CPU time, 2-core
    # machine, 2026-12-06)
    return ctx.memo.get("schedule units", UNIT_READS, _unit_phases_timed, ctx, leads)




def _unit_phases_timed(ctx, leads: dict[str, float]) -> tuple[str, list[PhaseInput], list[float], list[PhaseTime],
                                                               list[dict]]:
    s = ctx.plan.settings.schedule
    by, inputs, weights = _unit_phases(ctx)
    times = [phase_time(p, s, leads) for p in inputs]
    return by, inputs, weights, times, [_fields(p, t, s.order_date) for p, t in zip(inputs, times)]


def _hall_phases(ctx, halls, leads: dict[str, float]) -> tuple[list[PhaseInput], list[float], list[PhaseTime],
                                                                list[dict]]:
    """Each hall's phase, when it is ready and its figures but the capex, kept in the
    evaluator's memo under the hall's own sums and the schedule settings: after an edit only
    the halls whose racks changed are worked out again (campus-1m, 32 halls: the times of the
    other 30 were 0.06 ms of every move, their figures' rounding and dates 0.05 ms; CPU time,
    2-core machine, 2026-12-05)."""
    where = campus_of(ctx.plan).halls
    phases = [ctx.memo.get(("schedule hall", h), (f"hall {h}", "totals.basis", "settings.schedule", "settings.costs"), _hall_phase,
                           ctx, where[h], sums, leads)
              for h, sums in halls.items()]
    return [p for p, _, _ in phases], [p.weight for p, _, _ in phases], [t for _, t, _ in phases], \
        [f for _, _, f in phases]


def _hall_phase(ctx, where, sums, leads: dict[str, float]) -> tuple[PhaseInput, PhaseTime, dict]:
    s = ctx.plan.settings.schedule
    p = _hall_input(ctx, where, sums)
    t = phase_time(p, s, leads)
    return p, t, _fields(p, t, s.order_date)


def _fields(p: PhaseInput, t: PhaseTime, order_date: str) -> dict:
    """A phase's figures but its capex (``PhaseFigures``), which every change of the plan's
    capex shares out again."""
    return dict(name=p.name, gpus=p.gpus, racks=p.racks, it_mw=round(p.it_kw / 1e3, 6), parts=p.parts,
                ready_weeks=round(t.ready_weeks, 2), ready_month=t.ready_month,
                ready_date=date_after(order_date, t.ready_weeks * 7), critical_part=t.critical_part,
                racks_installed=p.racks_installed, crew_racks=p.crew_racks, weight=p.weight)


def _hall_input(ctx, where, sums) -> PhaseInput:
    building, hall = where
    catalog = ctx.catalog
    categories, price = set(), 0.0
    for device_id, n in sums.counts.items():
        d = catalog.get(device_id)
        if n and d is not None:
            categories.add(d.category)
            price += n * d.price_usd
    mw = sums.nameplate_milliwatts if ctx.totals.basis == "nameplate" else sums.typical_milliwatts
    parts = parts_needed(categories, plant_of(ctx.plan.settings))
    return PhaseInput(f"{building.name} / {hall.name}", sums.racks, sums.gpus, mw / 1e6, parts,
                      price, sums.racks, sums.racks)


def _unit_phases(ctx) -> tuple[str, list[PhaseInput], list[float]]:
    """The compute fabric's scalable units in order, each with its share of the plan by nodes."""
    totals, catalog = ctx.totals, ctx.catalog
    parts = parts_needed({d.category for i, n in ctx.counts.items() if n and (d := catalog.get(i)) is not None},
                         plant_of(ctx.plan.settings))
    network = ctx.sections.get("network")
    size = getattr(network, "size", None)
    nodes, per_unit = totals.nodes, (size.su_nodes if size is not None else 0)
    if not totals.racks:
        return "plan", [], []  # nothing to bring online
    if not nodes or not per_unit or per_unit >= nodes:
        p = PhaseInput("Whole plan", totals.racks, totals.gpus, totals.it_power_kw, parts, 1.0, totals.racks,
                       totals.racks)
        return "plan", [p], [1.0]
    bounds = list(range(0, nodes, per_unit)) + [nodes]
    inputs = []
    for k in range(1, len(bounds)):
        lo, hi = bounds[k - 1], bounds[k]
        gpus = totals.gpus * hi // nodes - totals.gpus * lo // nodes
        racks = totals.racks * hi // nodes - totals.racks * lo // nodes
        inputs.append(PhaseInput(f"Scalable unit {k}", racks, gpus, totals.it_power_kw * (hi - lo) / nodes, parts,
                                 hi - lo, totals.racks * hi / nodes, totals.racks))
    return "scalable_unit", inputs, [float(p.weight) for p in inputs]


def _findings(ctx, section: ScheduleSection) -> list[Finding]:
    go_live = ctx.plan.info.go_live
    if not go_live or section.energized_date is None or section.energized_date <= go_live:
        return []
    part = PART_NAMES.get(section.critical_part, "installation")
    return [Finding("warning", "schedule.after_go_live",
                    f"The plan is energized on {section.energized_date}, after the requested go-live of {go_live}: "
                    f"{part} ({section.lead_weeks.get(section.critical_part, 0):g} weeks) gates it; order "
                    "earlier or shorten that lead time")]


def energized_text(s: ScheduleSection) -> str:
    """"month 33 after the order (2029-08-18)", or without an order date "month 33 after the order"."""
    when = f"month {s.energized_month} after the order"
    return f"{when} ({s.energized_date})" if s.energized_date else when
