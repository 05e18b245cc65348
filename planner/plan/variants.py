"""Variants of a plan: named alternatives stored as overrides of the base variant.

A plan file holds the base variant's full state (settings, racks, devices) and, for each
other variant, only what it overrides: settings fields that differ, racks and devices
added or changed (whole records, by id), the ids it removes, and the order of racks or
devices when it differs from the one the base implies. ``active_variant`` names the one
shown and edited ("" = the base).

In memory the plan's own ``settings``, ``racks`` and ``placements`` are always the active
variant's full state, so every view, command and evaluation works on it unchanged; while a
variant other than the base is active, the base's state is kept aside (``Plan._base_state``)
and the active variant's overrides are worked out when it is saved or left.

The campus (``Plan.buildings``: buildings and their halls) is shared by every variant; a
variant's racks carry their hall (``Rack.hall``), so a variant may move racks between halls
but not add a hall.

Why it is long: switching, saving, creating, renaming and deleting a variant each work out
or apply overrides of settings, racks, devices and their order, with the checks that keep a
file's variants consistent.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from planner.errors import PlannerError, describe_validation_error, quote
from planner.plan.changes import ChangeSet
from planner.plan.commands import Command, CommandError
from planner.plan.model import MAX_VARIANTS, Placement, Plan, Rack, Variant
from planner.settings import SECTIONS, Settings
from planner.text import name_problem

State = tuple[dict[str, dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]
"""(settings by section, racks, devices) as JSON dumps: a variant's full state."""


class VariantError(PlannerError):
    """An unknown variant name or overrides that cannot be applied."""


# -- states and overrides -------------------------------------------------------------

def working_state(plan: Plan) -> State:
    """The state the plan's own fields hold (the active variant's)."""
    return (plan.settings.model_dump(mode="json"), [r.model_dump(mode="json") for r in plan.racks],
            [p.model_dump(mode="json") for p in plan.placements])


def base_state(plan: Plan) -> State:
    state = plan.__pydantic_private__["_base_state"]
    return working_state(plan) if state is None else state


def _diff_records(base: list[dict], new: list[dict], own: bool = False
                  ) -> tuple[list[dict], list[str], list[str] | None]:
    """(added or changed records, removed ids, the order if the natural one differs); ``own``:
    every record of ``new``, in its order, and nothing of the base."""
    if own:
        return list(new), [], None
    old = {r["id"]: r for r in base}
    ids = {r["id"] for r in new}
    changed = [r for r in new if old.get(r["id"]) != r]
    removed = [i for i in old if i not in ids]
    natural = _merge_order(base, changed, set(removed))
    order = [r["id"] for r in new]
    return changed, removed, (None if natural == order else order)


def _merge_order(base: list[dict], changed: list[dict], removed: set[str]) -> list[str]:
    """Base order without removed ids, then the ids the variant adds, in its order."""
    known = {r["id"] for r in base}
    return [r["id"] for r in base if r["id"] not in removed] + [r["id"] for r in changed if r["id"] not in known]


def diff_state(base: State, new: State, name: str, own_layout: bool = False) -> Variant:
    """The variant ``name`` whose overrides turn ``base`` into ``new``; with ``own_layout``
    its racks and devices are all its own (``Variant.own_layout``), its settings still
    overrides of the base's."""
    settings = {}
    for section, fields in new[0].items():
        old = base[0].get(section, {})
        delta = {k: v for k, v in fields.items() if old.get(k) != v}
        if delta:
            settings[section] = delta
    racks, removed_racks, rack_order = _diff_records(base[1], new[1], own_layout)
    devices, removed_devices, device_order = _diff_records(base[2], new[2], own_layout)
    return Variant.model_validate({
        "name": name, "settings": settings, "racks": racks, "removed_racks": removed_racks,
        "placements": devices, "removed_placements": removed_devices, "rack_order": rack_order,
        "placement_order": device_order, "own_layout": own_layout,
    })


