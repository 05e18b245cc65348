"""Rack types and rack-scale systems on the floor.

A rack built from a catalog rack type takes that type's height, footprint, load rating,
cooling and power cap (a conventional rack keeps the plan's default cap, the 30 kW of
N. Dixit, "The GPU Cluster That Actually Works for Deep Learning in 2026", SIVARO). A rack-scale system (an NVL72) is dropped onto the floor as a whole: one edit makes
a rack of the system's own rack type and puts the system in it, or the system is assembled
tray by tray into a rack of that type.
"""

from __future__ import annotations

from typing import Any

from planner.hardware.catalog import Catalog
from planner.plan.commands import AddDevice, AddRack, CommandError, Macro, _device_type, next_rack_name
from planner.plan.model import Plan


def rack_type_fields(plan: Plan, catalog: Catalog, rack_type_id: str) -> dict[str, Any]:
    """The fields a rack of the catalog's ``rack_type_id`` starts with; CommandError if unknown."""
    rt = catalog.rack_type(rack_type_id)
    if rt is None:
        raise CommandError(f"the catalog has no rack type '{rack_type_id}'")
    return rt.rack_fields(plan.settings.facility.default_rack_cap_kw)


def add_rack_of_type(plan: Plan, catalog: Catalog, rack_type_id: str, name: str | None = None,
                     index: int | None = None) -> AddRack:
    """An AddRack command for a rack of the given type (not yet done)."""
    return AddRack(name, index=index, **rack_type_fields(plan, catalog, rack_type_id))


class PlaceRackScaleSystem(Macro):
    """Drop a whole rack-scale system onto the floor: a new rack of its rack type with the
    system in it from U1, as one undo step."""

    def __init__(self, device: str, name: str | None = None, index: int | None = None, label: str = ""):
        super().__init__(f"Add {device} rack", [])
        self.device, self.name, self.index, self.label_text = device, name, index, label

    def do(self, plan, catalog):
        if not self.commands:
            d = _device_type(catalog, self.device)
            if not d.is_rack_scale or d.rack_type is None:
                raise CommandError(f"{d.model} is not a rack-scale system: drop it into a rack")
            self._label = f"Add {d.title}"
            add = add_rack_of_type(plan, catalog, d.rack_type, self.name or next_rack_name(plan, "NVL"), self.index)
            add.rack_id = plan.new_id("r")
            self.commands = [add, AddDevice(d.id, add.rack_id, 1, label=self.label_text)]
        return super().do(plan, catalog)
