"""Activation memory of training, counted from the model's own shape.

Per layer and micro-batch of b sequences of s tokens (hidden h, a heads, KV heads of the
same head size d = h / a giving h_kv = kv_heads x d, FFN width f, 2-byte activations),
the tensors kept for the backward pass, after Korthikanti et al. 2022, "Reducing
Activation Recomputation in Large Transformer Models" (arXiv 2205.05198), section 4.1:

- two norms, each keeps its input: 2 x 2 s b h;
- attention: the norm's output (input of the QKV matmul) 2 s b h, Q 2 s b h, K and V
  2 x 2 s b h_kv (grouped-query attention: h_kv < h), the output (input of the output
  projection) 2 s b h, and with dropout its 1-byte mask s b h. Without FlashAttention the
  core keeps the softmax output 2 a s^2 b, and with dropout its mask a s^2 b and the
  dropped-out scores 2 a s^2 b (Korthikanti's 5 a s^2 b); FlashAttention (Dao et al. 2022)
  recomputes the scores in its backward and keeps only the softmax statistics, 4 bytes
  per head and token: 4 a s b;
- MLP: the norm's output 2 s b h; GeLU keeps its input and output 2 x 2 s b f, SwiGLU
  the gate and up outputs and their product 3 x 2 s b f; dropout's mask s b h. A
  mixture-of-experts token passes through k experts: the f terms x k.

For GPT-3's shape (h_kv = h, f = 4h, GeLU, dropout, no FlashAttention) this is
4 + (2 + 2 + 4 + 2 + 1) + (2 + 16 + 1) = 34 s b h plus 5 a s^2 b: Korthikanti's equation 1.

Tensor parallel t splits everything inside the attention and MLP blocks (Q, K, V, the
attention output and core, the FFN terms; KV heads split while kv_heads >= t, else one
per rank). Without sequence parallelism the norms' inputs and outputs and the dropout
masks, 10 s b h for GPT-3, stay whole on every rank (Korthikanti's
s b h (10 + 24/t + 5 a s/(h t))); with it every term is divided by t (equation 5).

Recompute: selective recomputes the attention core (drops the a s^2 terms); full keeps
only the layer's input, 2 s b h (/ t with sequence parallelism), and while a layer is
recomputed in the backward its whole set exists once more. Megatron-LM's block method
recomputes k of a stage's layers in full and keeps the rest. Selective with the MoE layers
(Megatron-Core's --recompute-modules moe, a checkpoint around the MoE layer) also drops the
experts' f terms of the MoE layers, which keep only their input (the norm's output, counted
above); while one is recomputed its experts' tensors exist once more. The first stage holds
the model's leading dense layers (DeepSeek-V3's first 3), which keep theirs.

Context parallel c: each rank keeps its s / c tokens' tensors (its queries meet all s
keys: the score terms are a s (s / c) b), so every term above is divided by c.

In flight (Korthikanti section 4.2.3; Narayanan et al. 2021): under 1F1B the first stage,
holding L / p layers, keeps min(p, m) micro-batches' activations; the interleaved
schedule with v chunks per GPU x (1 + (p - 1) / (p v)).
"""

from __future__ import annotations

import math

from planner.settings import WorkloadSettings
from planner.workload.models import ModelShape

ACTIVATION_BYTES = 2.0  # bf16/fp16 activations (FP8 training keeps them in bf16 too)
SOFTMAX_STAT_BYTES = 4.0  # FlashAttention's fp32 log-sum-exp per head and token


def _f_terms(shape: ModelShape) -> float:
    """Bytes per token the MLP keeps of its FFN width (GeLU 2 x 2 f, SwiGLU 3 x 2 f), x k experts."""
    return (4.0 if shape.mlp == "gelu" else 6.0) * shape.ffn * max(1, shape.experts_per_token)


def expert_layer_bytes(w: WorkloadSettings, shape: ModelShape, tp: int) -> float:
    """The experts' tensors of one MoE layer per micro-batch (the f terms): what recomputing
    the MoE layers drops, and holds once more while one is recomputed."""
    tokens = float(w.seq_len) / max(1, w.cp) * w.micro_batch_size
    return tokens * _f_terms(shape) / max(1, tp) if shape.is_moe else 0.0


