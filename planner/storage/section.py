"""The report's storage section and the storage findings of N. Dixit, "The GPU Cluster That
Actually Works for Deep Learning in 2026", SIVARO."""

from __future__ import annotations

from dataclasses import dataclass

from planner.figures import Figures, figure
from planner.findings import Finding
from planner.numbers import counted
from planner.settings import GUIDE
from planner.storage.sizing import (
    checkpoint_write_s, fastest_storage_nic_gbps, model_checkpoint_gb, node_storage_gbs, storage_switch_of,
    storage_totals,
)
from planner.workload.section import plan_job_nodes


@dataclass(frozen=True, slots=True)
class StorageSection(Figures):
    storage_devices: int = figure(0, title="Storage appliances")
    capacity_tb: float = figure(0.0, title="Capacity", unit="TB")
    write_gbs: float = figure(0.0, title="Filesystem write bandwidth", unit="GB/s")
    read_gbs: float = figure(0.0, title="Filesystem read bandwidth", unit="GB/s")
    node_storage_gbs: float | None = figure(None, title="Storage bandwidth per node (NICs and switch ports)",
                                            unit="GB/s")
    checkpoint_gb: float | None = figure(None, title="Checkpoint size", unit="GB")
    checkpoint_write_s: float | None = figure(None, title="Checkpoint write time", unit="s")
    checkpoint_stall_pct: float | None = figure(
        None, title="Checkpoint write (share of the interval set)", unit="%",
        none="no interval set (automatic: Goodput gives the time writes block the job)",
        description="The write time over a checkpoint interval set in the storage settings; with the automatic "
        "interval (Young's, from the failure rate) the goodput section gives the time the job is blocked")
    write_gbs_per_node: float | None = figure(None, title="Checkpoint write, one node alone", unit="GB/s")
    write_gbs_per_node_all_writing: float | None = figure(
        None, title="Checkpoint write per node, all nodes at once", unit="GB/s")
    hosts: int = figure(0, title="Hosts writing checkpoints",
                        description="The servers that each write their shard of a checkpoint: an 8-GPU node one, "
                        "a rack-scale system one per compute tray (an NVL72: 18); the job's, not its hot spares")
    write_gbs_per_host_all_writing: float | None = figure(
        None, title="Checkpoint write per host, all hosts at once", unit="GB/s",
        description="The filesystem's write shared by every host writing at once, or a host's share of its "
        "system's storage links: what the guide's 10 GB/s per node is judged on (a node is a host: a "
        "rack-scale system's compute tray)")
    storage_oversubscription: float = figure(
        1.0, title="Storage network oversubscription, all hosts writing", unit=":1",
        description="What a host's storage links are shared by when every host writes at once: the storage "
        "network's oversubscription where it is a leaf-spine (its ports outgrow one switch), else 1")


def storage_switch(ctx):
    """The switch the nodes reach storage through (``storage_switch_of``)."""
    return storage_switch_of(ctx.plan, ctx.catalog)


def storage_oversubscription(ctx) -> float:
    """What a node's storage links are shared by when every node writes at once: the storage
    network's oversubscription where a hall's storage ports outgrow one switch (its network a
    leaf-spine, ``planner.network.ports``), else 1. Storage on the compute fabric: 1 (its links
    are the fabric's)."""
    networks = ctx.storage_networks  # the memo input "storage networks", among the section's reads
    if not networks or not any(n.ports and (n.size is None or n.size.tiers >= 2) for n in networks.values()):
        return 1.0
    return ctx.plan.settings.fabric.storage_oversubscription


