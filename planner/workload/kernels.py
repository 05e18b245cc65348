"""What the GPU reaches on a training step's matrix multiplications and attention, from
their sizes per GPU: a roofline with a size-dependent efficiency curve.

A GEMM of m x n x k (2 m n k FLOPs, operands and result of ``b`` bytes) runs at
min(peak x e(d), intensity x HBM bandwidth), intensity = 2 m n k / (b (m k + k n + m n))
and d = (m n k)^(1/3) the edge of the cube GEMM of the same work (NVIDIA, "Matrix
Multiplication Background User's Guide", DU-09799-001, ch. 2: math- vs memory-bound;
ch. 3: small GEMMs lose to tile and wave quantization). e(d) is ``GEMM_SHAPE``, the fall-off
of BF16 cuBLAS GEMMs with size read from published measurements, times the best fraction of
peak the GPU's generation measurably reaches (``CURVES``, chosen by the catalog's
``kernel_curves`` of the GPU type); between points it is interpolated in log d. FP8 GEMMs (one-byte operands) reach ``FP8_GEMM_SHARE`` of that
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
2022, arXiv 2211.15841) runs one GEMM per expert inside one kernel; a group of fewer than
``GROUPED_FULL_ROWS`` tokens runs at the rate of a full group of its N x K times the grouped
kernel's measured fall-off with its tokens (``GROUPED_ROWS``), and no faster than one GEMM
of its own shape. The shared experts are a dense MLP of every token. Their FLOP-weighted harmonic mean efficiency is the
efficiency of the step's 6 N FLOPs.

Attention, 12 L s h FLOPs per token (PaLM's count), runs in FlashAttention at the measured
fraction of BF16 peak for its sequence length (causal masks skip half the counted work, and
the papers' TFLOP/s count only what runs), of the attention kernel the user's stack runs
where it was measured on the GPU's generation (FlashAttention-2, cuDNN's as Transformer
Engine runs it on Hopper and later, FlashAttention-3), else of the generation's own. FP8
training keeps attention in BF16 (Transformer Engine). Without FlashAttention its batched
GEMMs (s x s x d per head) go through the GEMM curve. Norms, activations, dropout and residuals stream their tensors
through HBM: ``ELEMENTWISE_PASSES`` x the bytes a layer writes (``activations``, nothing
recomputed: without FlashAttention that includes the attention core's scores, softmax and
dropout mask, 5 a s b / t bytes (Korthikanti et al. 2022), the memory-bound traffic
FlashAttention removes (Dao et al. 2022)).

``STEP_CALIBRATION`` is the one fitted figure: the share of the kernels' time the step
actually achieves (launch gaps, optimizer, stragglers), fitted on the calibration runs
named in the validation table and checked on held-out runs.

Why it is long: each GPU generation's measured curves sit beside their sources, and the
shape model (GEMMs of a layer, attention, the HBM-bound rest) reads them in one place.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from planner.findings import Finding, Remedy
from planner.workload.models import ModelShape

# (cube edge d, fraction of the GPU's maximum achievable matmul FLOPS): how cuBLAS's BF16
# GEMMs fall off as they shrink, approximate readings of NVIDIA's Matrix Multiplication
# Background User's Guide (A100 GEMM throughput figures) and "New cuBLAS 12.0 Features and
# Matrix Multiplication Performance on NVIDIA Hopper GPUs" (NVIDIA technical blog, 2023, H100
# SXM BF16): 10, 30, 55, 70, 78 and 80 % of peak at these edges on H100, whose best is 80 %.
GEMM_SHAPE: tuple[tuple[float, float], ...] = (
    (256.0, 0.125), (512.0, 0.375), (1024.0, 0.6875), (2048.0, 0.875), (4096.0, 0.975), (8192.0, 1.0),
)
# FP8 (e4m3) GEMMs reach less of the FP8 peak than BF16 GEMMs reach of the BF16 peak: maximum
# achievable matmul TFLOP/s on H100 SXM, BF16 794.5 of 989 (80.3%), FP8 1,402.6 of 1,979 (70.9%)
# (S. Bekman, "Machine Learning Engineering Open Book", compute/accelerator, MAMF comparison
# tables, 2025; H200 SXM FP8: 73.4%). One-byte operands run at this share of the BF16 curve.
FP8_GEMM_SHARE = (1402.6 / 1979.0) / (794.5 / 989.0)

# A mixture-of-experts layer's grouped GEMM (one kernel, a GEMM per local expert) loses more to
# small groups than one GEMM of the group's shape: DeepGEMM (DeepSeek-AI, github.com/deepseek-ai/
# DeepGEMM, README, "Grouped GEMMs for MoE models", 2025; FP8 on H800), TFLOP/s by tokens per group
# at N x K = 4,096 x 7,168 and 7,168 x 2,048 (contiguous layout at 4,096, masked below).
GROUPED_MEASURED: tuple[tuple[float, float, float], ...] = (
    (256.0, 932.0, 815.0), (512.0, 1040.0, 916.0), (1024.0, 1233.0, 925.0), (4096.0, 1288.0, 1093.0))
GROUPED_FULL_ROWS = GROUPED_MEASURED[-1][0]  # from here on a group runs at its shape's rate
# (tokens per group, rate against groups of GROUPED_FULL_ROWS tokens): the two shapes' mean.
GROUPED_ROWS: tuple[tuple[float, float], ...] = tuple(
    (m, (a / GROUPED_MEASURED[-1][1] + b / GROUPED_MEASURED[-1][2]) / 2.0) for m, a, b in GROUPED_MEASURED)


Points = tuple[tuple[float, float], ...]

# The attention kernels a training stack can run, by the setting's value.
ATTENTION_KERNELS: dict[str, str] = {
    "flash2": "FlashAttention-2", "cudnn": "cuDNN attention", "flash3": "FlashAttention-3"}


@dataclass(frozen=True, slots=True)
class KernelCurves:
    """One GPU generation's measured kernel rates: its best BF16 GEMM as a fraction of the
    datasheet peak (the top of ``GEMM_SHAPE``) and, per attention kernel measured on it, the
    forward + backward rate by sequence length (fraction of BF16 peak, causal, head size 128,
    the work actually run). The first attention kernel is the generation's default."""

    title: str
    gemm_best: float
    attention: tuple[tuple[str, Points], ...]


