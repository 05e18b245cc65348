"""Recompute the job runs with: the settings' choice kept when it fits, the least more that
fits otherwise (with a warning and its cost), and old plans opening with the new settings
at their defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, SetSetting
from planner.plan.fileio import load_plan
from planner.design.templates import build_template
from planner.report.evaluate import evaluate
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.training import JobShape, model_step

CAT = default_catalog()
DATA = Path(__file__).resolve().parents[1] / "data"
H100_NODE = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                     domain_gpus=8, memory_gb=80)
# Korthikanti et al. 2022's GPT-3 175B (GeLU, FFN 4h, dropout, no FlashAttention), s 4,096.
GPT3 = dict(model="custom", model_params_b=175, layers=96, hidden_size=12288, heads=96, kv_heads=96,
            ffn_size=4 * 12288, mlp_activation="gelu", dropout=True, flash_attention=False, seq_len=4096,
            sharding="zero1")


def medium_with(**workload):
    plan = build_template("medium")
    history = History(plan, CAT)
    for key, value in workload.items():
        history.apply(SetSetting("workload", key, value))
    return evaluate(plan, CAT)


def codes(report, code):
    return [f for f in report.findings if f.code == code]


def test_a_version_5_plan_opens_with_the_new_settings_at_their_defaults():
    plan = load_plan(DATA / "plan_v5.json")
    w = plan.settings.workload
    assert w.recompute == "selective"  # as it was saved
    assert (w.recompute_layers, w.flash_attention, w.sequence_parallel, w.mlp_activation, w.dropout) == (
        None, True, True, "swiglu", False)
    work = evaluate(plan, CAT).sections["workload"].to_json()
    assert work["recompute"] == "selective" and work["fits"] is True


def test_no_recompute_that_does_not_fit_runs_selective_with_its_cost_in_a_warning():
    """GPT-3 175B on 128 H100, TP 8, PP 4, DP 4, ZeRO-1, s 4,096: states 175e9 / 32 x (4 + 12/4)
    = 38.28 GB. Per layer and micro-batch, t 8 with sequence parallelism: 34 s b h / 8 =
    213.9 MB, and the scores 5 a s^2 b / 8 = 5 x 96 x 4,096^2 / 8 = 1,006.6 MB; 24 layers x 4
    micro-batches: nothing recomputed 117.2 GB, selective 20.5 GB -> 63.8 GB with 5 GB
    overhead: fits. Selective recompute runs the attention core's forward again, 4 L s h
    FLOPs per token on top of 6N + 12 L s h."""
    report = medium_with(**GPT3, recompute="none")
    work = report.sections["workload"].to_json()
    sbh = 4096 * 12288
    states = 175e9 / 32 * 7
    selective = 34 * sbh / 8 * 24 * 4
    scores = 5 * 96 * 4096**2 / 8 * 24 * 4
    assert (states + selective + scores) / 1e9 + 5 > 80
    assert work["recompute"] == "selective" and work["memory_per_gpu_gb"] == pytest.approx(
        (states + selective) / 1e9 + 5, abs=1e-3)
    warning = codes(report, "workload.memory.more_recompute")[0]
    assert warning.severity == "warning"
    assert f"needs {(states + selective + scores) / 1e9 + 5:,.1f} GB per GPU with no recompute" in warning.message
    assert "fits with selective recompute" in warning.message and "the planner evaluates" in warning.message
    assert not codes(report, "workload.memory.does_not_fit")
    # its fix states what is evaluated (the finding named its fix, and had none)
    assert warning.remedy is not None and warning.remedy.label == "Train with selective recompute"
    assert dict(warning.remedy.figures)["recompute"] == "selective"

    w = WorkloadSettings(**GPT3, tp=8, pp=4, dp=4, mfu=0.55)  # one efficiency: the ratio is the FLOPs'
    none = model_step(w.model_copy(update={"recompute": "none"}), FabricSettings(), H100_NODE)
    sel = model_step(w.model_copy(update={"recompute": "selective"}), FabricSettings(), H100_NODE)
    fpt = 6 * 175e9 + 12 * 96 * 4096 * 12288
    assert sel.compute_s / none.compute_s == pytest.approx((fpt + 4 * 96 * 4096 * 12288) / fpt)


def test_full_recompute_of_some_layers_is_kept_when_it_fits():
    """Default 70B on the medium template (TP 8, PP 4, DP 4, DDP), 2 of each stage's 20 layers
    in full: states 16 x 70e9 / 32 = 35 GB; per layer and micro-batch 274,688 / 8 x 4,096
    bytes kept (see test_workload_memory), a full layer's input 2 x 4,096 x 8,192 / 8;
    4 micro-batches in flight x (18 kept + 2 inputs) + one kept set being recomputed."""
    report = medium_with(recompute="full", recompute_layers=2)
    work = report.sections["workload"].to_json()
    kept = 274_688 / 8 * 4096
    inp = 2 * 4096 * 8192 / 8
    acts = 4 * (18 * kept + 2 * inp) + kept
    assert work["recompute"] == "full" and work["recompute_layers"] == 2
    assert work["activation_memory_gb"] == pytest.approx(acts / 1e9, abs=1e-3)
    assert work["memory_per_gpu_gb"] == pytest.approx(35 + acts / 1e9 + 5, abs=1e-3)
    assert not codes(report, "workload.memory.more_recompute")


def test_the_more_recompute_fix_sets_what_is_evaluated_and_clears_the_warning():
    from planner.remedies.commands import remedy_command

    plan = build_template("medium")
    history = History(plan, CAT)
    for key, value in dict(**GPT3, recompute="none").items():
        history.apply(SetSetting("workload", key, value))
    before = evaluate(plan, CAT)
    warning = codes(before, "workload.memory.more_recompute")[0]
    history.apply(remedy_command(warning.remedy))
    after = evaluate(plan, CAT)
    assert plan.settings.workload.recompute == "selective" and not codes(after, "workload.memory.more_recompute")
    assert after.network.tokens_per_s == before.network.tokens_per_s  # what ran before runs now
