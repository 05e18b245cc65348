"""The workload on the placed GPUs: parallelism, memory fit, batch split, step figures,
claim check and inference sizing, with their findings.

Why it is long: every finding of the workload on the placed GPUs is written here, beside the
figures it reads; the figures themselves are worked out in the modules it imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from planner.findings import Finding, Remedy
from planner.hardware.nodes import NodeSummary, nic_gbs
from planner.network.technologies import TECHNOLOGIES
from planner.numbers import counted
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.advisor import SHARDING_TITLES, smallest_fitting_change
from planner.workload.archetype import advise
from planner.workload.bubble import TARGET as BUBBLE_LIMIT, bubble_remedy
from planner.workload.fit import describe_recompute, fit_training, recompute_ladder
from planner.workload.inference import InferenceResult, size_inference
from planner.workload.kernels import attention_kernel_findings, borrowed_kernels, fp8_findings, peak_at
from planner.workload.memory import MemoryEstimate, micro_batches, training_memory
from planner.workload.models import ModelShape, model_shape
from planner.workload.moe import expert_ranks, expert_tensor_parallel
from planner.workload.pipeline import interleaved_allows
from planner.workload.search import tp_options, tp_splits_heads
from planner.workload.training import (
    PCIE5_X16_GBS, JobShape, StepResult, compare_fabrics, model_step, peak_tflops, scaling_curve, step_row,
)

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


@dataclass(slots=True)
class WorkloadOutcome:
    """Everything the workload model found, for the network and workload sections."""

    model: ModelShape
    network: dict[str, Any] = field(default_factory=lambda: dict(EMPTY))
    step: StepResult | None = None
    memory: MemoryEstimate | None = None
    gpu_memory_gb: float | None = None
    evaluated: WorkloadSettings | None = None  # the settings the job runs with: recompute and sharding that fit
    inference: InferenceResult | None = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def fits(self) -> bool | None:
        if self.memory is None or not self.gpu_memory_gb:
            return None
        return self.memory.total_gb <= self.gpu_memory_gb


def job_shape(nodes: NodeSummary, fabric: FabricSettings) -> JobShape:
    """Nodes' figures; NICs per GPU from the design setting where the nodes have no compute NICs."""
    nics = nodes.nics_per_gpu if nodes.nics_per_gpu else fabric.nics_per_gpu
    return JobShape(nodes.gpus_per_node, nodes.bf16_tflops, nodes.nvlink_gbs, nics, nodes.nic_gbps,
                    nodes.domain_gpus, nodes.memory_gb, nodes.memory_bandwidth_tbs, nodes.nvls_busbw_gbs,
                    nodes.nic_planes, nodes.kernel_curves)


def evaluate_workload(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary) -> WorkloadOutcome:
    out = WorkloadOutcome(model_shape(w), findings=borrowed_kernels(nodes.kernel_curves, nodes.gpu_model, w.mfu)
                          + attention_kernel_findings(nodes.kernel_curves, w.attention_kernel, nodes.gpu_model,
                                                      w.flash_attention, w.mfu)
                          + fp8_findings(nodes.kernel_curves, w.precision, nodes.gpu_model))
    is_ib = TECHNOLOGIES[fabric.technology].switch_technology == "infiniband"
    if nodes.gpus and w.inference:
        _inference(w, fabric, nodes, out)
    if nodes.gpus == 0 and (w.enabled or w.inference):
        what = "trains" if w.enabled else "serves"
        out.findings.append(Finding(
            "warning", "workload.gpus.none",
            f"No GPU for the job (none placed, or every node a hot spare): the plan {what} nothing, so it has no "
            "throughput, step or time to train; place GPU nodes (Racks > Auto-place nodes)"))
    if not w.enabled or nodes.gpus == 0:
        if nodes.gpus and not w.enabled:
            out.findings.append(advise(False, out.model.params / 1e9, nodes.gpus, is_ib))
        return out
    _training(w, fabric, nodes, out)
    if out.step is not None:
        out.findings.append(advise(True, out.model.params / 1e9, nodes.gpus, is_ib, nodes.domain_gpus))
    return out


