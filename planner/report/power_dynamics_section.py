"""The report's power dynamics section: the training load's swing, ramp and drop as the grid
sees them, the smoothing that keeps them within the site's limits, and its findings.

Computed after the goodput section: it reads the workload's step (compute, bubble, exposed
communication), the job's GPUs (placed less spares) and the checkpoints' stalls. The model
is ``planner.facility.dynamics``.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.facility.dynamics import Grid, Prices, Smoothed, Wave, broken_limits, cheapest, smooth, trace
from planner.figures import Figures, detail, figure
from planner.findings import Finding, Remedy
from planner.vocabulary import choice_title, text, usd, watts


@dataclass(frozen=True, slots=True)
class PowerDynamicsSection(Figures):
    peak_mw: float | None = figure(None, title="IT load at the step's peak", unit="MW",
                                   description="Every GPU of the job computing; as the grid sees it after smoothing")
    floor_mw: float | None = figure(None, title="IT load at the step's trough", unit="MW",
                                    description="The job's GPUs waiting (communication, bubble, checkpoint); "
                                    "after smoothing")
    swing_mw: float | None = figure(None, title="Load swing per step", unit="MW")
    period_s: float | None = figure(None, title="Period of the swing (the step time)", unit="s")
    ramp_mw_per_s: float | None = figure(None, title="Fastest load ramp", unit="MW/s",
                                         description="Over a step's edge or at an interruption")
    interruption_drop_mw: float | None = figure(None, title="Load drop at an interruption", unit="MW")
    interruptions_per_day: float | None = figure(None, title="Interruptions (each a drop)", unit="per day",
                                                 description="The goodput section's failure model")
    mean_mw: float | None = figure(None, title="Mean IT load while training", unit="MW")
    raw_peak_mw: float | None = figure(None, title="IT load at the peak, unsmoothed", unit="MW")
    raw_floor_mw: float | None = figure(None, title="IT load at the trough, unsmoothed", unit="MW")
    raw_swing_mw: float | None = figure(None, title="Load swing per step, unsmoothed", unit="MW")
    compute_s: float | None = figure(None, title="Compute time per step", unit="s")
    wait_s: float | None = figure(None, title="Wait per step (exposed communication and bubble)", unit="s")
    wait_share: float | None = figure(None, title="Share of the time the GPUs wait", unit="fraction",
                                      description="The steps' waits and the checkpoints' stalls")
    gpu_compute_w: float | None = figure(None, title="GPU draw while computing", unit="W",
                                         description="Mean over the GPUs placed (catalog compute_power_w or TDP)")
    gpu_wait_w: float | None = figure(None, title="GPU draw while waiting, unsmoothed", unit="W",
                                      description="Mean over the GPUs placed (catalog comm_power_w or the "
                                      "facility setting's share of the TDP)")
    gpu_floor_w: float | None = figure(None, title="GPU power floor while waiting", unit="W",
                                       none="no floor")
    max_swing_mw: float | None = figure(None, title="Grid: largest swing allowed", unit="MW", none="no limit")
    max_ramp_mw_per_s: float | None = figure(None, title="Grid: fastest ramp allowed", unit="MW/s",
                                             none="no limit")
    smoothing: str = figure("none", title="Power smoothing", unit="name")
    bess_mw: float = figure(0.0, title="Site battery power", unit="MW")
    bess_mwh: float = figure(0.0, title="Site battery energy", unit="MWh")
    smoothing_capex_usd: float = figure(0.0, title="Capex of the smoothing", unit="$")
    energy_cost_usd_per_year: float = figure(0.0, title="Energy the smoothing costs", unit="$/year",
                                             description="The power floor's burn (times PUE) or the battery's "
                                             "losses")
    opex_with_smoothing_usd_per_month: float | None = figure(
        None, title="Opex with the smoothing's energy", unit="$/month",
        description="The cost section's opex plus the smoothing's energy a month")
    tco_with_smoothing_usd: float | None = figure(
        None, title="TCO with the smoothing", unit="$",
        description="The cost section's TCO plus the smoothing's capex and its energy over the horizon")
    cheapest_smoothing: str | None = figure(None, title="Cheapest smoothing within the limits", unit="name",
                                            none="no limit broken")
    edge_s: float | None = figure(None, title="Time the step's edges take, as the grid sees them", unit="s",
                                  description="The GPUs' own edge, or as the racks' storage spreads it")
    interruption_drop_s: float | None = figure(None, title="Time the drop at an interruption takes", unit="s")
    rack_storage_wh: float = figure(0.0, title="Rack energy storage of the job's GPUs", unit="Wh",
                                    description="The systems' own (catalog rack_storage); used under the racks' "
                                    "storage smoothing")
    job_ramps: bool = figure(False, title="Job's stop and restart ramped", unit="name")
    job_ramp_s: float | None = figure(None, title="Time the stop and restart are ramped over", unit="s",
                                      none="not ramped")
    gpu_time_cost_usd_per_year: float = figure(0.0, title="GPU time the ramped restarts lose", unit="$/year",
                                               description="Job GPUs x half the ramp x interruptions a year, at "
                                               "the cost section's build cost per GPU-hour")
    cheapest_job_ramps: bool | None = figure(None, title="Cheapest smoothing ramps the stop and restart",
                                             unit="name", none="no limit broken")
    # for the workbook and the chart: the model's inputs (None without a training step)
    wave: Wave | None = detail()
    grid: Grid | None = detail()
    prices: Prices | None = detail()
    # the chart's curve: (time s, unsmoothed W, smoothed W) over a few steps and an interruption
    trace: tuple[tuple[float, float, float], ...] = detail(())


DYNAMICS_READS = ("counts", "totals.typical_milliwatts", "totals.pue", "settings.facility", "settings.costs",
                  "cost", "workload", "goodput")


def _mw(w: float) -> float:
    return round(w / 1e6, 6)


def gpu_phase_w(counts, catalog, comm_share: float) -> tuple[int, float, float]:
    """GPUs placed, and their summed draw while computing and while waiting (catalog
    ``compute_power_w`` or the TDP; ``comm_power_w`` or ``comm_share`` x the TDP)."""
    gpus, compute_w, wait_w = 0, 0.0, 0.0
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is None or d.gpu is None:
            continue
        g = d.gpu
        k = n * g.count
        gpus += k
        compute_w += k * (g.compute_power_w if g.compute_power_w is not None else g.tdp_w)
        wait_w += k * (g.comm_power_w if g.comm_power_w is not None else comm_share * g.tdp_w)
    return gpus, compute_w, wait_w


def rack_storage_j(counts, catalog) -> float:
    """The energy the placed systems store in their power supplies (catalog ``rack_storage``), J."""
    total = 0.0
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is not None and d.gpu is not None and d.rack_storage is not None:
            total += n * d.gpu.count * d.rack_storage.j_per_gpu
    return total


def plan_wave(ctx, gpus: int, compute_w: float, wait_w: float) -> Wave | None:
    """The plan's unsmoothed wave from its GPUs' draws (``gpu_phase_w``), or None without a
    training step. The job's GPUs hold their share of the racks' storage."""
    work, good = ctx.sections.get("workload"), ctx.sections.get("goodput")
    if work is None or good is None or not work["step_time_s"] or not gpus:
        return None
    per_gpu = (compute_w - wait_w) / gpus
    job = good["job_gpus"]
    interval_min = good["checkpoint_interval_min"]
    return Wave(peak_w=ctx.totals.typical_milliwatts / 1e3 - (gpus - job) * per_gpu, swing_w=job * per_gpu,
                compute_s=work["compute_s"], wait_s=work["bubble_s"] + work["exposed_comm_s"],
                stall_s=good["checkpoint_block_s"] or 0.0,
                stall_every_s=None if interval_min is None else interval_min * 60.0, job_gpus=job,
                interruptions_per_year=good["interruptions_per_day"] * ctx.plan.settings.costs.hours_per_month
                * 12 / 24,
                storage_j=rack_storage_j(ctx.counts, ctx.catalog) * job / gpus)


def plan_grid(facility) -> Grid:
    return Grid(None if facility.grid_max_swing_mw is None else facility.grid_max_swing_mw * 1e6,
                None if facility.grid_max_ramp_mw_per_s is None else facility.grid_max_ramp_mw_per_s * 1e6,
                facility.gpu_power_edge_s)


def plan_prices(ctx) -> Prices:
    """The prices the smoothings are weighed at; a GPU-hour at the cost section's build cost."""
    f, c = ctx.plan.settings.facility, ctx.plan.settings.costs
    cost = ctx.sections.get("cost")
    gpu_hour = (cost["cost_per_gpu_hour"].get("build") if cost is not None else None) or 0.0
    return Prices(c.electricity_usd_per_kwh, ctx.totals.pue, 12 * c.hours_per_month, f.bess_usd_per_kw,
                  f.bess_usd_per_kwh, f.bess_round_trip_efficiency, f.bess_min_duration_h, gpu_hour, f.job_ramp_s)


