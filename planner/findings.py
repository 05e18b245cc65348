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
class Finding:
    severity: Severity
    code: str
    message: str
    where: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "code": self.code, "message": self.message, "where": self.where}
