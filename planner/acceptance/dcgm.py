"""DCGM diagnostics read back: ``dcgmi diag -r 3 -j`` on one host, judged by what it reports.

The JSON (NVIDIA DCGM user guide, "DCGM Diagnostics"; DCGM 3 names its top object "DCGM GPU
Diagnostic", DCGM 4 "DCGM Diagnostic") holds ``test_categories[]``, each ``tests[]`` with a
``name`` and ``results[]``, one per GPU (``gpu_id`` / ``gpu_ids`` in DCGM 3, ``entity_id`` in
DCGM 4), each with a ``status`` ("Pass", "Fail", "Warn", "Skip") and ``warnings`` (text, or
objects with a ``warning``). Any "Fail" fails the host; a diagnostic with no result at all is
no evidence and fails too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from planner.errors import PlannerError, one_line

TOP_KEYS = ("DCGM Diagnostic", "DCGM GPU Diagnostic")
MAX_LISTED = 3


def is_dcgm_json(text: str) -> bool:
    return "test_categories" in text and any(f'"{key}"' in text for key in TOP_KEYS)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """What one host's diagnostic reported: its results by status, and each failure in words."""

    results: int
    skipped: int
    failures: tuple[str, ...]

    def summary(self) -> str:
        if self.failures:
            more = len(self.failures) - MAX_LISTED
            return ("Fail: " + "; ".join(self.failures[:MAX_LISTED])
                    + (f"; and {more} more failed result{'s' if more > 1 else ''}" if more > 0 else ""))
        if not self.results:
            return "the diagnostic holds no test result"
        return f"every test Pass ({self.results} results" + (f", {self.skipped} skipped)" if self.skipped else ")")


def _gpu(result: dict) -> str:
    for key in ("entity_id", "gpu_id", "gpu_ids"):
        if key in result:
            value = result[key]
            return f" on GPU {','.join(map(str, value)) if isinstance(value, list) else value}"
    return ""


def _first_warning(result: dict) -> str:
    warnings = result.get("warnings") or []
    first = warnings[0] if isinstance(warnings, list) and warnings else None
    text = first.get("warning", "") if isinstance(first, dict) else first
    return f": {one_line(str(text), 120)}" if text else ""


def read_dcgm(text: str, name: str) -> Diagnostic:
    """The diagnostic of one host; a PlannerError naming the file when the JSON cannot be read."""
    try:
        data = json.loads(text[text.index("{"):])
    except ValueError as exc:
        raise PlannerError(f"{name}: DCGM diagnostic JSON that does not parse ({exc}): truncated?") from None
    top = next((data[k] for k in TOP_KEYS if isinstance(data, dict) and isinstance(data.get(k), dict)), None)
    categories = top.get("test_categories") if top is not None else None
    if not isinstance(categories, list):
        raise PlannerError(f"{name}: a DCGM diagnostic without 'test_categories'")
    results = skipped = 0
    failures = []
    for category in categories:
        for test in (category.get("tests") or []) if isinstance(category, dict) else []:
            if not isinstance(test, dict):
                continue
            for result in test.get("results") or []:
                if not isinstance(result, dict):
                    continue
                status = str(result.get("status", "")).strip().lower()
                results += 1
                skipped += status == "skip"
                if status == "fail":
                    failures.append(f"{test.get('name', '?')}{_gpu(result)}{_first_warning(result)}")
    return Diagnostic(results, skipped, tuple(failures))
