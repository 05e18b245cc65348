"""Physical bounds every number in a plan, its settings and a catalog must respect.

Each field has its own range in its model; on top of that no value may be a denormal or
otherwise vanishingly small non-zero number (``1e-310`` is "greater than zero" but divides
to infinity), so nothing the evaluator derives can overflow to infinity or become NaN.
"""

from __future__ import annotations

import datetime as dt

# The smallest non-zero magnitude a plan or catalog number may have. Every quantity the
# planner holds (W, kW, GB/s, fractions, US$, minutes, microseconds) is far above it.
MIN_MAGNITUDE = 1e-6


def physical_number(value):
    """Pydantic ``after`` validator for every field: refuse tiny non-zero floats."""
    if isinstance(value, float) and value != 0.0 and abs(value) < MIN_MAGNITUDE:
        raise ValueError(f"{value:g} is too small to be a real quantity (give 0 or at least {MIN_MAGNITUDE:g})")
    return value


def iso_date(value: str) -> str:
    """Pydantic ``after`` validator of a date field: empty, or a real date as YYYY-MM-DD."""
    if value:
        try:
            ok = len(value) == 10 and dt.date.fromisoformat(value).isoformat() == value
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"'{value}' is not a date as YYYY-MM-DD")
    return value
