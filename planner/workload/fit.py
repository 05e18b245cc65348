"""The recompute and sharding a training job runs with: the user's, or the least more that fits.

Recompute climbs from the user's choice (auto starts at selective): none, selective,
selective with the MoE layers (mixture-of-experts models), full recompute of 1, 2, ... of each stage's layers (Megatron-LM's --recompute-num-layers,
block method), full recompute of every layer. Sharding climbs next, only when full
recompute does not fit: DDP, ZeRO-1, ZeRO-2, ZeRO-3 (FSDP hybrid shard -> full shard).
The first rung that fits is the job the planner evaluates; nothing less than the user's
choice is ever taken.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.settings import WorkloadSettings
from planner.workload.activations import max_recompute_layers
from planner.workload.memory import MemoryEstimate, training_memory
from planner.workload.models import ModelShape

SHARDING_LADDER = ("ddp", "zero1", "zero2", "zero3")


@dataclass(frozen=True, slots=True)
class Fit:
    """The settings the job is evaluated with, its memory, and whether it fits."""

    settings: WorkloadSettings
    memory: MemoryEstimate
    fits: bool | None  # None: the GPUs' memory is unknown


def recompute_ladder(w: WorkloadSettings, shape: ModelShape, pp: int) -> list[tuple[str, int | None]]:
    """(recompute, layers recomputed in full per stage) from the user's choice upward."""
    stage = max_recompute_layers(shape, pp)
    rungs: list[tuple[str, int | None]] = [("none", None), ("selective", None)]
    rungs += [("selective_moe", None)] if shape.is_moe or w.recompute == "selective_moe" else []
    rungs += [("full", k) for k in range(1, stage)] + [("full", None)]
    if w.recompute == "auto":
        return rungs[1:]
    if w.recompute == "full":
        k = w.recompute_layers
        return rungs[rungs.index(("full", k)):] if k is not None and k < stage else [("full", None)]
    return rungs[rungs.index((w.recompute, None)):]


def sharding_ladder(sharding: str) -> list[str]:
    if sharding == "fsdp_hybrid":
        return ["fsdp_hybrid", "fsdp_full"]
    if sharding in SHARDING_LADDER:
        return list(SHARDING_LADDER[SHARDING_LADDER.index(sharding):])
    return [sharding]


def fit_training(w: WorkloadSettings, shape: ModelShape, *, available_gb: float | None,
                 domain_ranks: int = 1) -> Fit:
    """The first rung of the ladders (module docstring) whose memory fits ``available_gb``;
    when none does, the user's sharding with every layer recomputed, ``fits`` False."""
    def estimate(cand: WorkloadSettings) -> MemoryEstimate:
        return training_memory(cand, shape, tp=cand.tp, pp=cand.pp, dp=cand.dp, ep=cand.ep,
                               domain_ranks=domain_ranks)

    rungs = recompute_ladder(w, shape, w.pp)
    if not available_gb:
        cand = w.model_copy(update={"recompute": rungs[0][0], "recompute_layers": rungs[0][1]})
        return Fit(cand, estimate(cand), None)
    for sharding in sharding_ladder(w.sharding):
        tried: dict[int, tuple[WorkloadSettings, MemoryEstimate]] = {}

        def fits(i: int) -> bool:
            if i not in tried:
                recompute, layers = rungs[i]
                cand = w.model_copy(update={"sharding": sharding, "recompute": recompute,
                                            "recompute_layers": layers})
                tried[i] = (cand, estimate(cand))
            return tried[i][1].total_gb <= available_gb

        first = first_fitting(rungs, fits)
        if first is not None:
            return Fit(*tried[first], True)
    worst = w.model_copy(update={"recompute": "full", "recompute_layers": None})
    return Fit(worst, estimate(worst), False)


def first_fitting(rungs: list[tuple[str, int | None]], fits) -> int | None:
    """The index of the first rung of the recompute ladder that ``fits``, or None. The rungs of
    full recompute of k layers a stage take less memory as k grows, so a run of them is bisected
    (a stage of 100,000 layers is 17 probes, not 100,000); the others are tried in turn."""
    i = 0
    while i < len(rungs):
        if rungs[i][0] != "full" or rungs[i][1] is None:
            if fits(i):
                return i
            i += 1
            continue
        end = i
        while end < len(rungs) and rungs[end][0] == "full" and rungs[end][1] is not None:
            end += 1
        lo, hi = i, end
        while lo < hi:
            mid = (lo + hi) // 2
            if fits(mid):
                hi = mid
            else:
                lo = mid + 1
        if lo < end:
            return lo
        i = end
    return None


def describe_recompute(w: WorkloadSettings, shape: ModelShape) -> str:
    """'selective recompute', 'full recompute of 3 of 8 layers per stage', ..."""
    if w.recompute == "full" and w.recompute_layers is not None:
        return (f"full recompute of {w.recompute_layers} of {max_recompute_layers(shape, w.pp)} layers per stage "
                f"(the rest selective)")
    return {"none": "no recompute", "selective": "selective recompute",
            "selective_moe": "selective recompute with the MoE layers", "full": "full recompute of every layer",
            "auto": "selective recompute"}[w.recompute]
