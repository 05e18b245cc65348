"""What the GPU reaches on a training step's matrix multiplications and attention, from
their sizes per GPU: a roofline with a size-dependent efficiency curve.

A GEMM of m x n x k (2 m n k FLOPs, operands and result of ``b`` bytes) runs at
min(peak x e(d), intensity x HBM bandwidth), intensity = 2 m n k / (b (m k + k n + m n))
and d = (m n k)^(1/3) the edge of the cube GEMM of the same work (NVIDIA, "Matrix
Multiplication Background User's Guide", DU-09799-001, ch. 2: math- vs memory-bound;
ch. 3: small GEMMs lose to tile and wave quantization). ``GEMM_CURVE`` holds e(d) for
BF16 cuBLAS on A100/H100, read from published measurements; between points it is
interpolated in log d. FP8 GEMMs (one-byte operands) reach ``FP8_GEMM_SHARE`` of that
fraction of the FP8 peak (measured maximum achievable matmul FLOPS, FP8 against BF16).

Per layer and micro-batch of ``tokens`` = micro-batch x s / CP tokens, each GPU multiplies
(Megatron-LM's tensor-parallel split, Shoeybi et al. 2019): QKV m x h x (a d + 2 h_kv)/t,
the attention output m x a d_v/t x h (multi-head latent attention instead: the query
latent m x h x r_q, its up-projection m x r_q x a d_qk/t, the KV latent with the rotary key
m x h x (r_kv + d_rope), its up-projection m x r_kv x a (d_nope + d_v)/t; DeepSeek-V2,
arXiv 2405.04434, section 2.1), the MLP m x h x (2 or 1) f/t and m x f/t x h, and once per
step the logits m x h x V/t. A mixture-of-experts layer runs its routed experts at their
own shape: each of the E/EP local experts sees m_e = tokens x EP x k / E tokens per
micro-batch (x the capacity factor: padded room is computed, dropped tokens are not), as
the grouped GEMM of Megatron-Core or the block-sparse GEMM of MegaBlocks (Gale et al.
2022, arXiv 2211.15841) runs one GEMM per expert inside one kernel; the shared experts
are a dense MLP of every token. Their FLOP-weighted harmonic mean efficiency is the
efficiency of the step's 6 N FLOPs.

Attention, 12 L s h FLOPs per token (PaLM's count), runs in FlashAttention at the measured
fraction of BF16 peak for its sequence length (causal masks skip half the counted work, and
the papers' TFLOP/s count only what runs); FP8 training keeps attention in BF16
(Transformer Engine). Without FlashAttention its batched GEMMs (s x s x d per head) go
through the GEMM curve. Norms, activations, dropout and residuals stream their tensors
through HBM: ``ELEMENTWISE_PASSES`` x the bytes a layer writes (``activations``, nothing
recomputed: without FlashAttention that includes the attention core's scores, softmax and
dropout mask, 5 a s b / t bytes (Korthikanti et al. 2022), the memory-bound traffic
FlashAttention removes (Dao et al. 2022)).

``STEP_CALIBRATION`` is the one fitted figure: the share of the kernels' time the step
actually achieves (launch gaps, optimizer, stragglers), fitted on the calibration runs
named in the validation table and checked on held-out runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.workload.models import ModelShape

# (cube edge d, fraction of dense BF16 peak): cuBLAS on A100/H100, approximate readings of
# NVIDIA's Matrix Multiplication Background User's Guide (A100 GEMM throughput figures) and
# "New cuBLAS 12.0 Features and Matrix Multiplication Performance on NVIDIA Hopper GPUs"
# (NVIDIA technical blog, 2023, H100 SXM BF16).
GEMM_CURVE: tuple[tuple[float, float], ...] = (
    (256.0, 0.10), (512.0, 0.30), (1024.0, 0.55), (2048.0, 0.70), (4096.0, 0.78), (8192.0, 0.80),
)
# (sequence length, fraction of BF16 peak): FlashAttention-2 forward + backward, causal, head
# size 128 (T. Dao, "FlashAttention-2", arXiv 2307.08691, 2023): on A100 80 GB (fig. 6) about
# 100 TFLOP/s at 512 rising to about 200 at 16K of 312; on H100 SXM (fig. 7) about 150 rising
# to about 335 of 989 (approximate readings of the figures).
FLASH_CURVE_A100: tuple[tuple[float, float], ...] = (
    (512.0, 0.33), (1024.0, 0.45), (2048.0, 0.54), (4096.0, 0.60), (8192.0, 0.63), (16384.0, 0.65),
)
FLASH_CURVE_H100: tuple[tuple[float, float], ...] = (
    (512.0, 0.15), (1024.0, 0.21), (2048.0, 0.26), (4096.0, 0.30), (8192.0, 0.32), (16384.0, 0.34),
)
# FP8 (e4m3) GEMMs reach less of the FP8 peak than BF16 GEMMs reach of the BF16 peak: maximum
# achievable matmul TFLOP/s on H100 SXM, BF16 794.5 of 989 (80.3%), FP8 1,402.6 of 1,979 (70.9%)
# (S. Bekman, "Machine Learning Engineering Open Book", compute/accelerator, MAMF comparison
# tables, 2025; H200 SXM FP8: 73.4%). One-byte operands run at this share of the BF16 curve.
FP8_GEMM_SHARE = (1402.6 / 1979.0) / (794.5 / 989.0)
HOPPER_BF16_TFLOPS = 500.0  # above this dense BF16 peak a GPU is Hopper or newer (H100: 989, A100: 312)
ELEMENTWISE_PASSES = 6.0  # Planner assumption: each kept tensor written and read once forward, twice that backward
HBM_STREAM_EFFICIENCY = 0.9  # Planner assumption: streaming kernels reach ~90% of the datasheet HBM bandwidth
STEP_CALIBRATION = 0.76  # fitted on the calibration runs of the validation table (geometric mean)


def curve(points: tuple[tuple[float, float], ...], x: float) -> float:
    """Piecewise-linear in log x between the points; below the first point in proportion to
    x, flat beyond the last."""
    if x <= points[0][0]:
        return points[0][1] * max(x, 1.0) / points[0][0]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x <= x1:
            f = math.log(x / x0) / math.log(x1 / x0)
            return y0 + f * (y1 - y0)
    return points[-1][1]


def gemm_s(m: float, n: float, k: float, *, peak_tflops: float, bandwidth_tbs: float | None,
           value_bytes: float = 2.0) -> float:
    """Seconds for one m x n x k GEMM: the slower of its math at the curve's fraction of peak
    and its operands' traffic at HBM bandwidth (module docstring)."""
    flops = 2.0 * m * n * k
    if flops <= 0:
        return 0.0
    share = FP8_GEMM_SHARE if value_bytes < 2.0 else 1.0  # one-byte operands: FP8
    math_s = flops / (peak_tflops * 1e12 * share * curve(GEMM_CURVE, (m * n * k) ** (1.0 / 3.0)))
    if not bandwidth_tbs:
        return math_s
    memory_s = value_bytes * (m * k + k * n + m * n) / (bandwidth_tbs * 1e12 * HBM_STREAM_EFFICIENCY)
    return max(math_s, memory_s)


