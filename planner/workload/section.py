"""The report's workload section: memory per GPU, the pipeline, the step split, end-to-end
MFU, tokens/s, time and cost to train the token budget, and inference sizing.

The workload model runs once per evaluation, in the network section, which reads its
fabric figures and keeps it (``workload_outcome``); this section reads the rest, after the
cost section so that a training run can be priced.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from planner.hardware.rent import rent_factor_by_price
from planner.figures import Figures, detail, figure
from planner.findings import Finding
from planner.hardware.nodes import NodeSummary, summarise_nodes
from planner.workload.checks import WorkloadOutcome, evaluate_workload, job_shape
from planner.workload.inference import InferenceResult, gpu_hours_per_million_tokens
from planner.workload.memory import MemoryEstimate
from planner.workload.models import model_shape
from planner.workload.moe import expert_grid
from planner.workload.search import search_layouts

HOURS_PER_DAY = 24.0


def workload_outcome(ctx) -> WorkloadOutcome:
    """The workload model for this evaluation: the network section's (it runs first and
    keeps it), else computed here."""
    network = ctx.sections.get("network")
    if network is not None and network.workload is not None:
        return network.workload
    settings = ctx.plan.settings
    return evaluate_workload(settings.workload, settings.fabric, plan_job_nodes(ctx))


def plan_nodes(ctx) -> NodeSummary:
    """The plan's GPU nodes (``summarise_nodes``), kept in the evaluator's memo under the
    counts: the network, workload, cost and goodput sections all read them."""
    return ctx.memo.get("nodes", ("counts",), summarise_nodes, ctx.counts, ctx.catalog)


def plan_job_nodes(ctx) -> NodeSummary:
    """The nodes the plan's job runs on (``job_nodes``: less the hot spares), kept in the
    evaluator's memo under the counts and the reliability settings."""
    return ctx.memo.get("job nodes", ("counts", "settings.reliability"), _job_nodes, ctx)


def _job_nodes(ctx) -> NodeSummary:
    return job_nodes(plan_nodes(ctx), ctx.plan.settings.reliability.spare_nodes)


def layout_candidates(plan, catalog, counts) -> list[dict[str, Any]] | None:
    """The best layouts the design's search finds for the plan's training job (its GPUs less
    the hot spares, its model and batch), best first, each with its figures and whether it is
    the plan's own layout; None without a training job."""
    settings = plan.settings
    w = settings.workload
    nodes = job_nodes(summarise_nodes(counts, catalog), settings.reliability.spare_nodes)
    if not w.enabled or not nodes.gpus:
        return None
    model = model_shape(w)
    found = search_layouts(w, model, settings.fabric, job_shape(nodes, settings.fabric), nodes.gpus,
                           nodes.memory_gb or None)
    etp, ep = expert_grid(w, w.tp, w.dp) if model.is_moe else (w.tp, 1)
    own = (w.tp, w.cp, w.pp, w.dp, ep, w.micro_batch_size,
           w.pp_schedule if w.pp > 1 else "1f1b", w.virtual_stages if w.pp > 1 and w.pp_schedule == "interleaved" else 1,
           etp)
    out = []
    for rank, c in enumerate(found.candidates, 1):
        run, r = c.settings, c.step
        out.append({
            "rank": rank, "current": c.layout == own, "tp": run.tp, "cp": run.cp, "pp": run.pp, "dp": run.dp,
            "ep": run.ep, "expert_tp": run.expert_tp or run.tp, "micro_batch_size": run.micro_batch_size,
            "pp_schedule": run.pp_schedule,
            "virtual_stages": run.virtual_stages, "stage_layers": list(c.stages), "sharding": run.sharding,
            "recompute": run.recompute,
            "recompute_layers": run.recompute_layers if run.recompute == "full" else None,
            "global_batch_tokens": run.global_batch_tokens, "memory_per_gpu_gb": _r(c.memory_gb),
            "pipeline_bubble": _r(r.bubble, 4), "step_time_s": _r(r.step_s, 4), "mfu": _r(r.mfu, 4),
            "tokens_per_s": _r(r.tokens_per_s, 1), "evaluated": found.evaluated})
    return out


