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
"""

from __future__ import annotations

from dataclasses import dataclass

SMOOTHINGS = ("gpu_power_floor", "site_battery")


@dataclass(frozen=True, slots=True)
class Wave:
    """The unsmoothed IT load of the job's steps, in W and s."""

    peak_w: float  # every job GPU computing
    swing_w: float  # the job's GPUs: compute draw - waiting draw
    compute_s: float
    wait_s: float  # exposed communication + pipeline bubble
    stall_s: float = 0.0  # a blocking checkpoint, every ``stall_every_s`` of running
    stall_every_s: float | None = None

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

    @property
    def swing_w(self) -> float:
        return self.peak_w - self.floor_w

    def cost_usd(self, years: float) -> float:
        return self.capex_usd + self.energy_usd_per_year * years


def unsmoothed(wave: Wave, grid: Grid) -> Smoothed:
    return Smoothed("none", wave.peak_w, wave.floor_w, wave.swing_w / grid.edge_s, wave.swing_w)


def power_floor(wave: Wave, grid: Grid, prices: Prices) -> Smoothed:
    """The GPUs keep a floor while they wait: the swing falls to the allowed one, and the lift
    is burnt for the waiting share of the year (IT energy, times PUE). The floor holds while a
    job restarts, so an interruption drops the load by the allowed swing too."""
    allowed = min(grid.allowed_swing_w(), wave.swing_w)
    lift = wave.swing_w - allowed
    kwh = lift / 1000.0 * wave.wait_share * prices.hours_per_year
    return Smoothed("gpu_power_floor", wave.peak_w, wave.floor_w + lift, allowed / grid.edge_s, allowed,
                    gpu_floor_lift_w=lift, energy_usd_per_year=kwh * prices.pue * prices.usd_per_kwh)


def site_battery(wave: Wave, grid: Grid, prices: Prices) -> Smoothed:
    """A battery shaves the swing to the allowed one (see the module's docstring); its losses,
    (1/efficiency - 1) of what it discharges each step, are bought from the grid."""
    allowed = min(grid.allowed_swing_w(), wave.swing_w)
    x, c, l = wave.swing_w - allowed, wave.compute_s, wave.wait_s
    a = x * l / (c + l) if c + l > 0 else 0.0
    b = x - a
    power_w, energy_j = max(a, b), b * max(l, wave.stall_s)
    drop = wave.swing_w - a  # from the compute phase's grid draw down to the unsmoothed floor
    if grid.max_ramp_w_per_s is not None:
        power_w, energy_j = max(power_w, drop), max(energy_j, drop * drop / (2.0 * grid.max_ramp_w_per_s))
        ramp = max(allowed / grid.edge_s, min(grid.max_ramp_w_per_s, drop / grid.edge_s))
    else:
        ramp = max(allowed / grid.edge_s, drop / grid.edge_s)
    wh = max(energy_j / 3600.0, power_w * prices.bess_min_hours)  # batteries are built with a least duration
    steps_per_year = prices.hours_per_year * 3600.0 / wave.period_s if wave.period_s > 0 else 0.0
    loss_kwh = a * c / 3.6e6 * (1.0 / prices.bess_efficiency - 1.0) * steps_per_year
    return Smoothed("site_battery", wave.peak_w - a, wave.floor_w + b, ramp, drop, bess_w=power_w, bess_wh=wh,
                    capex_usd=power_w / 1000.0 * prices.bess_usd_per_kw + wh / 1000.0 * prices.bess_usd_per_kwh,
                    energy_usd_per_year=loss_kwh * prices.usd_per_kwh)


REMEDIES = {"gpu_power_floor": power_floor, "site_battery": site_battery}


def smooth(smoothing: str, wave: Wave, grid: Grid, prices: Prices) -> Smoothed:
    return unsmoothed(wave, grid) if smoothing not in REMEDIES else REMEDIES[smoothing](wave, grid, prices)


def broken_limits(load: Smoothed, grid: Grid) -> list[str]:
    """The limits the load breaks: "swing", "ramp" (a part in a billion over is within: rounding)."""
    out = []
    if grid.max_swing_w is not None and load.swing_w > grid.max_swing_w * (1 + 1e-9):
        out.append("swing")
    if grid.max_ramp_w_per_s is not None and load.ramp_w_per_s > grid.max_ramp_w_per_s * (1 + 1e-9):
        out.append("ramp")
    return out


def cheapest(wave: Wave, grid: Grid, prices: Prices, years: float) -> Smoothed:
    """The smoothing that meets the limits at the lowest cost over ``years`` (capex plus energy)."""
    options = [REMEDIES[name](wave, grid, prices) for name in SMOOTHINGS]
    meeting = [o for o in options if not broken_limits(o, grid)] or options
    return min(meeting, key=lambda o: o.cost_usd(years))


def trace(wave: Wave, load: Smoothed, grid: Grid, steps: int = 3) -> tuple[tuple[float, float, float], ...]:
    """The load over ``steps`` steps and across an interruption in the compute after them, as
    (time s, unsmoothed W, smoothed W) corners: each level held, each edge over the edge time;
    at the interruption the smoothed load falls by its drop, at the grid's ramp limit when a
    battery holds it up, and both stay down for a step."""
    c, p, e = wave.compute_s, wave.period_s, min(grid.edge_s, wave.compute_s, max(wave.wait_s, 1e-9))
    out: list[tuple[float, float, float]] = [(0.0, wave.floor_w, load.floor_w)]  # from the wait before
    for k in range(steps):
        t = k * p
        out += [(t + e, wave.peak_w, load.peak_w), (t + c, wave.peak_w, load.peak_w),
                (t + c + e, wave.floor_w, load.floor_w), (t + p, wave.floor_w, load.floor_w)]
    t = steps * p + c / 2  # the interruption, mid-compute
    down = load.peak_w - load.interruption_drop_w
    fall_s = e if load.smoothing != "site_battery" or grid.max_ramp_w_per_s is None else max(
        e, load.interruption_drop_w / grid.max_ramp_w_per_s)
    out += [(steps * p + e, wave.peak_w, load.peak_w), (t, wave.peak_w, load.peak_w),
            (t + e, wave.floor_w, load.peak_w - load.interruption_drop_w * min(1.0, e / fall_s))]
    if fall_s > e:
        out.append((t + fall_s, wave.floor_w, down))
    out.append((t + max(fall_s, p), wave.floor_w, down))
    return tuple(out)
