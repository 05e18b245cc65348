"""The report's network section: fabric sizing against the switches placed in racks, the
training workload on that fabric, and the comparison over every fabric technology."""

from __future__ import annotations

from typing import Any

from planner.network.fabric import FabricSize, FabricSizingError, plan_fabric
from planner.network.checks import design_findings, port_findings, summarise_nodes, switch_findings
from planner.report.model import Finding
from planner.workload.section import workload_outcome


def evaluate_network(ctx) -> tuple[dict[str, Any] | None, list[Finding]]:
    fabric = ctx.plan.settings.fabric
    workload = ctx.plan.settings.workload
    catalog = ctx.catalog
    findings: list[Finding] = []
    nodes = summarise_nodes(ctx.counts, catalog)
    switch = catalog.get(fabric.switch_device)
    size: FabricSize | None = None
    if switch is None or switch.switch is None:
        findings.append(Finding("error", "network.switch.unknown_model",
                                f"Fabric switch model '{fabric.switch_device}' is not a switch in the catalog"))
    else:
        findings += switch_findings(fabric, switch, nodes)
        try:
            size = plan_fabric(ctx.counts, catalog, fabric)
        except FabricSizingError as exc:
            findings.append(Finding("error", "network.fabric.too_large", str(exc)))
    placed_switches = ctx.counts.get(fabric.switch_device, 0)
    placed_ports = placed_switches * switch.switch.ports if switch is not None and switch.switch else 0
    if size is not None and size.endpoints and nodes.nodes > 1:
        findings += port_findings(size, switch, placed_switches)
    findings += design_findings(fabric, workload, nodes, size, switch)
    figures = workload_outcome(ctx, nodes).network

    section: dict[str, Any] = {
        "fabric": fabric.technology,
        "topology": fabric.topology,
        "switch_model": fabric.switch_device,
        "tiers": size.tiers if size else 0,
        "leaf_switches": size.leaf_switches if size else 0,
        "spine_switches": size.spine_switches if size else 0,
        "core_switches": size.core_switches if size else 0,
        "switch_ports_needed": size.ports_needed if size else 0,
        "switch_ports_placed": placed_ports,
        "switch_ports_cabled": size.ports_cabled if size else 0,
        "oversubscription": fabric.oversubscription,
        "cables": size.cables if size else 0,
        "transceivers": 2 * size.cables if size else 0,
        "cables_per_tier": size.cables_by_tier() if size else {"node-leaf": 0, "leaf-spine": 0, "spine-core": 0},
        "transceivers_per_tier": size.transceivers_by_tier() if size else
        {"node-leaf": 0, "leaf-spine": 0, "spine-core": 0},
        "sharp": fabric.sharp,
    }
    section.update(figures)
    section["sizing"] = size.to_json() if size else None
    return section, findings

