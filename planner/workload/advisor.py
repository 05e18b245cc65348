"""When a training plan does not fit in GPU memory: the smallest change that does.

Candidates keep TP x PP x DP equal to the GPUs and vary the sharding (ZeRO-1/2/3), the
activation recompute, TP (powers of two within the NVLink domain) and PP. Among those
that fit, the fewest changed settings wins, then the highest modelled tokens/s.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.memory import training_memory
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
    local = shape.local_gpus
    tps = sorted({w.tp, *[t for t in _powers_of_two(local) if gpus % t == 0]})
    shardings = [w.sharding] + [s for s in ("zero1", "zero2", "zero3") if s != w.sharding]
    recomputes = [w.recompute] + [r for r in ("selective", "full") if r != w.recompute]
    fitting: list[tuple[int, dict[str, object], float]] = []
    for tp in tps:
        if gpus % tp:
            continue
        rest = gpus // tp
        pps = sorted({w.pp, *[p for p in _powers_of_two(min(rest, model.layers)) if rest % p == 0]})
        for pp in pps:
            if rest % pp:
                continue
            dp = rest // pp
            for sharding in shardings:
                for recompute in recomputes:
                    cand = w.model_copy(update={"tp": tp, "pp": pp, "dp": dp, "sharding": sharding,
                                                "recompute": recompute, "ep": min(w.ep, dp)})
                    mem = training_memory(cand, model, tp=tp, pp=pp, dp=dp, ep=cand.ep,
                                          domain_ranks=max(1, local // tp))
                    if mem.total_gb > memory_gb:
                        continue
                    changes = {k: v for k, v in (("tp", tp), ("pp", pp), ("dp", dp), ("sharding", sharding),
                                                 ("recompute", recompute)) if getattr(w, k) != v}
                    fitting.append((len(changes), changes, mem.total_gb))
    if not fitting:
        return None
    fewest = min(c for c, _, _ in fitting)
    best: FitAdvice | None = None
    for count, changes, mem_gb in fitting:
        if count != fewest:
            continue
        cand = w.model_copy(update=changes)
        tps_ = model_step(cand, fabric, shape, model=model).tokens_per_s
        if best is None or tps_ > best.tokens_per_s:
            best = FitAdvice(changes, mem_gb, tps_)
    return best
