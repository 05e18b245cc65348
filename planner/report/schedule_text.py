"""The training run on the build-out's calendar in words, for the check's summary, the
summary strip and the inspector (``planner.schedule.run_cost`` works it out)."""

from __future__ import annotations

from planner.report.labels import describe
from planner.vocabulary import usd


def training_run_line(report, with_money: bool = True) -> str | None:
    """"Training from month 7 (the first phase) to month 9.5 after the order: rent spot
    $339,435, ..., build $345,580" and, from the first phase, the whole cluster's build cost
    beside it (without ``with_money``, the months only); None without a training run priced
    on the calendar."""
    s, work = report.sections.get("schedule"), report.sections.get("workload")
    cost = s.training_cost_usd if s is not None else {}
    if not cost or s.training_done_month is None:
        return None
    start = "the first phase" if s.train_from == "first_phase" else "energization"
    line = f"Training from month {s.training_start_month} ({start}) to month {s.training_done_month:g} after the order"
    if not with_money:
        return line + "."
    line += f": {describe('schedule', 'training_cost_usd', cost)[1]}"
    whole = (getattr(work, "run_cost_usd", None) or {}).get("build")
    if s.train_from == "first_phase" and whole is not None:
        line += f" (build on the whole cluster from its start: {usd(whole)})"
    return line
