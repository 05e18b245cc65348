"""The training run on the build-out's calendar: when it ends and what it costs.

The run starts at the energization (every phase online) or at the first phase's ready month
(``train_from``) and trains, month by month, on the GPUs online: whole model replicas (TP x
CP x PP GPUs each) up to the job's DP (planner assumption: data-parallel replicas join as
their phases come online, the global batch kept by more gradient accumulation, so a
replica's tokens/s are the same), until it has done its GPU-hours (the workload's days on
the whole job x 24 x the job's GPUs). A calendar month is 365.25 / 12 days = 730.5 hours; in
month m

    GPUs training     = min(job GPUs, floor(GPUs online / replica) x replica)
    hours             = min(730.5, GPU-hours left / GPUs training), 0 with no replica online
    run's GPU-hours   = GPUs training x hours
    build             = (capex of the phases online / horizon months
                         + opex x IT power of the phases online / the plan's IT power)
                        x hours / the cost model's hours per month
    rent (each rate)  = GPUs online x hours x rate x (1 + rental uplift)

Both ways price the GPUs the run holds, the GPUs online: once every phase is online that is
every GPU of the plan (hot spares included), as the whole-cluster figure of the workload
section (``planner.workload.section.run_cost``) prices them. So a run that starts at
energization costs exactly that figure: every month of it has every phase online, and its
hours add up to the days on the whole job x 24. Capex is the straight-line share of the
phases online over the cost horizon (planner assumption: a phase's hardware is amortised
from the month it is in service, not while it is on order); opex follows the IT power
energized (planner assumption: energy and colocation, most of the opex, scale with it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from planner.schedule.model import MONTH_DAYS
from planner.settings.costs import HORIZON_MAX_MONTHS

MONTH_HOURS = MONTH_DAYS * 24  # hours of an average calendar month: 730.5


@dataclass(frozen=True, slots=True)
class CalendarPrices:
    """What the run is priced at, month by month: ``capex_online_usd[m]`` and
    ``it_online_share[m]`` for months 0 to the energized month (the last entry holds from then
    on); the cost model's opex, horizon and hours per month; each rental option's $/GPU-hour
    with the rental uplift."""

    capex_online_usd: list[float]
    it_online_share: list[float]
    opex_usd_per_month: float
    horizon_months: float
    hours_per_month: float
    rent_usd_per_gpu_hour: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunMonth:
    """One month of the run (``count`` alike months from ``month`` on, in ``run_segments``)."""

    month: int
    gpus_online: int
    gpus_training: int
    hours: float
    gpu_hours: float
    build_usd: float
    rent_usd: dict[str, float]
    count: int = 1


@dataclass(frozen=True, slots=True)
class RunOnCalendar:
    months: list[RunMonth]  # month by month, at most ``LISTED_MONTHS`` of them
    total_usd: dict[str, float]  # keyed as the workload's run_cost_usd: rent_<option> and build
    end_month: float  # months after the order the run ends


# The months listed one by one: the cost model's longest horizon (a run longer than that is
# priced in full all the same, its months past it not listed).
LISTED_MONTHS = HORIZON_MAX_MONTHS


def run_on_calendar(online: list[int], start: int, gpu_hours: float, replica_gpus: int, job_gpus: int,
                    prices: CalendarPrices | None = None) -> RunOnCalendar | None:
    """The run month by month from ``start`` (``online[-1]`` GPUs from the last entry on) until
    its ``gpu_hours`` are done, and its cost in total (nothing without ``prices``); None when
    it never trains (no replica fits in every GPU)."""
    segments = run_segments(online, start, gpu_hours, replica_gpus, job_gpus, prices)
    if segments is None:
        return None
    listed: list[RunMonth] = []
    for seg in segments:
        for k in range(min(seg.count, LISTED_MONTHS - len(listed))):
            listed.append(replace(seg, month=seg.month + k, count=1))
    total = {f"rent_{k}": round(sum(s.rent_usd[k] * s.count for s in segments), 2)
             for k in segments[0].rent_usd}
    total["build"] = round(sum(s.build_usd * s.count for s in segments), 2)
    end = segments[-1]
    return RunOnCalendar(listed, total, end.month + end.count - 1 + end.hours / MONTH_HOURS)


def run_segments(online: list[int], start: int, gpu_hours: float, replica_gpus: int, job_gpus: int,
                 prices: CalendarPrices | None) -> list[RunMonth] | None:
    """The run's months, those from the last entry of ``online`` on (every phase online, so
    alike) as one segment of whole months and the last month's part: a run of centuries takes
    no longer to price than one of months."""
    if gpu_hours <= 0 or replica_gpus <= 0 or job_gpus <= 0 or not online:
        return None
    last = len(online) - 1
    if training_gpus(online[last], replica_gpus, job_gpus) == 0:
        return None
    out: list[RunMonth] = []
    left, m, done = gpu_hours, max(0, start), gpu_hours * 1e-12
    while m < last and left > done:  # phases still coming online: month by month
        running = training_gpus(online[m], replica_gpus, job_gpus)
        hours = min(MONTH_HOURS, left / running) if running else 0.0
        out.append(_month(m, online[m], running, hours, m, prices))
        left -= running * hours
        m += 1
    if left > done:  # every phase online: whole months alike, then the last month's part
        running = training_gpus(online[last], replica_gpus, job_gpus)
        whole = int(left / (running * MONTH_HOURS))
        rest = left - whole * running * MONTH_HOURS
        if whole:
            out.append(_month(m, online[last], running, MONTH_HOURS, last, prices, whole))
        if rest > done:
            out.append(_month(m + whole, online[last], running, rest / running, last, prices))
    return out


def _month(m: int, gpus: int, running: int, hours: float, i: int, prices: CalendarPrices | None,
           count: int = 1) -> RunMonth:
    """Month ``m`` (``count`` alike from it), priced at month ``i``'s entry of ``prices``."""
    if prices is None:
        return RunMonth(m, gpus, running, hours, running * hours, 0.0, {}, count)
    build = (prices.capex_online_usd[i] / prices.horizon_months
             + prices.opex_usd_per_month * prices.it_online_share[i]) * hours / prices.hours_per_month
    return RunMonth(m, gpus, running, hours, running * hours, build,
                    {k: gpus * hours * rate for k, rate in prices.rent_usd_per_gpu_hour.items()}, count)


def training_gpus(online: int, replica_gpus: int, job_gpus: int) -> int:
    """The GPUs of ``online`` the run trains on: whole replicas, at most the job's."""
    return min(job_gpus, online // replica_gpus * replica_gpus)
