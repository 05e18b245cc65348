"""The report's network section: fabric sizing against the switches placed in racks."""

from __future__ import annotations

from typing import Any

from planner.network import FabricSizingError, plan_fabric
from planner.report import Finding


def evaluate_network(ctx) -> tuple[dict[str, Any] | None, list[Finding]]:
    fabric = ctx.plan.settings.fabric
    catalog = ctx.catalog
    findings: list[Finding] = []
    switch = catalog.get(fabric.switch_device)
    if switch is None or switch.switch is None:
        findings.append(Finding("error", "network.switch.unknown_model",
                                f"Fabric switch model '{fabric.switch_device}' is not a switch in the catalog"))
        return None, findings
    try:
        size = plan_fabric(ctx.counts, catalog, fabric)
    except FabricSizingError as exc:
        findings.append(Finding("error", "network.fabric.too_large", str(exc)))
        return None, findings
    placed_ports = 0
    for device_id, n in ctx.counts.items():
        d = catalog.get(device_id)
        if d is not None and d.switch is not None and device_id == fabric.switch_device:
            placed_ports += n * d.switch.ports
    needed = size.ports_needed if size else 0
    if size and size.endpoints:
        if placed_ports < needed:
            missing = needed - placed_ports
            findings.append(Finding(
                "error", "network.ports.short",
                f"The compute fabric needs {needed} switch ports ({size.switches} x {switch.model}); "
                f"{placed_ports} are placed: {missing} ports missing"))
        elif placed_ports > needed:
            findings.append(Finding("info", "network.ports.spare",
                                    f"{placed_ports - needed} fabric switch ports spare ({placed_ports} placed, {needed} needed)"))
    section = {
        "fabric": fabric.technology,
        "topology": fabric.topology,
        "switch_model": fabric.switch_device,
        "leaf_switches": size.leaf_switches if size else 0,
        "spine_switches": size.spine_switches if size else 0,
        "core_switches": size.core_switches if size else 0,
        "tiers": size.tiers if size else 0,
        "switch_ports_needed": needed,
        "switch_ports_placed": placed_ports,
        "oversubscription": fabric.oversubscription,
        "cables": size.cables if size else 0,
        "transceivers": 2 * size.cables if size else 0,
        "sizing": size.to_json() if size else None,
    }
    return section, findings
