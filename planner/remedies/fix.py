"""Fix all: apply the remedy of each error and warning, re-evaluating after each, until
none with a remedy is left (each fix can change the findings after it: a parallelism over
more GPUs makes a new even batch).

Each remedy is checked against what it was made for: when the finding it mends (its code,
at the same place) is still there after it, the remedy is undone and reported as not
fixing it, and not tried again. A bound on the fixes (``fix_bound``) keeps a remedy that
re-creates findings elsewhere from running for ever; it is reported when reached.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from planner.findings import Finding
from planner.plan.commands import Command, CommandError, History
from planner.remedies.commands import REMEDY_KINDS, remedy_command
from planner.report.evaluate import Evaluator


@dataclass(slots=True)
class FixResult:
    applied: list[Command] = field(default_factory=list)
    refused: list[tuple[Command, str]] = field(default_factory=list)
    """Remedies that could not be applied or did not mend their finding (then undone), with the reason."""
    stopped: bool = False
    """Whether fix stopped at its bound (``fix_bound``) with remedies still to try."""


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
    "facility.grid.no_rack_storage": "which smoothing to use instead is yours; a broken grid limit's finding "
                                     "carries the cheapest",
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


def fix_bound(plan) -> int:
    """The most fixes one fix-all applies or tries: one for each rack and each device placed
    (a rack split, a move into a liquid-cooled rack: the racks a split or a move adds hold
    within their checks) and one for each plan-wide remedy kind. Planner assumption: a
    plan-wide remedy is needed again only after a fix of another kind, so these rounds are
    more than any plan needs (a test walks the templates and auto-placed plans and never
    reaches it)."""
    return len(plan.racks) + len(plan.placements) + len(REMEDY_KINDS)


def fix_all(history: History, *, limit: int | None = None) -> FixResult:
    """Apply remedies one by one, each one undo step of ``history``; at most ``limit``
    (default ``fix_bound``)."""
    plan, catalog = history.plan, history.catalog
    evaluator = Evaluator(plan, catalog)
    report = [evaluator.evaluate()]
    refused: list[tuple[Command, str]] = []

    def apply(command: Command) -> bool:
        try:
            report[0] = evaluator.evaluate(history.apply(command))
        except CommandError as exc:
            refused.append((command, str(exc)))
            return False
        return True

    def undo() -> None:
        report[0] = evaluator.evaluate(history.undo())

    result = fix_each(lambda: report[0].findings, apply, undo,
                      limit=fix_bound(plan) if limit is None else limit)
    result.refused[:0] = refused
    return result


def fix_each(findings: Callable[[], list[Finding]], apply: Callable[[Command], bool], undo: Callable[[], None], *,
             limit: int) -> FixResult:
    """Apply the remedy of the first fixable finding of ``findings()`` with ``apply`` (False:
    refused), again until none is left that was not tried, at most ``limit`` times. A remedy
    after which its finding is still there is taken back with ``undo`` and listed as refused.
    The app passes its document's report, apply and undo, so each fix is one undo step there."""
    result = FixResult()
    tried: set = set()
    for _ in range(limit):
        pending = _pending(findings(), tried)
        if not pending:
            return result
        finding = pending[0]
        tried.add((finding.code, finding.where, finding.remedy))
        command = remedy_command(finding.remedy)
        outcome = mend(finding, command, findings, apply, undo)
        if outcome is True:
            result.applied.append(command)
        elif outcome:
            result.refused.append((command, outcome))
    result.stopped = bool(_pending(findings(), tried))
    return result


def mend(finding: Finding, command: Command, findings: Callable[[], list[Finding]],
         apply: Callable[[Command], bool], undo: Callable[[], None]) -> bool | str:
    """Apply ``command``, ``finding``'s remedy: True when done and the finding is gone; False
    when ``apply`` refused it; else, the command taken back with ``undo``, why."""
    if not apply(command):
        return False
    left = _same(finding, findings())
    if left is None:
        return True
    undo()
    return f"it does not mend {left.code}: {left.message}"


# Remedy kinds mended before the others: a rack split copies the rack's kind, so a rack's
# cooling is set first (a liquid-cooled node split out of an air-cooled rack is refused).
FIRST_KINDS = ("set_rack_cooling",)


def _pending(findings: list[Finding], tried: set) -> list[Finding]:
    pending = [f for f in fixable(findings) if (f.code, f.where, f.remedy) not in tried]
    return sorted(pending, key=lambda f: f.remedy.kind not in FIRST_KINDS)  # stable: the findings' order else


def _same(finding: Finding, findings: list[Finding]) -> Finding | None:
    """The finding of ``finding``'s code at its place among ``findings`` (an error or a
    warning), if any."""
    return next((f for f in findings if f.code == finding.code and f.where == finding.where
                 and f.severity != "info"), None)
