"""The evaluator's one memo: results kept from one evaluation to the next, each under the
versions of the inputs it declared it reads.

Inputs are named:

- ``"counts"``: the device counts by type; ``"totals"``: the report's totals (the evaluator
  compares each with the last evaluation's and counts a change when they differ);
- ``"layout"``: the racks and where each device is (a change set's racks, devices or
  structure);
- ``"settings.<section>"``: one settings section, as change sets name them (a plan's
  price overrides are ``"settings.costs"``: importing prices says so);
- ``"plan"``: the plan's name and information;
- any kept entry's key: a report section by its name (an entry recomputed is a changed
  input to whatever reads it).

The catalog is read by everything: a change to it is a full evaluation, which starts with
an empty memo.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from planner.plan.changes import ChangeSet

_UNSET = object()


class Memo:
    def __init__(self) -> None:
        self._versions: dict[Hashable, int] = {}
        self._values: dict[str, Any] = {}
        self._kept: dict[Hashable, tuple[tuple[int, ...], Any]] = {}

    def changed(self, inputs: Iterable[Hashable]) -> None:
        for name in inputs:
            self._versions[name] = self._versions.get(name, 0) + 1

    def note(self, changes: ChangeSet) -> None:
        """The inputs a change set names have changed."""
        self.changed(f"settings.{s}" for s in changes.settings)
        if changes.racks or changes.devices or changes.structure:
            self.changed(("layout",))
        if changes.plan:
            self.changed(("plan",))

    def set(self, name: str, value: Any) -> None:
        """An input the evaluator works out (the counts, the totals): changed when it differs
        from the last value set."""
        if self._values.get(name, _UNSET) != value:
            self._values[name] = value
            self.changed((name,))

    def get(self, key: Hashable, reads: tuple[str, ...] | None, compute: Callable[..., Any], *args: Any) -> Any:
        """``compute(*args)``, or the value kept under ``key`` if none of ``reads`` changed
        since it was computed (``reads`` None: computed every time)."""
        stamp = () if reads is None else tuple(self._versions.get(r, 0) for r in reads)
        kept = self._kept.get(key)
        if reads is not None and kept is not None and kept[0] == stamp:
            return kept[1]
        value = compute(*args)
        self._kept[key] = (stamp, value)
        self.changed((key,))
        return value