def _fwd_bwd(points: tuple[tuple[float, float, float], ...], peak: float) -> Points:
    """Forward + backward rate from a paper's separate forward and backward TFLOP/s: the
    backward runs 2.5 x the forward's FLOPs (FlashAttention-2, arXiv 2307.08691, section 4.1),
    so the pair runs 3.5 F in F / fwd + 2.5 F / bwd; as a fraction of ``peak``."""
    return tuple((s, 3.5 / (1.0 / fwd + 2.5 / bwd) / peak) for s, fwd, bwd in points)


# Maximum achievable matmul FLOPS (MAMF), BF16, of the datasheet peak: S. Bekman, "Machine
# Learning Engineering Open Book", compute/accelerator, "Maximum Achievable Matmul FLOPS
# comparison table" (2025): A100 SXM 271.2 of 312, H100 SXM 794.5 of 989 (H200 the same),
# B200 SXM 1,745 of 2,250 (B300 1,769), MI300X 668.4 of 1,300 (ROCm 6.3, TunableOp on).
CURVES: dict[str, KernelCurves] = {
    # FlashAttention-2 on A100 80 GB (T. Dao, "FlashAttention-2", arXiv 2307.08691, 2023, fig. 6,
    # causal, head 128): about 100 TFLOP/s at 512 rising to about 200 at 16K of 312.
    "ampere": KernelCurves("A100", 271.2 / 312.0, (("flash2", (
        (512.0, 0.33), (1024.0, 0.45), (2048.0, 0.54), (4096.0, 0.60), (8192.0, 0.63), (16384.0, 0.65))),)),
    # FlashAttention-2 on H100 SXM (same paper, fig. 7): about 150 rising to about 335 of 989.
    # cuDNN and FlashAttention-3 on H100 SXM (J. Shah, T. Dao et al., "FlashAttention-3",
    # arXiv 2407.08608, 2024, figs. 5-6, BF16, head 128, at 512, 1K, 2K, 4K, 8K, 16K): the
    # causal forward's and the backward's TFLOP/s (the backward figure read as the causal rate).
    "hopper": KernelCurves("H100", 794.5 / 989.0, (
        ("flash2", ((512.0, 0.15), (1024.0, 0.21), (2048.0, 0.26), (4096.0, 0.30), (8192.0, 0.32), (16384.0, 0.34))),
        ("cudnn", _fwd_bwd(((512.0, 315, 305), (1024.0, 410, 408), (2048.0, 484, 465), (4096.0, 518, 499),
                            (8192.0, 529, 518), (16384.0, 539, 516)), 989.0)),
        ("flash3", _fwd_bwd(((512.0, 292, 316), (1024.0, 423, 424), (2048.0, 521, 501), (4096.0, 579, 542),
                             (8192.0, 602, 559), (16384.0, 616, 561)), 989.0)))),
    # Blackwell attention in cuDNN (what Transformer Engine runs on B200): FlashAttention-4
    # reaches up to 1,613 TFLOP/s of 2,250 BF16 on B200 at long sequences, 1.3 x cuDNN 9.13
    # (T. Zadouri, T. Dao et al., "FlashAttention-4", arXiv 2603.05451, 2026): cuDNN about
    # 1,240 TFLOP/s, 55 % of peak at 16K. Planner assumption: it rises with the sequence as
    # FlashAttention-2 does on H100 (fig. 7 above, scaled to 55 % at 16K), backward at the
    # forward's rate.
    "blackwell": KernelCurves("B200", 1745.0 / 2250.0, (("cudnn", (
        (512.0, 0.24), (1024.0, 0.34), (2048.0, 0.42), (4096.0, 0.49), (8192.0, 0.52), (16384.0, 0.55))),)),
    # MI300X: MAMF above; no published FlashAttention curve by sequence length found for
    # ROCm's kernels, so attention borrows the H100 curve (``borrowed_attention``).
    "cdna3": KernelCurves("MI300X", 668.4 / 1300.0, ()),
}
BORROWED = "hopper"  # curves a GPU type without its own measurements uses, and says so
# Generations with FP8 tensor cores: Hopper and Blackwell (NVIDIA H100 and B200 datasheets: FP8
# Tensor Core figures) and CDNA 3 (AMD Instinct MI300X data sheet: FP8); the A100's datasheet
# lists none (Ampere: TF32, BF16, FP16, INT8).
FP8_GENERATIONS = ("hopper", "blackwell", "cdna3")


