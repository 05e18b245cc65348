"""The design search reaches pipelines whose stages hold the layers unevenly, and pipelines
under ZeRO-3 (FSDP) where nothing lighter fits: Kimi K2 on 256 H100 is designed with both,
as NeMo AutoModel published it (PP 8 under FSDP, 61 layers in 8 stages)."""

from __future__ import annotations

import pytest

from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.settings import WorkloadSettings
from planner.workload.memory import training_memory
from planner.workload.models import model_shape
from planner.workload.pipeline import chunk_layers, stage_layers
from planner.workload.search import Candidate

CAT = default_catalog()


def test_61_layers_over_8_stages_give_the_first_and_last_stages_a_layer_fewer():
    # ceil(61 / 8) = 8 layers a stage; 8 x 8 = 64 is 3 too many, taken from the ends
    # inwards, the last first: the last stage, the first, the second-last hold 7.
    assert stage_layers(61, 8) == (7, 8, 8, 8, 8, 8, 7, 7)
    # interleaved, 4 chunks a stage: 32 chunks of ceil(61 / 32) = 2 is 64, 3 too many:
    # chunks 31, 0 and 30 hold one layer, on stages 31 mod 8 = 7, 0 and 30 mod 8 = 6.
    chunks = chunk_layers(61, 32)
    assert [i for i, n in enumerate(chunks) if n == 1] == [0, 30, 31] and sum(chunks) == 61
    assert stage_layers(61, 8, 4) == (7, 8, 8, 8, 8, 8, 7, 7)
    # Llama 3 405B (Dubey et al. 2024, section 3.3.2): 126 layers on 16 stages x 8 chunks,
    # 128 chunks of one layer, the first and last holding none (the embedding, the output).
    assert chunk_layers(126, 128)[0] == chunk_layers(126, 128)[-1] == 0
    assert stage_layers(126, 16, 8) == (7,) + (8,) * 14 + (7,)
    # an even split stays even
    assert stage_layers(80, 8, 2) == (10,) * 8


# Kimi K2 (Kimi K2 technical report, arXiv 2507.20534): 1.04T parameters, 61 layers (the
# first dense), 384 experts, 8 per token; NeMo AutoModel's performance summary ran it on 256
# H100 with a global batch of 512 x 4,096 tokens.
KIMI = Intent(system="dgx-h100", nodes=32, spare_nodes=0, settings={
    "workload": {"model": "kimi-k2", "seq_len": 4096, "global_batch_tokens": 512 * 4096},
    "fabric": {"technology": "ib400", "sharp": False}})


@pytest.fixture(scope="module")
def kimi():
    result = design(KIMI, CAT)
    return result, evaluate(result.plan, CAT)


