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
from planner.hardware.nodes import summarise_nodes
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
    # The design searches context parallelism too at 64K tokens: TP 8 x CP 4 x PP 2 x DP 2,
    # interleaved (v = 5), under ZeRO-1 with selective recompute. (ZeRO-3 gathers its weights
    # on every micro-batch, each layer hidden only as far as its compute lasts: no longer the
    # cheaper way to fit.)
    result = design(Intent(system="hgx-h100-8", nodes=16, settings={"workload": LONG}), CAT)
    w = result.plan.settings.workload
    assert (w.tp, w.cp, w.pp, w.dp, w.sharding, w.recompute) == (8, 4, 2, 2, "zero1", "selective")
    assert (w.pp_schedule, w.virtual_stages) == ("interleaved", 5)
    # Memory of that shape by hand: weights and gradients 2 B x 70e9 / (TP 8 x PP 2) = 8.75 GB
    # each; ZeRO-1 shards the optimizer's 12 B over DP x CP = 8 ranks: 12 x 70e9 / 128 =
    # 6.5625 GB. Activations: each GPU holds 65,536 / CP 4 = 16,384 tokens of a sequence, a
    # layer keeps 274,688 / TP 8 bytes a token, 40 layers a stage; the first stage holds PP 2
    # micro-batches, x (1 + (p - 1) / (p v)) = 1.1 interleaved: 40 x 34,336 x 16,384 x 2 x 1.1
    # = 49.5 GB; with 5 GB overhead 78.6 GB, within 80.
    acts = 40 * KEPT_PER_TOKEN / 8 * 16384 * 2 * 1.1
    work = evaluate(result.plan, CAT).sections["workload"].to_json()
    assert work["fits"] is True
    assert work["memory"]["weights_gb"] + work["memory"]["gradients_gb"] + work["memory"]["optimizer_gb"] == \
        pytest.approx(8.75 + 8.75 + 6.5625, abs=1e-3)
    assert work["memory_per_gpu_gb"] == pytest.approx((24.0625e9 + acts + 5e9) / 1e9, abs=1e-3)
    # Without CP the layout that fits is TP 2 x DP 64 with ZeRO-3 and 79 of 80 layers recomputed
    # in full (a kept layer 274,688 / 2 x 65,536 tokens = 9.0 GB, a recomputed one's input
    # 0.537 GB: 78 would need 82.6 GB in all); the extra forward passes make it the slower.
    kept, inp = KEPT_PER_TOKEN / 2 * 65536, 2 * 65536 * 8192 / 2
    assert 8.75e9 + 2 * kept + 78 * inp + kept + 5e9 > 80e9
    no_cp = LONG | {"tp": 2, "cp": 1, "dp": 64, "sharding": "zero3", "recompute": "full", "recompute_layers": 79}
    slower = evaluate_workload(w.model_copy(update=no_cp), result.plan.settings.fabric,
                               summarise_nodes({"hgx-h100-8": 16}, CAT))
    assert slower.fits and slower.step.tokens_per_s < work["tokens_per_s"]


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


def test_when_nothing_fits_the_plan_holds_the_layout_nearest_to_fitting():
    # Llama 3 405B on 8 DGX A100 (64 x 80 GB): TP 8 within the node, the deepest pipeline 64 / 8
    # = 8 stages allows (126 layers), DP 1; every state over 64 GPUs: 16 B x 405.9e9 / 64 =
    # 101.5 GB before activations, above 80 GB. The check shows that layout's need, not a
    # pipeline-less DDP one's (16 B x 405.9e9 / 8 = 812 GB).
    from planner.design.intent import Intent
    from planner.design.build import design

    result = design(Intent(system="dgx-a100", gpus=64, model="llama3-405b"), CAT)
    w = result.plan.settings.workload
    assert (w.tp, w.pp, w.dp, w.recompute) == (8, 8, 1, "full")
    warning = next(f for f in result.findings if f.code == "design.workload.does_not_fit")
    assert "the plan holds the layout that needs the least memory, TP 8 x PP 8 x DP 1" in warning.message
    error = next(f for f in evaluate(result.plan, CAT).findings if f.code == "workload.memory.does_not_fit")
    needed = float(error.message.split("needs ")[1].split(" GB")[0])
    assert 16 * 405.9e9 / 64 / 1e9 < needed < 16 * 405.9e9 / 64 / 1e9 + 10  # + activations and overhead
