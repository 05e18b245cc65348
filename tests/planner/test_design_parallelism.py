"""The design chooses its parallelism from the advisor's layouts, the same the evaluation's
"does not fit" advice picks from: the two agree on what fits, and the memory of the layout
chosen is the hand-worked figure for its shape (Korthikanti et al. 2022 activations,
ZeRO states: Rajbhandari et al., SC'20)."""

from __future__ import annotations

import pytest

from planner.design.build import design
from planner.design.intent import Intent
from planner.design.templates import design_template
from planner.hardware.catalog import default_catalog
from planner.network.checks import summarise_nodes
from planner.report.evaluate import evaluate
from planner.workload.checks import evaluate_workload

CAT = default_catalog()
# 70B (the default custom shape: Llama 2 70B, h 8,192, 80 layers, 8 KV heads of 128, FFN
# 28,672) on 16 nodes of 8 x 80 GB H100, one GPU per replica, 64k-token sequences.
LONG = {"tp": 1, "pp": 1, "dp": 128, "seq_len": 65536, "global_batch_tokens": 128 * 65536}
# Bytes a layer keeps per token at TP 1 with nothing recomputed in full (norm inputs and
# outputs 4 x 2h, Q and attention output 2 x 2h, K and V 4 x 1,024, softmax statistics
# 4 x 64, SwiGLU 6 x 28,672); sequence parallelism divides them by TP.
KEPT_PER_TOKEN = 8 * 8192 + 4 * 8192 + 4 * 1024 + 4 * 64 + 6 * 28672  # 274,688


def asked_outcome(settings):
    intent = Intent(system="hgx-h100-8", nodes=16, settings={"workload": settings})
    plan = design(intent.model_copy(update={"settings": {"workload": {**settings, "enabled": False}}}), CAT).plan
    w = plan.settings.workload.model_copy(update={"enabled": True, **settings})
    return evaluate_workload(w, plan.settings.fabric, summarise_nodes({"hgx-h100-8": 16}, CAT))


def test_the_asked_layout_does_not_fit_and_the_design_chooses_one_that_does_by_hand():
    # Asked: states 16 B x 70e9 = 1,120 GB a GPU: the evaluation says it does not fit and
    # names the smallest change that does.
    asked = asked_outcome(LONG)
    advice = next(f for f in asked.findings if f.code == "workload.memory.does_not_fit")
    assert "the smallest change that fits" in advice.message
    # The design, from the same layouts: TP 2 x PP 1 x DP 64 with ZeRO-3.
    result = design(Intent(system="hgx-h100-8", nodes=16, settings={"workload": LONG}), CAT)
    w = result.plan.settings.workload
    assert (w.tp, w.pp, w.dp, w.sharding, w.recompute) == (2, 1, 64, "zero3", "full")
    # Memory of that shape by hand: ZeRO-3 states 16 B x 70e9 / (TP 2 x DP 64) = 8.75 GB.
    # Activations at TP 2 with sequence parallelism: a kept layer 274,688 / 2 x 65,536 tokens
    # = 9.0 GB, a fully recomputed layer's input 2 x 65,536 x 8,192 / 2 = 0.537 GB; k layers
    # recomputed in full: (80 - k) kept + k inputs + the layer being recomputed, within
    # 80 - 8.75 - 5 GB: k = 79 (78 would need 82.6 GB in all).
    kept, inp = KEPT_PER_TOKEN / 2 * 65536, 2 * 65536 * 8192 / 2
    assert 8.75e9 + 2 * kept + 78 * inp + kept + 5e9 > 80e9
    assert w.recompute_layers == 79
    work = evaluate(result.plan, CAT).sections["workload"].to_json()
    assert work["fits"] is True
    assert work["memory"]["weights_gb"] + work["memory"]["gradients_gb"] + work["memory"]["optimizer_gb"] == \
        pytest.approx(8.75, abs=1e-3)
    assert work["memory_per_gpu_gb"] == pytest.approx((8.75e9 + kept + 79 * inp + kept + 5e9) / 1e9, abs=1e-3)


def test_design_and_advice_agree_when_nothing_fits():
    # 405B on one node of 8 x 80 GB: every layout divides the weights over at most 8 GPUs,
    # 405e9 x 2 B / 8 = 101 GB before gradients or activations: nothing fits, and both say so.
    result = design_template("massive", nodes=1, catalog=CAT)
    assert any(f.code == "design.workload.does_not_fit" for f in result.findings)
    report = evaluate(result.plan, CAT)
    error = next(f for f in report.findings if f.code == "workload.memory.does_not_fit")
    assert "no TP / PP / sharding / recompute choice fits" in error.message
    # On 16 nodes (128 GPUs) fully sharded states take 16 B x 405e9 / 128 = 50.6 GB, leaving
    # room for activations: both find a layout (the design one, the evaluation no error).
    result = design_template("massive", nodes=16, catalog=CAT)
    assert not any(f.code == "design.workload.does_not_fit" for f in result.findings)
    assert not any(f.code == "workload.memory.does_not_fit" for f in evaluate(result.plan, CAT).findings)
