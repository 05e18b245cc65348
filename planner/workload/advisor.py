"""The layouts a training job can run with, and the smallest change that fits.

One enumeration (``fitting_layouts``) serves both its users, so they cannot disagree about
what fits: the evaluation's advice when a plan does not fit in GPU memory (the fewest
changed settings, then the highest modelled tokens/s) and the design's choice of
parallelism (``planner.design.parallelism``: the fastest with an even batch). Candidates
keep TP x CP x PP x DP equal to the GPUs; each is given the recompute and sharding the
evaluation would give it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.fit import fit_training
from planner.workload.models import ModelShape
from planner.workload.moe import expert_ranks
from planner.workload.search import tp_options
from planner.workload.training import JobShape, model_step

SHARDING_TITLES = {"ddp": "DDP", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "zero3": "ZeRO-3",
                   "fsdp_full": "FSDP full shard", "fsdp_hybrid": "FSDP hybrid shard"}


@dataclass(frozen=True, slots=True)
class FitAdvice:
    changes: dict[str, object]
    memory_gb: float
    tokens_per_s: float

    def describe(self) -> str:
        parts = []
        for key, value in self.changes.items():
            if key == "sharding":
                parts.append(f"sharding {SHARDING_TITLES[str(value)]}")
            elif key == "recompute":
                parts.append("selective activation recompute with the MoE layers" if value == "selective_moe"
                             else f"{value} activation recompute")
            elif key == "recompute_layers":
                parts.append(f"{value} layers per stage recomputed in full")
            else:
                parts.append(f"{key.upper()} {value}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Layout:
    """One TP x PP x DP of the GPUs, with the recompute and sharding that fit it."""

    settings: WorkloadSettings
    memory_gb: float


def fitting_layouts(w: WorkloadSettings, model: ModelShape, shape: JobShape, gpus: int, memory_gb: float | None,
                    *, prepare: Callable[[WorkloadSettings], WorkloadSettings] | None = None) -> list[Layout]:
    """Every TP x PP x DP of the GPUs that fits, fitted as the evaluation fits a job
    (``fit_training``: the least recompute, then sharding, that fits). TP: the asked one and
    the powers of two within the NVLink domain that divide the attention heads; PP: the asked
    one and every divisor of the rest up to the layers; CP kept as set; EP the largest divisor
    of DP up to the asked one. ``prepare`` changes each candidate before it is fitted (the
    design's batch of whole micro-batches). Unknown memory (None): every layout counts."""
    local = shape.local_gpus
    out: list[Layout] = []
    for tp in sorted({w.tp, *tp_options(model, local)}):
        if gpus % (tp * w.cp):
            continue
        rest = gpus // (tp * w.cp)
        for pp in sorted({w.pp, *[p for p in range(1, min(rest, model.layers) + 1) if rest % p == 0]}):
            if rest % pp:
                continue
            dp = rest // pp
            cand = w.model_copy(update={"tp": tp, "pp": pp, "dp": dp, "ep": math.gcd(w.ep, expert_ranks(w, tp, dp))})
            if prepare is not None:
                cand = prepare(cand)
            fit = fit_training(cand, model, available_gb=memory_gb, domain_ranks=max(1, local // tp))
            if fit.fits is not False:
                out.append(Layout(fit.settings, fit.memory.total_gb))
    return out


def smallest_fitting_change(w: WorkloadSettings, model: ModelShape, fabric: FabricSettings, shape: JobShape,
                            gpus: int, memory_gb: float) -> FitAdvice | None:
    """Of the layouts that fit (``fitting_layouts``), the one with the fewest changed settings,
    then the highest modelled tokens/s."""
    keys = ["tp", "pp", "dp", "sharding"] + ([] if w.recompute == "auto" else ["recompute", "recompute_layers"])
    best: tuple[tuple[int, float], FitAdvice] | None = None
    for layout in fitting_layouts(w, model, shape, gpus, memory_gb):
        run = layout.settings
        changes = {k: getattr(run, k) for k in keys if getattr(w, k) != getattr(run, k)}
        tokens_s = model_step(run, fabric, shape, model=model).tokens_per_s
        rank = (len(changes), -tokens_s)
        if best is None or rank < best[0]:
            best = (rank, FitAdvice(changes, layout.memory_gb, tokens_s))
    return None if best is None else best[1]
