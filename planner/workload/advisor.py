"""When a training plan does not fit in GPU memory: the smallest change that does.

Candidates keep TP x PP x DP equal to the GPUs and vary TP (powers of two within the
NVLink domain) and PP; each is given the recompute and sharding the evaluation would
give it. Among those that fit, the fewest changed settings wins, then the highest
modelled tokens/s.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.fit import fit_training
from planner.workload.models import ModelShape
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
                parts.append(f"{value} activation recompute")
            elif key == "recompute_layers":
                parts.append(f"{value} layers per stage recomputed in full")
            else:
                parts.append(f"{key.upper()} {value}")
        return ", ".join(parts)


def _powers_of_two(limit: int) -> list[int]:
    out, x = [], 1
    while x <= limit:
        out.append(x)
        x *= 2
    return out


def smallest_fitting_change(w: WorkloadSettings, model: ModelShape, fabric: FabricSettings, shape: JobShape,
                            gpus: int, memory_gb: float) -> FitAdvice | None:
    """Each TP x PP x DP of the GPUs fitted as the evaluation fits a job (``fit_training``:
    the least recompute, then sharding, that fits); the fewest changed settings wins."""
    local = shape.local_gpus
    tps = sorted({w.tp, *[t for t in _powers_of_two(local) if gpus % (t * w.cp) == 0]})
    fitting: list[tuple[int, dict[str, object], float, WorkloadSettings]] = []
    for tp in tps:
        if gpus % (tp * w.cp):
            continue
        rest = gpus // (tp * w.cp)  # context parallelism kept as set
        pps = sorted({w.pp, *[p for p in _powers_of_two(min(rest, model.layers)) if rest % p == 0]})
        for pp in pps:
            if rest % pp:
                continue
            dp = rest // pp
            cand = w.model_copy(update={"tp": tp, "pp": pp, "dp": dp, "ep": min(w.ep, dp)})
            fit = fit_training(cand, model, available_gb=memory_gb, domain_ranks=max(1, local // tp))
            if not fit.fits:
                continue
            run = fit.settings
            keys = ["tp", "pp", "dp", "sharding"] + ([] if w.recompute == "auto" else ["recompute", "recompute_layers"])
            changes = {k: getattr(run, k) for k in keys if getattr(w, k) != getattr(run, k)}
            fitting.append((len(changes), changes, fit.memory.total_gb, run))
    if not fitting:
        return None
    fewest = min(c for c, _, _, _ in fitting)
    best: FitAdvice | None = None
    for count, changes, mem_gb, run in fitting:
        if count != fewest:
            continue
        tps_ = model_step(run, fabric, shape, model=model).tokens_per_s
        if best is None or tps_ > best.tokens_per_s:
            best = FitAdvice(changes, mem_gb, tps_)
    return best