def _training(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary, out: WorkloadOutcome) -> None:
    findings = out.findings
    model = out.model
    if len(nodes.gpu_models) > 1:
        kinds = ", ".join(f"{n:,} {m}" for m, n in nodes.gpu_models)
        findings.append(Finding(
            "warning", "workload.gpus.mixed",
            f"One job on {len(nodes.gpu_models)} GPU models ({kinds}): a synchronous step waits for the slowest, "
            f"so every GPU is modelled at the {nodes.gpu_model}'s pace and memory; keep one GPU model a job, or "
            f"plan the others as a job of their own (a variant)"))
    job = w.tp * w.cp * w.pp * w.dp
    if job != nodes.gpus:
        cp = f" x CP {w.cp}" if w.cp > 1 else ""
        findings.append(Finding(
            "error", "workload.parallelism.mismatch",
            f"TP {w.tp}{cp} x PP {w.pp} x DP {w.dp} = {job} GPUs, but the plan places {nodes.gpus}: "
            f"set the parallelism so that the job uses every GPU",
            remedy=Remedy("set_parallelism", f"Choose a parallelism for all {nodes.gpus:,} GPUs",
                          (("gpus", nodes.gpus),))))
        return
    shape = job_shape(nodes, fabric)
    local = shape.local_gpus
    if w.tp > local:
        findings.append(Finding(
            "warning", "workload.tp.spans_nodes",
            f"Tensor parallel {w.tp} is wider than an NVLink domain ({local} GPUs): its per-layer all-reduces "
            f"leave NVLink for the fabric; keep TP within the domain",
            remedy=Remedy("set_parallelism", f"Choose a parallelism for all {nodes.gpus:,} GPUs, TP within the "
                          "NVLink domain", (("gpus", nodes.gpus),))))
    if not tp_splits_heads(model, w.tp):
        findings.append(Finding(
            "warning", "workload.tp.heads",
            f"Tensor parallel {w.tp} does not divide the model's {model.heads:,} attention heads: Megatron-LM splits "
            f"the heads over the TP ranks and refuses it (num_attention_heads % tensor_model_parallel_size); "
            f"choose a TP that divides them ({', '.join(str(t) for t in tp_options(model, local)) or '1'})",
            remedy=Remedy("set_parallelism", f"Choose a parallelism for all {nodes.gpus:,} GPUs, TP dividing the "
                          "heads", (("gpus", nodes.gpus),))))
    findings += batch_findings(w)
    etp, ranks = expert_tensor_parallel(w, w.tp), expert_ranks(w, w.tp, w.dp)
    relayout = Remedy("set_parallelism", f"Choose a parallelism for all {nodes.gpus:,} GPUs",
                      (("gpus", nodes.gpus),))
    if model.is_moe and w.expert_tp and w.tp % w.expert_tp:
        findings.append(Finding(
            "warning", "workload.expert_tp.uneven",
            f"Expert tensor parallel {w.expert_tp} does not divide tensor parallel {w.tp}: the experts are "
            f"evaluated at expert TP {etp}", remedy=relayout))
    if model.is_moe and w.ep > 1 and ranks % w.ep:
        cp = f" x CP {w.cp}" if w.cp > 1 else ""
        over = (f"data parallel {w.dp}" if etp == w.tp and w.cp == 1 else
                f"the {ranks} ranks the experts spread over (TP {w.tp} / expert TP {etp}{cp} x DP {w.dp})")
        findings.append(Finding(
            "warning", "workload.ep.uneven",
            f"Expert parallel {w.ep} does not divide {over}: the experts cannot be spread evenly", remedy=relayout))
    if model.is_moe and w.ep > 1 and model.experts % min(w.ep, ranks):
        ep = min(w.ep, ranks)
        findings.append(Finding(
            "warning", "workload.ep.experts",
            f"Expert parallel {ep} does not divide the model's {model.experts} experts: each GPU should hold "
            f"whole experts, as many as the others (Megatron-Core requires EP to divide them)", remedy=relayout))

    moe_recompute = w.recompute == "selective_moe"
    if not model.is_moe and (w.ep > 1 or w.expert_tp or moe_recompute):
        named = [x for x in (f"expert parallel {w.ep}" if w.ep > 1 else "",
                             f"expert TP {w.expert_tp}" if w.expert_tp else "",
                             "recompute of the MoE layers" if moe_recompute else "") if x]
        stated = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
        clear = (("ep", 1), ("expert_tp", None)) + ((("recompute", "selective"),) if moe_recompute else ())
        findings.append(Finding(
            "info", "workload.experts.dense",
            f"The model has no experts (a dense model): {stated} {'are' if len(named) > 1 else 'is'} not used by "
            f"the step{' (its recompute is selective)' if moe_recompute else ''}",
            remedy=Remedy("set_workload", "Clear the expert settings", clear)))

    out.gpu_memory_gb = nodes.memory_gb or None
    fit = fit_training(w, model, available_gb=out.gpu_memory_gb, domain_ranks=max(1, local // w.tp))
    run = out.evaluated = fit.settings
    out.memory = fit.memory
    r = model_step(run, fabric, shape, model=model)
    row = step_row(r)
    fits = out.fits is not False
    out.network.update(
        allreduce_ms=row["allreduce_ms"],
        effective_bandwidth_gbs=row["effective_bandwidth_gbs"],
        node_effective_bandwidth_gbs=row["node_effective_bandwidth_gbs"],
        bus_bandwidth_gbs=row["bus_bandwidth_gbs"],
        node_bus_bandwidth_gbs=row["node_bus_bandwidth_gbs"],
        compute_ms=round(r.compute_s * 1e3, 3),
        exposed_comm_ms=round(r.exposed_s * 1e3, 3),
        step_ms=round(r.step_s * 1e3, 3) if fits else None,
        gpu_idle_pct=row["gpu_idle_pct"] if fits else None,
        tokens_per_s=row["tokens_per_s"] if fits else None,
        tokens_per_s_limit=round(r.tokens_per_s_limit, 1),
        fabric_gb_per_gpu_step=round(r.fabric_bytes_per_gpu / 1e9, 3),
        nvlink_gb_per_gpu_step=round(r.nvlink_bytes_per_gpu / 1e9, 3),
        scaling=scaling_curve(run, fabric, shape),
        fabrics=compare_fabrics(run, fabric, shape),
    )
    out.step = r
    if not fits:
        findings.append(memory_finding(run, model, fabric, shape, nodes.gpus, out.memory, out.gpu_memory_gb))
    elif fit.fits:
        findings += escalation_findings(w, run, model, fabric, shape, r, out.memory, out.gpu_memory_gb, local)
    if r.bubble > BUBBLE_LIMIT:
        findings.append(Finding(
            "warning", "workload.pipeline.bubble",
            f"The pipeline bubble is {r.bubble:.0%} of the step: PP {w.pp} stages and {r.micro_batches} "
            f"micro-batches per step ({w.pp_schedule}: (p-1)/(m+p-1)); raise the global batch, lower PP or "
            f"use the interleaved schedule",
            remedy=bubble_remedy(w, fabric, shape, model, r.bubble, out.gpu_memory_gb)))
    findings += claim_findings(w, r, nodes.gpus, model)


def batch_findings(w: WorkloadSettings) -> list[Finding]:
    """The global batch must split into whole sequences, evenly over the replicas' micro-batches."""
    out: list[Finding] = []
    sequences = w.global_batch_tokens / w.seq_len
    per = w.dp * w.micro_batch_size
    if sequences < 1:  # not one sequence a step: nothing can train
        tokens = w.global_batch_tokens
        out.append(Finding(
            "error", "workload.batch.fractional_sequences",
            f"The global batch of {counted(tokens, 'token')} is less than one sequence of "
            f"{w.seq_len:,} tokens: a step needs at least one whole sequence", remedy=_set_batch(1, w.seq_len)))
        return out
    if abs(sequences - round(sequences)) > 1e-9:
        out.append(Finding(
            "warning", "workload.batch.fractional_sequences",
            f"The global batch of {w.global_batch_tokens:,} tokens is {sequences:,.2f} sequences of "
            f"{w.seq_len:,} tokens: make it a whole number of sequences",
            remedy=_set_batch(max(1, round(sequences)), w.seq_len)))
        return out
    seqs = round(sequences)
    # the interleaved schedule also needs each replica's micro-batches a multiple of PP: a batch
    # the remedies set is a multiple of both, so mending one does not leave the other
    interleaved = w.pp_schedule == "interleaved" and w.pp > 1
    step = per * (w.pp if interleaved else 1)
    lower, upper = seqs // step * step, (seqs // step + 1) * step
    nearest = upper if lower == 0 or upper - seqs <= seqs - lower else lower
    if seqs % per:
        shown = [f"{x:,}" for x in (lower, upper) if x > 0]
        out.append(Finding(
            "warning", "workload.batch.uneven",
            f"A global batch of {seqs:,} sequences over DP {w.dp} x micro-batch {w.micro_batch_size} gives "
            f"{seqs / per:,.2f} micro-batches per replica: use {' or '.join(shown)} sequences "
            f"(a multiple of {step:,}" + (f", the micro-batches a multiple of PP {w.pp} for the interleaved schedule"
                                           if interleaved else "") + ")",
            remedy=_set_batch(nearest, w.seq_len)))
    elif interleaved and not interleaved_allows(w.pp, micro_batches(w)):
        out.append(Finding(
            "warning", "workload.pipeline.interleaved_batches",
            f"The interleaved schedule needs the micro-batches per step ({micro_batches(w)}) to be a multiple "
            f"of PP {w.pp} (Megatron-LM): {counted(nearest, 'sequence')} give {nearest // per:,} a replica",
            remedy=_set_batch(nearest, w.seq_len)))
    return out


def _set_batch(sequences: int, seq_len: int) -> Remedy:
    """The batch set to ``sequences`` whole sequences (the nearest even one; a tie goes up)."""
    return Remedy("set_batch", f"Set the global batch to {counted(sequences, 'sequence')}",
                  (("sequences", sequences), ("tokens", sequences * seq_len)))


def escalation_findings(w: WorkloadSettings, run: WorkloadSettings, model: ModelShape, fabric: FabricSettings,
                        shape: JobShape, r: StepResult, mem: MemoryEstimate, available: float,
                        local: int) -> list[Finding]:
    """A warning when the job fits only with more recompute or sharding than the settings
    ask for, with what that costs per step against the settings' own choice."""
    asked = w.model_copy(update=dict(zip(("recompute", "recompute_layers"), recompute_ladder(w, model, w.pp)[0])))
    more_sharding = run.sharding != w.sharding
    if not more_sharding and (run.recompute, run.recompute_layers) == (asked.recompute, asked.recompute_layers):
        return []

    need = training_memory(asked, model, tp=w.tp, pp=w.pp, dp=w.dp, ep=w.ep, domain_ranks=max(1, local // w.tp))
    base = model_step(asked, fabric, shape, model=model).step_s
    cost = r.step_s - base
    what = describe_recompute(run, model)
    if more_sharding:
        what += f" and {SHARDING_TITLES[run.sharding]}"
    how = "auto recompute takes" if w.recompute == "auto" and not more_sharding else "the planner evaluates"
    # the fix states what the planner evaluates, so that the settings say what runs
    stated = (("recompute", run.recompute), ("recompute_layers", run.recompute_layers), ("sharding", run.sharding))
    return [Finding(
        "warning", "workload.memory.more_sharding" if more_sharding else "workload.memory.more_recompute",
        f"Training needs {need.total_gb:,.1f} GB per GPU with {describe_recompute(asked, model)} and "
        f"{SHARDING_TITLES[w.sharding]}, over the {available:,.0f} GB a GPU has; it fits with {what} "
        f"({mem.total_gb:,.1f} GB), which {how}: {cost:+,.3f} s per step ({cost / base:+.1%} step time)",
        remedy=Remedy("set_workload", f"Train with {what}", stated))]


def memory_finding(w: WorkloadSettings, model: ModelShape, fabric: FabricSettings, shape: JobShape, gpus: int,
                   mem: MemoryEstimate, available: float) -> Finding:
    advice = smallest_fitting_change(w, model, fabric, shape, gpus, available)
    hint = (f"the smallest change that fits: {advice.describe()} ({advice.memory_gb:,.1f} GB per GPU)"
            if advice else "no TP / PP / sharding / recompute choice fits: use GPUs with more memory or more GPUs")
    return Finding(
        "error", "workload.memory.does_not_fit",
        f"Training needs {mem.total_gb:,.1f} GB per GPU (weights {mem.weights_gb:,.1f}, gradients "
        f"{mem.gradients_gb:,.1f}, optimizer {mem.optimizer_gb:,.1f}, activations {mem.activations_gb:,.1f}, "
        f"overhead {mem.overhead_gb:,.1f}) under TP {w.tp}{f' / CP {w.cp}' if w.cp > 1 else ''} / PP {w.pp} / "
        f"DP {w.dp} with "
        f"{SHARDING_TITLES[w.sharding]} even with every layer recomputed in full, but a GPU has "
        f"{available:,.0f} GB: {hint}")


def _inference(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary, out: WorkloadOutcome) -> None:
    model = out.model
    peak = peak_at(nodes.bf16_tflops, w.precision, nodes.kernel_curves)
    # the replica's TP all-reduce: NVLink per direction x efficiency, or PCIe between GPUs without it
    link = nodes.nvlink_gbs / 2.0 if nodes.nvlink_gbs > 0 else PCIE5_X16_GBS
    res = size_inference(w, model, memory_gb=nodes.memory_gb, bandwidth_tbs=nodes.memory_bandwidth_tbs,
                         peak_tflops=peak, allreduce_gbs=link * fabric.nvlink_efficiency, link_gbs=nic_gbs(nodes),
                         curves=nodes.kernel_curves)
    out.inference = res
    g = w.inference_gpus_per_replica * w.inference_pipeline_stages
    tokens = w.prompt_tokens + w.output_tokens
    if model.context and tokens > model.context:
        out.findings.append(Finding(
            "warning", "workload.inference.context",
            f"A request of {tokens:,} tokens ({w.prompt_tokens:,} prompt + {w.output_tokens:,} output) is longer "
            f"than the model's context of {model.context:,} tokens (its model card): no engine serves it as one "
            "sequence; shorten the prompt or choose a model with a longer context"))
    if not res.fits:
        out.findings.append(Finding(
            "error", "workload.inference.does_not_fit",
            f"The model's weights ({res.weights_gb:,.1f} GB) and overhead do not fit in {g} x "
            f"{nodes.memory_gb:,.0f} GB GPUs per replica: use more GPUs per replica (tensor parallel, or pipeline stages across nodes), "
            f"a smaller precision or GPUs with more memory"))
        return
    if res.max_concurrent_sequences == 0:
        out.findings.append(Finding(
            "error", "workload.inference.no_kv_cache",
            f"The weights fit but leave no room for one sequence's KV cache ({res.kv_gb_per_sequence:,.2f} GB "
            f"at {w.prompt_tokens + w.output_tokens:,} tokens)"))
        return
    if nodes.memory_bandwidth_tbs is None:
        out.findings.append(Finding(
            "info", "workload.inference.no_bandwidth",
            "The catalog gives no HBM bandwidth for these GPUs: decode throughput is not estimated"))
        return
    if res.meets_latency is False and res.least_tpot_s is not None and res.least_tpot_s * 1e3 <= w.latency_ms_per_token:
        out.findings.append(Finding(  # the user's operating batch is too large for the target
            "warning", "workload.inference.latency",
            f"At the operating batch of {res.batch:,} sequences a sequence gets a token every {res.tpot_s * 1e3:,.1f} "
            f"ms (decode steps of {res.decode_s_per_token * 1e3:,.1f} ms and the new requests' prefills between "
            f"them), over the {w.latency_ms_per_token:g} ms target: a smaller operating batch meets it (empty "
            "inference_batch takes the largest that does)"))
    elif res.meets_latency is False:
        out.findings.append(Finding(
            "warning", "workload.inference.latency",
            f"Even at the smallest batch a sequence gets a token every {res.least_tpot_s * 1e3:,.1f} ms, over the "
            f"{w.latency_ms_per_token:g} ms target: a decode step takes {1e3 / res.decode_tokens_per_s_per_sequence:,.1f}"
            f" ms, bound by reading {res.weights_gb:,.1f} GB of weights per token, and new requests' prefills run "
            f"between the steps; spread the replica over more GPUs, or serve in FP8"))
    if res.meets_ttft is False:
        out.findings.append(Finding(
            "warning", "workload.inference.ttft",
            f"A {w.prompt_tokens:,}-token prompt's prefill takes {res.prefill_s * 1e3:,.0f} ms to the first token, "
            f"over the {w.ttft_target_ms:g} ms TTFT target: prefill is compute-bound; spread the replica over more "
            f"GPUs or use FP8"))
    if res.batch_limited_by_memory:
        out.findings.append(Finding(
            "warning", "workload.inference.batch",
            f"The operating batch of {w.inference_batch:,} sequences needs more KV cache than the replica holds: "
            f"evaluated at {res.batch:,}"))
    if res.gpus_needed is not None and res.gpus_needed > nodes.gpus:
        out.findings.append(Finding(
            "error", "workload.inference.capacity",
            f"{w.requests_per_s:,g} requests/s need {res.gpus_needed:,} GPUs "
            f"({res.requests_per_s_per_replica:,.2f} requests/s per replica of {g} GPU{'s' if g > 1 else ''} at "
            f"batch {res.batch}); the plan has {nodes.gpus:,}: add {res.gpus_needed - nodes.gpus:,} GPUs ("
            f"{_more_nodes(res.gpus_needed - nodes.gpus, nodes.gpus_per_node)}: Racks > Auto-place nodes) or lower "
            "the target"))


def _more_nodes(gpus: int, per_node: int) -> str:
    n = -(-gpus // max(1, per_node))
    return f"{n:,} more node{'s' if n != 1 else ''} of {per_node}"


def claim_findings(w: WorkloadSettings, r: StepResult, gpus: int, model: ModelShape) -> list[Finding]:
    """A claimed tokens/s above GPUs x peak / FLOPs per token cannot be true (warning); above
    the model's estimate it needs a higher efficiency than assumed (info)."""
    claim = w.claimed_tokens_per_s
    if claim is None or claim <= 0:
        return []
    limit = r.tokens_per_s_limit
    if claim > limit:
        six_n = gpus * r.peak_tflops * 1e12 / (6.0 * model.active_params)
        return [Finding(
            "warning", "workload.claim.impossible",
            f"The claimed {claim:,.0f} tokens/s is impossible: {gpus} GPUs at 100% of peak compute at most "
            f"{limit:,.0f} tokens/s for a {model.params / 1e9:g}B model (GPUs x peak / (6N + 12 L s d) FLOPs per "
            f"token; {six_n:,.0f} even counting 6N alone); the claim is {claim / limit:.1f}x that")]
    if claim > r.tokens_per_s:
        return [Finding(
            "info", "workload.claim.optimistic",
            f"The claimed {claim:,.0f} tokens/s is above this plan's estimate of {r.tokens_per_s:,.0f} "
            f"(end-to-end MFU {r.mfu:.0%}); it needs {claim / limit:.0%} of peak end to end")]
    return []


__all__ = ["EMPTY", "WorkloadOutcome", "evaluate_workload", "job_shape", "peak_tflops"]
