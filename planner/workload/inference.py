"""Inference sizing (the inference archetype of N. Dixit, "The GPU Cluster That Actually Works
for Deep Learning in 2026", SIVARO): decode is bounded by HBM bandwidth,
prefill by compute; the KV cache left in memory bounds the concurrent sequences.

For a replica of g GPUs serving a model of N parameters (N_active per token) at b bytes
per value, with HBM bandwidth B and peak F per GPU, kernel efficiency e:
- weights W = N x b must fit: W / g + overhead <= GPU memory;
- KV cache per token = L x 2 x KV heads x head size x b (grouped-query attention);
  concurrent sequences = (g x memory - W - g x overhead) / (KV per token x context);
- one decode step for a batch of k sequences reads the weights once and every sequence's
  KV cache: t = max((W_read + k x KV x context) / (g x B), 2 N_active k / (g x F x e)),
  W_read = min(N, k x N_active) x b (a mixture-of-experts batch touches more experts);
  tokens/s per sequence = 1 / t, per GPU = k / (g t);
- prefill of a prompt of p tokens: 2 N_active p / (g x F x e) (compute-bound);
- requests/s per replica at batch k = 1 / (prefill + output tokens x t / k);
  GPUs for a target = ceil(target / that) x g.
The batch is the largest that keeps t within the latency target and fits the KV cache.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.settings import WorkloadSettings
from planner.workload.kernels import STEP_CALIBRATION, matmul_efficiency
from planner.workload.models import ModelShape


def value_bytes(precision: str) -> float:
    return 1.0 if precision == "fp8" else 2.0


@dataclass(frozen=True, slots=True)
class InferenceResult:
    fits: bool
    weights_gb: float
    kv_gb_per_sequence: float
    max_concurrent_sequences: int
    batch: int
    decode_s_per_token: float | None
    decode_tokens_per_s_per_sequence: float | None  # at batch 1
    decode_tokens_per_s: float | None  # per GPU at the operating batch
    prefill_s: float | None
    requests_per_s_per_replica: float | None
    gpus_needed: int | None
    meets_latency: bool | None

    def to_json(self) -> dict:
        def r(x, nd=3):
            return None if x is None else round(x, nd)
        return {
            "fits": self.fits, "weights_gb": r(self.weights_gb), "kv_gb_per_sequence": r(self.kv_gb_per_sequence, 4),
            "max_concurrent_sequences": self.max_concurrent_sequences, "batch": self.batch,
            "decode_ms_per_token": r(None if self.decode_s_per_token is None else self.decode_s_per_token * 1e3),
            "decode_tokens_per_s_per_sequence": r(self.decode_tokens_per_s_per_sequence, 1),
            "decode_tokens_per_s": r(self.decode_tokens_per_s, 1),
            "prefill_ms": r(None if self.prefill_s is None else self.prefill_s * 1e3),
            "requests_per_s_per_replica": r(self.requests_per_s_per_replica),
            "gpus_needed": self.gpus_needed, "meets_latency": self.meets_latency,
        }


def decode_step_s(model: ModelShape, batch: int, context: int, *, gpus: int, bandwidth_tbs: float,
                  peak_tflops: float, efficiency: float, precision: str = "bf16") -> float:
    """Time of one decode step for ``batch`` sequences of ``context`` tokens (module docstring)."""
    b = value_bytes(precision)
    weights_read = min(model.params, batch * model.active_params) * b
    kv_read = batch * model.kv_values_per_token * b * context
    memory_s = (weights_read + kv_read) / (gpus * bandwidth_tbs * 1e12)
    compute_s = batch * model.forward_flops_per_token(context) / (gpus * peak_tflops * 1e12 * efficiency)
    return max(memory_s, compute_s)


def size_inference(w: WorkloadSettings, model: ModelShape, *, memory_gb: float, bandwidth_tbs: float | None,
                   peak_tflops: float) -> InferenceResult:
    g = w.inference_gpus_per_replica
    b = value_bytes(w.precision)
    weights = model.params * b
    context = w.prompt_tokens + w.output_tokens
    kv_seq = model.kv_values_per_token * b * context
    free = g * (memory_gb - w.memory_overhead_gb) * 1e9 - weights
    fits = free > 0
    max_seq = max(0, int(free // kv_seq)) if fits else 0
    if not fits or bandwidth_tbs is None or max_seq == 0:
        return InferenceResult(fits, weights / 1e9, kv_seq / 1e9, max_seq, 0, None, None, None, None, None, None,
                               None)
    eff = w.mfu
    if eff is None:  # the prefill's GEMMs: the prompt's tokens at once on each of the g GPUs
        eff = STEP_CALIBRATION * matmul_efficiency(model, tokens=w.prompt_tokens, tp=g, ep=1, peak_tflops=peak_tflops,
                                                   bandwidth_tbs=bandwidth_tbs, value_bytes=b)

    def step(k: int) -> float:
        # decode at the mean context of a request's life: the prompt plus half the output
        return decode_step_s(model, k, w.prompt_tokens + w.output_tokens // 2, gpus=g, bandwidth_tbs=bandwidth_tbs,
                             peak_tflops=peak_tflops, efficiency=eff, precision=w.precision)

    target = w.latency_ms_per_token / 1e3
    t1 = step(1)
    batch = 1
    if t1 <= target:  # largest batch within the latency target (step time grows with the batch)
        lo, hi = 1, max_seq
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if step(mid) <= target:
                lo = mid
            else:
                hi = mid - 1
        batch = lo
    t = step(batch)
    prefill = 2.0 * model.active_params * w.prompt_tokens / (g * peak_tflops * 1e12 * eff)
    rps = 1.0 / (prefill + w.output_tokens * t / batch)
    needed = None
    if w.requests_per_s:
        needed = math.ceil(w.requests_per_s / rps - 1e-9) * g
    return InferenceResult(True, weights / 1e9, kv_seq / 1e9, max_seq, batch, t, 1.0 / t1, batch / (g * t),
                           prefill, rps, needed, t1 <= target)
