"""The IT load of synchronous training over time, and what smooths it for the grid.

Every GPU of the job computes, then waits together (exposed communication, the pipeline
bubble, a checkpoint), once per step: the load is a square wave of the step's period
(E. Choukse et al., "Power Stabilization for AI Training Datacenters", Microsoft, OpenAI,
NVIDIA, arXiv 2508.14318, 2025). Pure functions on figures the report already holds.

- Levels: a node draws its typical draw (catalog ``power_typical_w``, the sustained training
  draw) while it computes; while it waits each of its GPUs draws ``comm_power_w`` instead of
  ``compute_power_w``. Switches, storage, CDUs and the rest keep their typical draw; cooling
  and losses (PUE) follow the mean load, not the step (thermal mass). Spare nodes wait
  throughout.
- Swing = the job's GPUs x (compute - wait draw); ramp = swing / the edge time.
- A GPU power floor lifts the waiting draw by (swing - allowed swing); it burns that lift
  for the share of the time the GPUs wait.
- A site battery shaves the swing to the allowed one: it discharges a during the compute
  time c and charges b during the wait l, a + b = the swing to shave X and a x c = b x l,
  so a = X l / (c + l), b = X c / (c + l); it holds b x the longest wait (the step's wait
  or a checkpoint's stall). With a ramp limit R it also takes the drop at an interruption
  (the load falls by the swing less a at once) while the grid ramps down at R:
  drop^2 / (2 R) of energy. It is built with at least a least duration of storage at its
  power (a step needs seconds; lithium-ion systems are sold by the quarter hour).
- The racks' own storage (GB300 NVL72 power supplies, E joules for the job's GPUs) gives or
  takes the difference while the grid's draw ramps linearly across each edge: an edge of S
  over T needs S T / 2, so T = 2 E / S (no shorter than the GPUs' own edge, no longer than
  the shorter phase). Every edge, the step's and the interruption's, ramps at S / T; the
  swing stays (a step's phases last seconds, the storage a fraction of one).
- Ramped stop and restart (on top of any of these): the interruption's drop and the
  restart's rise take T = max(the set time, drop / R). The stop burns drop x T / 2 of energy;
  GPUs brought up in groups over T are idle T / 2 on average: job GPUs x T / 2 of GPU time.

Why it is long: four smoothings and their composition with the ramped stop share the wave,
the grid and the prices, and the trace draws whichever the plan has.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

SMOOTHINGS = ("gpu_power_floor", "site_battery", "rack_storage")


@dataclass(frozen=True, slots=True)
class Wave:
    """The unsmoothed IT load of the job's steps, in W and s."""

    peak_w: float  # every job GPU computing
    swing_w: float  # the job's GPUs: compute draw - waiting draw
    compute_s: float
    wait_s: float  # exposed communication + pipeline bubble
    stall_s: float = 0.0  # a blocking checkpoint, every ``stall_every_s`` of running
    stall_every_s: float | None = None
    job_gpus: int = 0
    interruptions_per_year: float = 0.0  # each a drop, then a restart
    storage_j: float = 0.0  # the job's GPUs' share of their racks' energy storage (0: none)

    @property
    def period_s(self) -> float:
        return self.compute_s + self.wait_s

    @property
    def floor_w(self) -> float:
        return self.peak_w - self.swing_w

    @property
    def wait_share(self) -> float:
        """Share of the running time the GPUs wait: the steps' waits, and the checkpoints' stalls."""
        step = self.wait_s / self.period_s if self.period_s > 0 else 0.0
        if not self.stall_s or not self.stall_every_s:
            return step
        k = self.stall_s / (self.stall_every_s + self.stall_s)
        return k + (1.0 - k) * step


