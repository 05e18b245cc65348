"""Every user edit as a named command with do and undo, each returning a change set.

An invalid edit raises CommandError with a reason and leaves the plan unchanged. Edits are
recorded in a ``History`` (undo, redo, merging of back-to-back steps); the desktop app's
undo stack is a thin adapter over it, so what the core's tests exercise is what the app runs.

Why it is long: every kind of user edit is a command class here (do, undo, merge and its
undo text), beside the History that records them; one file keeps the undo contract in one
place.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from planner.hardware.catalog import Catalog, DeviceType
from planner.hardware.power_limit import limit_problem
from planner.plan.changes import ChangeSet
from planner.errors import PlannerError, describe_validation_error
from planner.plan.model import Placement, Plan, PlanInfo, Rack, unknown_hall
from planner.settings import SECTIONS, Settings, field_meta
from planner.settings.refusal import bound_text, describe_refusal
from planner.plan.space import fit_problem
from planner.text import name_problem


class CommandError(PlannerError):
    """An edit that was refused; the plan is unchanged."""


class Command:
    label: str = "Edit"

    def do(self, plan: Plan, catalog: Catalog) -> ChangeSet:
        raise NotImplementedError

    def undo(self, plan: Plan, catalog: Catalog) -> ChangeSet:
        raise NotImplementedError

    def merge(self, other: Command) -> bool:
        """Absorb ``other`` (done right after this one) into this command; True if merged."""
        return False


def _device_type(catalog: Catalog, device_id: str) -> DeviceType:
    d = catalog.get(device_id)
    if d is None:
        raise CommandError(f"the catalog has no device type '{device_id}'")
    return d


def _title(catalog: Catalog | None, device_id: str) -> str:
    """The device's model name for undo texts ("NVIDIA DGX H100"), its id if the catalog lacks it."""
    d = catalog.get(device_id) if catalog is not None else None
    return d.title if d is not None else device_id


def _rack_changes(*rack_ids: str, devices: tuple[str, ...] = (), structure: bool = False) -> ChangeSet:
    return ChangeSet(racks=frozenset(rack_ids), devices=frozenset(devices), structure=structure)


def _checked_label(label: str) -> str:
    """A device's label as the model takes it, else a CommandError saying why."""
    if len(label) > 200:
        raise CommandError("a label can be at most 200 characters")
    if problem := name_problem(label):
        raise CommandError(f"label: {problem}")
    return label


class AddDevice(Command):
    def __init__(self, device: str, rack: str, u: int, label: str = "", placement_id: str | None = None):
        self.device, self.rack, self.u, self.placement_id = device, rack, u, placement_id
        self.label_text = label
        self._title = device

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"Add {self._title}"

    def do(self, plan, catalog):
        d = _device_type(catalog, self.device)
        self._title = d.title
        problem = fit_problem(plan, catalog, self.rack, self.u, d)
        if problem:
            raise CommandError(problem)
        if self.placement_id is None:
            self.placement_id = plan.new_id("d")
        elif plan.placement(self.placement_id) is not None or plan.rack(self.placement_id) is not None:
            raise CommandError(f"the id '{self.placement_id}' is already used")
        plan.insert_placement(Placement(id=self.placement_id, device=self.device, rack=self.rack, u=self.u,
                                        label=_checked_label(self.label_text)))
        return _rack_changes(self.rack, devices=(self.placement_id,))

    def undo(self, plan, catalog):
        plan.pop_placement(self.placement_id)
        return _rack_changes(self.rack, devices=(self.placement_id,))


class MoveDevice(Command):
    """Move a device to another U and/or rack. Consecutive moves of one device merge (one drag = one undo step)."""

    def __init__(self, placement_id: str, rack: str, u: int):
        self.placement_id, self.rack, self.u = placement_id, rack, u
        self._from: tuple[str, int] | None = None
        self._title = "device"

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"Move {self._title}"

    def do(self, plan, catalog):
        p = plan.placement(self.placement_id)
        if p is None:
            raise CommandError(f"there is no device '{self.placement_id}'")
        d = _device_type(catalog, p.device)
        self._title = d.title
        problem = fit_problem(plan, catalog, self.rack, self.u, d, ignore=frozenset({p.id}))
        if problem:
            raise CommandError(problem)
        if self._from is None:
            self._from = (p.rack, p.u)
        old_rack = p.rack
        plan.relocate(p.id, self.rack, self.u)
        return _rack_changes(old_rack, self.rack, devices=(p.id,))

    def undo(self, plan, catalog):
        old_rack = plan.placement(self.placement_id).rack
        plan.relocate(self.placement_id, *self._from)
        return _rack_changes(old_rack, self._from[0], devices=(self.placement_id,))

    def merge(self, other):
        if isinstance(other, MoveDevice) and other.placement_id == self.placement_id:
            self.rack, self.u = other.rack, other.u
            return True
        return False


