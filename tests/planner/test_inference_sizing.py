"""Inference sizing: decode bounded by HBM bandwidth, KV cache capacity, GPUs for a target."""

from __future__ import annotations

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import Catalog, default_catalog
from planner.plan.commands import History, SetSetting
from planner.report.evaluate import Evaluator
from planner.settings import WorkloadSettings
from planner.workload.inference import decode_step_s, size_inference
from planner.workload.models import PRESETS

CAT = default_catalog()
H100_TBS, H100_TF = 3.35, 989.0  # H100 SXM datasheet (REFERENCE): 3.35 TB/s HBM3, 989 TFLOP/s BF16 dense


def test_8b_bf16_decode_on_one_h100_is_bounded_by_hbm_bandwidth():
    """Acceptance 4: 8.03e9 x 2 bytes = 16.06 GB read per token; 3.35 TB/s / 16.06 GB =
    208.6 tokens/s per sequence at batch 1 at the full bandwidth. A serving engine reaches
    about 60% of it (Databricks 2023, MBU at batch 1): 125.2 tokens/s, less the KV cache
    read (131,072 B x 1,152 tokens = 0.151 GB, streamed by the attention kernel at 90%:
    +0.6%): 124.4."""
    m = PRESETS["llama3-8b"]
    bound = 3.35e12 / (8.03e9 * 2)
    assert bound == pytest.approx(208.6, abs=0.05)
    t = decode_step_s(m, 1, 0, gpus=1, bandwidth_tbs=H100_TBS, peak_tflops=H100_TF, efficiency=0.55)
    assert 1 / t == pytest.approx(bound)
    res = size_inference(WorkloadSettings(model="llama3-8b", inference=True), m, memory_gb=80,
                         bandwidth_tbs=H100_TBS, peak_tflops=H100_TF)
    assert res.fits
    step = 16.06e9 / (0.6 * 3.35e12) + 131072 * 1152 / (0.9 * 3.35e12)
    assert res.decode_tokens_per_s_per_sequence == pytest.approx(1 / step, rel=1e-6)
    assert 1 / step == pytest.approx(124.4, abs=0.05)


def test_the_share_of_bandwidth_a_decode_step_achieves_follows_the_batch():
    """Llama 3 8B FP8 at 4,096 tokens of context on one H100: weights 8.03 GB read at 60% of
    3.35 TB/s (3.995 ms), KV 65,536 B per token. Batch 1: + 0.268 GB of KV at 90% (0.089 ms)
    = 4.084 ms, 8.298 GB / (3.35 TB/s x 4.084 ms) = 60.6% of the datasheet bandwidth.
    Batch 256: + 68.72 GB at 90% (22.79 ms) = 26.79 ms, 76.75 GB in it = 85.5%."""
    m = PRESETS["llama3-8b"]
    kv = 65536 * 4096

    def step(k):
        return decode_step_s(m, k, 4096, gpus=1, bandwidth_tbs=H100_TBS, peak_tflops=2 * H100_TF,
                             efficiency=0.5, precision="fp8", hbm_efficiency=0.6, kv_efficiency=0.9)

    for k, share in ((1, 0.606), (256, 0.855)):
        assert step(k) == pytest.approx(8.03e9 / (0.6 * 3.35e12) + k * kv / (0.9 * 3.35e12), rel=1e-9)
        assert (8.03e9 + k * kv) / (3.35e12 * step(k)) == pytest.approx(share, abs=0.001)


def test_kv_cache_capacity_by_hand():
    # Llama 3 8B: 32 layers x 2 x 8 KV heads x 128 values x 2 bytes = 131,072 bytes per token;
    # 1,024 + 256 tokens = 167.8 MB per sequence. Free: 80 - 5 GB overhead - 16.06 GB weights
    # = 58.94 GB -> 351 sequences.
    res = size_inference(WorkloadSettings(model="llama3-8b", inference=True), PRESETS["llama3-8b"],
                         memory_gb=80, bandwidth_tbs=H100_TBS, peak_tflops=H100_TF)
    per_seq = 32 * 2 * 8 * 128 * 2 * 1280
    assert res.kv_gb_per_sequence == pytest.approx(per_seq / 1e9)
    assert res.max_concurrent_sequences == int((80e9 - 5e9 - 16.06e9) // per_seq) == 351
    # the chosen batch keeps a decode step within the 50 ms target
    assert res.decode_s_per_token <= 0.050 and res.batch >= 1


def inference_plan(catalog, **workload):
    plan = build_template("inference", catalog=catalog)
    h = History(plan, catalog)
    for key, value in workload.items():
        h.apply(SetSetting("workload", key, value))
    return Evaluator(plan, catalog).evaluate()


def test_70b_bf16_on_one_80gb_h100_does_not_fit():
    """Acceptance 4: 70e9 x 2 bytes = 140 GB of weights > one 80 GB GPU: an error."""
    report = inference_plan(CAT, model="custom", model_params_b=70, inference_gpus_per_replica=1)
    bad = [f for f in report.findings if f.code == "workload.inference.does_not_fit"]
    assert bad and bad[0].severity == "error"
    assert "140.0 GB" in bad[0].message and "80 GB" in bad[0].message
    assert report.sections["workload"]["inference"]["fits"] is False


def test_check_json_reports_decode_and_concurrency_and_sizes_for_a_target():
    # The inference template's node with the H100's HBM bandwidth filled in (the catalog
    # entry may not carry it): H100 PCIe 2.0 TB/s (REFERENCE).
    node = CAT["h100x2-inference"]
    pcie = node.model_copy(update={"gpu": node.gpu.model_copy(update={"memory_bandwidth_tbs": 2.0})})
    cat = Catalog([pcie if d.id == node.id else d for d in CAT])
    report = inference_plan(cat, requests_per_s=1000.0)
    work = report.sections["workload"].to_json()
    # 2.0 TB/s / 16.06 GB = 124.5 tokens/s per sequence at most; batching raises it per GPU.
    assert work["inference"]["decode_tokens_per_s_per_sequence"] <= 2.0e12 / 16.06e9
    assert work["decode_tokens_per_s"] > work["inference"]["decode_tokens_per_s_per_sequence"]
    assert work["max_concurrent_sequences"] == 351
    needed = work["inference"]["gpus_needed"]
    rps = work["inference"]["requests_per_s_per_replica"]
    assert needed == -(-1000 // rps)  # ceil(target / per-replica), one GPU per replica
    gpus = report.totals.gpus
    short = [f for f in report.findings if f.code == "workload.inference.capacity"]
    assert (needed > gpus) == bool(short)
    if short:
        assert f"{needed:,} GPUs" in short[0].message and f"{gpus:,}" in short[0].message
        # and says what to add: the missing GPUs in whole nodes of the plan's 2-GPU type
        per_node = 2
        assert (f"add {needed - gpus:,} GPUs ({-(-(needed - gpus) // per_node):,} more nodes of {per_node}"
                in short[0].message)