def has_fp8(name: str | None) -> bool:
    """Whether the generation has FP8 tensor cores (a GPU without curves borrows Hopper's, and
    is taken to have them as Hopper does)."""
    return name is None or name not in CURVES or name in FP8_GENERATIONS


def peak_at(bf16_tflops: float, precision: str, name: str | None) -> float:
    """Dense peak at the workload's precision: FP8 twice BF16 on GPUs that have it (H100
    datasheet: 1,979 vs 989 TFLOP/s dense), BF16's elsewhere (the A100 runs FP8 data at its
    BF16 rate at best); FP16 equals BF16."""
    return bf16_tflops * (2.0 if precision == "fp8" and has_fp8(name) else 1.0)


def fp8_findings(name: str | None, precision: str, gpu_model: str) -> list[Finding]:
    """A warning where FP8 is asked of a GPU without FP8 tensor cores."""
    if precision != "fp8" or has_fp8(name) or not gpu_model:
        return []
    return [Finding("warning", "workload.precision.fp8",
                    f"The {gpu_model} has no FP8 tensor cores: FP8 runs no faster than BF16 there, and the step is "
                    f"estimated at its BF16 peak; set the precision to bf16 (or choose a Hopper, Blackwell or "
                    f"MI300-class GPU for FP8)",
                    remedy=Remedy("set_workload", "Train in BF16", (("precision", "bf16"),)))]