class RemoveDevices(Command):
    def __init__(self, placement_ids: list[str]):
        self.placement_ids = list(dict.fromkeys(placement_ids))
        self._removed: list[tuple[int, Placement]] = []
        self._title = "device"

    @property
    def label(self) -> str:  # type: ignore[override]
        n = len(self.placement_ids)
        return f"Remove {self._title}" if n == 1 else f"Remove {n} devices"

    def do(self, plan, catalog):
        missing = [i for i in self.placement_ids if plan.placement(i) is None]
        if missing:
            raise CommandError(f"there is no device '{missing[0]}'")
        if len(self.placement_ids) == 1:
            self._title = _title(catalog, plan.placement(self.placement_ids[0]).device)
        self._removed = [plan.pop_placement(i) for i in self.placement_ids]
        return _rack_changes(*{p.rack for _, p in self._removed}, devices=tuple(self.placement_ids))

    def undo(self, plan, catalog):
        for index, p in reversed(self._removed):
            plan.insert_placement(p, index)
        return _rack_changes(*{p.rack for _, p in self._removed}, devices=tuple(self.placement_ids))


class EditDevice(Command):
    label = "Edit device"

    def __init__(self, placement_id: str, label: str):
        self.placement_id, self.new_label = placement_id, label
        self._old: str | None = None

    def do(self, plan, catalog):
        p = plan.placement(self.placement_id)
        if p is None:
            raise CommandError(f"there is no device '{self.placement_id}'")
        label = _checked_label(self.new_label)
        if label and label != p.label:  # a device's name is its own in the plan, as NetBox keeps it in a site
            other = next((q for q in plan.placements if q.label == label and q.id != p.id), None)
            if other is not None:
                raise CommandError(f"'{label}' already names a device in rack {plan.rack(other.rack).name}: "
                                   "give this one another name")
        self._old, p.label = p.label, label
        return _rack_changes(p.rack, devices=(p.id,))

    def undo(self, plan, catalog):
        p = plan.placement(self.placement_id)
        p.label = self._old
        return _rack_changes(p.rack, devices=(p.id,))


RACK_FIELDS = ("name", "height_u", "power_cap_kw", "cooling", "max_weight_kg", "row", "rack_type", "width_mm",
               "depth_mm", "rear_door_hx")
# as the rack editor names them (and its refusals: "Power cap: takes more than 0", not the field's key)
RACK_TITLES = {"name": "Name", "height_u": "Height", "power_cap_kw": "Power cap", "cooling": "Cooling",
               "max_weight_kg": "Weight limit", "row": "Row", "rack_type": "Rack type", "width_mm": "Width",
               "depth_mm": "Depth", "rear_door_hx": "Rear-door heat exchanger"}
RACK_UNITS = {"height_u": "U", "power_cap_kw": "kW", "max_weight_kg": "kg", "width_mm": "mm", "depth_mm": "mm"}


def rack_field_title(key: str) -> str:
    """"Power cap (kW)": a rack field as the editor labels it."""
    title, unit = RACK_TITLES.get(key, key), RACK_UNITS.get(key, "")
    return f"{title} ({unit})" if unit else title


def _validated_rack(data: dict[str, Any]) -> Rack:
    try:
        return Rack.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        bound = bound_text(first)  # "power_cap_kw: takes more than 0 (not -5)", not pydantic's words
        if bound is not None and len(first.get("loc", ())) == 1:
            raise CommandError(f"{rack_field_title(str(first['loc'][0]))}: {bound}") from None
        raise CommandError(describe_validation_error(exc, data)) from None