def training_tokens_per_s(o: WorkloadOutcome) -> float | None:
    """The job's training throughput (tokens/s, to 0.1), when it runs: it has a step and
    fits in memory."""
    r = o.step
    return _r(r.tokens_per_s, 1) if r is not None and o.fits is not False else None


def job_nodes(nodes: NodeSummary, spares: int) -> NodeSummary:
    """The nodes the job runs on: the placed ones minus the hot spares kept idle (of the
    node type holding most GPUs), which the parallelism must fit, and their hosts."""
    if not spares:
        return nodes
    kept = max(0, nodes.nodes - spares)
    return replace(nodes, nodes=kept, gpus=max(0, nodes.gpus - spares * nodes.gpus_per_node),
                   hosts=max(0, nodes.hosts - spares * nodes.hosts_per_node))


@dataclass(frozen=True, slots=True)
class WorkloadSection(Figures):
    model: str = figure(title="Model", unit="name")
    params_b: float = figure(title="Parameters (total)", unit="B")
    active_params_b: float = figure(title="Active parameters per token", unit="B")
    flops_per_token: float | None = figure(None, title="Training FLOPs per token (6N + 12 L s d)", unit="FLOPs")
    memory_per_gpu_gb: float | None = figure(None, title="Memory needed per GPU", unit="GB")
    memory: MemoryEstimate | None = figure(None, title="Memory per GPU by kind")
    gpu_memory_gb: float | None = figure(None, title="Memory a GPU has", unit="GB")
    fits: bool | None = figure(None, title="Fits in GPU memory", unit="yes/no")
    activation_memory_gb: float | None = figure(None, title="Activation memory per GPU (first stage)", unit="GB")
    recompute: str | None = figure(None, title="Activation recompute evaluated", unit="name",
                                   description="The recompute the job runs with: the setting's, or the least "
                                   "more that fits in GPU memory (auto chooses it)")
    recompute_layers: int | None = figure(None, title="Layers per stage recomputed in full",
                                          description="Megatron-LM --recompute-num-layers; every layer when the "
                                          "recompute is full and this is empty")
    sharding: str | None = figure(None, title="Sharding evaluated", unit="name")
    micro_batches: int | None = figure(None, title="Micro-batches per step")
    pipeline_bubble: float | None = figure(None, title="Pipeline bubble (share of the step)", unit="share")
    compute_s: float | None = figure(None, title="Compute per step", unit="s")
    kernel_efficiency: float | None = figure(
        None, title="Kernel efficiency while computing", unit="share",
        description="Hardware FLOPs / (GPUs x peak x compute time): the user's figure, or from the step's shapes")
    matmul_efficiency: float | None = figure(None, title="Matrix multiplications, fraction of peak (from the shapes)",
                                             unit="share")
    attention_kernel: str | None = figure(
        None, title="Attention kernel evaluated", unit="name",
        description="The kernel whose measured rate the step uses: the one set (auto: the GPU's first measured), "
        "or the GPU's own where the one set was not measured on it")
    attention_efficiency: float | None = figure(
        None, title="Attention, counted FLOPs over BF16 peak (causal: can pass 100%)", unit="share",
        description="Causal FlashAttention runs half of the counted 12 L s h FLOPs, so this can exceed 1")
    bubble_s: float | None = figure(None, title="Pipeline bubble per step", unit="s")
    exposed_comm_s: float | None = figure(None, title="Communication not hidden, per step", unit="s")
    tensor_parallel_s: float | None = figure(
        None, title="Tensor-parallel communication per step", unit="s",
        description="The TP all-reduces (and the routed experts' gathers over their expert TP group) on the step's "
        "critical path; part of the communication not hidden")
    all_to_all_s: float | None = figure(
        None, title="Expert all-to-all per step", unit="s",
        description="Mixture-of-experts dispatch and combine, forward and backward, on NVLink and the fabric; part "
        "of the communication not hidden")
    step_time_s: float | None = figure(None, title="Step time", unit="s")
    exposed_comm_share: float | None = figure(None, title="Step lost to communication not hidden", unit="share")
    bubble_share: float | None = figure(None, title="Step lost to the pipeline bubble", unit="share")
    idle_share: float | None = figure(None, title="Step the GPUs lose (communication and bubble)", unit="share")
    mfu: float | None = figure(None, title="Model FLOP utilisation, end to end", unit="share",
                               description="FLOPs per token x tokens/s / (GPUs x peak), with the pipeline bubble "
                               "and exposed communication: the figure papers publish; the peak is the GPUs' at the "
                               "plan's GPU power limit where one is set (its clock lower), the datasheet's otherwise")
    tokens_per_s: float | None = figure(None, title="Training throughput", unit="tokens/s")
    tokens_per_s_limit: float | None = figure(None, title="Throughput at 100% of peak (limit)", unit="tokens/s")
    time_to_train_days: float | None = figure(None, title="Time to train the token budget", unit="days")
    train_tokens_b: float | None = figure(None, title="Token budget", unit="B tokens")
    seq_len: int | None = figure(None, title="Sequence length", unit="tokens")
    global_batch_tokens: int | None = figure(None, title="Global batch", unit="tokens")
    run_cost_usd: dict[str, float] | None = figure(None, title="Cost of the training run", unit="$")
    tp_fabric_gb_per_gpu_step: float | None = figure(None, title="Tensor-parallel fabric traffic per GPU per step",
                                                     unit="GB")
    ep_fabric_gb_per_gpu_step: float | None = figure(None, title="Expert-parallel fabric traffic per GPU per step",
                                                     unit="GB")
    decode_tokens_per_s: float | None = figure(
        None, title="Inference decode per GPU (decode steps alone)", unit="tokens/s",
        description="Output tokens a GPU decodes per second at the operating batch, prefill not counted; the "
        "output per GPU with prefill is workload.inference.output_tokens_per_s_per_gpu")
    max_concurrent_sequences: int | None = figure(None, title="Concurrent sequences per replica (KV cache)")
    inference: InferenceResult | None = figure(None, title="Inference sizing")
    inference_requests_per_s: float | None = figure(
        None, title="Requests the placed GPUs serve", unit="requests/s",
        description="Whole replicas the plan's GPUs hold x the requests a replica serves at its operating batch")
    inference_output_tokens_per_s: float | None = figure(
        None, title="Output tokens the placed GPUs serve", unit="tokens/s",
        description="The requests the placed GPUs serve x the output tokens of a request: the plan's serving "
        "throughput, prefill included")
    inference_usd_per_m_output_tokens: dict[str, float] | None = figure(
        None, title="Cost per million output tokens", unit="$",
        description="GPU-hours per million output tokens (at the operating batch, prefill included) at each "
        "rental rate with its uplift, and built: capex over the horizon plus opex, per GPU-hour")
    train_days: float | None = detail()  # time_to_train_days unrounded, as ``run_cost`` prices it