def evaluate_power_dynamics(ctx) -> tuple[PowerDynamicsSection, list[Finding]]:
    facility = ctx.plan.settings.facility
    limits = dict(max_swing_mw=facility.grid_max_swing_mw, max_ramp_mw_per_s=facility.grid_max_ramp_mw_per_s)
    gpus, compute_w, wait_w = gpu_phase_w(ctx.counts, ctx.catalog, facility.gpu_comm_power_share)
    wave = plan_wave(ctx, gpus, compute_w, wait_w)
    if wave is None:
        return PowerDynamicsSection(**limits), []
    grid, prices = plan_grid(facility), plan_prices(ctx)
    load = smooth(facility.power_smoothing, wave, grid, prices, facility.job_ramps)
    job = ctx.sections["goodput"]["job_gpus"]
    best = None
    findings: list[Finding] = []
    broken = broken_limits(load, grid)
    if broken:
        best = cheapest(wave, grid, prices, ctx.plan.settings.costs.horizon_months / 12.0)
        findings = limit_findings(broken, load, grid, best, ctx.plan.settings.costs.horizon_months)
    findings += period_findings(facility, wave.period_s, load.swing_w) + storage_findings(facility, wave)
    # the mean IT load: the floor, the swing while computing, the power floor's lift while waiting
    mean_w = wave.floor_w + wave.swing_w * (1.0 - wave.wait_share) + load.gpu_floor_lift_w * wave.wait_share
    section = PowerDynamicsSection(
        peak_mw=_mw(load.peak_w), floor_mw=_mw(load.floor_w), swing_mw=_mw(load.swing_w),
        period_s=round(wave.period_s, 4), ramp_mw_per_s=_mw(load.ramp_w_per_s),
        interruption_drop_mw=_mw(load.interruption_drop_w), mean_mw=_mw(mean_w),
        interruptions_per_day=ctx.sections["goodput"]["interruptions_per_day"],
        raw_peak_mw=_mw(wave.peak_w), raw_floor_mw=_mw(wave.floor_w), raw_swing_mw=_mw(wave.swing_w),
        compute_s=round(wave.compute_s, 4), wait_s=round(wave.wait_s, 4), wait_share=round(wave.wait_share, 6),
        gpu_compute_w=round(compute_w / gpus, 3), gpu_wait_w=round(wait_w / gpus, 3),
        gpu_floor_w=round(wait_w / gpus + load.gpu_floor_lift_w / job, 3) if load.gpu_floor_lift_w and job else None,
        smoothing=load.smoothing, bess_mw=_mw(load.bess_w), bess_mwh=_mw(load.bess_wh),
        smoothing_capex_usd=round(load.capex_usd, 2), energy_cost_usd_per_year=round(load.energy_usd_per_year, 2),
        **with_smoothing(ctx.sections.get("cost"), load, ctx.plan.settings.costs.horizon_months),
        cheapest_smoothing=None if best is None else best.smoothing,
        cheapest_job_ramps=None if best is None else best.job_ramps,
        edge_s=round(load.edge_s, 4), interruption_drop_s=round(load.drop_s, 4),
        rack_storage_wh=round(wave.storage_j / 3600.0, 3), job_ramps=load.job_ramps,
        job_ramp_s=round(load.job_ramp_s, 3) if load.job_ramps else None,
        gpu_time_cost_usd_per_year=round(load.gpu_time_usd_per_year, 2), wave=wave, grid=grid, prices=prices,
        trace=trace(wave, load, grid), **limits)
    return section, findings