@functools.cache  # gemm_s asks once per GEMM of every candidate layout the design weighs
def kernel_curves(name: str | None) -> KernelCurves:
    """The named generation's curves; a GPU without any borrows the H100 curves, a
    generation without an attention curve borrows the H100 one; either borrows only the
    H100's default attention kernel (no other kernel was measured on that GPU)."""
    own, borrowed = CURVES.get(name or ""), CURVES[BORROWED]
    if own is None:
        return KernelCurves(borrowed.title, borrowed.gemm_best, borrowed.attention[:1])
    return own if own.attention else KernelCurves(own.title, own.gemm_best, borrowed.attention[:1])


def attention_kernel(name: str | None, kernel: str = "auto") -> str:
    """The attention kernel whose curve the step uses: the one asked where it was measured on
    the generation (or the one it borrows), else the generation's default."""
    measured = dict(kernel_curves(name).attention)
    return kernel if kernel in measured else next(iter(measured))


def attention_points(name: str | None, kernel: str = "auto") -> Points:
    """The forward + backward curve of ``kernel`` on the named generation (``attention_kernel``)."""
    return dict(kernel_curves(name).attention)[attention_kernel(name, kernel)]


def borrowed_curves(name: str | None) -> str | None:
    """What a GPU generation borrows, in words, or None when it has its own curves."""
    own = CURVES.get(name or "")
    if own is None:
        return f"the {CURVES[BORROWED].title} curves for matrix multiplications and attention"
    if not own.attention:
        return f"the {CURVES[BORROWED].title} FlashAttention curve for attention"
    return None


ELEMENTWISE_PASSES = 6.0  # Planner assumption: each kept tensor written and read once forward, twice that backward
HBM_STREAM_EFFICIENCY = 0.9  # Planner assumption: streaming kernels reach ~90% of the datasheet HBM bandwidth
STEP_CALIBRATION = 0.72  # fitted on the calibration runs of the validation table (geometric mean)


def borrowed_kernels(name: str | None, gpu_model: str, mfu: float | None) -> list[Finding]:
    """A note where the step's kernel rates come from another GPU's measurements (none when
    the user set one efficiency figure, ``mfu``, or no GPU is placed)."""
    what = borrowed_curves(name)
    if what is None or mfu is not None or not gpu_model:
        return []
    return [Finding("info", "workload.kernels.borrowed",
                    f"No published kernel measurements for the {gpu_model} are built in: the step time "
                    f"uses {what}, measured on another GPU; set an efficiency figure (mfu) from your own "
                    f"benchmark for a firmer estimate")]


def attention_kernel_findings(name: str | None, kernel: str, gpu_model: str, flash: bool,
                              mfu: float | None) -> list[Finding]:
    """What the plan's GPU makes of the attention kernel the user chose: a warning where the
    kernel cannot run on it (FlashAttention-3 is written for Hopper; cuDNN is NVIDIA's), a note
    where it runs but was not measured on it, each naming the rate the step uses instead; a
    note where FlashAttention is off, so no kernel is used."""
    if kernel == "auto" or mfu is not None or not gpu_model:
        return []
    if not flash:
        return [Finding("info", "workload.kernels.attention",
                        f"FlashAttention is off: attention runs as batched matrix multiplications, and the "
                        f"attention kernel set ({ATTENTION_KERNELS[kernel]}) is not used")]
    used = attention_kernel(name, kernel)
    if used == kernel:
        return []
    where = "for that GPU" if name in CURVES and CURVES[name].attention else f"measured on the {CURVES[BORROWED].title}"
    instead = f"attention is estimated at {ATTENTION_KERNELS[used]}'s rate {where}"
    amd = name == "cdna3" or gpu_model.startswith("Instinct")
    if kernel == "flash3" and name in CURVES and name != "hopper":  # a generation known not to be Hopper
        return [Finding("warning", "workload.kernels.attention",
                        f"FlashAttention-3 runs on Hopper GPUs (H100, H200, H800) only, not on the {gpu_model}: "
                        f"{instead}; set the attention kernel the stack runs there")]
    if kernel == "cudnn" and amd:
        return [Finding("warning", "workload.kernels.attention",
                        f"cuDNN is NVIDIA's library and does not run on the {gpu_model}: {instead}; set the "
                        f"attention kernel the stack runs there")]
    return [Finding("info", "workload.kernels.attention",
                    f"No published {ATTENTION_KERNELS[kernel]} measurements on the {gpu_model} are built in: "
                    f"{instead}")]


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