def _apply_records(base: list[dict], changed: list[dict], removed: list[str], order: list[str] | None,
                   own: bool = False) -> list[dict]:
    if own:  # the variant's records alone: a rack or device the base added since is not its
        by_id = {r["id"]: r for r in changed}
        return [by_id[i] for i in order if i in by_id] if order is not None else list(changed)
    by_id = {r["id"]: r for r in base}
    by_id.update({r["id"]: r for r in changed})
    gone = set(removed)
    ids = order if order is not None else _merge_order(base, changed, gone)
    return [by_id[i] for i in ids if i in by_id and i not in gone]


def apply_overrides(base: State, v: Variant) -> State:
    """The full state of variant ``v`` on ``base``. Devices whose rack the result lacks
    (the base removed it after the variant was made) are dropped. A variant of its own
    layout takes its racks and devices from itself alone."""
    settings = {s: dict(fields) for s, fields in base[0].items()}
    for section, fields in v.settings.items():
        settings.setdefault(section, {}).update(fields)
    racks = _apply_records(base[1], [r.model_dump(mode="json") for r in v.racks], v.removed_racks, v.rack_order,
                           v.own_layout)
    rack_ids = {r["id"] for r in racks}
    devices = _apply_records(base[2], [p.model_dump(mode="json") for p in v.placements], v.removed_placements,
                             v.placement_order, v.own_layout)
    return settings, racks, [p for p in devices if p["rack"] in rack_ids]


def _set_state(plan: Plan, state: State, origin: str) -> None:
    """Make ``state`` the plan's own fields (and its lookups)."""
    settings, racks, devices = state
    try:
        new_settings = Settings.model_validate(settings)
        new_racks = [Rack.model_validate(r) for r in racks]
        new_devices = [Placement.model_validate(p) for p in devices]
    except ValidationError as exc:
        raise VariantError(f"variant {quote(origin)}: {describe_validation_error(exc, settings)}") from None
    old = (plan.settings, plan.racks, plan.placements)
    plan.settings, plan.racks, plan.placements = new_settings, new_racks, new_devices
    try:
        plan._unique_ids_and_known_racks()
    except ValueError as exc:
        plan.settings, plan.racks, plan.placements = old
        plan._unique_ids_and_known_racks()
        raise VariantError(f"variant {quote(origin)}: {exc}") from None


def _variant(plan: Plan, name: str) -> Variant | None:
    return next((v for v in plan.variants if v.name == name), None)


def _index(plan: Plan, name: str) -> int:
    return next(i for i, v in enumerate(plan.variants) if v.name == name)


def unknown_variant(plan: Plan, name: str) -> VariantError:
    return VariantError(f"the plan has no variant {quote(name)} (variants: {', '.join(plan.variant_names)})")


def state_of(plan: Plan, name: str) -> State:
    """The full state of the variant ``name``; VariantError if the plan has none of that name."""
    if name == plan.current_variant:
        return working_state(plan)
    if name == plan.base_variant:
        return base_state(plan)
    v = _variant(plan, name)
    if v is None:
        raise unknown_variant(plan, name)
    return apply_overrides(base_state(plan), v)


def _reserve_ids(plan: Plan) -> None:
    """Ids the base and every variant use, so a new rack or device never takes one of them."""
    ids: set[str] = set()
    state = plan.__pydantic_private__["_base_state"]
    if state is not None:
        ids.update(r["id"] for r in state[1])
        ids.update(p["id"] for p in state[2])
    for v in plan.variants:
        ids.update(r.id for r in v.racks)
        ids.update(p.id for p in v.placements)
    plan.__pydantic_private__["_reserved_ids"] = frozenset(ids)


def _store_current(plan: Plan) -> None:
    """Write the active (non-base) variant's overrides from the plan's fields."""
    if plan.active_variant:
        i = _index(plan, plan.active_variant)
        plan.variants[i] = diff_state(base_state(plan), working_state(plan), plan.active_variant,
                                      plan.variants[i].own_layout)