def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


def evaluate_workload_section(ctx) -> tuple[WorkloadSection, list[Finding]]:
    o = workload_outcome(ctx)
    w = ctx.plan.settings.workload
    m, r, mem, inf = o.model, o.step, o.memory, o.inference
    tokens_per_s = training_tokens_per_s(o)
    figures: dict[str, Any] = {"flops_per_token": m.training_flops_per_token(w.seq_len), "seq_len": w.seq_len,
                               "global_batch_tokens": w.global_batch_tokens}
    if r is not None:
        figures.update(
            flops_per_token=r.flops_per_token, micro_batches=r.micro_batches, pipeline_bubble=_r(r.bubble, 4),
            compute_s=_r(r.compute_s, 4), kernel_efficiency=_r(r.compute_efficiency, 4),
            matmul_efficiency=_r(r.matmul_efficiency, 4), attention_efficiency=_r(r.attention_efficiency, 4),
            attention_kernel=r.attention_kernel,
            bubble_s=_r(r.bubble_s, 4), exposed_comm_s=_r(r.exposed_s, 4), tensor_parallel_s=_r(r.tp_s, 4),
            all_to_all_s=_r(r.ep_s, 4) if m.is_moe else None,
            tokens_per_s_limit=_r(r.tokens_per_s_limit, 1),
            tp_fabric_gb_per_gpu_step=_r(r.tp_fabric_bytes_per_gpu / 1e9),
            ep_fabric_gb_per_gpu_step=_r(r.ep_fabric_bytes_per_gpu / 1e9))
    if tokens_per_s is not None:
        days = w.train_tokens_b * 1e9 / r.tokens_per_s / 3600.0 / HOURS_PER_DAY
        lost = (r.exposed_s / r.step_s, r.bubble_s / r.step_s) if r.step_s > 0 else (0.0, 0.0)
        figures.update(exposed_comm_share=_r(lost[0], 4), bubble_share=_r(lost[1], 4), idle_share=_r(sum(lost), 4))
        figures.update(step_time_s=_r(r.step_s, 4), mfu=_r(r.mfu, 4), tokens_per_s=tokens_per_s,
                       time_to_train_days=_r(days), train_tokens_b=w.train_tokens_b, run_cost_usd=run_cost(ctx, days),
                       train_days=days)
    if inf is not None:
        figures.update(decode_tokens_per_s=_r(inf.decode_tokens_per_s, 1),
                       max_concurrent_sequences=inf.max_concurrent_sequences, inference=inf,
                       inference_requests_per_s=_r(served_requests_per_s(inf, ctx.totals.gpus)),
                       inference_output_tokens_per_s=_r(None if inf.requests_per_s_per_replica is None else
                                                        served_requests_per_s(inf, ctx.totals.gpus) * w.output_tokens, 1),
                       inference_usd_per_m_output_tokens=token_cost(ctx, inf.output_tokens_per_s_per_gpu))
    section = WorkloadSection(
        model=m.name, params_b=round(m.params / 1e9, 3), active_params_b=round(m.active_params / 1e9, 3),
        memory_per_gpu_gb=_r(mem.total_gb if mem else None), memory=mem, gpu_memory_gb=o.gpu_memory_gb,
        fits=o.fits, activation_memory_gb=_r(mem.activations_gb if mem else None), **run_figures(o), **figures)
    return section, o.findings