def with_smoothing(cost, load: Smoothed, horizon_months: int) -> dict[str, float]:
    """The cost section's opex and TCO with the smoothing's energy (and capex) added: the
    cost section is computed before the step is known, so it leaves them out. The GPU time a
    ramped restart loses is no payment: it is a figure of its own."""
    if cost is None:
        return {}
    return {"opex_with_smoothing_usd_per_month": round(cost["opex_usd_per_month"] + load.energy_usd_per_year / 12, 2),
            "tco_with_smoothing_usd": round(cost["tco_usd"] + load.cash_usd(horizon_months / 12), 2)}


def describe_smoothing(best: Smoothed) -> str:
    """'a site battery of 27.2 kW / 6.8 kWh': the smoothing and its size, for a finding."""
    if best.smoothing == "site_battery":
        size = f" of {watts(best.bess_w)} / {text(best.bess_wh, 'Wh', style='compact')}"
    elif best.smoothing == "rack_storage":
        size = (f" ({text(best.storage_j / 3600.0, 'Wh', style='compact')} in the power supplies) spreading "
                f"each edge over {best.edge_s:,.2f} s")
    else:
        size = f" lifting the waiting GPUs by {watts(best.gpu_floor_lift_w)}"
    ramps = f", the job's stop and restart ramped over {best.job_ramp_s:,.0f} s" if best.job_ramps else ""
    return f"{'the' if best.smoothing == 'rack_storage' else 'a'} {choice_title(best.smoothing)}{size}{ramps}"