class AddRack(Command):
    label = "Add rack"

    def __init__(self, name: str | None = None, index: int | None = None, rack_id: str | None = None, **fields: Any):
        self.name, self.index, self.rack_id, self.fields = name, index, rack_id, fields

    def do(self, plan, catalog):
        if self.rack_id is None:
            self.rack_id = plan.new_id("r")
        elif plan.rack(self.rack_id) is not None or plan.placement(self.rack_id) is not None:
            raise CommandError(f"the id '{self.rack_id}' is already used")
        fields = {"power_cap_kw": plan.settings.facility.default_rack_cap_kw, **self.fields}
        name = self.name or next_rack_name(plan, "Rack")
        rack = _validated_rack({"id": self.rack_id, "name": name, **fields})
        if rack.hall and rack.hall not in plan.hall_ids():
            raise CommandError(unknown_hall(rack, plan.hall_ids()))
        plan.insert_rack(rack, self.index)
        return _rack_changes(rack.id, structure=True)

    def undo(self, plan, catalog):
        plan.pop_rack(self.rack_id)
        return _rack_changes(self.rack_id, structure=True)


class EditRack(Command):
    label = "Edit rack"

    def __init__(self, rack_id: str, **changes: Any):
        unknown = set(changes) - set(RACK_FIELDS)
        if unknown:
            raise CommandError(f"a rack has no field '{sorted(unknown)[0]}'")
        self.rack_id, self.changes = rack_id, changes
        self._old: dict[str, Any] = {}

    def do(self, plan, catalog):
        rack = plan.rack(self.rack_id)
        if rack is None:
            raise CommandError(f"there is no rack '{self.rack_id}'")
        candidate = _validated_rack({**rack.model_dump(), **self.changes})
        if self.changes.get("rack_type") and catalog.rack_type(candidate.rack_type) is None:
            known = ", ".join(sorted(t.id for t in catalog.rack_types.values())) or "none"
            raise CommandError(f"Rack type: the catalog has no rack type '{candidate.rack_type}' (it has: {known}); "
                               "leave it empty for a plain rack")
        if "name" in self.changes and candidate.name != rack.name and any(
                r.name == candidate.name for r in plan.racks if r.id != rack.id):
            raise CommandError(f"a rack named '{candidate.name}' is already in the plan: racks are told apart by "
                               "their names (the elevations, the vendor pack, NetBox); choose another")
        if candidate.height_u < rack.height_u:
            for p in plan.rack_members(rack.id).values():
                d = catalog.get(p.device)
                if d and p.u + d.u_height - 1 > candidate.height_u:
                    raise CommandError(f"{p.label or p.id} sits at U{p.u}-U{p.u + d.u_height - 1}: "
                                       f"the rack cannot shrink to {candidate.height_u}U")
        self._old = {k: getattr(rack, k) for k in self.changes}
        for k in self.changes:
            setattr(rack, k, getattr(candidate, k))
        return _rack_changes(rack.id)

    def undo(self, plan, catalog):
        rack = plan.rack(self.rack_id)
        for k, v in self._old.items():
            setattr(rack, k, v)
        return _rack_changes(rack.id)


class RemoveRack(Command):
    """Remove a rack and the devices in it; undo puts both back where they were."""

    label = "Remove rack"

    def __init__(self, rack_id: str):
        self.rack_id = rack_id
        self._rack: tuple[int, Rack] | None = None
        self._devices = RemoveDevices([])

    def do(self, plan, catalog):
        if plan.rack(self.rack_id) is None:
            raise CommandError(f"there is no rack '{self.rack_id}'")
        self._devices = RemoveDevices(list(plan.rack_members(self.rack_id)))
        changes = self._devices.do(plan, catalog)
        self._rack = plan.pop_rack(self.rack_id)
        return changes | _rack_changes(self.rack_id, structure=True)

    def undo(self, plan, catalog):
        index, rack = self._rack
        plan.insert_rack(rack, index)
        return self._devices.undo(plan, catalog) | _rack_changes(self.rack_id, structure=True)


class SetPriceOverrides(Command):
    """Replace the plan's price overrides (unit prices imported from a workbook)."""

    label = "Import prices"

    def __init__(self, overrides: list):
        self.overrides = list(overrides)
        self._old: list = []

    def do(self, plan, catalog):
        self._old = plan.price_overrides
        plan.price_overrides = self.overrides
        return ChangeSet(settings=frozenset({"costs"}))

    def undo(self, plan, catalog):
        plan.price_overrides = self._old
        return ChangeSet(settings=frozenset({"costs"}))