def switch_to(plan: Plan, name: str) -> None:
    """Make ``name`` the active variant: the plan's fields become its full state."""
    if name not in plan.variant_names:
        raise unknown_variant(plan, name)
    if name == plan.current_variant:
        return
    priv = plan.__pydantic_private__
    base = base_state(plan)
    _store_current(plan)
    target = base if name == plan.base_variant else apply_overrides(base, _variant(plan, name))
    _set_state(plan, target, name)
    if name == plan.base_variant:
        plan.active_variant, priv["_base_state"] = "", None
    else:
        plan.active_variant, priv["_base_state"] = name, base
    _reserve_ids(plan)


def resolve_variant(plan: Plan, name: str) -> Plan:
    """A plan of one variant: ``name``'s full state, the plan's name, description, information,
    prices and campus (the buildings every variant shares)."""
    state = state_of(plan, name)
    out = Plan(name=plan.name, description=plan.description, info=plan.info.model_copy(),
               price_overrides=list(plan.price_overrides), buildings=list(plan.buildings), base_variant=name)
    _set_state(out, state, name)
    return out


# -- the file form ----------------------------------------------------------------------

def file_dict(plan: Plan) -> dict[str, Any]:
    """The plan as its file holds it: the base's full state and the other variants' overrides."""
    data = plan.model_dump(mode="json")
    if plan.active_variant:
        base = base_state(plan)
        own = plan.variants[_index(plan, plan.active_variant)].own_layout
        current = diff_state(base, working_state(plan), plan.active_variant, own)
        data["variants"] = [current.model_dump(mode="json") if v["name"] == plan.active_variant else v
                            for v in data["variants"]]
        data["settings"], data["racks"], data["placements"] = base
    return data


def plan_from_file_dict(data: dict[str, Any]) -> Plan:
    """Validate a file's dict (current format) and open its active variant. Every variant is
    resolved once, so one that cannot be applied is refused now, not when switched to."""
    plan = Plan.model_validate(data)
    active = plan.active_variant
    plan.active_variant = ""
    for v in plan.variants:
        resolve_variant(plan, v.name)
    if active:
        switch_to(plan, active)
    else:
        _reserve_ids(plan)
    return plan


# -- commands (undoable) ------------------------------------------------------------------

def _everything(old_racks: set[str], plan: Plan) -> ChangeSet:
    """Switching variants changes every figure: the views and the evaluation start over."""
    return ChangeSet(racks=frozenset(old_racks | {r.id for r in plan.racks}), settings=frozenset(SECTIONS),
                     structure=True, catalog=True, plan=True)


def _checked_name(plan: Plan, name: str, *, allow: str | None = None) -> str:
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise CommandError("a variant name needs 1 to 100 characters")
    if problem := name_problem(name):
        raise CommandError(f"variant name: {problem}")
    if name in plan.variant_names and name != allow:
        raise CommandError(f"the plan already has a variant {quote(name)}")
    return name


class _SwitchBack:
    """What a command must restore: the active variant and the stored overrides."""

    def __init__(self, plan: Plan):
        self.active = plan.current_variant
        self.variants = list(plan.variants)
        self.base = plan.__pydantic_private__["_base_state"]

    def restore(self, plan: Plan) -> None:
        plan.variants = list(self.variants)
        plan.active_variant = "" if self.active == plan.base_variant else self.active
        plan.__pydantic_private__["_base_state"] = self.base
        _reserve_ids(plan)


