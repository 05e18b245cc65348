"""What the spares cost: the hot spares placed (already lines of the bill of materials, as the
nodes they are) and the spares stocked, a line of their own.

A spare is the unit the vendor swaps (``reliability.spares_stocked``): a compute tray of a
rack-scale system, priced as the catalog's tray of that system (same rack type and GPU, the
system's GPUs over its trays), or, with none in the catalog, as the system's price over its
trays; else a node of the plan's node type, at its price.
"""

from __future__ import annotations

from planner.costs.bom import BomLine
from planner.hardware.catalog import CATEGORY_TITLES, Catalog, DeviceType
from planner.hardware.nodes import summarise_nodes
from planner.settings.reliability import ReliabilitySettings

SPARES = "spares"  # the stocked spares' line (``BomLine.part_kind``; not a kind the bill of parts counts)


def compute_tray(system: DeviceType, catalog: Catalog) -> DeviceType | None:
    """The catalog's compute tray of a rack-scale ``system``: a GPU device of its rack type,
    with its GPU, holding its GPUs over its trays; None if the catalog has none."""
    per_tray = system.gpus // system.hosts
    for d in catalog:
        if (d.gpu is not None and not d.is_rack_scale and d.rack_type == system.rack_type
                and d.gpu.model == system.gpu.model and d.gpus == per_tray):
            return d
    return None


def stocked_spares_line(counts: dict[str, int], catalog: Catalog, rel: ReliabilitySettings) -> BomLine | None:
    """The bill of materials' line for the spares stocked, None when none are."""
    device = catalog.get(summarise_nodes(counts, catalog).node_device)
    if not rel.spares_stocked or device is None:
        return None
    category = CATEGORY_TITLES["gpu_server"]
    if not device.is_rack_scale:
        return BomLine(category, "Spare nodes (stocked, not placed)", device.model, rel.spares_stocked,
                       device.price_usd, device.price_source or f"catalog entry '{device.id}'", part_kind=SPARES,
                       part_id=device.id)
    tray = compute_tray(device, catalog)
    if tray is not None:
        return BomLine(category, "Spare compute trays (stocked, not placed)", tray.model, rel.spares_stocked,
                       tray.price_usd, tray.price_source or f"catalog entry '{tray.id}'", part_kind=SPARES,
                       part_id=tray.id)
    return BomLine(category, "Spare compute trays (stocked, not placed)", f"{device.model} compute tray",
                   rel.spares_stocked, device.price_usd / device.hosts,
                   f"{device.model}'s price over its {device.hosts} compute trays (the catalog has no tray of it)",
                   part_kind=SPARES)


def spares_usd(lines: list[BomLine], counts: dict[str, int], catalog: Catalog,
               rel: ReliabilitySettings) -> dict[str, float]:
    """The spares' cost: the hot spares placed (at their node type's unit price in ``lines``)
    and those stocked (their line)."""
    device = summarise_nodes(counts, catalog).node_device
    unit = next((line.unit_usd for line in lines if line.part_id == device and line.part_kind != SPARES), 0.0)
    stocked = sum(line.total_usd for line in lines if line.part_kind == SPARES)
    return {"hot": round(rel.spare_nodes * unit, 2), "stocked": round(stocked, 2)}
