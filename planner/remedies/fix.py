"""Fix all: apply the remedy of each error and warning, re-evaluating after each, until
none with a remedy is left (each fix can change the findings after it: a parallelism over
more GPUs makes a new even batch)."""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.findings import Finding
from planner.plan.commands import Command, CommandError, History
from planner.remedies.commands import remedy_command
from planner.report.evaluate import evaluate

MAX_FIXES = 20  # a bound on the rounds: each remedy is tried at most once per finding and figures


@dataclass(slots=True)
class FixResult:
    applied: list[Command] = field(default_factory=list)
    refused: list[tuple[Finding, str]] = field(default_factory=list)
    """Remedies that could not be applied, with the reason."""


def fixable(findings: list[Finding]) -> list[Finding]:
    """The errors and warnings that carry a remedy."""
    return [f for f in findings if f.remedy is not None and f.severity != "info"]


def fix_all(history: History, *, limit: int = MAX_FIXES) -> FixResult:
    """Apply remedies one by one, each one undo step of ``history``."""
    result = FixResult()
    tried: set = set()
    for _ in range(limit):
        pending = [f for f in fixable(evaluate(history.plan, history.catalog).findings)
                   if (f.code, f.where, f.remedy) not in tried]
        if not pending:
            break
        finding = pending[0]
        tried.add((finding.code, finding.where, finding.remedy))
        command = remedy_command(finding.remedy)
        try:
            history.apply(command)
        except CommandError as exc:
            result.refused.append((finding, str(exc)))
            continue
        result.applied.append(command)
    return result