class CreateVariant(Command):
    """A new variant, made the active one: of the current state (nothing else changes), or
    of ``source``'s settings, racks and devices (a plan laid out elsewhere, e.g. a sweep's point),
    whose layout is then its own (``Variant.own_layout``), as is a copy of a variant of its own."""

    def __init__(self, name: str, source: Plan | None = None):
        self.name, self.source = name, source
        self._before: _SwitchBack | None = None
        self._from = ""

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"New variant {self.name.strip()}"

    def do(self, plan, catalog):
        name = _checked_name(plan, self.name)
        if len(plan.variants) >= MAX_VARIANTS:
            raise CommandError(f"a plan can have at most {MAX_VARIANTS + 1} variants")
        self._before = _SwitchBack(plan)
        self._from = plan.current_variant
        base = base_state(plan)
        _store_current(plan)
        state = working_state(plan if self.source is None else self.source)
        # a layout made elsewhere is the variant's own: the base's edits do not reach it
        # (by ids both happen to use, a base move carried the variant's device into a rack
        # of the base's, or dropped it where the variant has no such rack)
        own = self.source is not None or bool(plan.active_variant and _variant(plan, plan.active_variant).own_layout)
        plan.variants.append(diff_state(base, state, name, own_layout=own))
        if self.source is None:
            plan.active_variant = name
            plan.__pydantic_private__["_base_state"] = base
            _reserve_ids(plan)
            return ChangeSet(plan=True)
        old = {r.id for r in plan.racks}
        try:
            switch_to(plan, name)
        except VariantError as exc:
            self._before.restore(plan)
            raise CommandError(str(exc)) from None
        return _everything(old, plan)

    def undo(self, plan, catalog):
        if self.source is None:
            self._before.restore(plan)
            return ChangeSet(plan=True)
        old = {r.id for r in plan.racks}
        switch_to(plan, self._from)
        self._before.restore(plan)
        return _everything(old, plan)


class SwitchVariant(Command):
    def __init__(self, name: str):
        self.name = name
        self._from = ""

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"Switch to variant {self.name}"

    def do(self, plan, catalog):
        if self.name not in plan.variant_names:
            raise CommandError(str(unknown_variant(plan, self.name)))
        self._from = plan.current_variant
        old = {r.id for r in plan.racks}
        try:
            switch_to(plan, self.name)
        except VariantError as exc:
            raise CommandError(str(exc)) from None
        return _everything(old, plan)

    def undo(self, plan, catalog):
        old = {r.id for r in plan.racks}
        switch_to(plan, self._from)
        return _everything(old, plan)


class RenameVariant(Command):
    label = "Rename variant"

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new
        self._name = ""

    def do(self, plan, catalog):
        if self.old not in plan.variant_names:
            raise CommandError(str(unknown_variant(plan, self.old)))
        self._name = _checked_name(plan, self.new, allow=self.old)
        self._rename(plan, self.old, self._name)
        return ChangeSet(plan=True)

    def undo(self, plan, catalog):
        self._rename(plan, self._name, self.old)
        return ChangeSet(plan=True)

    @staticmethod
    def _rename(plan: Plan, old: str, new: str) -> None:
        if old == plan.base_variant:
            plan.base_variant = new
        else:
            i = _index(plan, old)
            plan.variants[i] = plan.variants[i].model_copy(update={"name": new})
            if plan.active_variant == old:
                plan.active_variant = new


class DeleteVariant(Command):
    """Delete a variant other than the base; deleting the active one switches to the base first."""

    def __init__(self, name: str):
        self.name = name
        self._before: _SwitchBack | None = None
        self._switch: SwitchVariant | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"Delete variant {self.name}"

    def do(self, plan, catalog):
        if self.name == plan.base_variant:
            raise CommandError(f"{quote(self.name)} is the base variant, which the others override; "
                               "it cannot be deleted")
        if _variant(plan, self.name) is None:
            raise CommandError(str(unknown_variant(plan, self.name)))
        changes = ChangeSet(plan=True)
        self._switch = None
        if plan.active_variant == self.name:
            self._switch = SwitchVariant(plan.base_variant)
            changes = changes | self._switch.do(plan, catalog)
        self._before = _SwitchBack(plan)
        del plan.variants[_index(plan, self.name)]
        _reserve_ids(plan)
        return changes

    def undo(self, plan, catalog):
        self._before.restore(plan)
        changes = ChangeSet(plan=True)
        if self._switch is not None:
            changes = changes | self._switch.undo(plan, catalog)
        return changes
