"""The parallelism a design trains with: the best layout of the search over every GPU
(``planner.workload.search``: TP, CP, PP, DP, EP, the schedule and its virtual stages, the
micro-batch, sharding and recompute, each candidate fitted and timed as the check fits and
times a job), within the global batch the user asked for.

A layout the settings state explicitly is kept while it holds (every GPU used, an even
batch, fits, a bubble at or under 25 %): the templates' reference designs and the plans the
remedies and imports pass through here. The batch is the user's: when no layout splits it
evenly over its replicas, the nearest that does is taken and a warning says by how much.
"""

from __future__ import annotations

import math

from planner import vocabulary
from planner.findings import Finding
from planner.hardware.nodes import NodeSummary
from planner.numbers import counted
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.advisor import SHARDING_TITLES
from planner.workload.bubble import TARGET as BUBBLE_TARGET
from planner.workload.checks import evaluate_workload, job_shape
from planner.workload.fit import describe_recompute
from planner.workload.models import ModelShape, model_shape
from planner.workload.search import BATCH_TOLERANCE, Candidate, search_layouts, split_text, tp_splits_heads


def choose_parallelism(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary, *,
                       keep_holding: bool = True) -> tuple[WorkloadSettings, list[Finding]]:
    """The layout for ``nodes``' GPUs: ``w``'s own while it holds (``keep_holding``), else
    the search's best, with findings that say what was chosen and what the batch became."""
    run, notes, _ = choose_layout(w, fabric, nodes, keep_holding=keep_holding)
    return run, notes


def _model_title(w: WorkloadSettings, model: ModelShape) -> str:
    """'Qwen3-235B-A22B (22B active)' for a preset, '70B' for a custom shape."""
    if w.model != "custom":
        return vocabulary.choice_title(w.model)
    return f"{model.params / 1e9:,.0f}B"


def choose_layout(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary, *,
                  keep_holding: bool = True) -> tuple[WorkloadSettings, list[Finding], tuple[Candidate, ...]]:
    """``choose_parallelism`` with the layouts the search found, best first (none when the
    asked layout was kept)."""
    stated: list[Finding] = []
    if keep_holding:
        why = why_not_held(w, fabric, nodes)
        if why is None:
            return w, [], ()
        stated.append(Finding("info", "design.parallelism.stated",
                              f"The layout asked for, {split_text(w)}, was not kept: {why}; the design searched "
                              f"for one instead"))
    model = model_shape(w)
    shape = job_shape(nodes, fabric)
    gpus = nodes.gpus
    found = search_layouts(w, model, fabric, shape, gpus, nodes.memory_gb or None)
    best = found.best
    if best is None:
        least = _least_memory(w, model, shape.local_gpus, gpus)
        held = (f"; the plan holds the layout that needs the least memory, TP {least.tp} x PP {least.pp} x DP "
                f"{least.dp}, every layer recomputed, and check says by how much it is over") if least is not w else ""
        return least, [Finding(
            "warning", "design.workload.does_not_fit",
            f"model: {model.params / 1e9:,.0f}B parameters do not fit on {gpus:,} GPUs of {nodes.memory_gb:g} GB "
            f"under any TP / PP / DP, sharding or recompute: ask for more GPUs or GPUs with more memory{held}")], ()
    run = best.settings
    notes = stated + [Finding("info", "design.parallelism",
                     f"Parallelism for {_model_title(w, model)} on {gpus:,} GPUs, the best of {found.evaluated:,} "
                     f"layouts evaluated: {describe_layout(best, model)}" + _runners_up(found.candidates[1:], model))]
    if found.batch_kept and w.global_batch_tokens % w.seq_len:
        tokens, seqs = w.global_batch_tokens, best.batch_sequences
        under = tokens < w.seq_len
        share = "is less than one sequence" if under else f"is {tokens / w.seq_len:,.2f} sequences"
        which = ("smallest batch there is" if under else "nearest whole number" if seqs == round(tokens / w.seq_len)
                 else "whole number next to it that a layout splits")
        notes.append(Finding(
            "warning", "design.batch",
            f"The global batch of {counted(tokens, 'token')} {share} of {w.seq_len:,} tokens; "
            f"set to {counted(seqs, 'sequence')} ({run.global_batch_tokens:,} tokens), the {which}: "
            f"ask for a multiple of {w.seq_len:,} tokens"))
    if best.step.bubble > BUBBLE_TARGET:
        seqs = best.batch_sequences
        notes.append(Finding(
            "warning", "design.batch.small",
            f"The global batch of {counted(seqs, 'sequence')} is small for {gpus:,} GPUs: the best "
            f"layout, {split_text(run)}, gives "
            + (f"each of its {run.dp:,} replicas " if run.dp != 1 else "its one replica ")
            + f"{best.step.micro_batches:,} micro-batch"
            f"{'es' if best.step.micro_batches != 1 else ''} and idles {best.step.bubble:.0%} of the step in the "
            f"pipeline bubble (MFU {best.step.mfu:.1%}): a larger batch, or fewer GPUs, uses them better; check's "
            "fix for the bubble says by how much"))
    if not found.batch_kept:
        seqs, tokens = best.batch_sequences, w.global_batch_tokens
        options = found.asked_options or (found.asked_sequences,)
        asked = " or ".join(f"{n:,}" for n in options) + (" sequences" if options != (1,) else " sequence")
        closest = found.nearest
        if closest is None or closest.batch_sequences == seqs:
            why = "the nearest that can"
        else:  # a faster layout within the tolerance: say so, and what the nearest batch would give
            near = closest.batch_sequences * w.seq_len
            why = (f"the fastest layout within {BATCH_TOLERANCE:.0%} of it, where a batch trains alike (planner "
                   f"assumption); the nearest batch that can is {counted(closest.batch_sequences, 'sequence')} "
                   f"({near / tokens - 1:+.2%}: {split_text(closest.settings)}, {closest.tokens_per_s:,.0f} tokens/s "
                   f"against {best.tokens_per_s:,.0f})")
        notes.append(Finding(
            "warning", "design.batch",
            f"The global batch of {asked} ({tokens:,} token"
            f"{'s' if tokens != 1 else ''}) cannot be split into whole micro-batches on the data-parallel replicas "
            f"of any layout of {gpus:,} GPUs; set to {counted(seqs, 'sequence')} "
            f"({run.global_batch_tokens:,} tokens, {run.global_batch_tokens / tokens - 1:+.1%}), {why}: ask for "
            f"{'that batch' if closest is None or closest.batch_sequences == seqs else 'one of these batches'}, or a "
            "GPU count that a layout divides it by"))
    return run, notes, found.candidates


