"""The report's storage section and the guide's storage findings."""

from __future__ import annotations

from typing import Any

from planner.report.model import Finding
from planner.storage.sizing import (
    checkpoint_gb, checkpoint_write_s, fastest_storage_nic_gbps, node_storage_gbs, storage_totals,
)


def storage_switch(ctx):
    """The switch the nodes reach storage through: the storage switch model on a separate
    storage network, the compute fabric switch when storage shares it (None: unknown)."""
    fabric = ctx.plan.settings.fabric
    device_id = fabric.storage_switch_device if fabric.storage_fabric == "separate" else fabric.switch_device
    device = ctx.catalog.get(device_id)
    return device if device is not None and device.switch is not None else None


def evaluate_storage(ctx) -> tuple[dict[str, Any], list[Finding]]:
    settings = ctx.plan.settings
    st, workload = settings.storage, settings.workload
    findings: list[Finding] = []
    totals = storage_totals(ctx.counts, ctx.catalog)
    nodes = ctx.totals.nodes
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
    training = workload.enabled and ctx.totals.gpus > 0
    size = checkpoint_gb(workload.model_params_b, st.checkpoint_bytes_per_param) if training else None
    write_s = stall_pct = alone = together = None
    if totals.devices and per_node is not None and nodes:
        alone = min(per_node, totals.write_gbs)
        together = min(totals.write_gbs, nodes * per_node) / nodes
        if size is not None:
            write_s = checkpoint_write_s(size, totals.write_gbs, nodes, per_node)
    if training and write_s is not None:
        stall_pct = 100.0 * write_s / (st.checkpoint_interval_min * 60.0)
        if together is not None and together < st.min_write_gbs_per_node:
            limit = (f"the filesystem's {totals.write_gbs:,.0f} GB/s write shared by {nodes:,} nodes"
                     if totals.write_gbs < nodes * per_node else f"each node's {per_node:,.1f} GB/s storage links")
            findings.append(Finding(
                "warning", "storage.write.slow_per_node",
                f"With every node checkpointing at once (DDP/FSDP), a node writes at {together:,.1f} GB/s "
                f"({limit}), below the guide's {st.min_write_gbs_per_node:g} GB/s per node ('if checkpoint writes "
                f"are slower than 10 GB/s per node, fix storage'): add filesystem write bandwidth"))
        if stall_pct > st.max_stall_pct:
            findings.append(Finding(
                "warning", "storage.checkpoint.stall",
                f"Writing a {size:,.0f} GB checkpoint takes {write_s:,.0f} s, {stall_pct:.1f}% of the "
                f"{st.checkpoint_interval_min:g}-minute interval (limit {st.max_stall_pct:g}%): the GPUs wait; add "
                f"filesystem write bandwidth or checkpoint less often"))
    if training and totals.devices and not st.separate_checkpoint_pool:
        findings.append(Finding(
            "warning", "storage.pools.shared",
            "Checkpoints and datasets share one pool: checkpoint writes block dataset reads. The guide: "
            "'Separating checkpoint and dataset paths means checkpoint writes don't block dataset reads.'"))
    if training and not totals.devices:
        findings.append(Finding(
            "info", "storage.none",
            f"No parallel filesystem placed: {size:,.0f} GB checkpoints go to the nodes' local disks"))
    section = {
        "storage_devices": totals.devices,
        "capacity_tb": round(totals.capacity_tb, 3),
        "write_gbs": round(totals.write_gbs, 3),
        "read_gbs": round(totals.read_gbs, 3),
        "node_storage_gbs": per_node,
        "checkpoint_gb": round(size, 3) if size is not None else None,
        "checkpoint_write_s": round(write_s, 3) if write_s is not None else None,
        "checkpoint_stall_pct": round(stall_pct, 3) if stall_pct is not None else None,
        "write_gbs_per_node": round(alone, 3) if alone is not None else None,
        "write_gbs_per_node_all_writing": round(together, 3) if together is not None else None,
    }
    return section, findings
