"""The parallelism a design trains with: TP x PP x DP (x EP) over every GPU, the global
batch rounded to whole micro-batches per replica, and the recompute and sharding that fit.

Every TP (powers of two within the NVLink domain, dividing the attention heads) and PP
(dividing the rest, at most the layers) is fitted as the evaluation fits a job
(``fit_training``: the least recompute, then sharding, that fits in GPU memory) and timed
(``model_step``). The global batch becomes m x DP x micro-batch sequences with m the
nearest whole number of micro-batches, and at least 3 (p - 1) so that the 1F1B bubble
(p - 1) / (m + p - 1) stays at or under 25 % (Narayanan et al. 2021, section 2.2). The
fastest candidate whose batch stays within 25 % of the asked one wins; when none does (a
batch too small for the GPUs), the smallest batch that holds.
"""

from __future__ import annotations

import math

from planner.findings import Finding
from planner.network.checks import NodeSummary
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.advisor import SHARDING_TITLES
from planner.workload.checks import evaluate_workload, job_shape
from planner.workload.fit import fit_training
from planner.workload.models import model_shape
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
    gpus, local = nodes.gpus, shape.local_gpus
    sequences = max(1, round(w.global_batch_tokens / w.seq_len))
    memory = nodes.memory_gb or None
    if _holds(w, fabric, nodes):
        return w, []
    best: tuple[tuple, WorkloadSettings, float] | None = None
    fallback: WorkloadSettings | None = None
    tp = 1
    while tp <= local:
        if gpus % (tp * w.cp) == 0 and model.heads % tp == 0:
            rest = gpus // (tp * w.cp)
            for pp in range(1, min(rest, model.layers) + 1):
                if rest % pp:
                    continue
                dp = rest // pp
                per = dp * w.micro_batch_size
                m = max(1, round(sequences / per), _min_micro_batches(pp))
                cand = w.model_copy(update={"tp": tp, "pp": pp, "dp": dp, "ep": math.gcd(w.ep, dp),
                                            "global_batch_tokens": m * per * w.seq_len, "pp_schedule": "1f1b"})
                if pp == 1:
                    fallback = cand
                fit = fit_training(cand, model, available_gb=memory, domain_ranks=max(1, local // tp))
                if not fit.fits:
                    continue
                run = cand.model_copy(update={"sharding": fit.settings.sharding, "recompute": fit.settings.recompute,
                                              "recompute_layers": fit.settings.recompute_layers})
                tokens_s = model_step(run, fabric, shape, model=model).tokens_per_s
                change = abs(m * per - sequences) / sequences
                key = (0, -tokens_s) if change <= BATCH_SLACK else (1, m * per, -tokens_s)
                if best is None or key < best[0]:
                    best = (key, run, tokens_s)
        tp *= 2
    if best is None:
        return (fallback or w), [Finding(
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


def _holds(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary) -> bool:
    """The asked parallelism is kept when the workload evaluation finds nothing wrong with it
    (every GPU used, an even batch, fits as asked, a bubble at or under 25 %)."""
    if w.tp * w.cp * w.pp * w.dp != nodes.gpus:
        return False
    out = evaluate_workload(w, fabric, nodes)
    return out.fits is not False and not [f for f in out.findings if f.severity != "info"
                                          and f.code != "workload.claim.impossible"]
