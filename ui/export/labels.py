"""Formatting helpers for the exports; labels and units of report figures come from the
core's one table (``planner.report.labels``)."""

from __future__ import annotations

from typing import Any

from planner import vocabulary
from planner.report.labels import describe as _describe


def number(value: Any, digits: int = 2) -> str:
    """1,234 for whole numbers; up to ``digits`` decimals, trailing zeros dropped, otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-" if value is None else str(value)
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}".rstrip("0").rstrip(".")


TIER_LINKS = {"node-leaf": "node to leaf", "leaf-spine": "leaf to spine", "spine-core": "spine to core"}


def describe(section: str, key: str, value: Any, catalog: Any = None) -> tuple[str, str]:
    """(label, text with its unit) of one report figure, as ``check`` and the workbook write it."""
    return _describe(section, key, value, catalog)


def kw_text(kw: float) -> str:
    """Power in the unit that reads best: "850.0 kW" below a megawatt, "102.69 MW" from one."""
    return vocabulary.kw(kw, "compact")


def kg_text(kg: float) -> str:
    """Weight in kilograms below ten tonnes, in tonnes from there: "1,360 kg", "2,480.5 t"."""
    if abs(kg) >= 10_000:
        return f"{kg / 1000:,.1f} t"
    return f"{kg:,.0f} kg"