class SetSetting(Command):
    """Change one field of a settings section, validated by that section's model."""

    def __init__(self, section: str, field: str, value: Any):
        self.section, self.field, self.value = section, field, value
        self._old: Any = None

    @property
    def label(self) -> str:  # type: ignore[override]
        section = Settings.model_fields.get(self.section)
        model = section.annotation if section is not None else None
        if model is not None and self.field in getattr(model, "model_fields", {}):
            return f"Set {field_meta(model, self.field)['title']}"
        return f"Set {self.field.replace('_', ' ')}"

    def do(self, plan, catalog):
        if self.section not in SECTIONS:
            raise CommandError(f"there is no settings section '{self.section}'")
        current = getattr(plan.settings, self.section)
        if self.field not in type(current).model_fields:
            raise CommandError(f"settings section '{self.section}' has no field '{self.field}'")
        data = current.model_dump()
        data[self.field] = self.value
        try:
            updated = type(current).model_validate(data)
        except ValidationError as exc:
            raise CommandError(describe_refusal(type(current), self.field, exc)
                               or describe_validation_error(exc, data)) from None
        if self.section == "facility" and (problem := limit_problem(
                (catalog[k] for k in {p.device for p in plan.placements} if k in catalog), updated.gpu_power_limit_w, updated.gpu_min_power_limit_share)):
            raise CommandError(problem)
        self._old = current
        setattr(plan.settings, self.section, updated)
        return ChangeSet(settings=frozenset({self.section}))

    def undo(self, plan, catalog):
        setattr(plan.settings, self.section, self._old)
        return ChangeSet(settings=frozenset({self.section}))

    def merge(self, other):
        if isinstance(other, SetSetting) and (other.section, other.field) == (self.section, self.field):
            self.value = other.value
            return True
        return False


class RenamePlan(Command):
    label = "Rename plan"

    def __init__(self, name: str):
        self.name = name
        self._old = ""

    def do(self, plan, catalog):
        name = self.name.strip()
        if not name or len(name) > 200:
            raise CommandError("a plan name needs 1 to 200 characters")
        if problem := name_problem(name):
            raise CommandError(f"plan name: {problem}")
        self._old, plan.name = plan.name, name
        return ChangeSet(plan=True)

    def undo(self, plan, catalog):
        plan.name = self._old
        return ChangeSet(plan=True)


class SetPlanInfo(Command):
    """Set the plan's information (customer, site, contact, revision, dates): the fields
    given change, the others keep their values."""

    label = "Edit plan properties"

    def __init__(self, **fields: str):
        self.fields = fields
        self._old = None

    def do(self, plan, catalog):
        data = {**plan.info.model_dump(), **{k: v.strip() if isinstance(v, str) else v for k, v in self.fields.items()}}
        try:
            info = PlanInfo.model_validate(data)
        except ValidationError as exc:
            raise CommandError(describe_validation_error(exc, data)) from None
        self._old, plan.info = plan.info, info
        return ChangeSet(plan=True)

    def undo(self, plan, catalog):
        plan.info = self._old
        return ChangeSet(plan=True)


class Macro(Command):
    """Several commands as one undo step; if one fails, the ones already done are undone."""

    def __init__(self, label: str, commands: list[Command]):
        self._label, self.commands = label, commands

    @property
    def label(self) -> str:  # type: ignore[override]
        return self._label

    def do(self, plan, catalog):
        done: list[Command] = []
        changes = ChangeSet()
        try:
            for c in self.commands:
                changes = changes | c.do(plan, catalog)
                done.append(c)
        except CommandError:
            for c in reversed(done):
                c.undo(plan, catalog)
            raise
        return changes

    def undo(self, plan, catalog):
        changes = ChangeSet()
        for c in reversed(self.commands):
            changes = changes | c.undo(plan, catalog)
        return changes


def next_rack_name(plan: Plan, prefix: str) -> str:
    return _RackNamer(plan, prefix).next()


class _RackNamer:
    """PREFIX-01, PREFIX-02, ...: the next names no rack of the plan uses."""

    def __init__(self, plan: Plan, prefix: str):
        self.plan, self.names = plan, set[str]()
        self.prefix, self.n = prefix, 0

    def next(self) -> str:
        if self.n == 0:  # the plan's names read at the first name asked: a design auto-places ~100 times
            self.names = {r.name for r in self.plan.racks}  # into racks it has (campus-1m: 21,256), most adding none
        while True:
            self.n += 1
            name = f"{self.prefix}-{self.n:02d}"
            if name not in self.names:
                self.names.add(name)
                return name