@dataclass(frozen=True, slots=True)
class KernelEfficiency:
    matmul: float  # fraction of peak on the step's weight GEMMs (FLOP-weighted)
    attention: float  # counted attention FLOPs / time / BF16 peak (above 1 possible: causal halves the work)
    elementwise_s_per_token: float  # HBM time of norms, activations and residuals per token, all layers


def layer_gemms(model: ModelShape, tokens: float, tp: int, ep: int,
                capacity_factor: float = 1.0) -> list[tuple[float, float, float, float, float]]:
    """(m, n, k, count, pad) of one layer's weight GEMMs per GPU and micro-batch, and the
    logits; ``pad`` scales the rows computed against the rows that count (capacity factor)."""
    t = max(1, tp)
    h, f = float(model.hidden), float(model.ffn)
    up = 2.0 if model.mlp == "swiglu" else 1.0
    a, d_qk, d_v = float(model.heads), float(model.head_dim), float(model.v_head_dim)
    if model.is_mla:
        r_q, r_kv, d_rope = float(model.q_lora_rank), float(model.kv_lora_rank), float(model.rope_head_size)
        gemms = [(tokens, r_kv + d_rope, h, 1.0, 1.0), (tokens, a * (d_qk - d_rope + d_v) / t, r_kv, 1.0, 1.0)]
        gemms += ([(tokens, r_q, h, 1.0, 1.0), (tokens, a * d_qk / t, r_q, 1.0, 1.0)] if r_q
                  else [(tokens, a * d_qk / t, h, 1.0, 1.0)])
    else:
        h_kv = model.head_dim * model.kv_heads
        gemms = [(tokens, (a * d_qk + 2 * h_kv) / t, h, 1.0, 1.0)]
    gemms.append((tokens, h, a * d_v / t, 1.0, 1.0))
    if model.is_moe:
        local = max(1.0, model.experts / max(1, ep))
        m_e = tokens * max(1, ep) * model.experts_per_token / model.experts
        gemms += [(m_e, up * f / t, h, local, capacity_factor), (m_e, h, f / t, local, capacity_factor)]
        if model.shared_ffn:
            s_f = float(model.shared_ffn)
            gemms += [(tokens, up * s_f / t, h, 1.0, 1.0), (tokens, h, s_f / t, 1.0, 1.0)]
    else:
        gemms += [(tokens, up * f / t, h, 1.0, 1.0), (tokens, h, f / t, 1.0, 1.0)]
    gemms.append((tokens, model.vocab / t, h, 1.0 / model.layers, 1.0))  # logits, once per step
    return gemms


