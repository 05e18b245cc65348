"""The evaluator's one memo: results kept from one evaluation to the next, each under the
versions of the inputs it declared it reads.

Inputs are named:

- ``"counts"``: the device counts by type, and so the numbers of GPUs and nodes;
  ``"totals"``: the rest of the report's totals (power, PDUs, CDUs, ...), and
  ``"totals.<field>"``: one of them (``"totals.pdus"``), for a section that reads only a few
  (the cost section does not read the heat to liquid, which most drops between air and
  liquid racks change). The evaluator compares each with the last evaluation's and counts
  a change when they differ;
  ``"hall <id>"``: one data hall's sums of its racks (``planner.facility.rack_sums``),
  compared the same way for the halls whose racks changed; ``"halls"``: any of them (the
  buildings and halls themselves change only by a full evaluation); ``"hall fabric"``: each
  hall's racks, their footprint, its fabric switches and how many fabric switches and nodes
  stand together (``planner.costs.campus_tiers.HallFabric``); ``"hall kinds"``: what the
  in-hall run estimate reads of them (``planner.costs.hall_tiers.hall_kinds``),
  ``"hall floor"`` the racks and footprint alone;
- ``"layout"``: the racks and where each device is (a change set's racks, devices or
  structure);
- ``"settings.<section>"``: one settings section, as change sets name them (a plan's
  price overrides are ``"settings.costs"``: importing prices says so);
- ``"plan"``: the plan's name and information;
- any kept entry's key: a report section by its name (an entry recomputed is a changed
  input to whatever reads it).

An entry computed while another is being computed (the cable schedule, inside the cost
section) adds what it reads to the reads of the one that used it.

The catalog is read by everything: a change to it is a full evaluation, which starts with
an empty memo.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import fields
from typing import Any

from planner.plan.changes import ChangeSet

_UNSET = object()
_FIELDS: dict[tuple[type, str], tuple[tuple[str, str], ...]] = {}  # (dataclass, name) -> (field, input) of each field


class Memo:
    def __init__(self) -> None:
        self._versions: defaultdict[Hashable, int] = defaultdict(int)  # an input never changed: 0
        self._values: dict[str, Any] = {}
        # key -> (the inputs the value was computed from, the version of each, the value): an
        # evaluation of campus-1m asks for about 80 entries, most of them kept (a hall's, a
        # building's, a phase's), and compares their versions as one tuple
        self._kept: dict[Hashable, tuple[tuple[Hashable, ...], tuple[int, ...], Any]] = {}
        self._reading: list[set[Hashable]] = []  # what each entry being computed has read, innermost last

    def changed(self, inputs: Iterable[Hashable]) -> None:
        for name in inputs:
            self._versions[name] += 1

    def note(self, changes: ChangeSet) -> None:
        """The inputs a change set names have changed."""
        self.changed(f"settings.{s}" for s in changes.settings)
        if changes.racks or changes.devices or changes.structure:
            self.changed(("layout",))
        if changes.plan:
            self.changed(("plan",))

    def set(self, name: str, value: Any) -> bool:
        """An input the evaluator works out (the counts, the totals): changed when it differs
        from the last value set. Whether it did."""
        if self._values.get(name, _UNSET) == value:
            return False
        self._values[name] = value
        self.changed((name,))
        return True

    def set_fields(self, name: str, value: Any) -> bool:
        """A dataclass input: each field as ``name.field``, and ``name`` changed when any of
        them did. Whether one did."""
        names = _FIELDS.get((type(value), name))
        if names is None:
            names = _FIELDS[type(value), name] = tuple((f.name, f"{name}.{f.name}") for f in fields(value))
        changed = [key for field, key in names if self.set(key, getattr(value, field))]
        if changed:
            self.changed((name,))
        return bool(changed)

    def get(self, key: Hashable, reads: tuple[str, ...] | None, compute: Callable[..., Any], *args: Any,
            cutoff: Callable[[Any, Any], bool] | None = None) -> Any:
        """``compute(*args)``, or the value kept under ``key`` while none of the inputs it was
        computed from changed: ``reads``, and what the kept values it used in turn read (the
        cost section reads the layout only when it prices the routed cable schedule).
        ``reads`` None: computed every time. ``cutoff(kept, new)``: whether a value computed
        again is the kept one for what reads it: then it is no change (the kept value is
        returned)."""
        kept = self._kept.get(key)
        if reads is not None and kept is not None and tuple(map(self._versions.__getitem__, kept[0])) == kept[1]:
            self._read(kept[0])
            return kept[2]
        self._reading.append(set(reads or ()))
        try:
            value = compute(*args)
        finally:
            read = self._reading.pop()
        same = cutoff is not None and kept is not None and cutoff(kept[2], value)
        if same:
            value = kept[2]
        if reads is not None:
            names = tuple(read)
            self._kept[key] = (names, tuple(map(self._versions.__getitem__, names)), value)
        if not same:
            self.changed((key,))
        self._read(read)
        return value

    def reads(self, key: Hashable) -> set[Hashable]:
        """The inputs the value kept under ``key`` was computed from."""
        return set(self._kept[key][0])

    def _read(self, inputs: Iterable[Hashable]) -> None:
        if self._reading:
            self._reading[-1].update(inputs)
