"""Inference sizing as serving engines behave (the inference archetype of N. Dixit, "The
GPU Cluster That Actually Works for Deep Learning in 2026", SIVARO): decode bounded by the
HBM bandwidth a serving engine achieves, prefill by compute; the KV cache left in memory
bounds the concurrent sequences.

For a replica of g GPUs (tensor parallel) serving a model of N parameters (N_active per
token) at b bytes per value (FP8: weights and KV cache in 8 bits, TensorRT-LLM's
``--fp8_kv_cache``), HBM bandwidth B and peak F per GPU:
- weights W = N x b must fit: W / g + overhead <= GPU memory;
- KV cache per token = L x 2 x KV heads x head size x b (grouped-query attention);
  concurrent sequences = (g x memory - W - g x overhead) / (c x KV per token x context),
  c the copies the tensor-parallel ranks hold (``kv_copies``): a rank holds whole KV heads,
  so beyond as many ranks as KV heads they are held twice and more (c = g / KV heads, vLLM
  and TensorRT-LLM replicate them), and multi-head latent attention's one latent per token
  cannot be split by head at all (c = g: "DeepSeek models use MLA and only have one KV head.
  If we use tensor parallelism on 8 GPUs, it will lead to duplicated KV cache across all
  GPUs", SGLang documentation, "Data Parallelism and DP Attention"); each rank reads its own;
- one decode step (TPOT) for a batch of k sequences reads the weights once at the share of
  HBM bandwidth a serving engine's decode step achieves at batch 1 (u_w,
  ``DECODE_HBM_EFFICIENCY``: small GEMMs and the step's fixed costs) and every sequence's
  KV cache at the share a decode-attention kernel streams it (u_kv,
  ``KV_STREAM_EFFICIENCY``), or computes, whichever is slower, plus Megatron's two
  all-reduces per layer of the k tokens' activations across the g GPUs: t = max(W_read /
  (g B u_w) + k x KV x context / (g B u_kv), 2 N_active k / (g x F x e)) + 2 L x (latency
  + 2 (g-1)/g x k h 2 bytes / busbw), W_read = min(N, k x N_active) x b (a mixture-of-
  experts batch touches more experts). The step's achieved share of bandwidth so follows
  the batch: about u_w at batch 1, towards u_kv as the KV cache outgrows the weights;
- prefill (TTFT) of a prompt of p tokens: its weight GEMMs, 2 N_active p / (g x F x e), and
  its causal attention, 4 L p^2 h counted FLOPs (PaLM's count, forward only) / (g x BF16
  peak x FlashAttention's efficiency at p), over the step calibration, plus its
  all-reduces; e from the prefill GEMMs' shapes (``kernels``: FP8 GEMMs reach less of
  their peak than BF16) unless the user set one figure for both;
- continuous batching at the operating batch k (``inference_batch``, or the largest that
  meets the TPOT target and fits the KV cache): requests/s per replica R = 1 / (prefill +
  output tokens x t / k); GPUs for a target = ceil(target / that) x g. The replica spends
  R x prefill of each second on new requests' prompts, and the decode steps run in the
  rest, so a sequence gets a token every t / (1 - R x prefill) = t + prefill x k / output
  tokens (the time per output token a user sees, TPOT: one round of k sequences admits k /
  output tokens new ones, whose prefills run between the steps or, chunked, inside them;
  the same GPU time either way). The TPOT target bounds that, not the decode step alone;
- a model larger than a node: p pipeline stages across nodes (``inference_pipeline_stages``,
  vLLM's and TensorRT-LLM's pipeline parallelism), each a group of g GPUs with 1 / p of the
  layers (``size_inference``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.settings import WorkloadSettings
from planner.workload.activations import ACTIVATION_BYTES  # 16-bit between layers, also under FP8 weights
from planner.workload.kernels import (
    HBM_STREAM_EFFICIENCY, STEP_CALIBRATION, attention_efficiency, has_fp8, matmul_efficiency,
)
from planner.workload.models import ModelShape

# Databricks / MosaicML, "LLM Inference Performance Engineering: Best Practices" (2023): model
# bandwidth utilisation of TensorRT-LLM decode at batch 1 is about 60% on 2 x H100 and 55% for
# Llama 2 70B on 4 x A100.
DECODE_HBM_EFFICIENCY = 0.60
# Decode attention streams each sequence's KV cache at close to the GPU's full memory bandwidth
# for long sequences (FlashInfer, "Accelerating Self-Attentions for LLM Serving with FlashInfer",
# Ye et al., 2024: bytes read / kernel time / datasheet bandwidth on H100 SXM and A100); the
# planner's one figure for streaming kernels, 90 %, stays below that.
KV_STREAM_EFFICIENCY = HBM_STREAM_EFFICIENCY
# Planner assumption: ~10 us per small all-reduce inside an NVLink node (the latency floor of
# nccl-tests all_reduce_perf at kilobyte sizes on 8-GPU H100 systems).
SMALL_ALLREDUCE_S = 10e-6


def gpu_hours_per_million_tokens(tokens_per_s_per_gpu: float) -> float:
    """GPU-hours to produce a million tokens at ``tokens_per_s_per_gpu``."""
    return 1e6 / tokens_per_s_per_gpu / 3600.0


def value_bytes(precision: str) -> float:
    return 1.0 if precision == "fp8" else 2.0


@dataclass(frozen=True, slots=True)
class InferenceResult:
    fits: bool
    weights_gb: float
    kv_gb_per_sequence: float
    max_concurrent_sequences: int
    batch: int
    decode_s_per_token: float | None  # one decode step at the operating batch
    decode_tokens_per_s_per_sequence: float | None  # at batch 1
    decode_tokens_per_s: float | None  # per GPU at the operating batch
    prefill_s: float | None  # TTFT
    requests_per_s_per_replica: float | None
    gpus_needed: int | None
    meets_latency: bool | None  # TPOT target at the operating batch
    meets_ttft: bool | None = None
    output_tokens_per_s_per_gpu: float | None = None  # with prefill, at the operating batch
    tp_allreduce_s_per_token: float | None = None  # of the decode step at the operating batch
    batch_limited_by_memory: bool = False  # the user's operating batch was more than the KV cache holds
    replica_gpus: int = 1  # the GPUs a replica spans (TP x pipeline stages)
    kv_copies: float = 1.0  # copies of each sequence's KV cache the tensor-parallel ranks hold (``kv_copies``)
    tpot_s: float | None = None  # time per output token a sequence sees: the step and the prefills between
    least_tpot_s: float | None = None  # the same at the smallest batch: the least the replica can offer

    @property
    def weights_gb_per_gpu(self) -> float:
        """The replica's weights over its GPUs."""
        return self.weights_gb / max(1, self.replica_gpus)

    @property
    def kv_gb_per_gpu(self) -> float:
        """The KV cache of the operating batch's sequences (at their full context), as many
        copies as the ranks hold, over the replica's GPUs."""
        return self.batch * self.kv_gb_per_sequence * self.kv_copies / max(1, self.replica_gpus)

    def to_json(self) -> dict:
        def r(x, nd=3):
            return None if x is None else round(x, nd)

        def ms(x):
            return None if x is None else r(x * 1e3)
        return {
            "fits": self.fits, "weights_gb": r(self.weights_gb), "kv_gb_per_sequence": r(self.kv_gb_per_sequence, 4),
            "max_concurrent_sequences": self.max_concurrent_sequences, "batch": self.batch,
            "decode_ms_per_token": ms(self.decode_s_per_token),
            "decode_tokens_per_s_per_sequence": r(self.decode_tokens_per_s_per_sequence, 1),
            "decode_tokens_per_s": r(self.decode_tokens_per_s, 1),
            "prefill_ms": ms(self.prefill_s),
            "requests_per_s_per_replica": r(self.requests_per_s_per_replica),
            "gpus_needed": self.gpus_needed, "meets_latency": self.meets_latency,
            "ttft_ms": ms(self.prefill_s), "tpot_ms": ms(self.tpot_s if self.tpot_s is not None
                                                          else self.decode_s_per_token), "meets_ttft": self.meets_ttft,
            "output_tokens_per_s_per_gpu": r(self.output_tokens_per_s_per_gpu, 1),
            "tp_allreduce_ms_per_token": ms(self.tp_allreduce_s_per_token),
            "hbm_efficiency": DECODE_HBM_EFFICIENCY, "kv_hbm_efficiency": KV_STREAM_EFFICIENCY,
            "weights_gb_per_gpu": r(self.weights_gb_per_gpu), "kv_gb_per_gpu": r(self.kv_gb_per_gpu),
            "kv_copies": r(self.kv_copies),
        }


