"""The report's network section: fabric sizing against the switches placed in racks, the
training workload on that fabric, and the comparison over every fabric technology.

It reads the fabric (``planner.network``) and the workload model (``planner.workload``),
which itself runs on the fabric's technologies and collectives, so it sits in the report,
above both.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, replace

from planner.costs.section import plan_cabling
from planner.figures import Figures, detail, figure
from planner.findings import Finding
from planner.network.checks import (design_findings, fabric_switches_placed, nic_rate_findings, no_nic_findings,
                                    port_findings, storage_switch_findings, switch_findings, unused_switch_findings)
from planner.network.fabric import FabricSize, FabricSizingError, plan_fabric
from planner.workload.checks import WorkloadOutcome, evaluate_workload
from planner.workload.models import model_shape
from planner.workload.section import plan_job_nodes, plan_nodes

NO_TIERS = {"node-leaf": 0, "leaf-spine": 0, "spine-core": 0}


@dataclass(frozen=True, slots=True)
class FabricRow(Figures):
    """The plan's workload on one fabric technology (a row of the comparison)."""

    fabric: str = figure(title="Fabric", unit="name")
    sharp: bool = figure(title="SHARP", unit="name")
    allreduce_ms: float = figure(title="All-reduce", unit="ms")
    effective_bandwidth_gbs: float | None = figure(title="Effective per GPU", unit="GB/s")
    node_effective_bandwidth_gbs: float | None = figure(title="Effective per node", unit="GB/s")
    bus_bandwidth_gbs: float | None = figure(title="NCCL busbw per GPU", unit="GB/s")
    node_bus_bandwidth_gbs: float | None = figure(title="NCCL busbw per node", unit="GB/s")
    gpu_idle_pct: float = figure(title="GPU idle", unit="%")
    tokens_per_s: float = figure(title="Tokens/s", unit="tokens/s")
    mfu: float = figure(0.0, title="End-to-end MFU", unit="fraction")
    title: str = figure("", title="Fabric", unit="name")
    line_rate_gbps: float = figure(0.0, title="Line rate", unit="Gb/s")


@dataclass(frozen=True, slots=True)
class ScalingPoint(Figures):
    """One point of the scaling curve: the data-parallel width grown at fixed TP and PP."""

    gpus: int = figure(title="GPUs")
    speedup: float = figure(title="Speedup vs 1 GPU", unit="x")
    efficiency: float = figure(title="Scaling efficiency", unit="fraction")
    plan: bool = figure(title="The plan's size", unit="yes/no")
    mfu: float = figure(0.0, title="End-to-end MFU", unit="fraction")


