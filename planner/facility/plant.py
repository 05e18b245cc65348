"""Plant units: how many UPS modules, generator sets or transformers carry a load.

N = ceil(load / unit), N+1 = one more, 2N = twice N (Uptime Institute tiers). Units sized
to the load are its share of N units rounded up to 50 kW.
"""

from __future__ import annotations

import math

UNIT_STEP_KW = 50.0  # plant units sized to the load are rounded up to this step (plant_sizing's source)


def unit_size_kw(load_kw: float, set_kw: float, sizing: str) -> float:
    """The size of one unit: the entered set size, or sized from the load (the load's share
    of N = ceil(load / set size) units, rounded up to 50 kW, at most the set size)."""
    if sizing == "entered" or load_kw <= 0:
        return set_kw
    n = math.ceil(load_kw / set_kw - 1e-9)
    return min(set_kw, math.ceil(load_kw / n / UNIT_STEP_KW - 1e-9) * UNIT_STEP_KW)


def units_for(load_kw: float, unit_kw: float, redundancy: str) -> int:
    """Units of ``unit_kw`` that carry ``load_kw`` with the redundancy (N, N+1 or 2N)."""
    if load_kw <= 0:
        return 0
    n = math.ceil(load_kw / unit_kw - 1e-9)
    return {"N": n, "N+1": n + 1, "2N": 2 * n}[redundancy]
