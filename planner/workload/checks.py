"""The training workload on the placed GPUs: parallelism check, step figures, claim check."""

from __future__ import annotations

from typing import Any

from planner.workload.archetype import advise
from planner.network.technologies import TECHNOLOGIES
from planner.network.checks import NodeSummary
from planner.report.model import Finding
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.training import JobShape, compare_fabrics, model_step, scaling_curve, step_row

EMPTY: dict[str, Any] = {
    "allreduce_ms": None,
    "effective_bandwidth_gbs": None,
    "node_effective_bandwidth_gbs": None,
    "bus_bandwidth_gbs": None,
    "node_bus_bandwidth_gbs": None,
    "compute_ms": None,
    "exposed_comm_ms": None,
    "step_ms": None,
    "gpu_idle_pct": None,
    "tokens_per_s": None,
    "tokens_per_s_limit": None,
    "fabric_gb_per_gpu_step": None,
    "nvlink_gb_per_gpu_step": None,
    "scaling": [],
    "fabrics": [],
}


def job_shape(nodes: NodeSummary, fabric: FabricSettings) -> JobShape:
    """Nodes' figures; NICs per GPU from the design setting where the nodes have no compute NICs."""
    nics = nodes.nics_per_gpu if nodes.nics_per_gpu else fabric.nics_per_gpu
    return JobShape(nodes.gpus_per_node, nodes.bf16_tflops, nodes.nvlink_gbs, nics, nodes.nic_gbps)


def evaluate_training(workload: WorkloadSettings, fabric: FabricSettings,
                      nodes: NodeSummary) -> tuple[dict[str, Any], list[Finding]]:
    """The workload's figures for the network section, and its findings."""
    figures = dict(EMPTY)
    findings: list[Finding] = []
    if not workload.enabled or nodes.gpus == 0:
        if nodes.gpus:
            findings.append(advise(False, workload.model_params_b, nodes.gpus,
                                   TECHNOLOGIES[fabric.technology].switch_technology == "infiniband"))
        return figures, findings
    w = workload
    job = w.tp * w.pp * w.dp
    if job != nodes.gpus:
        findings.append(Finding(
            "error", "workload.parallelism.mismatch",
            f"TP {w.tp} x PP {w.pp} x DP {w.dp} = {job} GPUs, but the plan places {nodes.gpus}: "
            f"set the parallelism so that the job uses every GPU"))
        return figures, findings
    if w.tp > nodes.gpus_per_node:
        findings.append(Finding(
            "warning", "workload.tp.spans_nodes",
            f"Tensor parallel {w.tp} is wider than a node ({nodes.gpus_per_node} GPUs): its per-layer all-reduces "
            f"leave NVLink for the fabric; keep TP within a node"))
    shape = job_shape(nodes, fabric)
    r = model_step(w, fabric, shape)
    row = step_row(r)
    figures.update(
        allreduce_ms=row["allreduce_ms"],
        effective_bandwidth_gbs=row["effective_bandwidth_gbs"],
        node_effective_bandwidth_gbs=row["node_effective_bandwidth_gbs"],
        bus_bandwidth_gbs=row["bus_bandwidth_gbs"],
        node_bus_bandwidth_gbs=row["node_bus_bandwidth_gbs"],
        compute_ms=round(r.compute_s * 1e3, 3),
        exposed_comm_ms=round(r.exposed_s * 1e3, 3),
        step_ms=round(r.step_s * 1e3, 3),
        gpu_idle_pct=row["gpu_idle_pct"],
        tokens_per_s=row["tokens_per_s"],
        tokens_per_s_limit=round(r.tokens_per_s_limit, 1),
        fabric_gb_per_gpu_step=round(r.fabric_bytes_per_gpu / 1e9, 3),
        nvlink_gb_per_gpu_step=round(r.nvlink_bytes_per_gpu / 1e9, 3),
        scaling=scaling_curve(w, fabric, shape),
        fabrics=compare_fabrics(w, fabric, shape),
    )
    findings += claim_findings(w, r.tokens_per_s, r.tokens_per_s_limit, nodes.gpus)
    findings.append(advise(True, w.model_params_b, nodes.gpus,
                           TECHNOLOGIES[fabric.technology].switch_technology == "infiniband"))
    return figures, findings


def claim_findings(w: WorkloadSettings, estimate: float, limit: float, gpus: int) -> list[Finding]:
    """A claimed tokens/s above GPUs x peak / (6 x P) cannot be true (warning); above the
    model's estimate it needs a higher MFU than assumed (info)."""
    claim = w.claimed_tokens_per_s
    if claim is None or claim <= 0:
        return []
    if claim > limit:
        return [Finding(
            "warning", "workload.claim.impossible",
            f"The claimed {claim:,.0f} tokens/s is impossible: {gpus} GPUs at 100% of peak compute at most "
            f"{limit:,.0f} tokens/s for a {w.model_params_b:g}B model (GPUs x peak / (6 x parameters)); "
            f"the claim is {claim / limit:.1f}x that")]
    if claim > estimate:
        return [Finding(
            "info", "workload.claim.optimistic",
            f"The claimed {claim:,.0f} tokens/s is above this plan's estimate of {estimate:,.0f} "
            f"(MFU {w.mfu:.0%}); it needs {claim / limit:.0%} of peak with no communication")]
    return []
