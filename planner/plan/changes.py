"""Change sets: what a command touched, so evaluation and views redo only that."""

from __future__ import annotations

from dataclasses import dataclass

# Settings sections whose change alters every rack's figures or findings.
_RACK_WIDE_SECTIONS = frozenset({"facility", "power", "floor"})


@dataclass(frozen=True, slots=True)
class ChangeSet:
    racks: frozenset[str] = frozenset()
    """Racks whose contents or properties changed, including racks added or removed."""
    devices: frozenset[str] = frozenset()
    """Placements added, moved, edited or removed."""
    settings: frozenset[str] = frozenset()
    """Settings sections changed (e.g. 'facility', 'fabric')."""
    structure: bool = False
    """Racks were added, removed or reordered."""
    catalog: bool = False
    """The catalog changed: everything is re-evaluated."""
    plan: bool = False
    """Plan-level fields (name, description) changed."""
    campus: bool = False
    """The buildings or halls changed (``Plan.buildings``): every rack's hall figures are redone."""

    @property
    def needs_full(self) -> bool:
        return self.catalog or self.campus or bool(self.settings & _RACK_WIDE_SECTIONS)

    def __or__(self, other: ChangeSet) -> ChangeSet:
        return ChangeSet(
            racks=self.racks | other.racks,
            devices=self.devices | other.devices,
            settings=self.settings | other.settings,
            structure=self.structure or other.structure,
            catalog=self.catalog or other.catalog,
            plan=self.plan or other.plan,
            campus=self.campus or other.campus,
        )

    @property
    def empty(self) -> bool:
        return not (self.racks or self.devices or self.settings or self.structure or self.catalog or self.plan
                    or self.campus)


EVERYTHING = ChangeSet(catalog=True, structure=True, plan=True)
