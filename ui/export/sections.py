"""Reading the report's optional sections (network, cost) for display; tolerant of absence."""

from __future__ import annotations

from typing import Any

from planner.plan import Plan
from planner.report import Report


def section_data(report: Report, name: str) -> dict[str, Any] | None:
    """A section as a plain dict (sections may be dicts or objects with ``to_json``), or None."""
    section = report.sections.get(name)
    if section is None:
        return None
    data = section.to_json() if hasattr(section, "to_json") else section
    return data if isinstance(data, dict) else None


def cost_section(report: Report) -> dict[str, Any] | None:
    return section_data(report, "cost")


def money(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-" if value is None else str(value)
    return f"${value:,.0f}" if abs(value) >= 1000 else f"${value:,.2f}"


def cost_headlines(report: Report) -> list[tuple[str, str]]:
    """Capex, opex and TCO from the cost section, where it has them."""
    cost = cost_section(report)
    if not cost:
        return []
    out = []
    for key, label in (("capex_usd", "Capex"), ("opex_usd_per_month", "Opex per month"), ("tco_usd", "TCO")):
        if isinstance(cost.get(key), (int, float)) and not isinstance(cost.get(key), bool):
            out.append((label, money(cost[key])))
    return out


def _label(key: str) -> str:
    text = key.replace("_", " ")
    return text[:1].upper() + text[1:]


def _value(value: Any) -> str | None:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:,.0f}"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float)) for v in value):
        return ", ".join(_value(v) or "" for v in value)
    return None


def network_rows(report: Report) -> list[list[str]]:
    """The network section as (item, value) rows: scalars first, then one level of nested dicts."""
    net = section_data(report, "network")
    if not net:
        return []
    rows: list[list[str]] = []
    nested: list[tuple[str, dict]] = []
    for key, value in net.items():
        if isinstance(value, dict):
            nested.append((key, value))
            continue
        text = _value(value)
        if text is not None:
            rows.append([_label(key), text])
    for key, sub in nested:
        for k, v in sub.items():
            text = _value(v)
            if text is not None:
                rows.append([f"{_label(key)}: {k.replace('_', ' ')}", text])
    return rows


def describe_where(plan: Plan, where: str | None) -> str:
    """A finding's location as the user knows it: rack name or device label."""
    if not where:
        return ""
    rack = plan.rack(where)
    if rack is not None:
        return rack.name
    p = plan.placement(where)
    if p is not None:
        r = plan.rack(p.rack)
        return f"{p.label or p.id} ({r.name if r else p.rack})"
    return where