def describe_layout(c: Candidate, model: ModelShape) -> str:
    """'TP 8 x PP 16 x DP 128, micro-batch 1, interleaved v 8, ..., ZeRO-1: 2,460,556 tokens/s, MFU 40.1 % modelled'."""
    w = c.settings
    return (f"{c.describe()}, {describe_recompute(w, model)}, {SHARDING_TITLES[w.sharding]}: "
            f"{c.tokens_per_s:,.0f} tokens/s, MFU {c.step.mfu:.1%} modelled")


def _runners_up(others: tuple[Candidate, ...], model: ModelShape) -> str:
    if not others:
        return ""
    return "; runners-up: " + "; ".join(describe_layout(c, model) for c in others)


def _least_memory(w: WorkloadSettings, model: ModelShape, local: int, gpus: int) -> WorkloadSettings:
    """When nothing fits: the layout that needs the least memory a GPU, so the evaluation says
    how far the closest one is from fitting: the widest TP within the node that divides the
    GPUs and heads, the deepest pipeline the layers allow, DP the rest with the weights,
    gradients and optimizer sharded over it (ZeRO-3), every layer recomputed; the batch as
    asked."""
    tp = 1
    while tp * 2 <= local and gpus % (tp * 2 * w.cp) == 0 and tp_splits_heads(model, tp * 2):
        tp *= 2
    if gpus % (tp * w.cp):
        return w
    rest = gpus // (tp * w.cp)
    pp = max(p for p in range(1, min(rest, model.layers) + 1) if rest % p == 0)
    dp = rest // pp
    return w.model_copy(update={"tp": tp, "pp": pp, "dp": dp, "ep": math.gcd(w.ep, dp), "expert_tp": None,
                                "pp_schedule": "1f1b",
                                "sharding": "zero3" if dp > 1 else w.sharding, "recompute": "full",
                                "recompute_layers": None})


LAYOUT_NEUTRAL = ("workload.claim.impossible", "workload.kernels.attention", "workload.precision.fp8")


def why_not_held(w: WorkloadSettings, fabric: FabricSettings, nodes: NodeSummary) -> str | None:
    """Why the asked parallelism is not kept, None when it is: it is kept when the workload
    evaluation finds nothing wrong with it (every GPU used, an even batch, fits as asked, a
    bubble at or under 25 %)."""
    job = w.tp * w.cp * w.pp * w.dp
    if job != nodes.gpus:
        return f"it takes {job:,} GPUs of the {nodes.gpus:,} placed"
    out = evaluate_workload(w, fabric, nodes)
    # a claim to check and the kernels' and precision's fit to the GPU say nothing of the layout
    wrong = [f for f in out.findings if f.severity != "info" and f.code not in LAYOUT_NEUTRAL]
    if out.fits is False and not wrong:
        return "it does not fit in GPU memory"
    if not wrong:
        return None
    return "; ".join(f"{f.message} ({f.code})" for f in wrong[:2]) + (
        f"; and {len(wrong) - 2} more" if len(wrong) > 2 else "")

