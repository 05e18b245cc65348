"""The vocabulary's words (``planner.vocabulary``) in the app's number notation.

Figures in the window are shown in the locale chosen in Edit > Preferences > Number format:
"136,1 kW" in German, "136.1 kW" in English. The words, units and rounding are the core's;
only the separators are the locale's (exports, files and the command line stay in C notation).
"""

from __future__ import annotations

from planner import vocabulary
from planner import numbers
from planner.numbers import localize
from ui.locale import number_format


def local(text: str) -> str:
    """A figure's text (C notation) with the locale's decimal and group separators."""
    return localize(text, number_format())


def number(value: float, spec: str = ",.1f") -> str:
    """``format(value, spec)`` with the locale's decimal and group separators."""
    return local(format(value, spec))


def kw(value: float, style: str = "compact") -> str:
    return local(vocabulary.kw(value, style))


def watts(value: float) -> str:
    return local(vocabulary.watts(value))


def count(value: int) -> str:
    return local(vocabulary.count(value))


def counted(value: int, noun: str) -> str:
    """A count and its noun ("1 node", "2,048 GPUs") in the locale's notation."""
    return local(numbers.counted(value, noun))


def usd(value: float, style: str = "compact") -> str:
    return local(vocabulary.usd(value, style))


def power_of_cap(power_kw: float, cap_kw: float) -> str:
    return local(vocabulary.power_of_cap(power_kw, cap_kw))


def value_text(value, unit: str, style: str = "compact") -> str:
    """A figure of a comparison (``planner.report.compare.METRICS``) by its unit."""
    return local(vocabulary.text(value, unit, style=style, none="–"))


def difference_text(value, unit: str, style: str = "compact") -> str:
    """A difference of a comparison: "+$1.35M", "−0.7 kW", "no change"."""
    return local(vocabulary.difference(value, unit, style=style, none="–"))
