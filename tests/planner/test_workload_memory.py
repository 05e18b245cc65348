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


def test_70b_plain_ddp_on_128_h100_does_not_fit():
    """Acceptance 1: 70B, TP 1, PP 1, DP 128, DDP on 80 GB H100s.
    Model states 16 bytes x 70e9 = 1,120 GB (bf16 weights 2 + gradients 2 + fp32 master 4 +
    Adam 8); activations with selective recompute 34 x 4096 x 8192 bytes per layer x 80
    layers = 91.27 GB (one micro-batch in flight without a pipeline); overhead 5 GB:
    1,216.3 GB needed, 80 GB available."""
    _, report = medium_with(tp=1, pp=1, dp=128)
    bad = by_code(report, "workload.memory.does_not_fit")
    assert bad and bad[0].severity == "error"
    states = 16 * 70e9 / 1e9
    acts = 34 * 4096 * 8192 * 80 / 1e9
    needed = states + acts + 5.0
    assert needed == pytest.approx(1216.3, abs=0.05)
    assert f"{needed:,.1f} GB per GPU" in bad[0].message and "80 GB" in bad[0].message
    work = report.sections["workload"].to_json()
    assert work["fits"] is False and work["memory_per_gpu_gb"] == pytest.approx(needed, abs=1e-3)
    assert work["gpu_memory_gb"] == 80
    # No throughput for a plan that cannot run (it used to claim 116,913 tokens/s).
    assert work["tokens_per_s"] is None and report.sections["network"]["tokens_per_s"] is None
    assert "the smallest change that fits" in bad[0].message


def test_the_advisors_change_does_fit():
    plan, report = medium_with(tp=1, pp=1, dp=128)
    msg = by_code(report, "workload.memory.does_not_fit")[0].message
    # e.g. "the smallest change that fits: TP 8, DP 16, sharding ZeRO-1 (... GB per GPU)"
    from planner.workload.advisor import smallest_fitting_change
    w = plan.settings.workload
    advice = smallest_fitting_change(w, model_shape(w), FabricSettings(), H100_NODE, 128, 80)
    assert advice is not None and advice.describe() in msg
    fixed = w.model_copy(update=advice.changes)
    mem = training_memory(fixed, model_shape(fixed), tp=fixed.tp, pp=fixed.pp, dp=fixed.dp,
                          domain_ranks=max(1, 8 // fixed.tp))
    assert mem.total_gb <= 80


def test_70b_tp8_pp4_dp4_with_zero1_fits():
    """Acceptance 1: 70e9 / (8 x 4) = 2.1875e9 parameters per GPU; ZeRO-1 keeps weights and
    gradients (2 + 2 bytes) and a quarter of the 12 optimizer bytes: 7 x 2.1875e9 = 15.31 GB.
    Activations: 34 x 4096 x 8192 / 8 = 142.6 MB per layer, 80 / 4 = 20 layers, 4 micro-
    batches in flight on the first stage (1F1B): 11.41 GB. With 5 GB overhead: 31.72 GB."""
    _, report = medium_with(sharding="zero1")
    work = report.sections["workload"].to_json()
    states = 7 * 70e9 / 32 / 1e9
    acts = 34 * 4096 * 8192 / 8 * 20 * 4 / 1e9
    assert work["memory_per_gpu_gb"] == pytest.approx(states + acts + 5, abs=1e-3)
    assert work["fits"] is True
    assert not by_code(report, "workload.memory.does_not_fit")
    assert work["tokens_per_s"] > 0 and work["mfu"] > 0


def test_zero_stages_and_fsdp_shard_the_states_as_zero_paper():
    w = WorkloadSettings()
    m = model_shape(w)
    per_gpu = 70e9 / 32  # TP 8 x PP 4
    for sharding, bytes_per_param in (("ddp", 16), ("zero1", 4 + 12 / 4), ("zero2", 2 + 14 / 4),
                                      ("zero3", 16 / 4), ("fsdp_full", 16 / 4)):
        mem = training_memory(w, m, tp=8, pp=4, dp=4, sharding=sharding)
        assert mem.states_gb == pytest.approx(bytes_per_param * per_gpu / 1e9), sharding


def test_recompute_choices_follow_korthikanti():
    # per layer, micro-batch 1, s = 4096, h = 8192, a = 64, t = 8:
    # none 4096 x 8192 x (34 + 5 x 64 x 4096 / 8192) / 8, selective 34 sbh / 8, full 2 sbh / 8
    w = WorkloadSettings()
    m = model_shape(w)
    sbh = 4096 * 8192
    layers_in_flight = 20 * 4
    none = training_memory(w, m, tp=8, pp=4, dp=4, recompute="none").activations_gb
    sel = training_memory(w, m, tp=8, pp=4, dp=4, recompute="selective").activations_gb
    full = training_memory(w, m, tp=8, pp=4, dp=4, recompute="full").activations_gb
    assert none == pytest.approx(sbh * (34 + 5 * 64 * 4096 / 8192) / 8 * layers_in_flight / 1e9)
    assert sel == pytest.approx(34 * sbh / 8 * layers_in_flight / 1e9)
    assert full == pytest.approx((2 * sbh / 8 * layers_in_flight + 34 * sbh / 8) / 1e9)


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
    for key, value in (("pp", 1), ("dp", 3), ("global_batch_tokens", 1000 * 4096)):
        h.apply(SetSetting("workload", key, value))
    report = Evaluator(plan, CAT).evaluate()
    uneven = by_code(report, "workload.batch.uneven")
    assert uneven and uneven[0].severity == "warning" and "333.33" in uneven[0].message


def test_frontier_template_shows_its_pipeline_bubble():
    """PP 20, DP 625, 16,777,216 tokens = 4,096 sequences: 6.55 per replica -> m = 7;
    1F1B bubble 19 / 26 = 73% of the step, flagged with the fractional batch."""
    report = Evaluator(build_template("frontier-100k"), CAT).evaluate()
    work = report.sections["workload"].to_json()
    assert work["micro_batches"] == 7
    assert work["pipeline_bubble"] == pytest.approx(19 / 26, abs=1e-4)
    assert by_code(report, "workload.pipeline.bubble") and by_code(report, "workload.batch.uneven")
    assert "6.55" in by_code(report, "workload.batch.uneven")[0].message
