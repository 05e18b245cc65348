"""Number formatting for labels (formatting only: the figures come from the report).

Numbers are shown in the app's locale (Edit > Preferences > Number format): "136,1 kW" in
German, "136.1 kW" in English."""

from __future__ import annotations

from planner.numbers import localize
from ui.locale import number_format


def number(value: float, spec: str = ",.1f") -> str:
    """``format(value, spec)`` with the locale's decimal and group separators."""
    return localize(format(value, spec), number_format())


def kw(value: float) -> str:
    return f"{number(value, ',.1f')} kW" if value < 1000 else f"{number(value / 1000, ',.2f')} MW"


def watts(value: float) -> str:
    return f"{number(value / 1000, '.4g')} kW" if value >= 1000 else f"{number(value, ',.0f')} W"


def count(value: int) -> str:
    return number(value, ",")


def usd(value: float) -> str:
    if abs(value) >= 1e9:
        return f"${number(value / 1e9, ',.2f')}B"
    if abs(value) >= 1e6:
        return f"${number(value / 1e6, ',.2f')}M"
    if abs(value) >= 1e3:
        return f"${number(value / 1e3, ',.0f')}k"
    return f"${number(value, ',.0f')}"


def value_text(value, unit: str) -> str:
    """A figure of a comparison by its unit (``planner.report.compare.METRICS``)."""
    if value is None:
        return "–"
    if unit.startswith("USD"):
        return usd(value) + ("/month" if unit == "USD/month" else "")
    if unit == "kW":
        return kw(value)
    if unit == "":
        return count(int(value)) if float(value).is_integer() else number(value)
    return f"{number(value, ',.1f')} {unit}"


def difference_text(value, unit: str) -> str:
    if value is None:
        return "–"
    if value == 0:
        return "no change"
    return ("+" if value > 0 else "−") + value_text(abs(value), unit)