UNDO_STEPS = 300
"""How many steps ``History`` keeps by default; past them the oldest is dropped, so a long
session's memory stays bounded (a step holds what its undo puts back: a campus-wide replace
holds thousands of placements). Planner assumption: a few hundred steps cover a working
session's edits; image and 3-D editors keep fewer (Adobe Photoshop's History States default
to 50, Blender's Undo Steps to 32)."""


class History:
    """The undo history of one plan: the one record of what Undo and Redo step through, and
    of which step is the saved plan, for the app (its Qt undo actions read it and hold no
    steps of their own) and for the CLI and tests.

    Edits applied back to back with the same ``merge_key`` become one undo step when the
    earlier command can absorb the later one (``Command.merge``): three arrow-key steps of a
    spin box are undone at once. An undo or a redo ends such a run, and so does ``seal``;
    nothing merges into the saved step, so undo always leads back to the saved plan. At most
    ``max_steps`` steps are kept (``UNDO_STEPS``): a new step past them drops the oldest.
    """

    def __init__(self, plan: Plan, catalog: Catalog, max_steps: int = UNDO_STEPS):
        if max_steps < 1:
            raise ValueError("an undo history keeps at least one step")
        self.plan, self.catalog, self.max_steps = plan, catalog, max_steps
        self.done: list[Command] = []
        self.undone: list[Command] = []
        self.merged = False
        """Whether the last ``apply`` joined the step before instead of making a new one."""
        self._run_key: Any = None  # the merge key of the last step, while a run can continue
        self.dropped = 0
        """Steps dropped past ``max_steps``: ``step`` counts them, so a step keeps its number."""
        self._saved_step: int | None = 0  # the ``step`` of the saved plan; None once no undo or redo leads there

    @property
    def step(self) -> int:
        """How many steps lead from the plan as opened to now (undone ones not counted)."""
        return self.dropped + len(self.done)

    def apply(self, command: Command, merge_key: Any = None) -> ChangeSet:
        """Do ``command`` and record it; CommandError leaves plan and history as they were."""
        changes = command.do(self.plan, self.catalog)
        self.merged = (merge_key is not None and merge_key == self._run_key and bool(self.done)
                       and not self.is_saved and self.done[-1].merge(command))
        if not self.merged:
            if self._saved_step is not None and self._saved_step > self.step:
                self._saved_step = None  # the saved plan was among the undone steps this edit discards
            self.done.append(command)
            over = len(self.done) - self.max_steps
            if over > 0:
                del self.done[:over]
                self.dropped += over
                if self._saved_step is not None and self._saved_step < self.dropped:
                    self._saved_step = None  # its step is gone
        self._run_key = merge_key
        self.undone.clear()
        return changes

    def undo(self) -> ChangeSet:
        c = self.done.pop()
        self.undone.append(c)
        self.seal()
        return c.undo(self.plan, self.catalog)

    def redo(self) -> ChangeSet:
        c = self.undone.pop()
        self.done.append(c)
        self.seal()
        return c.do(self.plan, self.catalog)

    def join(self, count: int, label: str) -> None:
        """Make the last ``count`` steps one step named ``label`` (a Fix that mended several
        findings one by one, re-evaluating after each, is undone at once). Nothing is done or
        undone: the steps are already applied, and nothing is left to redo. A saved plan among
        them can no longer be reached by undo, so none is saved then."""
        self.undone.clear()  # a fix taken back (refused) on the way is no step to redo
        count = min(count, len(self.done))
        if count < 2:
            return
        first = self.step - count
        if self._saved_step is not None and self._saved_step > first:
            self._saved_step = None
        self.done[-count:] = [Macro(label, self.done[-count:])]
        self.seal()

    def seal(self) -> None:
        """End a run of merging edits: the next edit is a step of its own."""
        self._run_key = None

    def mark_saved(self) -> None:
        """The plan as it is now is the saved one."""
        self._saved_step = self.step
        self.seal()

    def forget_saved(self) -> None:
        """No step is the saved plan (a recovered copy that was never saved)."""
        self._saved_step = None

    @property
    def is_saved(self) -> bool:
        """Whether the plan is at the step it was saved (or opened) at."""
        return self._saved_step == self.step

    @property
    def label(self) -> str:
        """The undo text of the last step ("Move DGX H100 to U13")."""
        return self.done[-1].label if self.done else ""

    @property
    def redo_label(self) -> str:
        """The text of the step Redo would do again, "" when there is none."""
        return self.undone[-1].label if self.undone else ""
