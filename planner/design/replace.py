"""Replace the type of placed devices (one, a selection, or every device of a type) with
another catalog type of the same kind, as one undoable command.

After the swap each rack that held a replaced device is re-fitted the way auto-place fills
racks (``planner.plan.autoplace.rack_limits``): its power cap on the plan's basis (an
air-cooled rack no more than the air limit), its weight rating and the floor under it, its
height, and its cooling (a liquid-cooled system cannot stay in an air rack). A replaced
device keeps its U when it still fits there, else takes the lowest free U of its rack; the
ones that no longer fit move, keeping their ids and labels, to other racks of their kind
with room and then to new racks built the way the design builds racks for that kind
(``planner.design.layout.Layout``).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.design.intent import DesignError, Intent, RackSpec
from planner.design.layout import Layout
from planner.hardware.catalog import Catalog, DeviceType
from planner.plan.autoplace import AutoPlace, nameplate_room, rack_limits, rack_load
from planner.plan.changes import ChangeSet
from planner.plan.commands import Command, CommandError, _device_type
from planner.plan.model import Plan
from planner.plan.space import cooling_problem, fit_problem, lowest_free_u

# How a summary counts each kind: "16 nodes", "1 switch".
_COUNTED = {"GPU node": ("node", "nodes"), "rack-scale system": ("rack-scale system", "rack-scale systems"),
            "compute tray": ("compute tray", "compute trays"), "switch": ("switch", "switches"),
            "storage appliance": ("storage appliance", "storage appliances"), "CDU": ("CDU", "CDUs"),
            "PDU": ("PDU", "PDUs"), "device": ("device", "devices")}


def device_kind(d: DeviceType) -> str:
    """What a device is for replacing: a type is replaced only by one of the same kind."""
    if d.category == "gpu_server":
        return "rack-scale system" if d.is_rack_scale else "compute tray" if d.rack_type else "GPU node"
    return {"switch": "switch", "storage": "storage appliance", "cdu": "CDU", "pdu": "PDU"}.get(d.category, "device")


def _same_kind(a: DeviceType, b: DeviceType) -> bool:
    """Of one kind, and built for the same rack type (a GB200 tray for a GB300 tray, not for an HGX node)."""
    return device_kind(a) == device_kind(b) and (a.rack_type or "") == (b.rack_type or "")


def compatible_types(catalog: Catalog, device_id: str) -> list[DeviceType]:
    """The catalog types a device of ``device_id`` can be replaced with (itself included), in catalog order."""
    d = catalog.get(device_id)
    return [t for t in catalog if _same_kind(d, t)] if d is not None else []


def _count(n: int, nouns: tuple[str, str]) -> str:
    return f"{n:,} {nouns[0] if n == 1 else nouns[1]}"


@dataclass(frozen=True, slots=True)
class ReplaceSummary:
    """What a replacement did: devices replaced, racks re-fitted (a replaced device moved
    within it or out of it), devices moved to other racks, racks added."""

    devices: int
    kind: str
    refitted: int
    moved: int
    new_racks: int

    def text(self) -> str:
        """"16 nodes; 4 racks re-fitted; 4 moved to other racks; 2 new racks"."""
        parts = [_count(self.devices, _COUNTED[self.kind]), _count(self.refitted, ("rack", "racks")) + " re-fitted"]
        if self.moved:
            parts.append(f"{self.moved:,} moved to other racks")
        parts.append(_count(self.new_racks, ("new rack", "new racks")))
        return "; ".join(parts)


class ReplaceDevices(Command):
    """Replace placed devices with ``to_device``: the ``placements`` given (those of type
    ``from_device`` among them, when it is given too), or every ``from_device`` of the plan."""

    def __init__(self, to_device: str, *, placements: list[str] | None = None, from_device: str | None = None):
        if placements is None and from_device is None:
            raise CommandError("say which devices to replace: a selection or a device type")
        self.to_device, self.from_device = to_device, from_device
        self.placements = None if placements is None else list(dict.fromkeys(placements))
        self.summary: ReplaceSummary | None = None
        self._label = f"Replace with {to_device}"
        self._before: list[tuple[str, str, str, int]] = []  # (id, device, rack, u) of each replaced device
        self._refitted: list[tuple[str, str, int]] = []  # (id, rack, u) after the re-fit in place
        self._move: AutoPlace | None = None  # the auto-place that moved the devices that no longer fit
        self._moved = ChangeSet()  # what it touched

    @property
    def label(self) -> str:  # type: ignore[override]
        return self._label

    def preview(self, plan: Plan, catalog: Catalog) -> ReplaceSummary:
        """What this replacement would do, worked out on a copy of the plan (CommandError if refused)."""
        trial = ReplaceDevices(self.to_device, placements=self.placements, from_device=self.from_device)
        trial.do(plan.copy_plan(), catalog)
        return trial.summary

    def do(self, plan, catalog):
        if self._before:  # redo: the same edits, so ids and positions stay as they were
            return self._redo(plan, catalog)
        to = _device_type(catalog, self.to_device)
        chosen = self._chosen(plan, catalog, to)
        self._before = [(p.id, p.device, p.rack, p.u) for p in chosen]
        self._label = self._describe(catalog, to, chosen)
        for p in chosen:
            p.device = to.id
        racks = plan.in_rack_order(p.rack for p in chosen)
        displaced: list[str] = []
        for rack_id in racks:
            displaced += _refit_rack(plan, catalog, rack_id, [p.id for p in chosen if p.rack == rack_id], to)
        self._refitted = [(p.id, p.rack, p.u) for p in chosen]
        new_racks: list[str] = []
        if displaced:
            try:
                new_racks = self._move_out(plan, catalog, to, displaced)
            except (CommandError, DesignError) as exc:
                self._restore(plan)
                self._before, self._refitted = [], []
                n = len(displaced)
                fit = "fits its rack" if n == 1 else "fit their racks"
                raise CommandError(f"{_count(n, _COUNTED[device_kind(to)])} no longer {fit} and cannot be moved: "
                                   f"{exc}") from None
        moved_within = {pid for (pid, _, rack, u), (_, rack2, u2) in zip(self._before, self._refitted)
                        if (rack, u) != (rack2, u2)}
        refitted = {rack for pid, _, rack, _ in self._before if pid in moved_within or pid in displaced}
        self.summary = ReplaceSummary(len(chosen), device_kind(to), len(refitted), len(displaced), len(new_racks))
        return self._changes(plan)

    def _move_out(self, plan, catalog, to: DeviceType, displaced: list[str]) -> list[str]:
        """Move the devices that no longer fit to racks of their kind with room, then to new
        racks built as the design builds them for that kind; the new racks' ids."""
        layout = Layout(plan, catalog, Intent(system=to.id, nodes=len(displaced)), to, len(displaced))
        spec = _new_rack_spec(layout, to)
        targets = [r.id for r in plan.racks if cooling_problem(r, to) is None and any(
            q.id not in displaced and q.device in catalog and _same_kind(catalog[q.device], to)
            for q in plan.rack_members(r.id).values())]
        before = {r.id for r in plan.racks}
        move = AutoPlace(to.id, len(displaced), racks=targets, new_rack_prefix=spec.prefix,
                         new_rack_fields=layout.rack_fields(spec), move=displaced)
        self._moved = move.do(plan, catalog)
        self._move = move
        return [r.id for r in plan.racks if r.id not in before]

    def _chosen(self, plan, catalog, to: DeviceType):
        if self.from_device is not None:
            _device_type(catalog, self.from_device)
        if self.placements is not None:
            missing = [i for i in self.placements if plan.placement(i) is None]
            if missing:
                raise CommandError(f"there is no device '{missing[0]}'")
            chosen = [plan.placement(i) for i in self.placements]
            if self.from_device is not None:
                chosen = [p for p in chosen if p.device == self.from_device]
        else:
            chosen = [p for p in plan.placements if p.device == self.from_device]
        if not chosen:
            what = catalog[self.from_device].model if self.from_device else "device"
            where = "the selection holds" if self.placements is not None else "the plan has"
            raise CommandError(f"{where} no {what} to replace")
        for p in chosen:
            d = _device_type(catalog, p.device)
            if not _same_kind(d, to):
                raise CommandError(f"{d.model} is a {device_kind(d)} and {to.model} is a {device_kind(to)}: "
                                   "a device is replaced only by one of its own kind")
        chosen = [p for p in chosen if p.device != to.id]
        if not chosen:
            raise CommandError(f"the devices chosen are all {to.model} already")
        return chosen

    @staticmethod
    def _describe(catalog, to: DeviceType, chosen) -> str:
        types = {p.device for p in chosen}
        if len(types) > 1:
            return f"Replace {len(chosen):,} devices with {to.model}"
        old = catalog[types.pop()].model
        return f"Replace {old} with {to.model}" if len(chosen) == 1 else f"Replace {len(chosen):,} x {old} with {to.model}"

    def _changes(self, plan) -> ChangeSet:
        racks = {rack for _, _, rack, _ in self._before} | {plan.placement(pid).rack for pid in self.ids}
        return ChangeSet(racks=frozenset(racks), devices=frozenset(self.ids)) | self._moved

    @property
    def ids(self) -> list[str]:
        return [pid for pid, *_ in self._before]

    def _redo(self, plan, catalog):
        for pid, rack, u in self._refitted:
            p = plan.placement(pid)
            p.device = self.to_device
            plan.relocate(pid, rack, u)
        if self._move is not None:
            self._move.do(plan, catalog)
        return self._changes(plan)

    def _restore(self, plan) -> None:
        for pid, device, rack, u in self._before:
            plan.placement(pid).device = device
            plan.relocate(pid, rack, u)

    def undo(self, plan, catalog):
        changes = self._changes(plan)
        if self._move is not None:
            self._move.undo(plan, catalog)
        self._restore(plan)
        return changes


