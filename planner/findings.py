"""A finding of the report: what is wrong with a plan or worth knowing, and where.

Below every concern (facility, network, storage, workload, costs), which each make findings,
and below the report that gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True, slots=True)
class Remedy:
    """What would mend a finding, as data: ``kind`` names the edit (``planner.remedies``
    turns it into an undoable command), ``figures`` its numbers (what to add, how many,
    what to set). A finding the core cannot mend carries none."""

    kind: str
    label: str
    figures: tuple[tuple[str, int | str], ...] = ()

    def figure(self, name: str) -> int | str:
        return dict(self.figures)[name]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, **dict(self.figures)}


@dataclass(frozen=True, slots=True)
class Finding:
    severity: Severity
    code: str
    message: str
    where: str | None = None
    remedy: Remedy | None = None

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "code": self.code, "message": self.message, "where": self.where,
                "remedy": self.remedy.to_json() if self.remedy is not None else None}