def kv_copies(model: ModelShape, tp: int) -> float:
    """Copies of a sequence's KV cache a tensor-parallel group of ``tp`` ranks holds (module
    docstring): 1 while each rank has its own KV heads, tp / KV heads beyond, tp for
    multi-head latent attention's single latent."""
    if tp <= 1:
        return 1.0
    if model.is_mla:
        return float(tp)
    return max(1.0, tp / max(1, model.kv_heads))


def tp_allreduce_s(model: ModelShape, tokens: int, gpus: int, bus_gbs: float | None) -> float:
    """Two all-reduces per layer of ``tokens`` x hidden 16-bit activations across the replica's
    GPUs (Shoeybi et al. 2019), each latency + 2 (g-1)/g x bytes / bus bandwidth (nccl-tests)."""
    if gpus <= 1 or not bus_gbs:
        return 0.0
    payload = tokens * model.hidden * ACTIVATION_BYTES
    return 2 * model.layers * (SMALL_ALLREDUCE_S + 2.0 * (gpus - 1) / gpus * payload / (bus_gbs * 1e9))


def decode_step_s(model: ModelShape, batch: int, context: int, *, gpus: int, bandwidth_tbs: float,
                  peak_tflops: float, efficiency: float, precision: str = "bf16", hbm_efficiency: float = 1.0,
                  kv_efficiency: float | None = None, allreduce_gbs: float | None = None) -> float:
    """Time of one decode step for ``batch`` sequences of ``context`` tokens (module docstring):
    the weights read at ``hbm_efficiency``, the KV cache (each rank its copy) at
    ``kv_efficiency`` (default the same)."""
    b = value_bytes(precision)
    weights_read = min(model.params, batch * model.active_params) * b
    kv_read = batch * model.kv_values_per_token * b * context * kv_copies(model, gpus)
    bandwidth = gpus * bandwidth_tbs * 1e12
    memory_s = weights_read / (bandwidth * hbm_efficiency) + kv_read / (
        bandwidth * (hbm_efficiency if kv_efficiency is None else kv_efficiency))
    compute_s = batch * model.forward_flops_per_token(context) / (gpus * peak_tflops * 1e12 * efficiency)
    return max(memory_s, compute_s) + tp_allreduce_s(model, batch, gpus, allreduce_gbs)


