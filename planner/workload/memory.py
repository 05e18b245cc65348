"""GPU memory per GPU for training: model states, activations and framework overhead.

Model states (ZeRO, Rajbhandari et al. 2020, mixed-precision Adam): per parameter the
working weights (bf16/fp16: 2 bytes; fp8 training keeps bf16 weights plus an fp8 copy: 3),
gradients (2 bytes) and K = 12 bytes of optimizer state (fp32 master weights, Adam m and
v), 16 bytes in all for bf16. A GPU holds P / (TP x PP) parameters (routed expert
parameters / (ETP x PP x EP), ETP the experts' tensor parallel); sharding divides over the
data-parallel group of d ranks (DP x CP: context-parallel ranks hold the same parameters,
Megatron-LM shards over both):
DDP w + g + K; ZeRO-1 w + g + K/d; ZeRO-2 w + (g + K)/d; ZeRO-3 / FSDP FULL_SHARD
(w + g + K)/d; FSDP HYBRID_SHARD as ZeRO-3 over the ranks in one NVLink domain.
(Expert parameters are sharded over their own data-parallel group, d x TP / (ETP x EP).)
Sharded weights are gathered whole a layer at a time: ``gathered_layers`` layers' weights in flight (FSDP's
rate limiter: two, Zhao et al. 2023, section 3.4) and one layer's whole gradients before
they are reduce-scattered, each layer the largest of the stage (a MoE layer with its
experts / EP), at 2 bytes a value.

Activations: counted from the model's shape for the schedule and recompute in force
(``planner.workload.activations``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.settings import WorkloadSettings
from planner.workload.activations import activation_bytes
from planner.workload.models import ModelShape
from planner.workload.moe import expert_grid

OPTIMIZER_BYTES = 12.0  # fp32 master weights + Adam m + v (ZeRO's K = 12)
GRAD_BYTES = 2.0


def weight_bytes(precision: str) -> float:
    return 3.0 if precision == "fp8" else 2.0


@dataclass(frozen=True, slots=True)
class MemoryEstimate:
    weights_gb: float
    gradients_gb: float
    optimizer_gb: float
    activations_gb: float
    overhead_gb: float

    @property
    def states_gb(self) -> float:
        return self.weights_gb + self.gradients_gb + self.optimizer_gb

    @property
    def total_gb(self) -> float:
        return self.states_gb + self.activations_gb + self.overhead_gb

    def to_json(self) -> dict[str, float]:
        return {"weights_gb": round(self.weights_gb, 3), "gradients_gb": round(self.gradients_gb, 3),
                "optimizer_gb": round(self.optimizer_gb, 3), "activations_gb": round(self.activations_gb, 3),
                "overhead_gb": round(self.overhead_gb, 3), "total_gb": round(self.total_gb, 3)}


def shard_divisors(sharding: str, d: int, domain_ranks: int) -> tuple[int, int, int]:
    """How many ranks share (weights, gradients, optimizer states) under ``sharding``."""
    d = max(1, d)
    if sharding == "zero1":
        return 1, 1, d
    if sharding == "zero2":
        return 1, d, d
    if sharding in ("zero3", "fsdp_full"):
        return d, d, d
    if sharding == "fsdp_hybrid":
        g = max(1, min(d, domain_ranks))
        return g, g, g
    return 1, 1, 1


def micro_batches(w: WorkloadSettings, dp: int | None = None) -> int:
    """m = global batch sequences / (DP x micro-batch size), at least 1 (a partial one counts whole)."""
    dp = w.dp if dp is None else dp
    sequences = w.global_batch_tokens / w.seq_len
    return max(1, math.ceil(sequences / (dp * w.micro_batch_size) - 1e-9))


def training_memory(w: WorkloadSettings, shape: ModelShape, *, tp: int, pp: int, dp: int, ep: int = 1,
                    sharding: str | None = None, recompute: str | None = None,
                    domain_ranks: int = 1) -> MemoryEstimate:
    """Memory one GPU needs (GB) under the module docstring's accounting. ``domain_ranks``:
    data-parallel ranks inside one NVLink domain (HYBRID_SHARD's shard group)."""
    sharding = sharding or w.sharding
    recompute = recompute or w.recompute
    etp, ep = expert_grid(w, tp, dp, ep)
    fold = tp // etp  # expert ranks per attention rank
    expert = shape.expert_params
    dense_per_gpu = (shape.params - expert) / (tp * pp)
    expert_per_gpu = expert / (etp * pp * ep)
    wb = weight_bytes(w.precision)
    group = dp * w.cp
    dw, dg, do = shard_divisors(sharding, group, domain_ranks)
    ew, eg, eo = shard_divisors(sharding, max(1, group * fold // ep), max(1, domain_ranks * fold // ep))
    weights = dense_per_gpu * wb / dw + expert_per_gpu * wb / ew
    grads = dense_per_gpu * GRAD_BYTES / dg + expert_per_gpu * GRAD_BYTES / eg
    optim = dense_per_gpu * OPTIMIZER_BYTES / do + expert_per_gpu * OPTIMIZER_BYTES / eo
    if dw > 1:  # weight-sharded: the layers gathered whole (module docstring)
        layer = (shape.params - expert) / (tp * shape.layers) + expert / (etp * ep * max(1, shape.moe_layers))
        weights += w.gathered_layers * layer * GRAD_BYTES
        grads += layer * GRAD_BYTES

    if recompute != w.recompute:
        w = w.model_copy(update={"recompute": recompute})
    acts = activation_bytes(w, shape, tp=tp, pp=pp, m=micro_batches(w, dp))
    return MemoryEstimate(weights / 1e9, grads / 1e9, optim / 1e9, acts / 1e9, w.memory_overhead_gb)
