"""The ports each network takes at the placed devices, counted once for the design (the
switches it adds), the cable schedule (the links it wires), the NetBox export (the
interfaces it lists) and the cost (the optics at each end).

- Management: one 1 GbE out-of-band port (BMC) on every powered device but the management
  switches themselves; a 0 W device (a patch panel, a blank, a PDU's strip) has none.
- Storage: a storage appliance's every NIC port, any other device's storage NICs' ports.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from planner.hardware.catalog import Catalog, DeviceType, NicBlock

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
