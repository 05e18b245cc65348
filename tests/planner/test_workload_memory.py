"""Training memory per GPU, the pipeline schedule and the batch split, against hand arithmetic."""

from __future__ import annotations

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, SetSetting
from planner.report.evaluate import Evaluator
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.checks import batch_findings
from planner.workload.memory import training_memory
from planner.workload.models import model_shape
from planner.workload.pipeline import bubble_fraction
from planner.workload.training import JobShape, model_step

CAT = default_catalog()
H100_NODE = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                     domain_gpus=8, memory_gb=80)


def medium_with(**workload):
    plan = build_template("medium")
    history = History(plan, CAT)
    for key, value in workload.items():
        history.apply(SetSetting("workload", key, value))
    return plan, Evaluator(plan, CAT).evaluate()


def by_code(report, code):
    return [f for f in report.findings if f.code == code]


# Bytes one layer of the default custom shape (Llama 2 70B: h 8192, 64 heads, 8 KV heads of
# 128, FFN 28,672, SwiGLU, no dropout, FlashAttention) keeps per token with nothing
# recomputed in full: norms' inputs 2 x 2h, norm outputs 2 x 2h, Q 2h, attention output 2h,
# K and V 2 x 2 x 1,024, softmax statistics 4 x 64, SwiGLU 3 x 2 x 28,672.
KEPT_PER_TOKEN = 4 * 8192 + 4 * 8192 + 2 * 8192 + 2 * 8192 + 4 * 1024 + 4 * 64 + 6 * 28672  # 274,688


def test_70b_plain_ddp_on_128_h100_runs_with_zero3_and_some_layers_recomputed():
    """70B, TP 1, PP 1, DP 128, DDP on 80 GB H100s: states 16 bytes x 70e9 = 1,120 GB, so no
    recompute fits; ZeRO-1 (4 + 12/128 bytes: 286.6 GB) and ZeRO-2 (2 + 14/128: 147.7 GB) do
    not either; ZeRO-3 16 x 70e9 / 128 = 8.75 GB does, plus two gathered layers' weights and
    one layer's gradients, 3 x 70e9 / 80 x 2 bytes = 5.25 GB: 14 GB. Activations, one
    micro-batch of 4,096 tokens in flight: kept 274,688 x 4,096 = 1.1251 GB per layer, a
    fully recomputed layer's input 2 x 4,096 x 8,192 = 67.1 MB. k layers in full: (80 - k) x
    1.1251 + k x 0.0671 + 1.1251 <= 80 - 14 - 5 -> k >= 28.5: 29 layers. Evaluated so, with
    a warning."""
    _, report = medium_with(tp=1, pp=1, dp=128)
    assert not by_code(report, "workload.memory.does_not_fit")
    kept, inp = KEPT_PER_TOKEN * 4096, 2 * 4096 * 8192
    states = 8.75e9 + 3 * 70e9 / 80 * 2
    acts = 51 * kept + 29 * inp + kept
    assert states + 52 * kept + 28 * inp + kept + 5e9 > 80e9  # 28 layers would not fit
    work = report.sections["workload"].to_json()
    assert work["sharding"] == "zero3" and work["recompute"] == "full" and work["recompute_layers"] == 29
    assert work["memory_per_gpu_gb"] == pytest.approx((states + acts) / 1e9 + 5, abs=1e-3)
    assert work["fits"] is True and work["tokens_per_s"] > 0
    warning = by_code(report, "workload.memory.more_sharding")[0]
    assert warning.severity == "warning"
    needed = 1120 + 80 * kept / 1e9 + 5  # the settings' own choice: DDP, selective
    assert f"needs {needed:,.1f} GB per GPU with selective recompute and DDP" in warning.message
    assert "full recompute of 29 of 80 layers per stage" in warning.message and "ZeRO-3" in warning.message
    assert "% step time" in warning.message


def long_sequences_on_one_gpu_each():
    """70B, TP 1, PP 1, DP 128, sequences of 65,536 tokens: even ZeRO-3 (8.75 GB) with every
    layer recomputed keeps 80 x 2 x 65,536 x 8,192 = 85.9 GB of layer inputs."""
    return medium_with(tp=1, pp=1, dp=128, seq_len=65536, global_batch_tokens=128 * 65536)