def shape_share(m: float, n: float, k: float, grouped: bool = False) -> float:
    """The fraction of the GPU's best GEMM rate an m x n x k GEMM reaches (``GEMM_SHAPE`` at its
    cube edge); ``grouped``: one group of a grouped GEMM of m tokens, at most that, and at most
    the rate of a group of ``GROUPED_FULL_ROWS`` tokens times ``GROUPED_ROWS`` for its size (a
    small group never outruns one GEMM of its shape: on a small N x K the full group's rate
    times the fall-off is the higher of the two)."""
    own = curve(GEMM_SHAPE, (m * n * k) ** (1.0 / 3.0))
    if not grouped or m >= GROUPED_FULL_ROWS:
        return own
    return min(own, curve(GEMM_SHAPE, (GROUPED_FULL_ROWS * n * k) ** (1.0 / 3.0)) * curve(GROUPED_ROWS, m))


def gemm_s(m: float, n: float, k: float, *, peak_tflops: float, bandwidth_tbs: float | None,
           value_bytes: float = 2.0, curves: str | None = BORROWED, grouped: bool = False) -> float:
    """Seconds for one m x n x k GEMM (or one group of a grouped GEMM): the slower of its math
    at the curve's fraction of peak and its operands' traffic at HBM bandwidth (module docstring)."""
    flops = 2.0 * m * n * k
    if flops <= 0:
        return 0.0
    share = FP8_GEMM_SHARE if value_bytes < 2.0 else 1.0  # one-byte operands: FP8
    best = kernel_curves(curves).gemm_best
    math_s = flops / (peak_tflops * 1e12 * share * best * shape_share(m, n, k, grouped))
    if not bandwidth_tbs:
        return math_s
    memory_s = value_bytes * (m * k + k * n + m * n) / (bandwidth_tbs * 1e12 * HBM_STREAM_EFFICIENCY)
    return max(math_s, memory_s)


@dataclass(frozen=True, slots=True)
class KernelEfficiency:
    matmul: float  # fraction of peak on the step's weight GEMMs (FLOP-weighted)
    attention: float  # counted attention FLOPs / time / BF16 peak (above 1 possible: causal halves the work)
    elementwise_s_per_token: float  # HBM time of norms, activations and residuals per token, all layers


def layer_gemms(model: ModelShape, tokens: float, tp: int, ep: int, capacity_factor: float = 1.0,
                etp: int | None = None) -> list[tuple[float, float, float, float, float, bool]]:
    """(m, n, k, count, pad, grouped) of one layer's weight GEMMs per GPU and micro-batch, and
    the logits; ``pad`` scales the rows computed against the rows that count (capacity factor);
    ``grouped``: the routed experts' GEMMs, one group each of a grouped GEMM.
    The routed experts split over ``etp`` (default TP): an ETP group holds ETP / TP of the
    micro-batch's tokens (sequence parallel), and each expert gets its share from EP groups."""
    t = max(1, tp)
    e_t = max(1, etp or t)
    h, f = float(model.hidden), float(model.ffn)
    up = 2.0 if model.mlp == "swiglu" else 1.0
    a, d_qk, d_v = float(model.heads), float(model.head_dim), float(model.v_head_dim)
    if model.is_mla:
        r_q, r_kv, d_rope = float(model.q_lora_rank), float(model.kv_lora_rank), float(model.rope_head_size)
        gemms = [(tokens, r_kv + d_rope, h, 1.0, 1.0, False),
                 (tokens, a * (d_qk - d_rope + d_v) / t, r_kv, 1.0, 1.0, False)]
        gemms += ([(tokens, r_q, h, 1.0, 1.0, False), (tokens, a * d_qk / t, r_q, 1.0, 1.0, False)] if r_q
                  else [(tokens, a * d_qk / t, h, 1.0, 1.0, False)])
    else:
        h_kv = model.head_dim * model.kv_heads
        gemms = [(tokens, (a * d_qk + 2 * h_kv) / t, h, 1.0, 1.0, False)]
    gemms.append((tokens, h, a * d_v / t, 1.0, 1.0, False))
    if model.is_moe:
        local = max(1.0, model.experts / max(1, ep))
        m_e = tokens * e_t / t * max(1, ep) * model.experts_per_token / model.experts
        gemms += [(m_e, up * f / e_t, h, local, capacity_factor, True),
                  (m_e, h, f / e_t, local, capacity_factor, True)]
        if model.shared_ffn:
            s_f = float(model.shared_ffn)
            gemms += [(tokens, up * s_f / t, h, 1.0, 1.0, False), (tokens, h, s_f / t, 1.0, 1.0, False)]
    else:
        gemms += [(tokens, up * f / t, h, 1.0, 1.0, False), (tokens, h, f / t, 1.0, 1.0, False)]
    gemms.append((tokens, model.vocab / t, h, 1.0 / model.layers, 1.0, False))  # logits, once per step
    return gemms