def served_requests_per_s(inf, gpus: int) -> float | None:
    """The requests/s the plan's GPUs serve: its whole replicas x a replica's requests/s."""
    if inf.requests_per_s_per_replica is None:
        return None
    return gpus // max(1, inf.replica_gpus) * inf.requests_per_s_per_replica


def run_figures(o: WorkloadOutcome) -> dict[str, Any]:
    """The recompute and sharding the job is evaluated with."""
    run = o.evaluated
    if run is None:
        return {}
    layers = run.recompute_layers if run.recompute == "full" else None
    return {"recompute": run.recompute, "recompute_layers": layers, "sharding": run.sharding}


def token_cost(ctx, tokens_per_s_per_gpu: float | None) -> dict[str, float] | None:
    """$ per million output tokens: the GPU-hours they take (1e6 / tokens per GPU-second /
    3,600) priced as ``run_cost`` prices a GPU-hour."""
    if not tokens_per_s_per_gpu or not ctx.totals.gpus:
        return None
    gpu_hours = gpu_hours_per_million_tokens(tokens_per_s_per_gpu)
    per_gpu_hour = run_cost(ctx, 1.0 / HOURS_PER_DAY)  # one hour of every GPU
    return {k: round(v / ctx.totals.gpus * gpu_hours, 4) for k, v in per_gpu_hour.items()}


def plan_rent_factor(ctx) -> float:
    """The plan's GPUs' rental rate against the H100 rates of its cost settings: the figure
    set, else by their prices (``planner.hardware.rent``), kept while the counts stay. The
    cost, schedule and workload sections price renting with it."""
    by_price = ctx.memo.get("rent factor by price", ("counts",), rent_factor_by_price, ctx.catalog, ctx.counts)
    return ctx.plan.settings.costs.gpu_factor(by_price)


def run_cost(ctx, days: float) -> dict[str, float]:
    """The training run priced two ways: renting the GPUs for its hours at each rental rate
    (with the rental uplift), and building: the capex share of the run's months over the
    cost horizon plus the operating cost of those months."""
    costs = ctx.plan.settings.costs
    hours = days * HOURS_PER_DAY
    gpus = ctx.totals.gpus
    out = {f"rent_{name}": round(gpus * hours * rate * (1.0 + costs.rent_uplift), 2)
           for name, rate in costs.rental_rates(plan_rent_factor(ctx)).items()}
    cost = ctx.sections.get("cost")
    if cost is not None:
        months = hours / costs.hours_per_month
        out["build"] = round(cost["capex_usd"] * months / costs.horizon_months + cost["opex_usd_per_month"] * months, 2)
    return out
