"""Rack remedies as undoable commands: split a rack that holds too much, move a
liquid-cooled node out of an air-cooled rack.

A rack "holds too much" while its own checks say so (``SPLIT_CODES``: power cap on the
plan's basis, weight rating, floor rating, PDU positions); a rack "takes" a device when
it has the U free and, with the device, none of those checks fails. The devices keep
their ids and labels: they are moved (``MoveDevice``), not placed again.
"""

from __future__ import annotations

import re

from planner.facility.power import holds_too_much as _holds_too_much
from planner.facility.rack_remedies import move_order
from planner.findings import Remedy
from planner.numbers import counted
from planner.plan.changes import ChangeSet
from planner.plan.commands import RACK_FIELDS, AddRack, Command, CommandError, MoveDevice, _RackNamer
from planner.plan.autoplace import air_limit_kw, rack_load
from planner.plan.model import Placement
from planner.plan.space import lowest_free_u


def holds_too_much(plan, catalog, rack_id: str, members=None) -> bool:
    return _holds_too_much(plan, plan.rack(rack_id), catalog, members)


def takes(plan, catalog, rack_id: str, p: Placement) -> int | None:
    """The U at which ``rack_id`` takes ``p`` within its checks; None when it does not."""
    u = lowest_free_u(plan, catalog, plan.rack(rack_id), catalog[p.device].u_height)
    if u is None:
        return None
    members = [*plan.rack_members(rack_id).values(), p.model_copy(update={"rack": rack_id, "u": u})]
    return None if holds_too_much(plan, catalog, rack_id, members) else u


def _prefix(name: str) -> str:
    """A rack name without its number: GPU-03 -> GPU (the new racks are GPU-NN)."""
    return re.sub(r"[-_ ]?\d+$", "", name) or "Rack"


class _Steps(Command):
    """A remedy made of AddRack and MoveDevice steps, done once and replayed on redo."""

    def __init__(self, remedy: Remedy):
        self.remedy = remedy
        self._done: list[Command] = []
        self._text = remedy.label
        self._changes = ChangeSet(structure=True)

    @property
    def label(self) -> str:  # type: ignore[override]
        return self._text

    def do(self, plan, catalog):
        if self._done:  # redo: the same edits, so ids stay stable for later commands
            return self._replay(plan, catalog)
        done: list[Command] = []
        self._changes = ChangeSet(structure=True)
        try:
            self._text = self.steps(plan, catalog, done)
        except CommandError:
            for c in reversed(done):
                c.undo(plan, catalog)
            raise
        self._done = done
        return self._changes

    def steps(self, plan, catalog, done: list[Command]) -> str:
        raise NotImplementedError

    def _replay(self, plan, catalog):
        changes = ChangeSet(structure=True)
        for c in self._done:
            changes = changes | c.do(plan, catalog)
        return changes

    def undo(self, plan, catalog):
        changes = ChangeSet(structure=True)
        for c in reversed(self._done):
            changes = changes | c.undo(plan, catalog)
        return changes

    def run(self, plan, catalog, done: list[Command], command: Command) -> None:
        self._changes = self._changes | command.do(plan, catalog)
        done.append(command)

    def new_rack(self, plan, catalog, done: list[Command], name: str, index: int, **fields) -> str:
        add = AddRack(name, index=index, **fields)
        self.run(plan, catalog, done, add)
        return add.rack_id

    def move(self, plan, catalog, done: list[Command], p: Placement, rack_id: str, u: int) -> None:
        self.run(plan, catalog, done, MoveDevice(p.id, rack_id, u))


NEARBY = 8  # the racks, before and after it in the plan's order, a split looks in for room


class SplitRack(_Steps):
    """Move devices (a stranger among GPU nodes that has a home nearby first,
    ``_strangers_first``; then ``move_order``: GPU nodes first, the most power first, from the top
    down) out until the rack holds no more than its checks allow: each into a rack nearby
    (``NEARBY``) of the same hall and cooling that holds devices of its type and takes it
    within its own checks, the nearest first (a node dragged one rack too far goes back),
    else into new racks of the same kind beside it; each new rack takes devices while it
    does too, from its U1 up in the order they stood."""

    def steps(self, plan, catalog, done):
        rack = plan.rack(str(self.remedy.figure("rack")))
        if rack is None:
            raise CommandError(f"there is no rack '{self.remedy.figure('rack')}'")
        basis = plan.settings.facility.power_basis
        kept = list(plan.rack_members(rack.id).values())
        movable = sorted((p for p in kept if p.device in catalog),
                         key=lambda p: move_order(catalog[p.device], p.u, basis))
        movable = _strangers_first(plan, catalog, rack, movable)
        out: list[Placement] = []
        while movable and holds_too_much(plan, catalog, rack.id, kept):
            out.append(movable.pop(0))
            kept = [p for p in kept if p.id != out[-1].id]
        if holds_too_much(plan, catalog, rack.id, kept):
            raise CommandError(f"rack {rack.name} holds too much even without the devices a split can move")
        if not out:
            raise CommandError(f"rack {rack.name} already holds no more than its checks allow")
        fields = {k: getattr(rack, k) for k in RACK_FIELDS if k != "name"}
        names = _RackNamer(plan, _prefix(rack.name))
        new: list[str] = []
        into: list[str] = []  # the racks that took devices, in order
        for p in sorted(out, key=lambda p: p.u):
            room = _nearby_room(plan, catalog, rack, p, set(new))
            if room is not None:
                self.move(plan, catalog, done, p, *room)
                into.append(room[0])
                continue
            u = takes(plan, catalog, new[-1], p) if new else None
            if u is None:
                new.append(self.new_rack(plan, catalog, done, names.next(), plan.rack_index(rack.id) + 1 + len(new),
                                         **fields))
                u = takes(plan, catalog, new[-1], p)
                if u is None:
                    raise CommandError(f"one {catalog[p.device].model} does not fit an empty rack like {rack.name}")
            self.move(plan, catalog, done, p, new[-1], u)
            into.append(new[-1])
        moved = len(out)
        names_into = ", ".join(plan.rack(r).name for r in dict.fromkeys(into))
        return f"Split rack {rack.name}: move {counted(moved, 'device')} into {names_into}"


