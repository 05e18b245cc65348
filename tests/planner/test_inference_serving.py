"""Inference as serving engines behave: achieved HBM bandwidth, TP all-reduce per layer,
FP8 weights and KV cache, TTFT and TPOT targets, an operating batch, cost per token."""

from __future__ import annotations

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, SetSetting
from planner.report.evaluate import Evaluator
from planner.settings import WorkloadSettings
from planner.workload.inference import size_inference, tp_allreduce_s
from planner.workload.kernels import STEP_CALIBRATION, matmul_efficiency
from planner.workload.models import PRESETS

CAT = default_catalog()
H100_TBS, H100_TF = 3.35, 989.0  # H100 SXM datasheet: 3.35 TB/s HBM3, 989 TFLOP/s BF16 dense


def test_tp_all_reduce_per_layer_by_hand():
    # Llama 3 70B, 64 tokens on 4 GPUs: 2 all-reduces x 80 layers of 64 x 8,192 x 2 B = 1.049 MB;
    # ring 2 x 3/4 x 1.049 MB at 360 GB/s = 4.37 us + 10 us latency: 160 x 14.37 us = 2.299 ms.
    m = PRESETS["llama3-70b"]
    t = tp_allreduce_s(m, 64, 4, 360.0)
    assert t == pytest.approx(160 * (10e-6 + 1.5 * 64 * 8192 * 2 / 360e9), rel=1e-9)
    assert tp_allreduce_s(m, 64, 1, 360.0) == 0.0  # one GPU: nothing to reduce


def test_fp8_halves_the_weights_and_the_kv_cache_and_decodes_faster():
    # Llama 3 8B: 8.03 GB of FP8 weights; KV 32 x 2 x 8 x 128 x 1 B = 65,536 B per token x 1,280
    # tokens = 83.9 MB per sequence; batch 1 decode reads 8.03 GB of weights at 60% of 3.35 TB/s
    # (3.995 ms) and 65,536 x 1,152 B = 75.5 MB of KV cache at 90% (0.025 ms): 248.8 tokens/s.
    m = PRESETS["llama3-8b"]
    fp8 = size_inference(WorkloadSettings(model="llama3-8b", inference=True, precision="fp8"), m, memory_gb=80,
                         bandwidth_tbs=H100_TBS, peak_tflops=2 * H100_TF)
    assert fp8.weights_gb == pytest.approx(8.03) and fp8.kv_gb_per_sequence == pytest.approx(65536 * 1280 / 1e9)
    step = 8.03e9 / (0.6 * 3.35e12) + 65536 * 1152 / (0.9 * 3.35e12)
    assert fp8.decode_tokens_per_s_per_sequence == pytest.approx(1 / step, rel=1e-6)
    assert 1 / step == pytest.approx(248.8, abs=0.05)


def test_an_operating_batch_sets_tpot_and_throughput():
    # Llama 3 8B BF16 at batch 64 on one H100: weights 16.06 GB at 60% of 3.35 TB/s (7.990 ms)
    # + 64 x 131,072 B x 1,152 tokens = 9.664 GB of KV cache at 90% (3.205 ms) = 11.195 ms per
    # step (TPOT), against 12.80 ms were the KV cache read at the batch-1 60%; compute 64 x
    # (2 x 8.03e9 + 4 x 32 x 1,152 x 4,096) FLOPs would take ~1.5 ms at most.
    m = PRESETS["llama3-8b"]
    w = WorkloadSettings(model="llama3-8b", inference=True, inference_batch=64)
    res = size_inference(w, m, memory_gb=80, bandwidth_tbs=H100_TBS, peak_tflops=H100_TF)
    tpot = 16.06e9 / (0.6 * 3.35e12) + 64 * 131072 * 1152 / (0.9 * 3.35e12)
    assert tpot == pytest.approx(11.195e-3, abs=0.001e-3)
    assert res.batch == 64 and res.decode_s_per_token == pytest.approx(tpot, rel=1e-6)
    assert res.decode_tokens_per_s == pytest.approx(64 / tpot, rel=1e-6)
    # continuous batching: output tokens per GPU-second = 256 / (prefill + 256 x TPOT / 64)
    assert res.output_tokens_per_s_per_gpu == pytest.approx(256 / (res.prefill_s + 256 * tpot / 64), rel=1e-9)
    too_many = size_inference(w.model_copy(update={"inference_batch": 10_000}), m, memory_gb=80,
                              bandwidth_tbs=H100_TBS, peak_tflops=H100_TF)
    assert too_many.batch == too_many.max_concurrent_sequences == 351 and too_many.batch_limited_by_memory


