"""Spares worked out by hand for the tests: the units in repair when one more fails are
Poisson with mean ``down`` (failures a day x repair days), summed term by term from zero."""

from __future__ import annotations

import math


def below(k: int, down: float) -> float:
    """P(K < k), K Poisson(``down``): the sum of e^-down x down^i / i! for i < k."""
    return sum(math.exp(i * math.log(down) - down - math.lgamma(i + 1)) for i in range(k)) if down > 0 else 1.0


def spares_for(down: float, level: float = 0.99) -> int:
    """The fewest spares a failure finds free ``level`` of the time; none below one in repair."""
    if down < 1:
        return 0
    n = 0
    while below(n, down) < level:
        n += 1
    return n