def kept_layer_bytes(w: WorkloadSettings, shape: ModelShape, tp: int, *, selective: bool,
                     moe_share: float = 0.0) -> float:
    """Bytes one layer keeps per micro-batch when it is not recomputed in full (docstring), on
    average over a stage of which ``moe_share`` are MoE layers recomputed (their f terms
    dropped)."""
    s, b, h, a = float(w.seq_len), float(w.micro_batch_size), float(shape.hidden), float(shape.heads)
    t = max(1, tp)
    sp = w.sequence_parallel and t > 1
    tokens = s / max(1, w.cp) * b  # this rank's share of the sequence
    drop = 1.0 if shape.dropout else 0.0
    h_kv = shape.head_dim * max(shape.kv_heads / t, 1.0)  # per rank
    f_terms = _f_terms(shape) * (1.0 - moe_share)  # the recomputed MoE layers keep none
    # Outside the tensor-parallel blocks: norms' inputs, the two norm outputs, dropout masks.
    outside = tokens * h * (2 * ACTIVATION_BYTES + 2 * ACTIVATION_BYTES + 2 * drop)
    inside = tokens * (2 * ACTIVATION_BYTES * h + f_terms) / t + tokens * 2 * ACTIVATION_BYTES * h_kv
    if w.flash_attention:
        inside += SOFTMAX_STAT_BYTES * a * tokens / t
    elif not selective:
        inside += (5.0 if shape.dropout else 2.0) * a * s * tokens / t
    return (outside / t if sp else outside) + inside


def input_bytes(w: WorkloadSettings, shape: ModelShape, tp: int) -> float:
    """A fully recomputed layer keeps its input: 2 s b h (/ t with sequence parallelism, / c)."""
    t = max(1, tp)
    whole = ACTIVATION_BYTES * w.seq_len / max(1, w.cp) * w.micro_batch_size * shape.hidden
    return whole / t if w.sequence_parallel and t > 1 else whole


def micro_batches_in_flight(w: WorkloadSettings, pp: int, m: int) -> float:
    """Micro-batches whose activations the first stage holds (docstring)."""
    held = float(min(pp, m))
    if w.pp_schedule == "interleaved" and pp > 1:
        held *= 1.0 + (pp - 1) / (pp * max(1, w.virtual_stages))
    return held


def max_recompute_layers(shape: ModelShape, pp: int) -> int:
    """Layers of the largest stage: ceil(L / p)."""
    return max(1, math.ceil(shape.layers / max(1, pp)))


def full_recompute_share(w: WorkloadSettings, shape: ModelShape, pp: int) -> float:
    """Share of a stage's layers recomputed in full: 1 for "full" on every layer, k / (L / p)
    for k layers per stage, 0 otherwise."""
    if w.recompute != "full":
        return 0.0
    layers = shape.layers / max(1, pp)
    return 1.0 if w.recompute_layers is None else min(1.0, w.recompute_layers / layers)


def activation_bytes(w: WorkloadSettings, shape: ModelShape, *, tp: int, pp: int, m: int) -> float:
    """Activation bytes per GPU on the first stage for ``w.recompute`` / ``w.recompute_layers``
    ("auto" counts as selective here: the fit is chosen by ``planner.workload.fit``)."""
    layers = shape.layers / max(1, pp)
    method = w.recompute
    # The first stage, whose memory is counted, holds the model's leading dense layers first.
    moe_layers = max(0.0, layers - shape.dense_layers) if shape.is_moe else 0.0
    moe = method == "selective_moe" and moe_layers > 0
    kept = kept_layer_bytes(w, shape, tp, selective=method != "none", moe_share=moe_layers / layers if moe else 0.0)
    full = layers * full_recompute_share(w, shape, pp)
    held = micro_batches_in_flight(w, pp, m)
    total = held * ((layers - full) * kept + full * input_bytes(w, shape, tp))
    if full > 0:  # the layer being recomputed holds its whole set once more
        total += kept
    if moe:  # the MoE layer being recomputed holds its experts' tensors once more
        total += expert_layer_bytes(w, shape, tp)
    return total