def prefill_compute_s(w: WorkloadSettings, model: ModelShape, *, gpus: int, peak_tflops: float,
                      bandwidth_tbs: float | None, efficiency: float, curves: str | None = None) -> float:
    """Weight GEMMs and causal attention of one prompt (module docstring). Attention runs in
    16 bits on BF16 peak (half the FP8 peak), at FlashAttention's measured efficiency for
    the prompt's length (``kernels``; the forward-and-backward curve, so if anything slow),
    or at the user's one efficiency figure."""
    p = w.prompt_tokens
    gemm_s = 2.0 * model.active_params * p / (gpus * peak_tflops * 1e12 * efficiency)
    attention_flops = 4.0 * model.layers * p * p * model.attention_width
    bf16 = peak_tflops / 2.0 if w.precision == "fp8" and has_fp8(curves) else peak_tflops
    if w.mfu is not None:
        return gemm_s + attention_flops / (gpus * peak_tflops * 1e12 * w.mfu)
    attn = attention_efficiency(model, seq_len=p, flash=w.flash_attention, bf16_tflops=bf16,
                                bandwidth_tbs=bandwidth_tbs, curves=curves, kernel=w.attention_kernel)
    return gemm_s + attention_flops / (gpus * bf16 * 1e12 * attn * STEP_CALIBRATION)


def stage_hop_s(model: ModelShape, tokens: int, gpus: int, link_gbs: float | None) -> float:
    """One pipeline hop between nodes: ``tokens`` x hidden 16-bit activations, split over the
    stage's ``gpus`` NICs of ``link_gbs`` each, plus the small-message latency."""
    if not link_gbs:
        return SMALL_ALLREDUCE_S
    return SMALL_ALLREDUCE_S + tokens * model.hidden * ACTIVATION_BYTES / (gpus * link_gbs * 1e9)