def evaluate_storage(ctx) -> tuple[StorageSection, list[Finding]]:
    settings = ctx.plan.settings
    st, workload = settings.storage, settings.workload
    findings: list[Finding] = []
    totals = storage_totals(ctx.counts, ctx.catalog)
    # the writers: the job's nodes, not its hot spares (idle until one takes a failed node's place)
    summary = plan_job_nodes(ctx)
    nodes = summary.nodes
    shared = settings.fabric.storage_fabric == "shared"
    switch = storage_switch(ctx)
    port = switch.switch.gbps_per_port if switch is not None else None
    fastest = fastest_storage_nic_gbps(ctx.counts, ctx.catalog, shared)
    if totals.devices and switch is not None and fastest is not None and fastest > port:
        where = "storage switch" if not shared else "compute fabric switch (storage shares the fabric)"
        findings.append(Finding(
            "error", "storage.nic.faster_than_switch",
            f"Storage NICs run at {fastest:g} Gb/s but the {where} {switch.model} ports carry {port:g} Gb/s: the "
            f"links train down to {port:g} Gb/s and the NICs' bandwidth is lost; choose a {fastest:g} Gb/s storage "
            f"switch"))
    per_node = st.node_storage_gbs
    if per_node is None:
        per_node = node_storage_gbs(ctx.counts, ctx.catalog, shared, port)
    over = storage_oversubscription(ctx)
    training = workload.enabled and ctx.totals.gpus > 0
    size = model_checkpoint_gb(workload, st) if training else None
    # the guide's rule is a node's: a host writing its shard (an NVL72's compute tray, which
    # MLCommons system descriptions call a "4-GPU node"), not the rack-scale system whole
    hosts = summary.hosts if nodes else 0
    write_s = stall_pct = alone = together = per_host_together = None
    if totals.devices and per_node is not None and nodes:
        alone = min(per_node, totals.write_gbs)
        together = min(totals.write_gbs, nodes * per_node / over) / nodes
        per_host_together = together * nodes / hosts if hosts else together
        if size is not None:
            write_s = checkpoint_write_s(size, totals.write_gbs, nodes, per_node / over)
    if training and write_s is not None:
        # a fixed interval only; the automatic one follows the failure rate (the goodput section)
        if st.checkpoint_interval_min is not None:
            stall_pct = 100.0 * write_s / (st.checkpoint_interval_min * 60.0)
        if per_host_together is not None and per_host_together < st.min_write_gbs_per_node:
            trays = hosts > nodes
            # every host a compute tray only when every node is a rack-scale system of the
            # summary's kind; a plan that mixes them with 8-GPU servers has hosts of both
            mixed = trays and hosts != nodes * summary.hosts_per_node
            host = "host" if mixed else "compute tray" if trays else "node"
            shared_up = f" at the storage network's {over:g}:1 oversubscription" if over > 1 else ""
            if totals.write_gbs < nodes * per_node / over:
                limit = f"the filesystem's {totals.write_gbs:,.0f} GB/s write shared by {counted(hosts, host)}"
            elif trays:
                limit = f"each {host}'s share of its system's {per_node:,.1f} GB/s storage links{shared_up}"
            else:
                limit = f"each node's {per_node:,.1f} GB/s storage links{shared_up}"
            rate = (f"{per_host_together:,.1f}" if per_host_together >= 1
                    else f"{per_host_together:.2g}")  # 0.013, not 0.0
            findings.append(Finding(
                "warning", "storage.write.slow_per_node",
                f"With every {host} checkpointing at once (DDP/FSDP), a {host} writes at {rate} GB/s "
                f"({limit}), below the {st.min_write_gbs_per_node:g} GB/s per node of {GUIDE} ('if checkpoint writes "
                f"are slower than 10 GB/s per node, fix storage'): add filesystem write bandwidth"))
        if stall_pct is not None and stall_pct > st.max_stall_pct:
            findings.append(Finding(
                "warning", "storage.checkpoint.stall",
                f"Writing a {size:,.0f} GB checkpoint takes {write_s:,.0f} s, {stall_pct:.1f}% of the "
                f"{st.checkpoint_interval_min:g}-minute interval (limit {st.max_stall_pct:g}%): the GPUs wait; add "
                f"filesystem write bandwidth or checkpoint less often"))
    if training and totals.devices and not st.separate_checkpoint_pool:
        findings.append(Finding(
            "warning", "storage.pools.shared",
            f"Checkpoints and datasets share one pool: checkpoint writes block dataset reads. {GUIDE}: "
            "'Separating checkpoint and dataset paths means checkpoint writes don't block dataset reads.'"))
    if training and not totals.devices:
        findings.append(Finding(
            "info", "storage.none",
            f"No parallel filesystem placed: {size:,.0f} GB checkpoints go to the nodes' local disks"))
    section = StorageSection(
        storage_devices=totals.devices,
        capacity_tb=round(totals.capacity_tb, 3),
        write_gbs=round(totals.write_gbs, 3),
        read_gbs=round(totals.read_gbs, 3),
        node_storage_gbs=per_node,
        checkpoint_gb=_round(size),
        checkpoint_write_s=_round(write_s),
        checkpoint_stall_pct=_round(stall_pct),
        write_gbs_per_node=_round(alone),
        write_gbs_per_node_all_writing=_round(together),
        hosts=hosts,
        write_gbs_per_host_all_writing=_round(per_host_together),
        storage_oversubscription=over,
    )
    return section, findings


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)
