"""The ports each network takes at the placed devices, counted once for the design (the
switches it adds), the cable schedule (the links it wires), the NetBox export (the
interfaces it lists) and the cost (the optics at each end).

- Management: one 1 GbE out-of-band port (BMC) on every powered device but the management
  switches themselves; a 0 W device (a patch panel, a blank, a PDU's strip) has none.
- Storage: a storage appliance's every NIC port, any other device's storage NICs' ports; a
  storage network those ports outgrow one switch of is a leaf-spine (``storage_network``),
  sized as a compute fabric without rails at the storage network's oversubscription.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from planner.hardware.catalog import Catalog, DeviceType, NicBlock
from planner.network.fabric import FabricSize, FabricSizingError, size_fabric

MANAGEMENT_SWITCHES = ("mgmt-1g-48",)
MANAGEMENT_GBPS = 1.0
MANAGEMENT_PORTS = 48  # the 48 x 1 GbE management switch's ports


def has_management_port(device: DeviceType) -> bool:
    """Whether ``device`` takes a management-switch port: powered, and not a management switch."""
    return device.power_max_w > 0 and device.id not in MANAGEMENT_SWITCHES


def management_switches_needed(devices: Mapping[str, int], catalog: Catalog) -> int:
    """Management switches for ``devices`` (device id -> placed): a port each device that has
    one (``has_management_port``), ``MANAGEMENT_PORTS`` a switch."""
    ports = sum(n for device_id, n in devices.items()
                if (d := catalog.get(device_id)) is not None and has_management_port(d))
    return math.ceil(ports / MANAGEMENT_PORTS)


def storage_network_nics(device: DeviceType) -> tuple[NicBlock, ...]:
    """The NICs ``device`` has on the storage network: a storage appliance's all, else its
    storage NICs."""
    return device.nics if device.category == "storage" else device.storage_nics()


def storage_ports(devices: Mapping[str, int], catalog: Catalog) -> int:
    """Storage-network ports of ``devices`` (device id -> placed)."""
    return sum(n * sum(nic.count for nic in storage_network_nics(d)) for device_id, n in devices.items()
               if (d := catalog.get(device_id)) is not None)


def storage_network(ports: int, radix: int, oversubscription: float) -> FabricSize | None:
    """The storage network for ``ports`` storage ports on switches of ``radix`` ports: one
    switch while they fit, else leaves taking ``radix x r / (r + 1)`` of them each and joined
    by spines (by core switches past two tiers), as ``size_fabric`` sizes a fabric without
    rails. ``oversubscription``: the storage network's r. None: more ports than three tiers of
    such switches hold (the check says so, ``planner.network.checks``)."""
    try:
        return size_fabric(ports, 1, radix, topology="leaf_spine", oversubscription=oversubscription)
    except FabricSizingError:
        return None


def storage_switches_needed(ports: int, radix: int, oversubscription: float) -> int:
    """The switches of ``storage_network``: its leaves, spines and cores; beyond three tiers,
    the ports' worth of switches (what takes them, unjoined)."""
    size = storage_network(ports, radix, oversubscription)
    if size is None:
        return math.ceil(ports / radix)
    return size.leaf_switches + size.spine_switches + size.core_switches


class HallStorage(NamedTuple):
    """A hall's storage network (``hall_storage_networks``)."""

    ports: int  # the hall's storage ports
    size: FabricSize | None  # ``storage_network`` of them
    switches: int  # the storage switch model's devices placed in the hall
    racks: int  # the hall's racks and their footprint (where the cost estimate runs its links)
    footprint_mm2: int


def hall_storage_networks(halls: Mapping[str, Any], catalog: Catalog, switch: DeviceType,
                          oversubscription: float) -> dict[str, HallStorage]:
    """Each hall's storage network, as the design places it (a hall's storage ports on its own
    switches), by hall id. ``halls``: each hall's sums (``planner.facility.rack_sums``: its
    device counts, racks and footprint)."""
    return {hall_id: HallStorage(ports := storage_ports(sums.counts, catalog),
                                 storage_network(ports, switch.switch.ports, oversubscription),
                                 sums.counts.get(switch.id, 0), sums.racks, sums.footprint_mm2)
            for hall_id, sums in halls.items()}


class HallTrunks(NamedTuple):
    """A hall's storage leaf-spine as its cost estimate reads it (``storage_trunks``)."""

    links: int  # its switch-to-switch links
    switches: int  # its leaves, spines and cores
    racks: int  # the hall's racks and their footprint
    footprint_mm2: int


def storage_trunks(networks: Mapping[str, HallStorage] | None) -> dict[str, HallTrunks]:
    """Of each hall's storage network, those whose switches are joined (a leaf-spine), by hall
    id: what the cost estimate of their switch-to-switch runs reads (the evaluator's memo input
    "storage trunks"). It reads the switches the network needs, not where the placed ones
    stand, so that only a change of a hall's leaves or spines (a few of the storage ports
    moved between halls) or of its racks reprices them, not each drop of a switch."""
    out = {}
    for h, n in (networks or {}).items():
        size = n.size
        links = size.leaf_spine_links + size.spine_core_links if size is not None else 0
        if links:
            out[h] = HallTrunks(links, size.leaf_switches + size.spine_switches + size.core_switches, n.racks,
                                n.footprint_mm2)
    return out