@dataclass(frozen=True, slots=True)
class Grid:
    """What the grid accepts (None: no limit) and the time a GPU takes between its levels."""

    max_swing_w: float | None
    max_ramp_w_per_s: float | None
    edge_s: float

    def allowed_swing_w(self) -> float:
        """The largest swing that keeps both limits (a swing ramps over the edge time); 0 without limits."""
        limits = [x for x in (self.max_swing_w,
                              None if self.max_ramp_w_per_s is None else self.max_ramp_w_per_s * self.edge_s)
                  if x is not None]
        return min(limits) if limits else 0.0


@dataclass(frozen=True, slots=True)
class Prices:
    usd_per_kwh: float
    pue: float
    hours_per_year: float
    bess_usd_per_kw: float
    bess_usd_per_kwh: float
    bess_efficiency: float
    bess_min_hours: float = 0.0  # the least energy a battery of a given power is built with, in hours
    gpu_hour_usd: float = 0.0  # what a GPU-hour of the plan costs: the GPU time a ramped restart loses
    job_ramp_s: float = 60.0  # the least time a ramped stop and restart take


@dataclass(frozen=True, slots=True)
class Smoothed:
    """The load the grid sees under one smoothing (W, s, $)."""

    smoothing: str
    peak_w: float
    floor_w: float
    ramp_w_per_s: float
    interruption_drop_w: float
    gpu_floor_lift_w: float = 0.0  # the job's GPUs together, while they wait
    bess_w: float = 0.0
    bess_wh: float = 0.0
    capex_usd: float = 0.0
    energy_usd_per_year: float = 0.0
    edge_s: float = 0.0  # the step's edges as the grid sees them
    drop_s: float = 0.0  # the interruption's drop as the grid sees it
    storage_j: float = 0.0  # the racks' storage it uses
    job_ramp_s: float = 0.0  # the stop and restart ramped over this; 0: not ramped
    gpu_time_usd_per_year: float = 0.0  # the GPU time the ramped restarts lose, priced

    @property
    def swing_w(self) -> float:
        return self.peak_w - self.floor_w

    @property
    def job_ramps(self) -> bool:
        return self.job_ramp_s > 0

    def cash_usd(self, years: float) -> float:
        """What is paid over ``years``: capex and energy."""
        return self.capex_usd + self.energy_usd_per_year * years

    def cost_usd(self, years: float) -> float:
        """What the choice weighs over ``years``: the cash and the GPU time lost."""
        return self.cash_usd(years) + self.gpu_time_usd_per_year * years


def unsmoothed(wave: Wave, grid: Grid) -> Smoothed:
    return Smoothed("none", wave.peak_w, wave.floor_w, wave.swing_w / grid.edge_s, wave.swing_w,
                    edge_s=grid.edge_s, drop_s=grid.edge_s)


def power_floor(wave: Wave, grid: Grid, prices: Prices) -> Smoothed:
    """The GPUs keep a floor while they wait: the swing falls to the allowed one, and the lift
    is burnt for the waiting share of the year (IT energy, times PUE). The floor holds while a
    job restarts, so an interruption drops the load by the allowed swing too."""
    allowed = min(grid.allowed_swing_w(), wave.swing_w)
    lift = wave.swing_w - allowed
    kwh = lift / 1000.0 * wave.wait_share * prices.hours_per_year
    return Smoothed("gpu_power_floor", wave.peak_w, wave.floor_w + lift, allowed / grid.edge_s, allowed,
                    gpu_floor_lift_w=lift, energy_usd_per_year=kwh * prices.pue * prices.usd_per_kwh,
                    edge_s=grid.edge_s, drop_s=grid.edge_s)


