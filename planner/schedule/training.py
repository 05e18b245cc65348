"""Renting on the build-out's calendar (the training run on it: ``planner.schedule.run_cost``).

- Renting while building: the GPUs not yet online, rented month by month until the plan is
  energized, at the cost model's rent per month for the whole plan scaled by that share.
- Break-even counted from the order: the months to energization plus the cost model's
  break-even (the cluster earns nothing before it is energized).
"""

from __future__ import annotations


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