def test_a_long_prompt_pays_for_its_causal_attention():
    # Llama 3 70B FP8, one 2,048-token prompt on one H100, the user's kernel efficiency 0.5 for
    # every kernel: weight GEMMs 2 x 70.6e9 x 2,048 = 2.892e14 FLOPs and attention 4 x 80 x
    # 2,048^2 x 8,192 = 1.0995e16 counted FLOPs (PaLM), at 0.5 x 1,979 TFLOP/s: 0.3033 s.
    m = PRESETS["llama3-70b"]
    w = WorkloadSettings(model="llama3-70b", inference=True, precision="fp8", prompt_tokens=2048, mfu=0.5)
    gemms = 2 * m.active_params * 2048
    attention = 4 * 80 * 2048**2 * 8192
    got = size_inference(w, m, memory_gb=80, bandwidth_tbs=H100_TBS, peak_tflops=2 * H100_TF)
    assert got.prefill_s == pytest.approx((gemms + attention) / (0.5 * 2 * H100_TF * 1e12), rel=1e-9)
    # From the shapes: attention in 16 bits at FlashAttention-2's H100 rate for 2,048 tokens
    # (26% of 989 TFLOP/s counting what runs; causal runs half the counted FLOPs: 52%), over
    # the step calibration, on top of the GEMMs: 1.0995e16 / (989e12 x 0.52 x c).
    shaped = w.model_copy(update={"mfu": None})
    gemm_eff = STEP_CALIBRATION * matmul_efficiency(m, tokens=2048, tp=1, ep=1, peak_tflops=2 * H100_TF,
                                                    bandwidth_tbs=H100_TBS, value_bytes=1.0)
    expected = gemms / (2 * H100_TF * 1e12 * gemm_eff) + attention / (H100_TF * 1e12 * 0.52 * STEP_CALIBRATION)
    got = size_inference(shaped, m, memory_gb=80, bandwidth_tbs=H100_TBS, peak_tflops=2 * H100_TF)
    assert got.prefill_s == pytest.approx(expected, rel=1e-9)


def inference_report(**workload):
    plan = build_template("inference", catalog=CAT)
    h = History(plan, CAT)
    for key, value in workload.items():
        h.apply(SetSetting("workload", key, value))
    return plan, Evaluator(plan, CAT).evaluate()


def test_a_long_prompt_over_the_ttft_target_is_a_warning():
    # Llama 3 8B, 100,000-token prompt on one H100 PCIe (756 TFLOP/s BF16 dense, H100 PCIe
    # datasheet): 2 x 8.03e9 x 1e5 = 1.6e15 FLOPs take over 2 s even at full peak.
    _, report = inference_report(prompt_tokens=100_000, ttft_target_ms=2000.0)
    work = report.sections["workload"].to_json()["inference"]
    assert work["ttft_ms"] > 2000 and work["meets_ttft"] is False
    codes = {f.code: f for f in report.findings}
    assert codes["workload.inference.ttft"].severity == "warning"
    assert "100,000-token prompt" in codes["workload.inference.ttft"].message