def _refit_rack(plan: Plan, catalog: Catalog, rack_id: str, replaced: list[str], d: DeviceType) -> list[str]:
    """Fit the ``replaced`` devices (now of type ``d``) back into their rack, in U order: at
    their U if they fit there, else at the lowest free U, while the rack's power, weight and
    height take one more; the ids of those that no longer fit (all of them when the rack's
    cooling cannot take ``d``)."""
    rack = plan.rack(rack_id)
    if cooling_problem(rack, d):
        return list(replaced)
    pending = set(replaced)
    cap_mw, cap_g = rack_limits(plan, rack, own_rack=d.is_rack_scale)
    used_mw, used_g = rack_load(plan, catalog, rack_id, ignore=pending)
    d_mw, d_g = round(d.power_w(plan.settings.facility.power_basis) * 1000), round(d.weight_kg * 1000)
    np_cap, np_used, d_np = nameplate_room(plan, catalog, rack_id, d, pending)  # as auto-place fills a rack
    out = []
    for pid in sorted(replaced, key=lambda i: plan.placement(i).u):
        u = plan.placement(pid).u
        if used_mw + d_mw > cap_mw or used_g + d_g > cap_g or (np_cap is not None and np_used + d_np > np_cap):
            out.append(pid)
            continue
        if fit_problem(plan, catalog, rack_id, u, d, ignore=frozenset(pending)) is not None:
            u = lowest_free_u(plan, catalog, rack, d.u_height, ignore=frozenset(pending))
        if u is None:
            out.append(pid)
            continue
        plan.relocate(pid, rack_id, u)
        pending.discard(pid)
        used_mw, used_g, np_used = used_mw + d_mw, used_g + d_g, np_used + d_np
    return out


def _new_rack_spec(layout: Layout, d: DeviceType) -> RackSpec:
    """New racks for devices of ``d``'s kind, as the design builds them."""
    kind = device_kind(d)
    if d.category == "gpu_server":
        return layout._gpu_spec()
    if kind == "storage appliance":
        return layout.intent.storage_rack
    if kind == "CDU":
        return layout.intent.cdu_rack
    return layout._net_spec()
