"""Identical racks grouped into rack types, for documents about large plans.

Two racks are of one type when they have the same height, cooling, power cap, weight rating
and the same device types at the same positions (labels may differ). Types are lettered in
order of first appearance (A ... Z, AA, AB ...); each keeps its racks in plan order, and
``runs`` writes them as ranges of consecutive racks ("GPU-0001 … GPU-2500").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.plan.model import Plan, Rack

# Documents about plans with more racks than this draw one elevation per rack type (and a rack index).
GROUP_RACKS_ABOVE = 60


def type_letter(n: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet-column style): rack types, and the rows of a floor."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


@dataclass(slots=True)
class RackType:
    letter: str
    racks: list[Rack] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)  # each rack's index in the plan

    @property
    def title(self) -> str:
        return f"Type {self.letter} × {len(self.racks):,}"

    @property
    def example(self) -> Rack:
        return self.racks[0]

    def runs(self) -> list[tuple[str, str, int]]:
        """(first name, last name, count) of each run of racks next to each other in the plan."""
        out: list[tuple[str, str, int]] = []
        start = 0
        for i in range(1, len(self.racks) + 1):
            if i == len(self.racks) or self.positions[i] != self.positions[i - 1] + 1:
                out.append((self.racks[start].name, self.racks[i - 1].name, i - start))
                start = i
        return out

    def describe_racks(self, max_runs: int | None = None) -> str:
        """"GPU-0001 … GPU-2500", runs joined by commas; with ``max_runs``, "and n more racks"."""
        runs = self.runs()
        shown = runs if max_runs is None else runs[:max_runs]
        parts = [first if n == 1 else f"{first}, {last}" if n == 2 else f"{first} … {last}"
                 for first, last, n in shown]
        rest = sum(n for *_, n in runs[len(shown):])
        return ", ".join(parts) + (f" and {rest:,} more" if rest else "")


def rack_types(plan: Plan) -> list[RackType]:
    types: dict[tuple, RackType] = {}
    members: dict[str, list[tuple[int, str]]] = {}
    for p in plan.placements:
        if p.rack is not None:
            members.setdefault(p.rack, []).append((p.u, p.device))
    for i, rack in enumerate(plan.racks):
        key = (rack.height_u, rack.cooling, rack.power_cap_kw, rack.max_weight_kg,
               tuple(sorted(members.get(rack.id, ()))))
        t = types.get(key)
        if t is None:
            t = types[key] = RackType(type_letter(len(types)))
        t.racks.append(rack)
        t.positions.append(i)
    return list(types.values())