@dataclass(frozen=True, slots=True)
class NetworkSection(Figures):
    fabric: str = figure(title="Compute fabric", unit="name")
    topology: str = figure(title="Topology", unit="name")
    switch_model: str = figure(title="Fabric switch", unit="name")
    tiers: int = figure(0, title="Switch tiers")
    leaf_switches: int = figure(0, title="Leaf switches")
    spine_switches: int = figure(0, title="Spine switches")
    core_switches: int = figure(0, title="Core switches")
    switch_ports_needed: int = figure(0, title="Switch ports needed")
    switch_ports_placed: int = figure(0, title="Switch ports placed")
    switch_ports_cabled: int = figure(0, title="Switch ports cabled")
    oversubscription: float = figure(1.0, title="Leaf oversubscription (down:up)", unit=":1")
    cables: int = figure(0, title="Fabric cables")
    # the fabric's optics as the bill of materials buys them (``planner.costs.section.Cabling``):
    # modules at both ends of each fibre run, a twin-port module for two links, none on copper
    transceivers: int = figure(0, title="Transceivers (fabric modules bought)")
    cables_per_tier: dict[str, int] = figure(title="Cables per tier", factory=lambda: dict(NO_TIERS))
    transceivers_per_tier: dict[str, int] = figure(title="Transceivers per tier", factory=lambda: dict(NO_TIERS))
    optical_links: int = figure(0, title="Fabric links on fibre or active optical cable")
    copper_links: int = figure(0, title="Fabric links on copper (DAC, ACC)")
    transceivers_estimated: bool = figure(
        False, title="Optics estimated per fabric tier, not routed", unit="name",
        description="On: the plan has more links than the planner routes on each edit, so the optics are "
        "counted per fabric tier (node-to-leaf as the cost setting says, the rest optical); "
        "cluster-planner cables routes every link")
    sharp: bool = figure(False, title="SHARP in-network reduction", unit="name")
    allreduce_ms: float | None = figure(None, title="Gradient all-reduce per step", unit="ms")
    effective_bandwidth_gbs: float | None = figure(None, title="Gradient all-reduce, bytes sent / time, per GPU",
                                                   unit="GB/s")
    node_effective_bandwidth_gbs: float | None = figure(None, title="Gradient all-reduce, bytes sent / time, per node",
                                                        unit="GB/s")
    bus_bandwidth_gbs: float | None = figure(None, title="Gradient all-reduce, NCCL busbw per GPU", unit="GB/s")
    node_bus_bandwidth_gbs: float | None = figure(None, title="Gradient all-reduce, NCCL busbw per node",
                                                  unit="GB/s")
    compute_ms: float | None = figure(None, title="Compute per step", unit="ms")
    exposed_comm_ms: float | None = figure(None, title="Communication not hidden, per step", unit="ms")
    step_ms: float | None = figure(None, title="Step time", unit="ms")
    gpu_idle_pct: float | None = figure(None, title="GPUs idle waiting on communication", unit="%")
    tokens_per_s: float | None = figure(None, title="Training throughput", unit="tokens/s")
    tokens_per_s_limit: float | None = figure(None, title="Throughput at 100% of peak (limit)", unit="tokens/s")
    fabric_gb_per_gpu_step: float | None = figure(None, title="Fabric traffic per GPU per step", unit="GB")
    nvlink_gb_per_gpu_step: float | None = figure(None, title="NVLink / Infinity Fabric traffic per GPU per step",
                                                  unit="GB")
    scaling: tuple[ScalingPoint, ...] = figure((), title="Scaling with the data-parallel width")
    fabrics: tuple[FabricRow, ...] = figure((), title="Training on every fabric technology")
    sizing: FabricSize | None = figure(None, title="Fabric sizing")
    # the fabric the plan's nodes need (None: it cannot be sized); the cost section counts its cables
    size: FabricSize | None = detail()
    # the workload model on the plan's nodes; the workload section reads the rest of it
    workload: WorkloadOutcome | None = detail()


def evaluate_network(ctx) -> tuple[NetworkSection, list[Finding]]:
    """The fabric and the workload on it (kept while the counts and those settings stay), with
    the optics the cabling buys (``plan_cabling``, which the cost section prices)."""
    section, findings = ctx.memo.get("network fabric", NETWORK_READS, _fabric_and_workload, ctx)
    # the storage network's switches: a memo entry of their own, so a storage port moved between
    # halls (each hall's ports its own network) does not work out the fabric and workload again
    storage = ctx.memo.get("storage switch findings", ("storage networks", "counts", "settings.fabric"),
                           _storage_findings, ctx, section.size.switches if section.size is not None else 0)
    findings = findings + storage if storage else findings
    if section.size is None:
        return section, findings
    wired = plan_cabling(ctx, section.size)
    ctx.memo.get("fabric links", ("cabling",), _links, wired, cutoff=operator.eq)
    tiers = {tier: wired.modules_per_tier.get(tier, 0) for tier in NO_TIERS}
    return replace(section, transceivers=wired.modules, transceivers_per_tier=tiers,
                   optical_links=wired.optical_links, copper_links=wired.copper_links,
                   transceivers_estimated=wired.estimated), findings


NETWORK_READS = ("counts", "settings.fabric", "settings.workload", "settings.reliability")


