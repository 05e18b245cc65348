"""Auto-place: N devices of one type into racks, filled to their power cap, adding racks as needed."""

from __future__ import annotations

from typing import Any

from planner.plan.changes import ChangeSet
from planner.plan.commands import (AddDevice, AddRack, Command, CommandError, Macro, _device_type, _RackNamer)
from planner.plan.space import lowest_free_u


class AutoPlace(Command):
    """Place ``count`` devices of one type, filling racks to their power cap on the plan's
    basis (and to their height), first the given racks, then new racks as needed."""

    def __init__(self, device: str, count: int, *, racks: list[str] | None = None, new_rack_prefix: str = "Rack",
                 new_rack_fields: dict[str, Any] | None = None, label_prefix: str = ""):
        self.device, self.count = device, count
        self.racks = racks
        self.new_rack_prefix = new_rack_prefix
        self.new_rack_fields = dict(new_rack_fields or {})
        self.label_prefix = label_prefix
        self._done: list[Command] = []
        self._title = device

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"Auto-place {self.count} x {self._title}"

    def do(self, plan, catalog):
        if self._done:  # redo: replay the same edits so ids stay stable for later commands
            return Macro(self.label, self._done).do(plan, catalog)
        d = _device_type(catalog, self.device)
        self._title = d.title
        if not 0 <= self.count <= 1_000_000:
            raise CommandError("auto-place takes 0 to 1,000,000 devices")
        basis = plan.settings.facility.power_basis
        p_mw = round(d.power_w(basis) * 1000)
        done: list[Command] = []
        remaining = self.count
        try:
            targets = self.racks if self.racks is not None else []
            for rack_id in targets:
                if remaining == 0:
                    break
                remaining -= self._fill(plan, catalog, d, p_mw, rack_id, remaining, done)
            names = _RackNamer(plan, self.new_rack_prefix)
            while remaining > 0:
                add = AddRack(names.next(), **self.new_rack_fields)
                add.do(plan, catalog)
                done.append(add)
                placed = self._fill(plan, catalog, d, p_mw, add.rack_id, remaining, done)
                if placed == 0:
                    rack = plan.rack(add.rack_id)
                    raise CommandError(f"one {d.model} ({d.power_w(basis) / 1000:g} kW, {d.u_height}U) does not fit "
                                       f"an empty {rack.height_u}U rack capped at {rack.power_cap_kw:g} kW")
                remaining -= placed
        except CommandError:
            for c in reversed(done):
                c.undo(plan, catalog)
            raise
        self._done = done
        return _collect_changes(done)

    def _fill(self, plan, catalog, d, p_mw, rack_id, want, done) -> int:
        rack = plan.rack(rack_id)
        if rack is None:
            raise CommandError(f"there is no rack '{rack_id}'")
        basis = plan.settings.facility.power_basis
        used_mw = sum(round(catalog[p.device].power_w(basis) * 1000) for p in plan.rack_members(rack_id).values()
                      if p.device in catalog)
        cap_mw = round(rack.power_cap_kw * 1e6)
        placed = 0
        while placed < want and used_mw + p_mw <= cap_mw:
            u = lowest_free_u(plan, catalog, rack, d.u_height)
            if u is None:
                break
            label = f"{self.label_prefix}{len(plan.placements) + 1}" if self.label_prefix else ""
            add = AddDevice(d.id, rack_id, u, label=label)
            add.do(plan, catalog)
            done.append(add)
            used_mw += p_mw
            placed += 1
        return placed

    def undo(self, plan, catalog):
        changes = ChangeSet()
        for c in reversed(self._done):
            changes = changes | c.undo(plan, catalog)
        return changes


def _collect_changes(done: list[Command]) -> ChangeSet:
    """What a run of AddRack/AddDevice commands touched, gathered in one pass."""
    racks: set[str] = set()
    devices: list[str] = []
    structure = False
    for c in done:
        if isinstance(c, AddRack):
            racks.add(c.rack_id)
            structure = True
        elif isinstance(c, AddDevice):
            racks.add(c.rack)
            devices.append(c.placement_id)
    return ChangeSet(racks=frozenset(racks), devices=frozenset(devices), structure=structure)