def describe_cost(best: Smoothed, horizon_months: int) -> str:
    """'$10,205 capex and $850 a year of energy, the cheapest over 36 months' (and the GPU time)."""
    if not best.cost_usd(1.0):
        return f"no capex and no energy: it comes with the systems; the cheapest over {horizon_months} months"
    parts = ([f"{usd(best.capex_usd)} capex"] if best.capex_usd else []) + \
        [f"{usd(best.energy_usd_per_year)} a year of energy"] + \
        ([f"{usd(best.gpu_time_usd_per_year)} a year of GPU time"] if best.job_ramps else [])
    return f"{' and '.join(parts) if len(parts) < 3 else ', '.join(parts[:-1]) + ' and ' + parts[-1]}, " \
        f"the cheapest over {horizon_months} months"


def limit_findings(broken: list[str], load: Smoothed, grid: Grid, best: Smoothed,
                   horizon_months: int) -> list[Finding]:
    """A finding for each limit the load breaks, with the figure and the cheapest smoothing."""
    what, cost = describe_smoothing(best), describe_cost(best, horizon_months)
    remedy = Remedy("set_smoothing", f"Smooth the load with {what}",
                    (("smoothing", best.smoothing), ("job_ramps", "on" if best.job_ramps else "off")))
    out = []
    if "swing" in broken:
        out.append(Finding(
            "error", "facility.grid.swing",
            f"The training load swings by {watts(load.swing_w)} every step, over the {watts(grid.max_swing_w)} the "
            f"grid allows: smooth it with {what} ({cost})", remedy=remedy))
    if "ramp" in broken:
        out.append(Finding(
            "error", "facility.grid.ramp",
            f"The training load ramps at {watts(load.ramp_w_per_s)}/s, faster than the "
            f"{watts(grid.max_ramp_w_per_s)}/s the grid allows: smooth it with {what} ({cost})", remedy=remedy))
    return out


def period_findings(facility, period_s: float, swing_w: float) -> list[Finding]:
    """A swing whose period falls in the band the utility asks to avoid (both ends set)."""
    low, high = facility.grid_avoid_period_min_s, facility.grid_avoid_period_max_s
    if low is None or high is None or not low <= period_s <= high or swing_w <= 0:
        return []
    return [Finding(
        "warning", "facility.grid.period",
        f"The load swings by {watts(swing_w)} every {period_s:,.2f} s ({1 / period_s:,.3f} Hz), inside the "
        f"{low:g}-{high:g} s band the grid asks to avoid: change the step time (the batch or the layout) or "
        "flatten the swing (a GPU power floor or a site battery with no swing allowed)")]


def storage_findings(facility, wave: Wave) -> list[Finding]:
    """The racks' storage chosen on a plan whose systems have none: the load is not smoothed."""
    if facility.power_smoothing != "rack_storage" or wave.storage_j > 0:
        return []
    return [Finding(
        "warning", "facility.grid.no_rack_storage",
        "Power smoothing is set to the racks' own energy storage, but no GPU system placed has any (the GB300 "
        "NVL72's power supplies do): the load is not smoothed. Choose a GPU power floor or a site battery")]