def _storage_findings(ctx, fabric_switches: int) -> list[Finding]:
    """``storage_switch_findings`` of the plan's halls, by their names."""
    names = {h.id: f"{h.name} of {b.name}" if len(ctx.plan.buildings) > 1 else h.name
             for b in ctx.plan.buildings for h in b.halls}
    catalog = ctx.catalog
    has_storage = any(n and (d := catalog.get(i)) is not None and d.category == "storage" for i, n in ctx.counts.items())
    return storage_switch_findings(ctx.storage_networks, has_storage, names, catalog, ctx.plan.settings.fabric,
                                   fabric_switches)


def _links(wired) -> tuple[int, int]:
    """The fabric's links on fibre and on copper: a memo entry of their own (the network
    section's ``optical_links`` and ``copper_links``), changed only when they differ. A fabric
    switch moved to another hall re-counts a campus's core optics (two modules more or fewer)
    on the same links: what reads the links alone, not the modules (the goodput's job and
    curve, ``planner.goodput.section.CURVE_READS``), is kept. campus-1m: a third of random
    moves recomputed them, 0.6-0.9 ms each (CPU, 2-core machine, 2026-12-05)."""
    return wired.optical_links, wired.copper_links


def same_network(kept: tuple, new: tuple) -> bool:
    """Whether a network result computed again is the kept one for the sections that read it:
    the same fabric sizing and workload model (the kept objects: the dataclass equality skips
    them) and equal figures and findings, as after a drop that re-counts the optics alike."""
    (a, a_findings), (b, b_findings) = kept, new
    return a.size is b.size and a.workload is b.workload and a == b and a_findings == b_findings


def _fabric_and_workload(ctx) -> tuple[NetworkSection, list[Finding]]:
    fabric = ctx.plan.settings.fabric
    workload = ctx.plan.settings.workload
    catalog = ctx.catalog
    findings: list[Finding] = []
    nodes = plan_nodes(ctx)
    switch = catalog.get(fabric.switch_device)
    size: FabricSize | None = None
    if switch is None or switch.switch is None:
        findings.append(Finding("error", "network.switch.unknown_model",
                                f"Fabric switch model '{fabric.switch_device}' is not a switch in the catalog"))
    else:
        findings += switch_findings(fabric, switch, nodes, catalog)
        try:
            size = plan_fabric(ctx.counts, catalog, fabric)
        except FabricSizingError as exc:
            findings.append(Finding("error", "network.fabric.too_large", str(exc)))
    placed_switches = fabric_switches_placed(ctx.counts, catalog, fabric)
    placed_ports = placed_switches * switch.switch.ports if switch is not None and switch.switch else 0
    if size is not None and size.endpoints and nodes.nodes > 1:
        findings += port_findings(size, switch, placed_switches)
        findings += nic_rate_findings(ctx.counts, catalog, fabric, switch, nodes, size)
    halls = sum(len(b.halls) for b in ctx.plan.buildings) or 1
    findings += unused_switch_findings(ctx.counts, catalog, fabric, halls=halls)
    findings += design_findings(fabric, workload, nodes, size, switch, model_shape(workload).params / 1e9)
    # the job runs on the placed nodes less the hot spares kept idle
    job = plan_job_nodes(ctx)
    findings += no_nic_findings(fabric, workload, nodes, job.nodes)
    outcome = evaluate_workload(workload, fabric, job)
    figures = dict(outcome.network)
    scaling = tuple(ScalingPoint(**p) for p in figures.pop("scaling"))
    fabrics = tuple(FabricRow(**r) for r in figures.pop("fabrics"))
    sized = {}
    if size is not None:
        sized = dict(tiers=size.tiers, leaf_switches=size.leaf_switches, spine_switches=size.spine_switches,
                     core_switches=size.core_switches, switch_ports_needed=size.ports_needed,
                     switch_ports_cabled=size.ports_cabled, cables=size.cables, cables_per_tier=size.cables_by_tier())
    section = NetworkSection(
        fabric=fabric.technology, topology=fabric.topology, switch_model=fabric.switch_device,
        switch_ports_placed=placed_ports, oversubscription=fabric.oversubscription, sharp=fabric.sharp,
        scaling=scaling, fabrics=fabrics, sizing=size, size=size, workload=outcome, **sized, **figures)
    return section, findings
