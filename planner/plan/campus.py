"""The campus: a plan's buildings, their data halls, and the hall each rack stands in.

A plan lists its buildings (``Plan.buildings``), each with one or more halls; a rack names
its hall by id (``Rack.hall``), "" standing for the first hall of the first building. A plan
that lists no buildings (every file before format 7) is one building, "Building 1", of one
hall, "Hall 1". The buildings are the campus of every variant; a variant's racks carry their
hall.

``campus_of(plan)`` works out the effective buildings once (O(halls)); its ``where`` and
``hall_id`` answer for one rack by a dict lookup, so grouping 25,000 racks by hall is one
pass over them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from planner.plan.model import (DEFAULT_BUILDING_ID, DEFAULT_BUILDING_NAME, DEFAULT_HALL_ID, DEFAULT_HALL_NAME,
                                Building, Hall, Plan, Rack)


def default_buildings() -> list[Building]:
    """The campus of a plan that lists no buildings: one building of one hall."""
    return [Building(id=DEFAULT_BUILDING_ID, name=DEFAULT_BUILDING_NAME,
                     halls=[Hall(id=DEFAULT_HALL_ID, name=DEFAULT_HALL_NAME)])]


@dataclass(frozen=True, slots=True)
class Campus:
    """The effective buildings (never empty), every hall by id with its building (in campus
    order: buildings in order, their halls in order), and the hall of racks that name none."""

    buildings: tuple[Building, ...]
    halls: dict[str, tuple[Building, Hall]]
    default_hall: str

    def hall_id(self, rack: Rack) -> str:
        """The id of the hall ``rack`` stands in."""
        return rack.hall or self.default_hall

    def where(self, rack: Rack) -> tuple[Building, Hall]:
        """(building, hall) of ``rack``; KeyError for a hall the campus lacks (a plan refuses those)."""
        return self.halls[rack.hall or self.default_hall]

    def racks_by_hall(self, racks: Iterable[Rack]) -> dict[str, list[Rack]]:
        """Every hall's racks in the order given (plan order), halls in campus order, empty
        halls included."""
        out: dict[str, list[Rack]] = {hall_id: [] for hall_id in self.halls}
        default = self.default_hall
        for r in racks:
            out[r.hall or default].append(r)
        return out


def campus_of(plan: Plan) -> Campus:
    """The plan's effective campus: its buildings, or the one default building of one hall."""
    buildings = tuple(plan.buildings) or tuple(default_buildings())
    halls = {h.id: (b, h) for b in buildings for h in b.halls}
    return Campus(buildings, halls, buildings[0].halls[0].id)


def hall_problem(plan: Plan, hall_id: str) -> str | None:
    """Why racks cannot be put in ``hall_id``, or None ("" is the first hall)."""
    if not hall_id:
        return None
    halls = campus_of(plan).halls
    if hall_id in halls:
        return None
    names = ", ".join(f"{h.name} ({h.id})" for _, h in list(halls.values())[:10])
    return f"the plan has no hall '{hall_id}' (halls: {names})"