def size_inference(w: WorkloadSettings, model: ModelShape, *, memory_gb: float, bandwidth_tbs: float | None,
                   peak_tflops: float, allreduce_gbs: float | None = None, link_gbs: float | None = None,
                   curves: str | None = None) -> InferenceResult:
    """A replica of ``inference_pipeline_stages`` stages, each a tensor-parallel group of
    ``inference_gpus_per_replica`` GPUs holding its share of the layers (module docstring).
    With p stages a token passes every stage in turn, so a micro-batch of k sequences takes
    the one-group decode step of all the layers plus p - 1 hops between nodes (``link_gbs``:
    each GPU's NIC); p micro-batches are in flight, so the replica holds p x k sequences and
    each stage is busy 1 / p of a prefill."""
    g, stages = w.inference_gpus_per_replica, w.inference_pipeline_stages
    gpus = g * stages
    b = value_bytes(w.precision)
    weights = model.params * b
    context = w.prompt_tokens + w.output_tokens
    kv_seq = model.kv_values_per_token * b * context
    copies = kv_copies(model, g)
    free = gpus * (memory_gb - w.memory_overhead_gb) * 1e9 - weights
    fits = free > 0
    max_seq = max(0, int(free // (kv_seq * copies))) if fits else 0
    if not fits or bandwidth_tbs is None or max_seq < stages:
        return InferenceResult(fits, weights / 1e9, kv_seq / 1e9, max_seq, 0, None, None, None, None, None, None,
                               None, replica_gpus=gpus, kv_copies=copies)
    eff = w.mfu
    if eff is None:  # the prefill's GEMMs: the prompt's tokens at once on each of the g GPUs
        eff = STEP_CALIBRATION * matmul_efficiency(model, tokens=w.prompt_tokens, tp=g, ep=1, peak_tflops=peak_tflops,
                                                   bandwidth_tbs=bandwidth_tbs, value_bytes=b, curves=curves)

    def step(k: int) -> float:
        # decode at the mean context of a request's life: the prompt plus half the output
        return decode_step_s(model, k, w.prompt_tokens + w.output_tokens // 2, gpus=g, bandwidth_tbs=bandwidth_tbs,
                             peak_tflops=peak_tflops, efficiency=eff, precision=w.precision,
                             hbm_efficiency=DECODE_HBM_EFFICIENCY, kv_efficiency=KV_STREAM_EFFICIENCY,
                             allreduce_gbs=allreduce_gbs) + (stages - 1) * stage_hop_s(model, k, g, link_gbs)

    prefill = (prefill_compute_s(w, model, gpus=g, peak_tflops=peak_tflops, bandwidth_tbs=bandwidth_tbs,
                                 efficiency=eff, curves=curves) + tp_allreduce_s(model, w.prompt_tokens, g, allreduce_gbs)
               + (stages - 1) * stage_hop_s(model, w.prompt_tokens, g, link_gbs))

    def tpot(k: int) -> float:
        # the step and, between steps, the prefills of the k x stages / output tokens requests
        # a round admits (each stage busy 1 / p of a prefill)
        return step(k) + prefill / stages * k * stages / w.output_tokens

    target = w.latency_ms_per_token / 1e3
    t1 = step(1)
    limited = False
    most = max_seq // stages  # sequences a micro-batch can have with p of them in the KV cache
    if w.inference_batch is not None:
        micro = max(1, min(w.inference_batch, max_seq) // stages)
        limited = w.inference_batch > max_seq
    else:
        micro = 1
        if tpot(1) <= target:  # largest micro-batch within the latency target (TPOT grows with it)
            lo, hi = 1, most
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if tpot(mid) <= target:
                    lo = mid
                else:
                    hi = mid - 1
            micro = lo
    batch = micro * stages
    t = step(micro)
    rps = 1.0 / (prefill / stages + w.output_tokens * t / batch)
    needed = None
    if w.requests_per_s:
        needed = math.ceil(w.requests_per_s / rps - 1e-9) * gpus
    return InferenceResult(True, weights / 1e9, kv_seq / 1e9, max_seq, batch, t, 1.0 / t1, batch / (gpus * t),
                           prefill, rps, needed, tpot(micro) <= target, meets_ttft=prefill <= w.ttft_target_ms / 1e3,
                           output_tokens_per_s_per_gpu=rps * w.output_tokens / gpus,
                           tp_allreduce_s_per_token=tp_allreduce_s(model, micro, g, allreduce_gbs),
                           batch_limited_by_memory=limited, replica_gpus=gpus, kv_copies=copies, tpot_s=tpot(micro),
                           least_tpot_s=tpot(1))