def _strangers_first(plan, catalog, rack, movable: list[Placement]) -> list[Placement]:
    """``movable`` with the devices that stand among GPU nodes without being one (a storage
    appliance dragged into a GPU rack) first, where a rack nearby that holds their type and no
    GPU node takes them (``_home``) and moving them alone brings the rack within its checks:
    they go back there, before a GPU node goes to a new rack. Otherwise ``movable`` as it was
    (a CDU, or a rack's own management switch, stays where the design put it)."""
    if not any(catalog[p.device].gpu is not None for p in movable):
        return movable
    strangers = [p for p in movable if catalog[p.device].gpu is None and catalog[p.device].category != "cdu"
                 and _home(plan, catalog, rack, p) is not None]
    kept = [p for p in plan.rack_members(rack.id).values()]
    for p in strangers:
        kept = [k for k in kept if k.id != p.id]
        if not holds_too_much(plan, catalog, rack.id, kept):
            return strangers + [p for p in movable if p not in strangers]
    return movable


def _home(plan, catalog, rack, p: Placement) -> tuple[str, int] | None:
    """A rack nearby holding ``p``'s type and no GPU node that takes it (``_nearby_room``)."""
    room = _nearby_room(plan, catalog, rack, p, set())
    if room is None or any(catalog[m.device].gpu is not None for m in plan.rack_members(room[0]).values()):
        return None
    return room


def _nearby_room(plan, catalog, rack, p: Placement, new: set[str]) -> tuple[str, int] | None:
    """(rack id, U) of the nearest rack within ``NEARBY`` of ``rack`` in the plan's order, of
    its hall and cooling, holding a device of ``p``'s type, that takes ``p``; None if none. An
    air-cooled device may also go to an air-cooled rack from a rack of other cooling, where its
    heat stays within the air-cooling limit (a check a split does not make by itself)."""
    at = plan.rack_index(rack.id)
    d = catalog[p.device]
    near = sorted(range(max(0, at - NEARBY), min(len(plan.racks), at + NEARBY + 1)), key=lambda i: (abs(i - at), i))
    for i in near:
        other = plan.racks[i]
        if other.id == rack.id or other.id in new or other.hall != rack.hall:
            continue
        if other.cooling != rack.cooling and not (d.cooling == "air" and other.cooling == "air"
                                                  and _air_takes(plan, catalog, other, d)):
            continue
        if not any(m.device == p.device for m in plan.rack_members(other.id).values()):
            continue
        u = takes(plan, catalog, other.id, p)
        if u is not None:
            return other.id, u
    return None


def _air_takes(plan, catalog, rack, d) -> bool:
    """Whether an air-cooled rack stays within its air-cooling limit with ``d`` added."""
    held, _ = rack_load(plan, catalog, rack.id)
    basis = plan.settings.facility.power_basis
    return held + round(d.power_w(basis) * 1000) <= air_limit_kw(plan.settings.facility, rack.rear_door_hx) * 1e6


class MoveToLiquid(_Steps):
    """Move a liquid-cooled node into a liquid-cooled rack that takes it (racks holding GPU
    nodes first, in plan order), else into a new liquid-cooled rack beside its own (the
    plan's default cap, its rack's height and footprint), named as the first of those."""

    def steps(self, plan, catalog, done):
        p = plan.placement(str(self.remedy.figure("device")))
        if p is None:
            raise CommandError(f"there is no device '{self.remedy.figure('device')}'")
        source = plan.rack(p.rack)
        if source.cooling != "air":
            raise CommandError(f"{p.label or p.id} is already in a liquid-cooled rack")
        name = p.label or p.id
        liquid = [r.id for r in plan.racks if r.cooling != "air"]
        liquid.sort(key=lambda rid: not any(catalog.get(q.device) is not None and catalog[q.device].gpu is not None
                                            for q in plan.rack_members(rid).values()))
        for rid in liquid:
            u = takes(plan, catalog, rid, p)
            if u is not None:
                self.move(plan, catalog, done, p, rid, u)
                return f"Move {name} into liquid-cooled rack {plan.rack(rid).name}"
        # named as the liquid-cooled racks are (GPU-NN), else GPU-NN
        prefix = _prefix(plan.rack(liquid[0]).name) if liquid else "GPU"
        rid = self.new_rack(plan, catalog, done, _RackNamer(plan, prefix).next(),
                            plan.rack_index(source.id) + 1, cooling="liquid", height_u=source.height_u,
                            power_cap_kw=plan.settings.facility.default_rack_cap_kw, row=source.row,
                            max_weight_kg=source.max_weight_kg, width_mm=source.width_mm, depth_mm=source.depth_mm)
        u = takes(plan, catalog, rid, p)
        if u is None:
            raise CommandError(f"{name} does not fit an empty liquid-cooled rack")
        self.move(plan, catalog, done, p, rid, u)
        return f"Move {name} into a new liquid-cooled rack {plan.rack(rid).name}"
