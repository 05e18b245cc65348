"""Fix all: apply the remedy of each error and warning, re-evaluating after each, until
none with a remedy is left (each fix can change the findings after it: a parallelism over
more GPUs makes a new even batch)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from planner.findings import Finding
from planner.plan.commands import Command, CommandError, History
from planner.remedies.commands import remedy_command
from planner.report.evaluate import evaluate

MAX_FIXES = 20  # a bound on the rounds: each remedy is tried at most once per finding and figures


@dataclass(slots=True)
class FixResult:
    applied: list[Command] = field(default_factory=list)
    refused: list[tuple[Command, str]] = field(default_factory=list)
    """Remedies that could not be applied (their commands), with the reason."""


# Why some checks have no automatic fix: the choice is the facility's or the user's, not a
# figure the planner can compute.
NO_FIX_REASONS = {
    "rack.power.nameplate_over_cap": "whether the circuits carry the nameplate is the facility's call",
    "rack.power.single_feed": "one feed (redundancy N) is a choice of the facility's power design",
    "rack.cooling.air_limit": "liquid cooling or a rear-door heat exchanger is a facility choice",
    "rack.cooling.air_remainder": "a rear-door heat exchanger is a facility choice",
    "rack.cooling.liquid_device_in_air_rack": "a rack-scale system is its own rack: set the rack's cooling to liquid",
    "workload.memory.does_not_fit": "the model, the GPUs or their count are yours to choose",
    "facility.hall.power_limit": "which racks move, and to which hall, is a layout choice: a move changes the "
                                 "rows, CDU loops and cable runs of both halls",
    "facility.hall.floor_rating": "a hall's floor rating is the building's; which racks to lighten or move is a "
                                  "layout choice",
    "facility.building.utility_feed": "the feed is contracted with the utility; moving load to another building "
                                      "is a layout choice",
    "facility.grid.period": "the step time is the workload's, and how far to flatten the swing is the utility's "
                            "call",
    "facility.hall.cdu_short": "the CDU remedy places CDUs plan-wide, not in a given hall: add them to the "
                               "hall's liquid-cooled racks",
}


def no_fix_reason(finding: Finding) -> str:
    """'No automatic fix: ...' for a finding without a remedy (what to do is in its text)."""
    why = NO_FIX_REASONS.get(finding.code, "the planner cannot compute one; the finding says what to change")
    return f"No automatic fix: {why}"


def fixable(findings: list[Finding]) -> list[Finding]:
    """The errors and warnings that carry a remedy."""
    return [f for f in findings if f.remedy is not None and f.severity != "info"]


def fix_all(history: History, *, limit: int = MAX_FIXES) -> FixResult:
    """Apply remedies one by one, each one undo step of ``history``."""
    result = FixResult()

    def apply(command: Command) -> bool:
        try:
            history.apply(command)
        except CommandError as exc:
            result.refused.append((command, str(exc)))
            return False
        return True

    result.applied = fix_each(lambda: evaluate(history.plan, history.catalog).findings, apply, limit=limit)
    return result


def fix_each(findings: Callable[[], list[Finding]], apply: Callable[[Command], bool], *,
             limit: int = MAX_FIXES) -> list[Command]:
    """Apply the remedy of the first fixable finding of ``findings()`` with ``apply`` (False:
    refused), again until none is left that was not tried; the commands applied, in order.
    The app passes its document's report and apply, so each fix is one undo step there."""
    applied: list[Command] = []
    tried: set = set()
    for _ in range(limit):
        pending = [f for f in fixable(findings()) if (f.code, f.where, f.remedy) not in tried]
        if not pending:
            break
        finding = pending[0]
        tried.add((finding.code, finding.where, finding.remedy))
        command = remedy_command(finding.remedy)
        if apply(command):
            applied.append(command)
    return applied