def matmul_efficiency(model: ModelShape, *, tokens: float, tp: int, ep: int, peak_tflops: float,
                      bandwidth_tbs: float | None, value_bytes: float, capacity_factor: float = 1.0,
                      curves: str | None = BORROWED, etp: int | None = None) -> float:
    """FLOP-weighted fraction of peak on one layer's weight GEMMs (and the logits) for
    ``tokens`` tokens per GPU at once (a micro-batch, or a prefill): the FLOPs that count
    over the time of the rows computed."""
    flops = time = 0.0
    for m, n, k, count, pad, grouped in layer_gemms(model, tokens, tp, ep, capacity_factor, etp):
        flops += count * 2.0 * m * n * k
        time += count * gemm_s(m * pad, n, k, peak_tflops=peak_tflops, bandwidth_tbs=bandwidth_tbs,
                               value_bytes=value_bytes, curves=curves, grouped=grouped)
    return flops / (time * peak_tflops * 1e12) if time > 0 else 1.0


def attention_efficiency(model: ModelShape, *, seq_len: int, flash: bool, bf16_tflops: float,
                         bandwidth_tbs: float | None, curves: str | None = BORROWED, kernel: str = "auto") -> float:
    """Counted attention FLOPs per second over BF16 peak (module docstring); ``kernel``: the
    attention kernel's curve (``attention_points``)."""
    if flash:
        return curve(attention_points(curves, kernel), seq_len) * 2.0  # causal: half the counted FLOPs are run
    d = float(model.head_dim)
    one = gemm_s(seq_len, seq_len, d, peak_tflops=bf16_tflops, bandwidth_tbs=bandwidth_tbs, curves=curves)
    return 2.0 * seq_len * seq_len * d / (one * bf16_tflops * 1e12)


def kernel_efficiency(model: ModelShape, *, tokens: float, seq_len: int, tp: int, ep: int, flash: bool,
                      etp: int | None = None,
                      peak_tflops: float, bf16_tflops: float, bandwidth_tbs: float | None,
                      value_bytes: float, kept_bytes_per_token: float, capacity_factor: float = 1.0,
                      moe_bytes_per_token: float = 0.0, curves: str | None = BORROWED,
                      kernel: str = "auto") -> KernelEfficiency:
    """Efficiencies of one step's kernels from their shapes (module docstring);
    ``moe_bytes_per_token``: the router's and the token permutation's HBM traffic, all layers."""
    matmul = matmul_efficiency(model, tokens=tokens, tp=tp, ep=ep, peak_tflops=peak_tflops,
                               bandwidth_tbs=bandwidth_tbs, value_bytes=value_bytes, capacity_factor=capacity_factor,
                               curves=curves, etp=etp)
    attention = attention_efficiency(model, seq_len=seq_len, flash=flash, bf16_tflops=bf16_tflops,
                                     bandwidth_tbs=bandwidth_tbs, curves=curves, kernel=kernel)
    elementwise = 0.0
    if bandwidth_tbs:
        elementwise = ((ELEMENTWISE_PASSES * kept_bytes_per_token * model.layers + moe_bytes_per_token)
                       / (bandwidth_tbs * 1e12 * HBM_STREAM_EFFICIENCY))
    return KernelEfficiency(matmul, attention, elementwise)
