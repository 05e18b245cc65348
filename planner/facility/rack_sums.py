"""Sums of rack results: the report's totals, and each data hall's.

All sums are integers (milliwatts, grams, square millimetres, counts), so adding a rack's
result and taking it away again leaves them exactly as they were: an incremental
evaluation equals a full one. The evaluator keeps one ``RackSums`` per hall, rack by rack
(O(1) per changed rack), and the plan's totals are the halls' sums added up (O(halls)).
"""

from __future__ import annotations

from collections.abc import Iterable

from planner.facility.rack_result import RackResult

_INTS = ("gpus", "nodes", "gpu_racks", "racks", "typical_milliwatts", "nameplate_milliwatts", "weight_g",
         "liquid_nodes", "liquid_heat_milliwatts", "pdus", "cap_milliwatts", "own_racks", "footprint_mm2",
         "floor_over", "rear_doors")


class RackSums:
    """What a set of racks adds up to. ``floor_rating_kg_m2`` (a hall's own rating, or None)
    counts the racks that load the floor above it (``floor_over``)."""

    __slots__ = _INTS + ("counts", "squares", "severities", "floor_rating_kg_m2")

    def __init__(self, floor_rating_kg_m2: float | None = None) -> None:
        for name in _INTS:
            setattr(self, name, 0)
        self.counts: dict[str, int] = {}
        # of each type, its count in each rack squared, added up: over the count, how many
        # of its kind stand in the rack of one of them, on average
        self.squares: dict[str, int] = {}
        self.severities = {"error": 0, "warning": 0, "info": 0}  # rack findings by severity
        self.floor_rating_kg_m2 = floor_rating_kg_m2

    def _apply(self, r: RackResult, sign: int) -> None:
        self.gpus += sign * r.gpus
        self.nodes += sign * r.nodes
        self.gpu_racks += sign * (1 if r.nodes else 0)
        self.racks += sign
        self.typical_milliwatts += sign * r.typical_milliwatts
        self.nameplate_milliwatts += sign * r.nameplate_milliwatts
        self.weight_g += sign * r.weight_g
        self.liquid_nodes += sign * r.liquid_nodes
        self.liquid_heat_milliwatts += sign * r.liquid_heat_milliwatts
        self.pdus += sign * r.pdus
        self.own_racks += sign * (1 if r.own_rack else 0)
        self.rear_doors += sign * (1 if r.rear_door else 0)
        self.cap_milliwatts += sign * round(r.cap_kw * 1e6)
        self.footprint_mm2 += sign * round(r.footprint_m2 * 1e6)
        rating = self.floor_rating_kg_m2
        if rating is not None and r.floor_load_kg_m2 > rating + 1e-9:
            self.floor_over += sign
        counts, squares = self.counts, self.squares
        for k, v in r.counts.items():
            counts[k] = counts.get(k, 0) + sign * v
            squares[k] = squares.get(k, 0) + sign * v * v
        severities = self.severities
        for f in r.findings:
            severities[f.severity] += sign

    def add(self, r: RackResult, times: int = 1) -> None:
        """``r`` added, or ``times`` racks of its figures and findings' severities."""
        self._apply(r, times)

    def remove(self, r: RackResult) -> None:
        self._apply(r, -1)

    def key(self) -> tuple:
        """The sums as a value (equal for equal sums): what the evaluator compares from one
        evaluation to the next (not ``squares``, which most drops between racks change: the
        evaluator reads them for the fabric estimate alone, ``planner.costs.campus_tiers``)."""
        return (tuple(getattr(self, name) for name in _INTS),
                frozenset((k, v) for k, v in self.counts.items() if v))

    @classmethod
    def total(cls, parts: Iterable[RackSums], counts: bool = True) -> RackSums:
        """The sums of all of ``parts`` (their ``floor_over`` too, each against its own rating).
        ``counts`` False: the integer figures alone, without the device counts, squares and
        severities (a building's figures read no more: a third of the time of adding up its
        halls on campus-1m)."""
        out = cls()
        if not counts:
            parts = tuple(parts)
            for name in _INTS:
                setattr(out, name, sum(getattr(p, name) for p in parts))
            return out
        counts, severities = out.counts, out.severities
        for p in parts:
            for name in _INTS:
                setattr(out, name, getattr(out, name) + getattr(p, name))
            for k, v in p.counts.items():
                if v:
                    counts[k] = counts.get(k, 0) + v
            for k, v in p.squares.items():
                if v:
                    out.squares[k] = out.squares.get(k, 0) + v
            for k, v in p.severities.items():
                severities[k] += v
        return out