def test_kimi_k2_on_256_h100_is_designed_with_a_pipeline(kimi):
    # The published run pipelines it (PP 8 under FSDP); the search reaches pipelines with
    # uneven stages (61 layers) and keeps one. Since ZeRO-3's gathers run on every
    # micro-batch (each layer's, hidden only as far as its compute lasts), the design takes
    # the pipeline deep enough that the experts fit unsharded: TP 4 x PP 16 x EP 4 leaves
    # 1,029.4B / (4 x 16 x 4) = 4.02B expert parameters a GPU (of the 4 layers of the
    # heaviest stage, more), at 16 bytes 64.3 GB, within the H100's 80 GB.
    result, report = kimi
    w = result.plan.settings.workload
    model = model_shape(w)
    assert w.pp > 1 and w.tp * w.pp * w.dp == 256
    mem = training_memory(w, model, tp=w.tp, pp=w.pp, dp=w.dp, ep=w.ep, domain_ranks=8 // w.tp)
    assert mem.states_gb >= 16 * 1029.4e9 / (w.tp * w.pp * w.ep) / 1e9 - 0.05
    assert report.workload.memory_per_gpu_gb <= 80


def test_zero1_cannot_hold_kimi_k2s_experts_at_tp2_pp8_ep8():
    # ZeRO-1 shards only the optimizer, over the expert-data-parallel ranks DP / EP: a GPU
    # keeps the weights and gradients of its experts whole. Kimi K2's routed experts are
    # 1,029.4B of its 1,040B parameters (the dense part 10.55B): at TP 2 x PP 8 x EP 8 a GPU
    # holds 1,029.4B / 128 = 8.04B expert parameters, 2 + 2 bytes of weights and gradients
    # each plus 12 / (16 / 8) of optimizer = 10 bytes: 80.4 GB, more than an H100's 80 GB
    # before any activation. Under ZeRO-3 the 10 bytes are 16 / 2 = 8: 64.3 GB, and the
    # layers gathered whole: two layers' weights and one layer's gradients in flight, each
    # layer 10.6B dense / (TP 2 x 61 layers) + 1,029.4B experts / (TP 2 x EP 8 x 60 MoE
    # layers) = 1.159B values, at 2 bytes: 3 x 2 x 1.159B = 6.95 GB.
    w = WorkloadSettings(model="kimi-k2", seq_len=4096, global_batch_tokens=512 * 4096, recompute="full")
    model = model_shape(w)
    zero1 = training_memory(w, model, tp=2, pp=8, dp=16, ep=8, sharding="zero1", domain_ranks=4)
    zero3 = training_memory(w, model, tp=2, pp=8, dp=16, ep=8, sharding="zero3", domain_ranks=4)
    dense = (1.04e12 - 1029.4e9) / 16  # the dense part a GPU holds, TP 2 x PP 8
    assert zero1.states_gb == pytest.approx((80.4e9 + dense * (4 + 12 / 16)) / 1e9, abs=0.1)
    gathered = 3 * 2 * (10.6e9 / (2 * 61) + 1029.4e9 / (2 * 8 * 60))
    assert zero3.states_gb == pytest.approx((64.3e9 + dense * 16 / 16 + gathered) / 1e9, abs=0.1)
    assert zero1.states_gb > 80 > zero3.total_gb


def test_the_pipeline_under_zero3_beats_the_layouts_without_a_pipeline_by_a_fifth(kimi):
    result, report = kimi
    design_tps = report.workload.tokens_per_s
    # Without a pipeline a GPU holds the experts of all 60 MoE layers, and there are two
    # ways to spread them, each costlier than the design's whole step of ~6.7 s:
    # - EP 64 at TP 4 (the design before pipelines were searched with ZeRO-3): the 64
    #   expert ranks, TP apart, span 32 NVLink domains, and a token's 8 experts send it
    #   across the fabric (D-1)(1-(1-1/D)^8) = 31 x 0.224 = 6.9 times (D = 32), against
    #   1 x (1 - 0.5^8) = 1.0 time over the design's 2 domains (TP 2 x EP 8 = 16 GPUs);
    # - EP 8 at TP 2, the experts under ZeRO-3 over DP / EP = 16 ranks: a GPU's expert
    #   weights are 1,029.4B / 16 x 2 bytes = 128.7 GB, and each of ZeRO-3's two
    #   all-gathers and one reduce-scatter moves 15/16 of them through a 400G NIC
    #   (50 GB/s at line rate): at least 3 x 120.6 / 50 = 7.2 s a step.
    for layout in ({"tp": 4, "pp": 1, "dp": 64, "ep": 64}, {"tp": 2, "pp": 1, "dp": 128, "ep": 8}):
        plan = result.plan.model_copy(deep=True)
        plan.settings.workload = plan.settings.workload.model_copy(update=layout | {
            "sharding": "zero3", "recompute": "auto", "recompute_layers": None, "pp_schedule": "1f1b", "expert_tp": None,
            "virtual_stages": 1})
        other = evaluate(plan, CAT).workload
        assert other.fits is not False and other.tokens_per_s is not None
        assert design_tps >= 1.2 * other.tokens_per_s, layout


def test_the_design_names_the_uneven_stages(kimi):
    result, _ = kimi
    w = result.plan.settings.workload
    stages = result.layouts[0].stages
    # the chosen pipeline cannot hold 61 layers evenly (61 is prime): its heaviest stage
    # holds ceil(61 / PP) layers, and the design's note says how they are split
    assert sum(stages) == 61 and len(stages) == w.pp and max(stages) == -(-61 // w.pp) > min(stages)
    note = next(f for f in result.findings if f.code == "design.parallelism")
    first = stages[0]
    lead = next((i for i, n in enumerate(stages) if n != first), len(stages))  # the first run of equal stages
    assert f", {lead} stage{'s' if lead > 1 else ''} of {first} layers, then " in note.message


def test_a_layout_describes_its_stage_sizes():
    w = WorkloadSettings(tp=1, pp=8, dp=32, ep=32, pp_schedule="interleaved", virtual_stages=4)
    text = Candidate(w, None, 75.0, 512, (7, 8, 8, 8, 8, 8, 7, 7)).describe()
    assert text == ("TP 1 x PP 8 x DP 32 x EP 32, micro-batch 1, interleaved v 4, 1 stage of 7 layers, then "
                    "5 stages of 8 layers, then 2 stages of 7 layers")
    assert "stages" not in Candidate(w, None, 75.0, 512, (8,) * 8).describe()
