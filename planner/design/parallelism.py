"""The parallelism a design trains with: TP x PP x DP (x EP) over every GPU, the global
batch rounded to whole micro-batches per replica, and the recompute and sharding that fit.

The layouts are the advisor's (``fitting_layouts``, the same the evaluation's "does not fit"
advice picks from, so the two cannot disagree about what fits): every TP and PP of the GPUs,
fitted as the evaluation fits a job (the least recompute, then sharding, that fits in GPU
memory), each timed (``model_step``). The global batch becomes m x DP x micro-batch sequences with m the
nearest whole number of micro-batches, and at least 3 (p - 1) so that the 1F1B bubble
(p - 1) / (m + p - 1) stays at or under 25 % (Narayanan et al. 2021, section 2.2). The
fastest candidate whose batch stays within 25 % of the asked one wins; when none does (a
batch too small for the GPUs), the smallest batch that holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from planner.findings import Finding
from planner.network.checks import NodeSummary
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.advisor import SHARDING_TITLES, fitting_layouts
from planner.workload.checks import evaluate_workload, job_shape
from planner.workload.models import ModelShape, model_shape
from planner.workload.training import model_step

BATCH_SLACK = 0.25  # Planner assumption: a design may move the global batch by a quarter to make it even
MAX_BUBBLE = 0.25  # the evaluation warns above a 25 % bubble (workload.pipeline.bubble)


def _min_micro_batches(pp: int) -> int:
    """(p - 1) / (m + p - 1) <= 1/4  <=>  m >= 3 (p - 1)."""
    return math.ceil((pp - 1) * (1 - MAX_BUBBLE) / MAX_BUBBLE) if pp > 1 else 1


def choose_parallelism(w: WorkloadSettings, fabric: FabricSettings,
                       nodes: NodeSummary) -> tuple[WorkloadSettings, list[Finding]]:
    model = model_shape(w)
    shape = job_shape(nodes, fabric)
    gpus = nodes.gpus
    sequences = max(1, round(w.global_batch_tokens / w.seq_len))
    if _holds(w, fabric, nodes):
        return w, []

    def whole_micro_batches(cand: WorkloadSettings) -> WorkloadSettings:
        per = cand.dp * cand.micro_batch_size
        m = max(1, round(sequences / per), _min_micro_batches(cand.pp))
        return cand.model_copy(update={"global_batch_tokens": m * per * w.seq_len, "pp_schedule": "1f1b"})

    best: tuple[tuple, WorkloadSettings, float] | None = None
    for layout in fitting_layouts(w, model, shape, gpus, nodes.memory_gb or None, prepare=whole_micro_batches):
        run = layout.settings
        tokens_s = model_step(run, fabric, shape, model=model).tokens_per_s
        seqs = run.global_batch_tokens // w.seq_len
        key = (0, -tokens_s) if abs(seqs - sequences) / sequences <= BATCH_SLACK else (1, seqs, -tokens_s)
        if best is None or key < best[0]:
            best = (key, run, tokens_s)
    if best is None:
        return _no_pipeline(w, model, shape.local_gpus, gpus, whole_micro_batches), [Finding(
            "warning", "design.workload.does_not_fit",
            f"model: {model.params / 1e9:,.0f}B parameters do not fit on {gpus:,} GPUs of {nodes.memory_gb:g} GB "
            "under any TP / PP / DP, sharding or recompute: ask for more GPUs or GPUs with more memory")]
    _, run, tokens_s = best
    notes = [Finding(
        "info", "design.parallelism",
        f"Parallelism for {model.params / 1e9:,.0f}B on {gpus:,} GPUs: TP {run.tp} x PP {run.pp} x DP {run.dp}"
        f"{f' x CP {run.cp}' if run.cp > 1 else ''}, micro-batch {run.micro_batch_size}, "
        f"{run.recompute} recompute, {SHARDING_TITLES[run.sharding]}, 1F1B: {tokens_s:,.0f} tokens/s modelled")]
    if run.global_batch_tokens != w.global_batch_tokens:
        seqs = run.global_batch_tokens // w.seq_len
        notes.append(Finding(
            "info", "design.batch",
            f"Global batch set to {seqs:,} sequences ({run.global_batch_tokens:,} tokens, asked "
            f"{w.global_batch_tokens:,}): whole micro-batches on every replica, and at least 3 (p - 1) of them "
            "so the pipeline bubble stays at or under 25 %"))
    return run, notes


def _no_pipeline(w: WorkloadSettings, model: ModelShape, local: int, gpus: int,
                 prepare: Callable[[WorkloadSettings], WorkloadSettings]) -> WorkloadSettings:
    """When nothing fits: the widest TP within the node that divides the GPUs and heads, no
    pipeline, DP the rest (the evaluation then says how far it is from fitting)."""
    tp = 1
    while tp * 2 <= local and gpus % (tp * 2 * w.cp) == 0 and model.heads % (tp * 2) == 0:
        tp *= 2
    if gpus % (tp * w.cp):
        return w
    dp = gpus // (tp * w.cp)
    return prepare(w.model_copy(update={"tp": tp, "pp": 1, "dp": dp, "ep": math.gcd(w.ep, dp)}))


def _holds(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary) -> bool:
    """The asked parallelism is kept when the workload evaluation finds nothing wrong with it
    (every GPU used, an even batch, fits as asked, a bubble at or under 25 %)."""
    if w.tp * w.cp * w.pp * w.dp != nodes.gpus:
        return False
    out = evaluate_workload(w, fabric, nodes)
    return out.fits is not False and not [f for f in out.findings if f.severity != "info"
                                          and f.code != "workload.claim.impossible"]