def test_70b_on_one_gpu_per_replica_with_64k_sequences_does_not_fit():
    _, report = long_sequences_on_one_gpu_each()
    bad = by_code(report, "workload.memory.does_not_fit")
    assert bad and bad[0].severity == "error"
    # Shown at the settings' sharding (DDP) with every layer recomputed: states 1,120 GB,
    # inputs 85.9 GB, the layer being recomputed 274,688 x 65,536 = 18.0 GB, overhead 5.
    needed = 1120 + (80 * 2 * 65536 * 8192 + KEPT_PER_TOKEN * 65536) / 1e9 + 5
    assert f"{needed:,.1f} GB per GPU" in bad[0].message and "80 GB" in bad[0].message
    work = report.sections["workload"].to_json()
    assert work["fits"] is False and work["memory_per_gpu_gb"] == pytest.approx(needed, abs=1e-3)
    # No throughput for a plan that cannot run.
    assert work["tokens_per_s"] is None and report.sections["network"]["tokens_per_s"] is None
    # nor an idle share: a step that cannot run idles no share of itself
    assert report.sections["network"]["gpu_idle_pct"] is None and report.sections["network"]["step_ms"] is None
    assert "the smallest change that fits" in bad[0].message


def test_the_advisors_change_does_fit():
    plan, report = long_sequences_on_one_gpu_each()
    msg = by_code(report, "workload.memory.does_not_fit")[0].message
    from planner.workload.advisor import smallest_fitting_change
    w = plan.settings.workload
    advice = smallest_fitting_change(w, model_shape(w), FabricSettings(), H100_NODE, 128, 80)
    assert advice is not None and advice.describe() in msg
    assert {"tp", "dp"} <= set(advice.changes)  # more than one GPU per replica
    # The evaluation gives the changed plan the recompute (auto) and sharding that fit.
    from planner.workload.fit import fit_training
    fixed = w.model_copy(update=advice.changes)
    fit = fit_training(fixed, model_shape(fixed), available_gb=80, domain_ranks=max(1, 8 // fixed.tp))
    assert fit.fits and fit.memory.total_gb == pytest.approx(advice.memory_gb) and advice.memory_gb <= 80


def test_70b_tp8_pp4_dp4_with_zero1_fits():
    """70e9 / (8 x 4) = 2.1875e9 parameters per GPU; ZeRO-1 keeps weights and gradients
    (2 + 2 bytes) and a quarter of the 12 optimizer bytes: 7 x 2.1875e9 = 15.31 GB.
    Activations with sequence parallelism: 274,688 / 8 = 34,336 bytes per token per layer
    (one KV head per rank), x 4,096 tokens, 20 layers, 4 micro-batches in flight on the
    first stage (1F1B): 11.25 GB. With 5 GB overhead: 31.56 GB; no recompute warning."""
    _, report = medium_with(sharding="zero1")
    work = report.sections["workload"].to_json()
    states = 7 * 70e9 / 32 / 1e9
    acts = KEPT_PER_TOKEN / 8 * 4096 * 20 * 4 / 1e9
    assert work["memory_per_gpu_gb"] == pytest.approx(states + acts + 5, abs=1e-3)
    assert work["activation_memory_gb"] == pytest.approx(acts, abs=1e-3)
    assert work["fits"] is True and work["recompute"] == "selective" and work["recompute_layers"] is None
    assert not by_code(report, "workload.memory.does_not_fit")
    assert not by_code(report, "workload.memory.more_recompute")
    assert work["tokens_per_s"] > 0 and work["mfu"] > 0


def test_zero_stages_and_fsdp_shard_the_states_as_zero_paper():
    """ZeRO-3 / FSDP also hold two gathered layers' weights and one layer's gradients whole:
    3 x 70e9 / (8 x 80) x 2 bytes = 0.65625 GB (FSDP's rate limiter, Zhao et al. 2023)."""
    w = WorkloadSettings()
    m = model_shape(w)
    per_gpu = 70e9 / 32  # TP 8 x PP 4
    gathered = 3 * 70e9 / (8 * 80) * 2
    for sharding, bytes_per_param, extra in (("ddp", 16, 0), ("zero1", 4 + 12 / 4, 0), ("zero2", 2 + 14 / 4, 0),
                                             ("zero3", 16 / 4, gathered), ("fsdp_full", 16 / 4, gathered)):
        mem = training_memory(w, m, tp=8, pp=4, dp=4, sharding=sharding)
        assert mem.states_gb == pytest.approx((bytes_per_param * per_gpu + extra) / 1e9), sharding


def test_recompute_choices_for_a_flashattention_model():
    """With FlashAttention nothing s x s is stored, so none = selective; full keeps each
    layer's input 2 s b h / t and one layer's whole set while it is recomputed."""
    w = WorkloadSettings()
    m = model_shape(w)
    layers_in_flight = 20 * 4
    kept = KEPT_PER_TOKEN / 8 * 4096
    none = training_memory(w, m, tp=8, pp=4, dp=4, recompute="none").activations_gb
    sel = training_memory(w, m, tp=8, pp=4, dp=4, recompute="selective").activations_gb
    full = training_memory(w, m, tp=8, pp=4, dp=4, recompute="full").activations_gb
    assert none == sel == pytest.approx(kept * layers_in_flight / 1e9)
    assert full == pytest.approx((2 * 4096 * 8192 / 8 * layers_in_flight + kept) / 1e9)


GPT3_175B = dict(model="custom", model_params_b=175, layers=96, hidden_size=12288, heads=96, kv_heads=96,
                 ffn_size=4 * 12288, mlp_activation="gelu", dropout=True, flash_attention=False, seq_len=2048)


@pytest.mark.parametrize("sequence_parallel", [True, False])
def test_gpt3_layer_matches_korthikanti_equations(sequence_parallel):
    """Korthikanti et al. 2022 for GPT-3 175B (s 2,048, b 1, h 12,288, a 96), t = 8.
    sbh = 25,165,824; 5 a s^2 b / t = 5 x 96 x 2,048^2 / 8 = 251,658,240 bytes.
    Sequence parallel (eq. 5): sbh (34 + 5 a s / h) / t = 106.95 MB + 251.66 MB = 358.61 MB,
    selective 34 sbh / t = 106.95 MB. Tensor parallel only (eq. 2): sbh (10 + 24/t
    + 5 a s / (h t)) = 13 sbh + 251.66 MB = 578.81 MB, selective 13 sbh = 327.16 MB."""
    from planner.workload.activations import kept_layer_bytes
    w = WorkloadSettings(**GPT3_175B, sequence_parallel=sequence_parallel)
    m = model_shape(w)
    sbh = 2048 * 12288
    scores = 5 * 96 * 2048**2 / 8
    linear = 34 * sbh / 8 if sequence_parallel else (10 + 24 / 8) * sbh
    assert kept_layer_bytes(w, m, 8, selective=False) == pytest.approx(linear + scores)
    assert kept_layer_bytes(w, m, 8, selective=True) == pytest.approx(linear)


def test_interleaved_schedule_holds_more_micro_batches_by_the_chunk_count():
    """Narayanan et al. 2021 / Korthikanti 4.2.3: the first stage holds p (1 + (p-1)/(p v))
    micro-batches: p 4, v 2 -> 4 x (1 + 3/8) = 5.5 against 1F1B's 4."""
    w = WorkloadSettings(sharding="zero1")
    m = model_shape(w)
    flat = training_memory(w, m, tp=8, pp=4, dp=4).activations_gb
    inter = training_memory(w.model_copy(update={"pp_schedule": "interleaved", "virtual_stages": 2}), m,
                            tp=8, pp=4, dp=4).activations_gb
    assert inter / flat == pytest.approx(5.5 / 4)


def test_partial_full_recompute_costs_one_forward_of_its_layers():
    """3 of a stage's 20 layers recomputed in full: hardware FLOPs per token grow by 3/20 of
    one forward pass, (2N + 4 L s h) x 3/20; model FLOPs (and MFU's numerator) do not."""
    w = WorkloadSettings(sharding="zero1")
    m = model_shape(w)
    base = model_step(w, FabricSettings(), H100_NODE)
    part = model_step(w.model_copy(update={"recompute": "full", "recompute_layers": 3}), FabricSettings(), H100_NODE)
    fpt = 6 * 70e9 + 12 * 80 * 4096 * 8192
    fwd = 2 * 70e9 + 4 * 80 * 4096 * 8192
    assert part.compute_s / base.compute_s == pytest.approx((fpt + 3 / 20 * fwd) / fpt)
    assert part.flops_per_token == base.flops_per_token == pytest.approx(fpt)


def test_bubble_for_four_stages_and_eight_micro_batches_is_three_elevenths():
    """Acceptance 1: 1F1B bubble (p-1)/(m+p-1) = 3/11 for p = 4, m = 8; interleaved with
    v = 2 halves the idle slots: 3/(16+3) = 3/19."""
    assert bubble_fraction(4, 8, "1f1b") == pytest.approx(3 / 11)
    assert bubble_fraction(4, 8, "interleaved", 2) == pytest.approx(3 / 19)
    # Through the step model: 32 sequences of 4096 tokens on DP 4, micro-batch 1 -> m = 8.
    w = WorkloadSettings(global_batch_tokens=32 * 4096, tp=8, pp=4, dp=4)
    r = model_step(w, FabricSettings(), H100_NODE)
    assert r.micro_batches == 8 and r.bubble == pytest.approx(3 / 11)
    # the bubble is 3/11 of compute + bubble (+ the in-stage traffic): bubble = work x 3/8
    assert r.bubble_s == pytest.approx((r.compute_s + r.tp_s + r.pp_s) * 3 / 8)


def test_the_interleaved_schedule_sends_each_micro_batch_once_per_chunk():
    """Narayanan et al. 2021, section 2.2.2: with v model chunks per stage "the amount of
    communication also increases by v": v times the activations and gradients between
    stages, and v times the messages, so the pipeline traffic of v = 4 is 4 x that of 1F1B
    (m = 8 micro-batches either way; here over the fabric: TP 8 x DP 4 fill 4 nodes)."""
    w = WorkloadSettings(global_batch_tokens=32 * 4096, tp=8, pp=4, dp=4)
    one = model_step(w, FabricSettings(), H100_NODE)
    four = model_step(w.model_copy(update={"pp_schedule": "interleaved", "virtual_stages": 4}), FabricSettings(),
                      H100_NODE)
    assert one.pp_s > 0 and four.pp_s == pytest.approx(4 * one.pp_s)
    # the bytes: 2 x 32,768 tokens per replica x 8,192 x 2 B / TP 8 = 134.2 MB per GPU, x 4
    assert four.fabric_bytes_per_gpu - one.fabric_bytes_per_gpu == pytest.approx(3 * 2 * 32768 * 8192 * 2 / 8)


def test_global_batch_of_1000_sequences_on_dp3_is_a_warning():
    """Acceptance 1: 1,000 sequences / DP 3 = 333.33 per replica; 999 or 1,002 divide."""
    w = WorkloadSettings(tp=8, pp=1, dp=3, global_batch_tokens=1000 * 4096)
    found = batch_findings(w)
    assert [f.severity for f in found] == ["warning"]
    msg = found[0].message
    assert "1,000 sequences" in msg and "DP 3" in msg and "333.33" in msg and "999 or 1,002" in msg
    # In a plan: 3 nodes of 8 GPUs with TP 8, PP 1, DP 3.
    plan = build_template("medium", nodes=3)
    h = History(plan, CAT)
    for key, value in (("tp", 8), ("cp", 1), ("pp", 1), ("dp", 3), ("micro_batch_size", 1),
                       ("seq_len", 4096), ("global_batch_tokens", 1000 * 4096)):
        h.apply(SetSetting("workload", key, value))
    report = Evaluator(plan, CAT).evaluate()
    uneven = by_code(report, "workload.batch.uneven")
    assert uneven and uneven[0].severity == "warning" and "333.33" in uneven[0].message


def test_frontier_template_is_designed_without_a_pipeline_bubble():
    """Made by hand it trained at PP 20 x DP 625 with 6.55 sequences per replica (a 73 %
    bubble). Designed from its intent by the layout search: 51,200,000 tokens = 12,500
    sequences of 4,096 over every one of its 100,000 GPUs, whole micro-batches on every
    replica. The search keeps TP 8 x PP 10 x DP 1,250 interleaved over v = 8 chunks (126
    layers in 80 chunks of 1 or 2: stages of 12 or 13 layers): 10 micro-batches a replica, a
    bubble of (p - 1) / (v m + p - 1) = 9 / 89 = 10.1 %, and more tokens/s than the same job
    without a pipeline (TP 8 x DP 12,500, one micro-batch each)."""
    plan = build_template("frontier-100k")
    w = plan.settings.workload
    assert (w.tp * w.cp * w.pp * w.dp, w.global_batch_tokens // w.seq_len) == (100_000, 12_500)
    report = Evaluator(plan, CAT).evaluate()
    work = report.sections["workload"].to_json()
    assert (w.tp, w.pp, w.dp, w.virtual_stages, work["micro_batches"]) == (8, 10, 1250, 8, 10)
    assert work["pipeline_bubble"] == pytest.approx(9 / 89, abs=1e-4)
    flat = plan.model_copy(deep=True)
    flat.settings.workload = w.model_copy(update={"pp": 1, "dp": 12_500, "pp_schedule": "1f1b", "virtual_stages": 1})
    assert Evaluator(flat, CAT).evaluate().sections["workload"].to_json()["tokens_per_s"] < work["tokens_per_s"]
    assert not by_code(report, "workload.pipeline.bubble") and not by_code(report, "workload.batch.uneven")
    assert not by_code(report, "workload.memory.does_not_fit")