def site_battery(wave: Wave, grid: Grid, prices: Prices, takes_drop: bool = True) -> Smoothed:
    """A battery shaves the swing to the allowed one (see the module's docstring); its losses,
    (1/efficiency - 1) of what it discharges each step, are bought from the grid. Under a ramp
    limit it also takes the interruption's drop, unless the stop is ramped (``takes_drop``
    False)."""
    allowed = min(grid.allowed_swing_w(), wave.swing_w)
    x, c, l = wave.swing_w - allowed, wave.compute_s, wave.wait_s
    a = x * l / (c + l) if c + l > 0 else 0.0
    b = x - a
    power_w, energy_j = max(a, b), b * max(l, wave.stall_s)
    drop = wave.swing_w - a  # from the compute phase's grid draw down to the unsmoothed floor
    drop_s = grid.edge_s
    if grid.max_ramp_w_per_s is not None and takes_drop:
        power_w, energy_j = max(power_w, drop), max(energy_j, drop * drop / (2.0 * grid.max_ramp_w_per_s))
        drop_s = max(grid.edge_s, drop / grid.max_ramp_w_per_s)
    ramp = max(allowed / grid.edge_s, drop / drop_s)
    wh = max(energy_j / 3600.0, power_w * prices.bess_min_hours)  # batteries are built with a least duration
    steps_per_year = prices.hours_per_year * 3600.0 / wave.period_s if wave.period_s > 0 else 0.0
    loss_kwh = a * c / 3.6e6 * (1.0 / prices.bess_efficiency - 1.0) * steps_per_year
    return Smoothed("site_battery", wave.peak_w - a, wave.floor_w + b, ramp, drop, bess_w=power_w, bess_wh=wh,
                    capex_usd=power_w / 1000.0 * prices.bess_usd_per_kw + wh / 1000.0 * prices.bess_usd_per_kwh,
                    energy_usd_per_year=loss_kwh * prices.usd_per_kwh, edge_s=grid.edge_s, drop_s=drop_s)


def rack_storage(wave: Wave, grid: Grid, prices: Prices) -> Smoothed:
    """The racks' own storage spreads every edge over T = 2 E / S (the module's docstring): the
    ramp falls to S / T, the swing and the drop stay. It comes with the system (no capex) and
    its losses are not published (neglected: a capacitor's on a step's 65 J per GPU)."""
    s, t = wave.swing_w, grid.edge_s
    if wave.storage_j > 0 and s > 0:
        t = max(grid.edge_s, min(2.0 * wave.storage_j / s, wave.compute_s, wave.wait_s))
    return Smoothed("rack_storage", wave.peak_w, wave.floor_w, s / t, s, edge_s=t, drop_s=t,
                    storage_j=wave.storage_j)


def ramped(load: Smoothed, wave: Wave, grid: Grid, prices: Prices) -> Smoothed:
    """``load`` with its stop and restart ramped over T = max(the set time, drop / the ramp
    limit): the stop burns drop x T / 2 (IT energy, times PUE), the restart loses job GPUs x
    T / 2 of GPU time, at each interruption."""
    limit = grid.max_ramp_w_per_s
    drop = load.interruption_drop_w
    t = max(prices.job_ramp_s, load.drop_s, 0.0 if limit is None else drop / limit)
    burn_kwh = drop * t / 2.0 / 3.6e6 * wave.interruptions_per_year
    gpu_h = wave.job_gpus * t / 2.0 / 3600.0 * wave.interruptions_per_year
    return replace(load, ramp_w_per_s=max(load.swing_w / load.edge_s, drop / t), drop_s=t, job_ramp_s=t,
                   energy_usd_per_year=load.energy_usd_per_year + burn_kwh * prices.pue * prices.usd_per_kwh,
                   gpu_time_usd_per_year=gpu_h * prices.gpu_hour_usd)


REMEDIES = {"gpu_power_floor": power_floor, "site_battery": site_battery, "rack_storage": rack_storage}


def smooth(smoothing: str, wave: Wave, grid: Grid, prices: Prices, job_ramps: bool = False) -> Smoothed:
    """The load under ``smoothing`` (none for a name it does not know), its stop and restart
    ``job_ramps``."""
    if smoothing == "site_battery":
        load = site_battery(wave, grid, prices, takes_drop=not job_ramps)
    else:
        load = REMEDIES[smoothing](wave, grid, prices) if smoothing in REMEDIES else unsmoothed(wave, grid)
    return ramped(load, wave, grid, prices) if job_ramps else load


