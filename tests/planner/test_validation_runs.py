"""The planner against published training runs: each run is a real plan evaluated by
``check --json``, memory check included; docs/validation.md is the table these rows make."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from planner.workload.models import PRESETS
from tests.planner.validation_runs import (DOC, HELD_OUT_MISSES, INFERENCE_RUNS, RUNS, USER_PATH_MISSES, USER_SHARE,
                                          check_json, document, predicted, user_holds, user_path_json, user_reference,
                                          within)

# Meta trained Llama 3 405B at 8K tokens "without activation checkpointing" (Llama 3 paper,
# section 3.3.2); the planner's count of the tensors a layer keeps needs 84.6 GB per GPU
# for that on 16,384 GPUs even with one layer per stage recomputed, so auto recompute takes
# 2 of 7.875 layers per stage in full, and the extra forward passes cost about 8% of the step.


# Held-out runs outside their goal (the table says "missed" and HELD_OUT_MISSES says why), with
# the error they stay within.
KNOWN_MISSES: dict[str, float] = {
    "DeepSeek-V3 671B MoE, 256 H100": 0.15,
    "Kimi K2 1T MoE, 256 H100": 0.20,
    "Qwen3-30B-A3B MoE, 8 H100": 0.15,
    "MPT 7B, 8 A100": 0.15,
    "MPT 30B, 8 A100": 0.25,
    "MPT 70B, 64 A100": 0.20,
    "MPT 7B, 64K context, 8 A100": 0.35,
    "Qwen3-235B-A22B MoE, 256 H100, EP 32 across nodes": 0.15,
    "Qwen3-235B-A22B MoE, 256 H100, FSDP, EP 8 in a node": 0.15,
    "Qwen3-235B-A22B MoE, 256 H100, PP 32, EP 8 in a node": 0.70,
    "Qwen3-235B-A22B MoE, 256 H100, TP 4, EP 8 in a node": 1.00,
    "Qwen3-235B-A22B MoE, 128K context, 256 H100": 0.15,
}


def test_calibration_apart_from_at_least_six_held_out_runs_from_1b_to_400b_and_a_moe():
    held_out = [r for r in RUNS if not r.calibration]
    assert len(held_out) >= 6 and len([r for r in RUNS if r.calibration]) >= 1
    sizes = [r.workload.get("model_params_b") or PRESETS[r.workload["model"]].params / 1e9 for r in held_out]
    assert min(sizes) <= 1.5 and max(sizes) >= 400
    assert any(r.workload.get("model") == "deepseek-v3" for r in held_out)
    for run in RUNS:
        assert re.search(r"\b20\d\d\b", run.citation) and run.published > 0 and run.tolerance <= 0.10, run.name


def test_two_held_out_inference_results_with_citations():
    assert len(INFERENCE_RUNS) >= 2
    for run in INFERENCE_RUNS:
        assert re.search(r"\b20\d\d\b", run.citation) and run.tolerance == 0.15 and not run.calibration


@pytest.fixture(scope="module")
def reports():
    return {run.name: check_json(run) for run in RUNS + INFERENCE_RUNS}


@pytest.mark.parametrize("run", INFERENCE_RUNS, ids=[r.name for r in INFERENCE_RUNS])
def test_inference_result_within_its_goal_or_marked_missed(run, reports):
    got = predicted(run, reports[run.name])
    assert reports[run.name]["workload"]["inference"]["batch"] == run.workload["inference_batch"]
    if run.name in KNOWN_MISSES:
        assert not within(run, got) and got == pytest.approx(run.published, rel=KNOWN_MISSES[run.name])
        return
    assert got == pytest.approx(run.published, rel=run.tolerance)


@pytest.mark.parametrize("run", RUNS, ids=[r.name for r in RUNS])
def test_every_published_run_is_evaluated_and_extra_recompute_is_a_warning(run, reports):
    report = reports[run.name]
    codes = {f["code"]: f for f in report["findings"]}
    assert "workload.memory.does_not_fit" not in codes
    assert not [f["code"] for f in report["findings"] if f["severity"] == "error"]  # a plan that holds
    work = report["workload"]
    assert work["fits"] is True and work["memory_per_gpu_gb"] <= work["gpu_memory_gb"]
    assert work["tokens_per_s"] > 0 and report["totals"]["gpus"] == run.gpus
    asked = run.workload.get("recompute", "auto")
    rung = {"none": 0, "auto": 1, "selective": 1, "selective_moe": 2, "full": 3}  # auto starts at selective
    extra = (work["recompute"] == "full" and (asked != "full" or work["recompute_layers"] is not None)
             or rung[work["recompute"]] > rung[asked])
    if extra:
        warning = codes["workload.memory.more_recompute"]
        assert warning["severity"] == "warning" and "% step time" in warning["message"]
        assert (f"full recompute of {work['recompute_layers']} of" if work["recompute"] == "full" else
                "selective recompute with the MoE layers") in warning["message"]
    else:
        assert "workload.memory.more_recompute" not in codes


@pytest.mark.parametrize("run", RUNS, ids=[r.name for r in RUNS])
def test_prediction_within_the_stated_tolerance(run, reports):
    got = predicted(run, reports[run.name])
    if run.name in KNOWN_MISSES:  # the table says "missed" and why; it stays within the wider bound
        assert not within(run, got) and got == pytest.approx(run.published, rel=KNOWN_MISSES[run.name])
        assert f"| {run.name} |" in document() and "**missed**" in document()
        assert f"- {run.name}: {HELD_OUT_MISSES[run.name]}" in document()
        return
    assert got == pytest.approx(run.published, rel=run.tolerance), (
        f"{run.name}: planner {got:.4g} vs published {run.published:.4g} (±{run.tolerance:.0%})")


def test_the_405b_run_on_16k_gpus_fits_with_two_layers_per_stage_recomputed(reports):
    """Llama 3 405B (h 16,384, 128 heads, 8 KV heads of 128, FFN 53,248, SwiGLU, no dropout,
    FlashAttention), TP 8 with sequence parallelism, s 8,192, b 1. Bytes a layer keeps per
    token, / t = 8: norms' inputs 4h + norm outputs 4h + Q 2h + attention output 2h + K, V
    4 x 1,024 + softmax statistics 4 x 128 + SwiGLU 6 x 53,248 = 520,704; x 8,192 tokens / 8
    = 533.2 MB. A fully recomputed layer keeps its input, 2 x 8,192 x 16,384 / 8 = 33.55 MB.
    Interleaved, p 16, v 8 (one layer per model chunk, section 3.3.2): 16 x (1 + 15/128) =
    17.875 micro-batches in flight on 126/16 = 7.875 layers. States: 405.9e9 / 128 x (2 + 2
    + 12/128) = 12.98 GB; overhead 5 GB. k layers in full: 17.875 x ((7.875 - k) x 533.2 +
    k x 33.55) MB + 533.2 MB (the layer being recomputed): k = 1 -> 66.66 GB activations,
    84.6 GB in all (does not fit); k = 2 -> 57.73 GB, 75.7 GB (fits)."""
    work = reports["Llama 3 405B, 16,384 H100"]["workload"]
    kept = 520_704 * 8192 / 8
    inp = 2 * 8192 * 16384 / 8
    held = 16 * (1 + 15 / 128)
    states = 405.9e9 / 128 * (4 + 12 / 128)

    def acts(k):
        return held * ((7.875 - k) * kept + k * inp) + kept

    assert (states + acts(1)) / 1e9 + 5 > 80 >= (states + acts(2)) / 1e9 + 5
    assert work["recompute"] == "full" and work["recompute_layers"] == 2 and work["sharding"] == "zero1"
    assert work["activation_memory_gb"] == pytest.approx(acts(2) / 1e9, abs=1e-3)
    assert work["memory_per_gpu_gb"] == pytest.approx((states + acts(2)) / 1e9 + 5, abs=1e-3)


def test_docs_table_is_current():
    assert DOC.read_text(encoding="utf-8") == document(), (
        "docs/validation.md is out of date: run PYTHONPATH=. python -m tests.planner.validation_runs")


def test_the_131k_context_run_holds_what_the_8k_run_holds_per_gpu(reports):
    """CP 16 at 131,072 tokens leaves 8,192 per GPU, and ZeRO-1 shards over DP 8 x CP 16 =
    128 ranks: the same 75.7 GB per GPU as the 8K run on 16,384 GPUs (worked out above)."""
    long_ctx = reports["Llama 3 405B, 131K context, 16,384 H100"]["workload"]
    short = reports["Llama 3 405B, 16,384 H100"]["workload"]
    assert long_ctx["memory_per_gpu_gb"] == pytest.approx(short["memory_per_gpu_gb"])
    assert long_ctx["recompute_layers"] == short["recompute_layers"] == 2


def test_the_small_model_runs_need_the_shape_model():
    """With the old single efficiency (0.55) the 1B and 7B held-out runs come out over 20 %
    too fast (MPT 1B: +26 %, Llama 2 7B FP8: +36 %); from the shapes within their ±10 %."""
    for name in ("MPT 1B, 8 H100", "Llama 2 7B FP8, 8 H100"):
        run = next(r for r in RUNS if r.name == name)
        fixed = dataclasses.replace(run, workload=run.workload | {"mfu": 0.55})
        assert predicted(fixed, check_json(fixed)) > 1.2 * run.published, name


def test_the_step_calibration_is_fitted_on_the_calibration_runs_alone(reports):
    """STEP_CALIBRATION is the geometric mean fit of the runs marked calibration: their
    predictions over their published figures average 1 (to the rounding of 0.76, ±1.5 %)."""
    calibration = [r for r in RUNS if r.calibration]
    ratios = [predicted(r, reports[r.name]) / r.published for r in calibration]
    assert math.prod(ratios) ** (1 / len(ratios)) == pytest.approx(1.0, abs=0.015)


@pytest.mark.parametrize("run", RUNS, ids=[r.name for r in RUNS])
def test_the_user_path_reaches_the_published_layout_from_the_intent_alone(run, reports):
    """`new` from the run's intent alone (no layout) reaches at least 95 % of the published
    layout's figure in the same model, and within the row's goal of the published figure it
    is judged against; or it is a miss the table names with its reason."""
    got = predicted(run, reports[run.name])
    user_report = user_path_json(run)
    user = predicted(run, user_report)
    assert user is not None and user_report["workload"]["fits"] is True
    assert user_report["workload"]["global_batch_tokens"] == run.workload["global_batch_tokens"]  # the batch kept
    if run.name in USER_PATH_MISSES:
        assert not user_holds(run, got, user) and run.name in document()
        return
    assert user >= USER_SHARE * got, f"{run.name}: the design's layout {user:.4g} vs the published {got:.4g}"
    assert user == pytest.approx(user_reference(run), rel=run.tolerance), run.name