def test_cost_per_million_output_tokens_is_gpu_hours_at_the_rental_rate():
    plan, report = inference_report()
    section = report.sections["workload"].to_json()
    per_gpu_s = section["inference"]["output_tokens_per_s_per_gpu"]
    c = plan.settings.costs
    name, rate = next(iter(c.rental_rates().items()))
    # the plan's H100 PCIe GPUs rent at the H100 rates x their price over the H100 SXM's, by the
    # catalog: $70,000 / 2 GPUs against a DGX H100's $270,000 / 8
    factor = (70_000 / 2) / (270_000 / 8)
    # 1e6 tokens / (tokens per GPU-second) / 3,600 = GPU-hours; x $/GPU-hour x (1 + uplift)
    expected = 1e6 / per_gpu_s / 3600 * rate * factor * (1 + c.rent_uplift)
    assert section["inference_usd_per_m_output_tokens"][f"rent_{name}"] == pytest.approx(expected, rel=1e-3)


def test_each_tensor_parallel_rank_holds_mlas_whole_latent_and_whole_kv_heads():
    # DeepSeek-V3 in FP8 on a replica of 4 GPUs of 192 GB: 671 GB of weights; its KV cache is
    # one latent of 512 + 64 rope values a token and layer, 61 x 576 x 1 B = 35,136 B a token,
    # which a rank cannot split by head: each of the 4 holds every sequence's whole latent
    # (SGLang's documentation: duplicated KV cache across all GPUs under TP).
    w = WorkloadSettings(model="deepseek-v3", inference=True, precision="fp8", inference_gpus_per_replica=4)
    m = PRESETS["deepseek-v3"]
    res = size_inference(w, m, memory_gb=192, bandwidth_tbs=8.0, peak_tflops=4500.0)
    context = w.prompt_tokens + w.output_tokens
    kv_seq = 61 * 576 * context
    free = 4 * (192 - w.memory_overhead_gb) * 1e9 - 671e9
    assert res.kv_copies == 4 and res.kv_gb_per_sequence == pytest.approx(kv_seq / 1e9)
    assert res.max_concurrent_sequences == int(free // (4 * kv_seq))
    assert res.kv_gb_per_gpu == pytest.approx(res.batch * kv_seq / 1e9)  # a whole copy on each GPU
    # Llama 3 70B has 8 KV heads: 8 ranks hold one each (no copy), 16 ranks hold each twice
    from planner.workload.inference import kv_copies

    llama = PRESETS["llama3-70b"]
    assert (kv_copies(llama, 1), kv_copies(llama, 8), kv_copies(llama, 16)) == (1.0, 1.0, 2.0)


def test_a_request_longer_than_the_models_context_is_a_warning():
    # Llama 3.1's 128K context: 131,072 tokens; 130,816 + 256 fits exactly, one more does not
    _, report = inference_report(prompt_tokens=130_816)
    assert "workload.inference.context" not in {f.code for f in report.findings}
    _, report = inference_report(prompt_tokens=130_817)
    found = next(f for f in report.findings if f.code == "workload.inference.context")
    assert found.severity == "warning"
    assert "A request of 131,073 tokens (130,817 prompt + 256 output)" in found.message
    assert "the model's context of 131,072 tokens" in found.message


def test_an_operating_batch_the_user_sets_is_judged_by_its_own_time_per_token():
    """The time per output token of the batch the replica runs, not of one sequence: a batch
    whose prefills between the steps push it past the target warns, naming the cure."""
    _, auto = inference_report()
    chosen = auto.sections["workload"].to_json()["inference"]
    assert chosen["meets_latency"] and chosen["tpot_ms"] <= 50.0
    _, report = inference_report(inference_batch=2 * chosen["batch"])
    inf = report.sections["workload"].to_json()["inference"]
    assert inf["tpot_ms"] > 50.0 and inf["meets_latency"] is False
    warning = next(f for f in report.findings if f.code == "workload.inference.latency")
    assert warning.message.startswith(f"At the operating batch of {inf['batch']:,} sequences")
    assert "a smaller operating batch meets it" in warning.message
