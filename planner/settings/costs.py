"""Cost assumptions (capex, opex, rental alternatives)."""

from __future__ import annotations

from planner.settings._base import Section


class CostSettings(Section):
    """Filled in by the cost model."""
