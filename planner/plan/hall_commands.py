"""Campus edits as commands (``planner.plan.commands``): racks moved to a hall, and the
buildings and halls replaced.

A rack's row is a row of its hall (rows never span halls), so moving racks changes the floor
layout: their change set says the structure changed. Replacing the buildings changes every
rack's hall figures: its change set names the campus (a full evaluation).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from planner.errors import describe_validation_error
from planner.numbers import counted
from planner.plan.campus import campus_of, hall_problem
from planner.plan.changes import ChangeSet
from planner.plan.commands import Command, CommandError
from planner.plan.model import Building, Plan, hall_ids_of
from planner.plan.variants import base_state


class MoveRacksToHall(Command):
    """Put racks in a hall (by its id), one undo step; undo puts each back in its own hall."""

    def __init__(self, rack_ids: list[str], hall: str):
        self.rack_ids, self.hall = list(dict.fromkeys(rack_ids)), hall
        self._old: dict[str, str] = {}
        self._name = hall

    @property
    def label(self) -> str:  # type: ignore[override]
        n = len(self.rack_ids)
        return f"Move {counted(n, 'rack')} to {self._name}"

    def do(self, plan, catalog):
        problem = hall_problem(plan, self.hall) if self.hall else "name the hall to move the racks to"
        if problem:
            raise CommandError(problem)
        if not self.rack_ids:
            raise CommandError("no racks to move")
        missing = next((i for i in self.rack_ids if plan.rack(i) is None), None)
        if missing is not None:
            raise CommandError(f"there is no rack '{missing}'")
        self._name = campus_of(plan).halls[self.hall][1].name
        self._old = {}
        for rack_id in self.rack_ids:
            rack = plan.rack(rack_id)
            self._old[rack_id] = rack.hall
            rack.hall = self.hall
        return ChangeSet(racks=frozenset(self.rack_ids), structure=True)

    def undo(self, plan, catalog):
        for rack_id, hall in self._old.items():
            plan.rack(rack_id).hall = hall
        return ChangeSet(racks=frozenset(self._old), structure=True)


class SetBuildings(Command):
    """Replace the campus's buildings (with their halls and plant); refused while a rack of
    any variant stands in a hall the new campus lacks."""

    label = "Edit buildings and halls"

    def __init__(self, buildings: list[Building | dict[str, Any]]):
        self.buildings = buildings
        self._old: list[Building] = []

    def do(self, plan, catalog):
        new = [_validated_building(b) for b in self.buildings]
        try:
            halls = set(hall_ids_of(new))
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        for where, name, hall in _rack_halls(plan):
            if hall and hall not in halls:
                raise CommandError(f"rack '{name}' ({where}) stands in hall '{hall}', which the new buildings "
                                   "do not have: move it to another hall first")
        self._old, plan.buildings = plan.buildings, new
        return _campus_changed(plan)

    def undo(self, plan, catalog):
        plan.buildings = self._old
        return _campus_changed(plan)


def _validated_building(b: Building | dict[str, Any]) -> Building:
    data = b.model_dump() if isinstance(b, Building) else b
    try:
        return Building.model_validate(data)
    except ValidationError as exc:
        raise CommandError(describe_validation_error(exc, data)) from None


def _rack_halls(plan: Plan):
    """(variant, rack name, hall) of every rack of every variant: the shown one's, the base's
    kept aside and the others' overrides (their other racks are the base's)."""
    for r in plan.racks:
        yield plan.current_variant, r.name, r.hall
    if plan.active_variant:
        for r in base_state(plan)[1]:
            yield plan.base_variant, r["name"], r.get("hall", "")
    for v in plan.variants:
        if v.name != plan.active_variant:
            for r in v.racks:
                yield v.name, r.name, r.hall


def _campus_changed(plan: Plan) -> ChangeSet:
    return ChangeSet(racks=frozenset(r.id for r in plan.racks), structure=True, campus=True)
