"""The training run and renting on the build-out's calendar.

- The run starts at the energization (every phase online) or at the first phase's ready
  month (``train_from``). From the first phase it trains on the GPUs online: whole model
  replicas (TP x CP x PP GPUs each) of the job's DP, its pace the share of the job's
  replicas running (planner assumption: data-parallel replicas join as phases come online,
  the global batch kept by more gradient accumulation, so a replica's tokens/s are the
  same); fewer GPUs online than a replica train nothing.
- Renting while building: the GPUs not yet online, rented month by month until the plan is
  energized, at the cost model's rent per month for the whole plan scaled by that share.
- Break-even counted from the order: the months to energization plus the cost model's
  break-even (the cluster earns nothing before it is energized).
"""

from __future__ import annotations

from planner.schedule.model import MONTH_DAYS


def done_month(online: list[int], start: int, days: float, replica_gpus: int, job_gpus: int) -> float | None:
    """The month after the order (fractional) the run ends, starting at month ``start``
    (``online[-1]`` GPUs from the last month on), ``days`` being the run on the whole job;
    None when it never trains."""
    if days <= 0 or replica_gpus <= 0 or job_gpus <= 0 or not online:
        return None
    full = days / MONTH_DAYS  # months on the whole job
    left, m = 1.0, start
    while True:
        gpus = online[min(m, len(online) - 1)]
        pace = min(job_gpus, gpus // replica_gpus * replica_gpus) / job_gpus / full  # of the run per month
        if m >= len(online) - 1:  # every phase online: this pace from here on
            return m + left / pace if pace > 0 else None
        if pace >= left:
            return m + left / pace
        left -= pace
        m += 1


def rent_while_building(online: list[int], gpus: int, rent_per_month: dict[str, float]) -> dict[str, float]:
    """Per rental option: renting the GPUs not yet online in each month before the energized
    month (``online[-1]``), at the plan's rent per month in proportion."""
    if not gpus:
        return {k: 0.0 for k in rent_per_month}
    missing = sum(gpus - g for g in online[:-1]) / gpus  # plan-months of GPUs not online
    return {k: round(v * missing, 2) for k, v in rent_per_month.items()}


def break_even_after_order(energized_month: int, break_even: dict[str, float | None]) -> dict[str, float | None]:
    """Per rental option: the cost model's break-even counted from the order."""
    return {k: None if v is None else round(energized_month + v, 1) for k, v in break_even.items()}
