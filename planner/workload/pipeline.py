"""Pipeline-parallel schedules: the bubble, the share of a step the stages wait, and how the
layers split over the stages.

With p stages and m micro-batches per step (Narayanan et al. 2021, "Efficient
Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", section 2.2):
- 1F1B (PipeDream-Flush): the bubble is (p - 1) micro-batch slots out of m + p - 1,
  so (p - 1) / (m + p - 1) of the step;
- interleaved, v model chunks per GPU: the bubble shrinks v-fold, (p - 1) / (v m + p - 1);
  Megatron-LM runs it where m is a multiple of p (``interleaved_allows``).

The layers need not divide evenly: the p x v model chunks (chunk i on stage i mod p) hold
k = ceil(L / (p v)) layers each, but for the p v k - L chunks that hold one fewer, taken from
the two ends of the pipeline inwards, the last chunk first (the first chunk also holds the
embedding, the last the output layer and the loss). Megatron-Core expresses any such split
(``--decoder-first-pipeline-num-layers`` / ``--decoder-last-pipeline-num-layers``, and per
chunk ``--pipeline-model-parallel-layout``: "Custom Pipeline Model Parallel Layout", its
DeepSeek-V3 example 61 layers on PP 16 x VPP 2); NeMo AutoModel's AutoPipeline splits the
layers as evenly as they go. Llama 3 405B's 126 layers on 16 stages x 8 chunks are the case
of two short chunks of none (Dubey et al. 2024, section 3.3.2: the first and last chunks
hold only the embedding and the output).
"""

from __future__ import annotations

import math


def interleaved_allows(p: int, m: int) -> bool:
    """The interleaved schedule runs p stages over m micro-batches per step: more than one stage,
    and m a multiple of p (Megatron-LM's schedule asserts it; the search offers the schedule only
    there, the batch check warns otherwise, the bubble's remedies keep to it)."""
    return p > 1 and m % p == 0


def bubble_fraction(p: int, m: int, schedule: str = "1f1b", v: int = 1) -> float:
    """Fraction of the step the pipeline stages stand idle (module docstring)."""
    if p <= 1:
        return 0.0
    chunks = max(1, v) if schedule == "interleaved" else 1
    return (p - 1) / (chunks * max(1, m) + p - 1)


def chunk_layers(layers: int, chunks: int) -> tuple[int, ...]:
    """The layers of each of ``chunks`` model chunks in pipeline order (module docstring)."""
    chunks = max(1, chunks)
    k = math.ceil(layers / chunks)
    sizes = [k] * chunks
    short = chunks * k - layers
    for i in range(short):  # the ends inwards: last, first, second-last, second, ...
        sizes[chunks - 1 - i // 2 if i % 2 == 0 else i // 2] -= 1
    return tuple(sizes)


def stage_layers(layers: int, pp: int, v: int = 1) -> tuple[int, ...]:
    """The layers each of ``pp`` stages holds over its ``v`` model chunks (chunk i on stage
    i mod pp)."""
    pp = max(1, pp)
    sizes = chunk_layers(layers, pp * max(1, v))
    return tuple(sum(sizes[r::pp]) for r in range(pp))