def matmul_efficiency(model: ModelShape, *, tokens: float, tp: int, ep: int, peak_tflops: float,
                      bandwidth_tbs: float | None, value_bytes: float, capacity_factor: float = 1.0) -> float:
    """FLOP-weighted fraction of peak on one layer's weight GEMMs (and the logits) for
    ``tokens`` tokens per GPU at once (a micro-batch, or a prefill): the FLOPs that count
    over the time of the rows computed."""
    flops = time = 0.0
    for m, n, k, count, pad in layer_gemms(model, tokens, tp, ep, capacity_factor):
        flops += count * 2.0 * m * n * k
        time += count * gemm_s(m * pad, n, k, peak_tflops=peak_tflops, bandwidth_tbs=bandwidth_tbs,
                               value_bytes=value_bytes)
    return flops / (time * peak_tflops * 1e12) if time > 0 else 1.0


def attention_efficiency(model: ModelShape, *, seq_len: int, flash: bool, bf16_tflops: float,
                         bandwidth_tbs: float | None) -> float:
    """Counted attention FLOPs per second over BF16 peak (module docstring)."""
    if flash:
        points = FLASH_CURVE_H100 if bf16_tflops > HOPPER_BF16_TFLOPS else FLASH_CURVE_A100
        return curve(points, seq_len) * 2.0  # causal: half the counted FLOPs are run
    d = float(model.head_dim)
    one = gemm_s(seq_len, seq_len, d, peak_tflops=bf16_tflops, bandwidth_tbs=bandwidth_tbs)
    return 2.0 * seq_len * seq_len * d / (one * bf16_tflops * 1e12)


def kernel_efficiency(model: ModelShape, *, tokens: float, seq_len: int, tp: int, ep: int, flash: bool,
                      peak_tflops: float, bf16_tflops: float, bandwidth_tbs: float | None,
                      value_bytes: float, kept_bytes_per_token: float, capacity_factor: float = 1.0,
                      moe_bytes_per_token: float = 0.0) -> KernelEfficiency:
    """Efficiencies of one step's kernels from their shapes (module docstring);
    ``moe_bytes_per_token``: the router's and the token permutation's HBM traffic, all layers."""
    matmul = matmul_efficiency(model, tokens=tokens, tp=tp, ep=ep, peak_tflops=peak_tflops,
                               bandwidth_tbs=bandwidth_tbs, value_bytes=value_bytes, capacity_factor=capacity_factor)
    attention = attention_efficiency(model, seq_len=seq_len, flash=flash, bf16_tflops=bf16_tflops,
                                     bandwidth_tbs=bandwidth_tbs)
    elementwise = 0.0
    if bandwidth_tbs:
        elementwise = ((ELEMENTWISE_PASSES * kept_bytes_per_token * model.layers + moe_bytes_per_token)
                       / (bandwidth_tbs * 1e12 * HBM_STREAM_EFFICIENCY))
    return KernelEfficiency(matmul, attention, elementwise)
