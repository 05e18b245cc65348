"""The GPUs of one inference replica, chosen by the check's own inference model.

Serving engines split a model that a GPU cannot hold, or cannot read fast enough for the
latency target, over a tensor-parallel group inside one NVLink domain (vLLM and
TensorRT-LLM: ``tensor_parallel_size`` divides the attention heads). The design tries every
such group, TP 1, 2, 4 ... up to the node's GPUs, sizes each as ``check`` does
(``evaluate_workload``: weights and KV cache in memory, the operating batch within the TPOT
target, prefill for TTFT) and keeps the replica that meets both latency targets with the
most output tokens/s per GPU: on one kind of GPU that is the lowest cost per million output
tokens. When none meets the targets, the fastest per token (the widest group that fits) is
kept and the check's latency warning says by how much it misses.

A model no group in one node holds is split by its layers over nodes (pipeline parallelism,
vLLM's and TensorRT-LLM's ``pipeline_parallel_size``): 2, 3 ... up to ``MAX_STAGES`` stages,
each the widest group of the node, ranked the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner import vocabulary
from planner.findings import Finding
from planner.hardware.nodes import NodeSummary
from planner.numbers import counted
from planner.settings import CostSettings, FabricSettings, WorkloadSettings
from planner.workload.checks import evaluate_workload
from planner.workload.inference import InferenceResult, gpu_hours_per_million_tokens
from planner.workload.kernels import has_fp8
from planner.workload.models import model_shape

MAX_STAGES = 16  # Planner assumption: a replica over more than 16 nodes is not a serving design


@dataclass(frozen=True, slots=True)
class Replica:
    """One replica size, sized by the check: ``gpus`` a stage, ``stages`` nodes."""

    gpus: int
    result: InferenceResult
    stages: int = 1

    @property
    def text(self) -> str:
        return f"TP {self.gpus}" + (f" x PP {self.stages} across nodes" if self.stages > 1 else "")

    @property
    def meets_targets(self) -> bool:
        r = self.result
        return bool(r.meets_latency) and r.meets_ttft is not False

    def usd_per_million_tokens(self, usd_per_gpu_h: float) -> float | None:
        """GPU-hours per million output tokens x the GPU-hour price."""
        per_gpu = self.result.output_tokens_per_s_per_gpu
        return usd_per_gpu_h * gpu_hours_per_million_tokens(per_gpu) if per_gpu else None


def replica_sizes(heads: int, node_gpus: int) -> list[int]:
    """TP 1, 2, 4 ... within the node that divide the attention heads."""
    sizes, g = [], 1
    while g <= node_gpus:
        if heads % g == 0:
            sizes.append(g)
        g *= 2
    return sizes


def search_replicas(w: WorkloadSettings, fabric: FabricSettings, node: NodeSummary) -> list[Replica]:
    """Every replica size that holds the model and one sequence's KV cache, best first
    (module docstring)."""
    def sized(g: int, stages: int) -> Replica | None:
        run = w.model_copy(update={"inference_gpus_per_replica": g, "inference_pipeline_stages": stages})
        res = evaluate_workload(run, fabric, node).inference
        if res is not None and res.fits and res.max_concurrent_sequences > 0 and res.requests_per_s_per_replica:
            return Replica(g, res, stages)
        return None

    sizes = replica_sizes(model_shape(w).heads, node.gpus)
    out = [r for r in (sized(g, 1) for g in sizes) if r is not None]
    stages = 2
    while not out and sizes and stages <= MAX_STAGES:  # no node holds it: the fewest stages that do
        out = [r for r in (sized(sizes[-1], stages),) if r is not None]
        stages += 1
    # meets the targets first, then output tokens/s per GPU; among those that miss, the
    # fastest per token
    return sorted(out, key=lambda c: (0, -(c.result.output_tokens_per_s_per_gpu or 0)) if c.meets_targets
                  else (1, c.result.tpot_s or float("inf")))


def choose_replica(w: WorkloadSettings, fabric: FabricSettings, node: NodeSummary,
                   costs: CostSettings, rent_factor: float = 1.0) -> tuple[WorkloadSettings, list[Finding]]:
    """``w`` with the best replica's GPUs (``search_replicas``) and a finding that says which,
    with the others' figures; ``w`` unchanged when no replica holds the model. ``rent_factor``:
    the system's GPUs' rental rate against the H100 rates of ``costs``."""
    found = search_replicas(w, fabric, node)
    if not found:
        return w, []
    # priced as the report prices a rented GPU-hour: the plan's GPUs' rate with the rental uplift
    price = costs.rental_rates(rent_factor)["reserved_1yr"] * (1.0 + costs.rent_uplift)
    best = found[0]

    def text(c: Replica) -> str:
        r = c.result
        cost = c.usd_per_million_tokens(price)
        return (f"{c.text}: batch {r.batch:,}, {r.tpot_s * 1e3:,.1f} ms per output token ({r.decode_s_per_token * 1e3:,.1f}"
                " ms decode steps and the prefills between them), "
                f"first token in {r.prefill_s * 1e3:,.0f} ms, {r.requests_per_s_per_replica:,.2f} requests/s a replica, "
                f"{vocabulary.text(r.output_tokens_per_s_per_gpu, 'tokens/s').replace('tokens/s', 'output tokens/s')} "
                "per GPU"
                + (f", ${cost:,.2f} per million output tokens" if cost is not None else "")
                + ("" if c.meets_targets else " (misses the latency targets)"))

    others = "; ".join(text(c) for c in found[1:])
    total = best.gpus * best.stages
    split = (f"tensor parallel in each of {best.stages} nodes, pipelined across them" if best.stages > 1
             else "tensor parallel in the node")
    return w.model_copy(update={"inference_gpus_per_replica": best.gpus, "inference_pipeline_stages": best.stages}), [
        Finding(
        "info" if best.meets_targets else "warning", "design.inference.replica",
        f"Inference replica of {counted(total, 'GPU')} ({split}), the "
        f"{'cheapest per output token that meets' if best.meets_targets else 'fastest, though none meets'} the "
        f"{w.latency_ms_per_token:g} ms per token and {w.ttft_target_ms:g} ms first-token targets: {text(best)}; "
        f"at ${price:,.2f} per GPU-hour (the reserved 1-year rental rate"
        + (f", x {rent_factor:.2f} for these GPUs against an H100," if abs(rent_factor - 1.0) > 5e-3 else "")
        + f" with the {costs.rent_uplift:.0%} uplift for storage and networking)"
        + (f". Also evaluated: {others}" if others else "")
        + ("" if best.meets_targets else _what_would_meet(w, fabric, node, found)))]


def _what_would_meet(w: WorkloadSettings, fabric: FabricSettings, node: NodeSummary, found: list[Replica]) -> str:
    """For a design whose replicas all miss the targets (sized at the smallest batch: many
    GPUs for little): what would meet them, FP8 weights on GPUs that run FP8, or the least
    time per output token a replica offers as the target."""
    out = []
    if w.precision != "fp8" and has_fp8(node.kernel_curves):
        fp8 = [c for c in search_replicas(w.model_copy(update={"precision": "fp8"}), fabric, node) if c.meets_targets]
        if fp8:
            c = fp8[0]
            out.append(f"served in FP8 (--set workload.precision=fp8), a {c.text} replica meets them at "
                       f"{c.result.requests_per_s_per_replica:,.2f} requests/s")
    quick = [c for c in found if c.result.meets_ttft is not False]  # the replicas that meet the first token
    least = min((c.result.least_tpot_s for c in quick if c.result.least_tpot_s), default=None)
    if least is not None and least * 1e3 > w.latency_ms_per_token:
        out.append(f"the least time per output token a replica meeting the first-token target offers is "
                   f"{least * 1e3:,.1f} ms: a target above it (--latency-ms) lets the replicas batch more requests")
    if not quick:
        first = min((c.result.prefill_s for c in found if c.result.prefill_s), default=None)
        if first is not None:
            out.append(f"no replica meets the {w.ttft_target_ms:g} ms first-token target: the fastest prefill takes "
                       f"{first * 1e3:,.0f} ms (--set workload.ttft_target_ms, or shorter prompts)")
    return (". What would meet the targets: " + "; ".join(out)) if out else ""
