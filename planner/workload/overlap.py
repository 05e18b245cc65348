"""How much of the data-parallel traffic a step hides behind its compute: per layer, never
more than the compute running beside it.

The traffic comes in two phases. Sharded weights (ZeRO-3, FSDP) are all-gathered before
each layer's forward, and again before its backward while the layer's gradients are
reduce-scattered; both happen on every micro-batch, since the gathered weights are freed
after use (Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054, section 7.2.2; Zhao et al.
2023, "PyTorch FSDP", arXiv 2304.11277, section 3.3). Unsharded weights (DDP, ZeRO-1/2)
reduce their accumulated gradients once a step, layer by layer in buckets as the last
micro-batch's backward produces them (Li et al. 2020, "PyTorch Distributed", VLDB, section
3.2.3; Megatron-LM's --overlap-grad-reduce).

Prefetch issues a layer's collective while the layer before it computes (FSDP's backward
prefetch and its rate limiter, at most two all-gathers in flight: Zhao et al. 2023,
sections 3.3.2 and 3.4; DeepSpeed ZeRO-3's stage3_prefetch_bucket_size). With ``n`` equal
layers per stage, a collective of ``c`` seconds per layer and ``x`` seconds of compute per
layer to hide it under, the communication stream and the compute stream run as a two-stage
pipeline; whatever the prefetch depth, the phase ends

    exposed = c + (n - 1) x max(0, c - x)

after its compute: the first gather has no compute before it (the last reduce-scatter none
after it), and each further layer waits for what its compute could not cover. In the
backward the gather of the next layer and the reduce-scatter of this one are in flight at
the same time and share the links, so ``c`` is their sum. Per micro-batch, the forward is
1 / (3 + r) of the compute and the backward the rest, r the forward work run again in the
backward as a share of one forward: the layers recomputed in full, the MoE layers' forward
under selective recompute with the MoE layers, the attention core's without FlashAttention.

The user's ``overlap`` is the share of the traffic the framework issues beside the compute
(empty: what the frameworks do by default, every weight-sharded collective prefetched and
no unsharded gradient reduction overlapped, Megatron-LM's default); of that, only what the
formula above leaves hidden is hidden.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

WEIGHT_SHARDED = ("zero3", "fsdp_full", "fsdp_hybrid")  # gather the weights per layer and micro-batch


@dataclass(frozen=True, slots=True)
class DpPhases:
    """The data-parallel collectives' time per step, split by the phase they run beside."""

    forward_s: float  # weight all-gathers before the forward (weight-sharded only)
    backward_s: float  # gathers and gradient reduction beside the backward

    @property
    def total_s(self) -> float:
        return self.forward_s + self.backward_s


def exposed_per_phase(comm_s: float, compute_s: float, layers: float) -> float:
    """``c + (n - 1) max(0, c - x)`` of one phase of ``layers`` equal layers, ``comm_s`` and
    ``compute_s`` the phase's totals (module docstring)."""
    if comm_s <= 0:
        return 0.0
    n = max(1.0, layers)
    c, x = comm_s / n, compute_s / n
    return c + (n - 1.0) * max(0.0, c - x)


def default_overlap(sharding: str) -> float:
    """Empty ``overlap``: weight-sharded collectives prefetched, gradient all-reduce not."""
    return 1.0 if sharding in WEIGHT_SHARDED else 0.0


def hidden_dp_s(phases: DpPhases, *, sharding: str, overlap: float | None, compute_s: float, recompute_share: float,
                layers_per_stage: float, micro_batches: int) -> float:
    """Seconds of the step's data-parallel traffic hidden behind its compute (module docstring)."""
    total = phases.total_s
    share = default_overlap(sharding) if overlap is None else overlap
    if total <= 0 or share <= 0:
        return 0.0
    m = max(1, micro_batches)
    forward_share = 1.0 / (3.0 + recompute_share)
    per_mb_forward = compute_s * forward_share / m
    per_mb_backward = compute_s * (1.0 - forward_share) / m
    if sharding in WEIGHT_SHARDED:  # both phases on every micro-batch
        exposed = m * (exposed_per_phase(phases.forward_s / m, per_mb_forward, layers_per_stage)
                       + exposed_per_phase(phases.backward_s / m, per_mb_backward, layers_per_stage))
    else:  # once, beside the last micro-batch's backward
        exposed = phases.forward_s + exposed_per_phase(phases.backward_s, per_mb_backward, layers_per_stage)
    return max(0.0, min(share * total, total - exposed))


def layer_calls(layers: int, pp: int, micro_batches: int) -> int:
    """Collective calls of one weight-sharded kind per step: one per layer of the stage and micro-batch."""
    return max(1, math.ceil(layers / max(1, pp))) * max(1, micro_batches)