def broken_limits(load: Smoothed, grid: Grid) -> list[str]:
    """The limits the load breaks: "swing", "ramp" (a part in a billion over is within: rounding)."""
    out = []
    if grid.max_swing_w is not None and load.swing_w > grid.max_swing_w * (1 + 1e-9):
        out.append("swing")
    if grid.max_ramp_w_per_s is not None and load.ramp_w_per_s > grid.max_ramp_w_per_s * (1 + 1e-9):
        out.append("ramp")
    return out


def cheapest(wave: Wave, grid: Grid, prices: Prices, years: float) -> Smoothed:
    """The smoothing, with or without a ramped stop and restart, that meets the limits at the
    lowest cost over ``years`` (capex, energy and the GPU time lost); the racks' storage only
    where the plan's systems have it. On a tie the one without ramps."""
    names = [n for n in SMOOTHINGS if n != "rack_storage" or wave.storage_j > 0]
    options = [smooth(name, wave, grid, prices, ramps) for ramps in (False, True) for name in names]
    meeting = [o for o in options if not broken_limits(o, grid)] or options
    return min(meeting, key=lambda o: o.cost_usd(years))


def trace(wave: Wave, load: Smoothed, grid: Grid, steps: int = 3) -> tuple[tuple[float, float, float], ...]:
    """The load over ``steps`` steps and across an interruption in the compute after them, as
    (time s, unsmoothed W, smoothed W) at the corners of either: each level held, each edge
    over its time (the GPUs' own, or as the smoothing spreads it); at the interruption each
    falls by its drop over its time (a battery's ramp, the racks' storage, a ramped stop) and
    stays down for at least a step."""
    c, p = wave.compute_s, wave.period_s

    def edge(s: float) -> float:
        return min(s, c, max(wave.wait_s, 1e-9))

    e = edge(grid.edge_s)
    raw = _square(wave.peak_w, wave.floor_w, wave.swing_w, e, e, c, p, steps)
    smoothed = _square(load.peak_w, load.floor_w, load.interruption_drop_w, edge(load.edge_s or grid.edge_s),
                       max(e, load.drop_s), c, p, steps)
    times = sorted({t for t, _ in raw} | {t for t, _ in smoothed})
    return tuple(zip(times, _along(raw, times), _along(smoothed, times)))


def _square(peak: float, floor: float, drop: float, e: float, fall_s: float, c: float, p: float,
            steps: int) -> list[tuple[float, float]]:
    """The corners of one curve: from the wait before, ``steps`` steps, then an interruption
    mid-compute that falls by ``drop`` over ``fall_s``."""
    out = [(0.0, floor)]
    for k in range(steps):
        t = k * p
        out += [(t + e, peak), (t + c, peak), (t + c + e, floor), (t + p, floor)]
    t = steps * p + max(c / 2, e)  # the interruption, mid-compute
    out += [(steps * p + e, peak), (t, peak), (t + fall_s, peak - drop)]
    if p > fall_s:
        out.append((t + p, peak - drop))
    return out


def _along(points: list[tuple[float, float]], times: list[float]) -> list[float]:
    """The curve through ``points`` (corners in time order) at each of ``times`` (ascending):
    linear between corners, at a time two corners share the earlier one's value,
    held after the last. One walk along both."""
    out, i, last = [], 0, len(points) - 1
    for t in times:
        while i < last and t > points[i + 1][0]:
            i += 1
        if i == last:
            out.append(points[-1][1])
            continue
        (t0, w0), (t1, w1) = points[i], points[i + 1]
        out.append(w1 if t1 <= t0 else w0 + (w1 - w0) * (t - t0) / (t1 - t0))
    return out
