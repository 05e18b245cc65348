"""Number formatting for labels (formatting only: the figures come from the report)."""

from __future__ import annotations


def kw(value: float) -> str:
    return f"{value:,.1f} kW" if value < 1000 else f"{value / 1000:,.2f} MW"


def watts(value: float) -> str:
    return f"{value / 1000:.4g} kW" if value >= 1000 else f"{value:,.0f} W"


def count(value: int) -> str:
    return f"{value:,}"


def usd(value: float) -> str:
    if abs(value) >= 1e9:
        return f"${value / 1e9:,.2f}B"
    if abs(value) >= 1e6:
        return f"${value / 1e6:,.2f}M"
    if abs(value) >= 1e3:
        return f"${value / 1e3:,.0f}k"
    return f"${value:,.0f}"
