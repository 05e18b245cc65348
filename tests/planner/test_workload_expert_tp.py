"""Experts at their own tensor parallel (MoE parallel folding): the experts fold over the TP x DP
ranks of a stage, so EP can exceed DP; their GEMMs run whole on fewer GPUs; the expert layers
drop their tensor-parallel traffic; their memory and gradient groups follow. Figures by hand."""

from __future__ import annotations

import pytest

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.kernels import layer_gemms
from planner.workload.memory import training_memory
from planner.workload.models import PRESETS
from planner.workload.moe import expert_grid
from planner.workload.search import Candidate, _expert_options
from planner.workload.training import JobShape, model_step

QWEN = PRESETS["qwen3-235b-a22b"]  # 94 layers, all MoE, hidden 4,096, 128 experts of FFN 1,536, top-8
H100_NODE = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                     domain_gpus=8, memory_gb=80, memory_bandwidth_tbs=3.35)


def qwen(**layout) -> WorkloadSettings:
    return WorkloadSettings(model="qwen3-235b-a22b", seq_len=4096, global_batch_tokens=2048 * 4096,
                            sharding="zero1", recompute="selective", **layout)


def test_folded_experts_take_an_ep_beyond_dp():
    # The Megatron-Core model zoo's Qwen3-235B layout: TP 2 x PP 8 x DP 16 with EP 32 at
    # expert TP 1: the 32 expert ranks are the stage's TP 2 x DP 16 GPUs. Without folding,
    # EP stays within DP: 16.
    assert expert_grid(qwen(tp=2, pp=8, dp=16, ep=32, expert_tp=1), 2, 16) == (1, 32)
    assert expert_grid(qwen(tp=2, pp=8, dp=16, ep=32), 2, 16) == (2, 16)
    # an expert TP that does not divide TP runs at the largest divisor of TP below it
    assert expert_grid(qwen(tp=4, pp=8, dp=8, ep=8, expert_tp=3), 4, 8) == (2, 8)
    assert expert_grid(qwen(tp=4, pp=8, dp=8, ep=8, expert_tp=6), 4, 8) == (4, 8)


def test_an_expert_runs_whole_on_a_gpu_at_expert_tp_1():
    # One micro-batch of 4,096 tokens at TP 2: sequence parallelism leaves 2,048 on each GPU.
    # At EP 32, expert TP 1, each of a GPU's 128 / 32 = 4 experts gets 2,048 x 32 x 8 / 128 =
    # 4,096 rows from the 32 expert ranks; its up and gate GEMM is 2 x 1,536 wide (SwiGLU),
    # its down GEMM 1,536 deep, whole. At expert TP 2 (EP 16: 8 experts a GPU) the TP pair
    # gathers its 4,096 tokens: 4,096 x 16 x 8 / 128 = 4,096 rows of half the width. Each
    # expert's GEMM is one group of a grouped GEMM.
    folded = layer_gemms(QWEN, 4096, 2, 32, etp=1)
    assert (4096, 3072, 4096, 4, 1.0, True) in folded and (4096, 4096, 1536, 4, 1.0, True) in folded
    legacy = layer_gemms(QWEN, 4096, 2, 16)
    assert (4096, 1536, 4096, 8, 1.0, True) in legacy and (4096, 4096, 768, 8, 1.0, True) in legacy


def test_expert_tp_1_drops_the_routed_experts_tensor_parallel_traffic():
    # Every Qwen3-235B layer is MoE, without shared experts. On the TP group each layer keeps
    # the attention's pair of all-reduces (A units of payload); the routed experts' ETP group
    # gathers and reduce-scatters the k = 8 copies of its ETP / TP share of the tokens after the
    # all-to-all: 8 A at ETP = TP = 2. All on NVLink without latency, so time is bytes; ring
    # factor 2 (n - 1) / n: 1 on 2 GPUs, 1.5 on 4.
    # TP 2: 1 + 8 = 9 units at ETP 2, 1 at ETP 1.
    # TP 4: 1.5 + 8 x 1.5 = 13.5 units at ETP 4; 1.5 + 8 x 2/4 x 1 = 5.5 at ETP 2.
    fabric = FabricSettings(technology="ib400")
    base = dict(tp=2, pp=8, dp=16, ep=16)
    legacy = model_step(qwen(**base), fabric, H100_NODE, model=QWEN)
    folded = model_step(qwen(**base, expert_tp=1), fabric, H100_NODE, model=QWEN)
    assert folded.tp_s == pytest.approx(legacy.tp_s / 9, rel=1e-9)
    four = dict(tp=4, pp=8, dp=8, ep=8)
    legacy4 = model_step(qwen(**four), fabric, H100_NODE, model=QWEN)
    half4 = model_step(qwen(**four, expert_tp=2), fabric, H100_NODE, model=QWEN)
    assert half4.tp_s == pytest.approx(legacy4.tp_s * 5.5 / 13.5, rel=1e-9)


def test_shared_experts_keep_the_attentions_tensor_parallel_traffic():
    # DeepSeek-V3 at TP 2, expert TP 1: the shared expert runs on the attention's TP group, so
    # every layer keeps 4 all-reduces of the activations, as a dense model's: per step and GPU
    # 4 x 61 / 16 layers x 4,096 x 4,096 / 32 tokens (the replica's share: batch 4,096
    # sequences over DP 32) x 7,168 values x 2 bytes, ring factor 1 on 2 GPUs, at NVLink's 450
    # GB/s a way x 0.8 = 360 GB/s.
    fabric = FabricSettings(technology="ib400")
    w = WorkloadSettings(model="deepseek-v3", tp=2, pp=16, dp=32, ep=8, expert_tp=1, seq_len=4096,
                         global_batch_tokens=4096 * 4096, sharding="zero1", recompute="full")
    step = model_step(w, fabric, H100_NODE, model=PRESETS["deepseek-v3"])
    payload = 4 * 61 / 16 * (4096 * 4096 / 32) * 7168 * 2
    assert step.tp_s == pytest.approx(payload / 360e9, rel=1e-9)


def test_folded_experts_synchronise_over_their_own_data_parallel_group():
    # Qwen3-235B, TP 2 x PP 4 x DP 32, EP 32 at expert TP 1, ZeRO-1. The expert grid of a stage
    # is its TP x DP = 64 ranks: 32 expert ranks next to each other (4 nodes), so each expert is
    # held by 64 / 32 = 2 GPUs, 32 ranks apart in different nodes. Their gradient shard,
    # E / (1 x 4 x 32) x 2 bytes, is all-reduced over those 2 across the fabric (ring factor
    # 1: its wire bytes are the shard). The all-to-all of EP 32 crosses the fabric; EP 8 at
    # expert TP 1 (8 neighbours, one node) does not, while EP 8 at expert TP 2 (ranks 2 apart:
    # two nodes) does.
    fabric = FabricSettings(technology="ib400")
    step = model_step(qwen(tp=2, pp=4, dp=32, ep=32, expert_tp=1), fabric, H100_NODE, model=QWEN)
    shard = QWEN.expert_params / 128 * 2
    expert_syncs = [c for c in step.dp_fabric if c.ranks == 2 and c.wire_bytes == pytest.approx(shard, rel=1e-9)]
    assert len(expert_syncs) == 1
    assert step.ep_fabric_bytes_per_gpu > 0
    inside = model_step(qwen(tp=2, pp=8, dp=16, ep=8, expert_tp=1), fabric, H100_NODE, model=QWEN)
    across = model_step(qwen(tp=2, pp=8, dp=16, ep=8), fabric, H100_NODE, model=QWEN)
    assert inside.ep_fabric_bytes_per_gpu == 0 < across.ep_fabric_bytes_per_gpu


def test_context_parallel_ranks_hold_experts_too():
    # Megatron-Core's expert grid covers TP x CP x DP: TP 2 x CP 2 x DP 4 = 16 ranks a stage.
    layout = dict(tp=2, cp=2, pp=8, dp=4, ep=32)
    assert expert_grid(qwen(**layout, expert_tp=1), 2, 4) == (1, 16)  # TP 2 x CP 2 x DP 4
    assert expert_grid(qwen(**layout), 2, 4) == (2, 8)  # at expert TP 2: CP 2 x DP 4
    assert (1, 16) in _expert_options(QWEN, 2, 2, 4) and (None, 8) in _expert_options(QWEN, 2, 2, 4)


def test_expert_tp_1_at_the_same_ep_holds_twice_the_expert_weights():
    # TP 2 x PP 8 x DP 16, EP 16, ZeRO-1. At expert TP 2 a GPU holds E / (2 x 8 x 16) = E / 256
    # of the routed experts; at expert TP 1, E / 128. ZeRO-1 keeps weights and gradients
    # (2 + 2 bytes) whole; the optimizer (12 bytes) is sharded over the expert-data-parallel
    # ranks, 16 x 2 / (2 x 16) = 1 and 16 x 2 / (1 x 16) = 2: 12 E / 256 both ways. The
    # difference is 4 bytes x (E / 128 - E / 256) = E / 64 bytes.
    experts = QWEN.expert_params
    legacy = training_memory(qwen(tp=2, pp=8, dp=16, ep=16), QWEN, tp=2, pp=8, dp=16, ep=16)
    folded = training_memory(qwen(tp=2, pp=8, dp=16, ep=16, expert_tp=1), QWEN, tp=2, pp=8, dp=16, ep=16)
    assert folded.optimizer_gb == pytest.approx(legacy.optimizer_gb, rel=1e-9)
    assert folded.states_gb - legacy.states_gb == pytest.approx(experts / 64 / 1e9, rel=1e-9)
    # EP 32 at expert TP 1 spreads them as EP 16 at expert TP 2 does
    wide = training_memory(qwen(tp=2, pp=8, dp=16, ep=32, expert_tp=1), QWEN, tp=2, pp=8, dp=16, ep=32)
    assert wide.states_gb == pytest.approx(legacy.states_gb, rel=1e-9)


def test_the_search_folds_the_experts_where_tp_is_above_1():
    options = _expert_options(QWEN, 2, 1, 16)
    assert (1, 32) in options and (None, 16) in options
    assert (None, 32) not in options and (1, 1) not in options
    assert _expert_options(QWEN, 1, 1, 16) == [(None, e) for e in (1, 2, 4, 8, 16)]
    assert _expert_options(PRESETS["llama3-70b"], 8, 1, 16) == [(None, 1)]
    text = Candidate(qwen(tp=2, pp=8, dp=16, ep=32, expert_tp=1), None, 50.0, 2048).describe()
    assert text.startswith("TP 2 x PP 8 x DP 16 x EP 32, experts at TP 1, micro-batch 1")


def test_a_stated_expert_tp_that_does_not_divide_tp_is_warned():
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.hardware.catalog import default_catalog
    from planner.report.evaluate import evaluate

    layout = dict(model="qwen3-235b-a22b", tp=4, pp=8, dp=8, ep=8, expert_tp=3, seq_len=4096,
                  global_batch_tokens=2048 * 4096)
    catalog = default_catalog()
    plan = design(Intent(system="dgx-h100", nodes=32, spare_nodes=0, settings={"workload": layout}), catalog).plan
    plan.settings.workload = plan.settings.workload.model_copy(update=layout)
    findings = {f.code: f.message for f in evaluate(plan, catalog).findings}
    assert "workload.expert_tp.uneven" in findings
    assert "expert TP 2" in findings["workload.expert_tp.uneven"]


def test_a_dense_plan_with_an_expert_tp_left_set_still_finds_its_own_layout():
    # Switching a plan's model from a folded MoE design to a dense one leaves expert_tp set; the
    # design's best layout, taken as the plan's, is still marked as the plan's own.
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.hardware.catalog import default_catalog
    from planner.report.evaluate import evaluate
    from planner.workload.section import layout_candidates

    catalog = default_catalog()
    plan = design(Intent(system="dgx-h100", nodes=8, spare_nodes=0,
                         settings={"workload": {"model": "llama3-70b"}}), catalog).plan
    plan.settings.workload = plan.settings.workload.model_copy(update={"expert_tp": 1})
    rows = layout_candidates(plan, catalog, evaluate(plan, catalog).counts)
    assert rows[0]["current"] and rows[0]["expert_tp"] == rows[0]["tp"] == plan.settings.workload.tp


def test_an_ep_that_does_not_divide_the_experts_is_warned_and_fixed():
    # Mixtral has 8 experts: EP 64 on 64 GPUs would leave each GPU an eighth of one. The check
    # warns; its fix is the design's layout for the 64 GPUs, whose EP divides the 8 experts.
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.hardware.catalog import default_catalog
    from planner.remedies.commands import remedy_command
    from planner.report.evaluate import evaluate

    catalog = default_catalog()
    plan = design(Intent(system="dgx-h100", nodes=8, spare_nodes=0,
                         settings={"workload": {"model": "mixtral-8x7b"}}), catalog).plan
    plan.settings.workload = plan.settings.workload.model_copy(update=dict(tp=1, pp=1, dp=64, ep=64, expert_tp=None))
    finding = next(f for f in evaluate(plan, catalog).findings if f.code == "workload.ep.experts")
    assert "Expert parallel 64 does not divide the model's 8 experts" in finding.message
    command = remedy_command(finding.remedy)
    command.do(plan, catalog)
    w = plan.settings.workload
    assert 8 % w.ep == 0 and w.tp * w.pp * w.dp == 64
    assert "workload.ep.experts" not in {f.code for f in evaluate(plan, catalog).findings}
    assert command.label.startswith("Set the parallelism to TP ")


def test_a_sweep_point_keeps_an_ep_that_divides_its_ranks():
    # A sweep resizes the base's job to each point's GPUs by DP: DeepSeek-V3 at TP 4 x PP 16 x
    # DP 4 on 32 nodes, with EP 16 at expert TP 1 (TP 4 x DP 4 = 16 ranks a stage), on 24 nodes
    # takes DP 3: 12 ranks a stage, which EP 16 does not divide; it becomes 4, the largest EP
    # dividing both. EP 4 divides 12 and stays. At expert TP 4 the experts spread over the DP
    # ranks only: EP 4 over DP 3 becomes 1.
    from planner.design.templates import rescale_workload
    from planner.hardware.catalog import default_catalog
    from planner.plan.model import Plan
    from planner.settings import Settings

    catalog = default_catalog()
    for ep, expert_tp, kept in ((16, 1, 4), (4, 1, 4), (4, None, 1)):
        plan = Plan(name="p", settings=Settings.model_validate({"workload": dict(
            model="deepseek-v3", tp=4, pp=16, dp=4, ep=ep, expert_tp=expert_tp)}))
        rescale_workload(plan, catalog, "dgx-h100", 24)
        w = plan.settings.workload
        assert (w.tp, w.pp, w.dp, w.ep) == (4, 16, 3, kept)


def test_expert_settings_on_a_dense_model_are_noted_and_cleared():
    # A plan switched from an MoE model to Llama 3 70B keeps EP 8 and expert TP 1: the step
    # ignores them (a dense model has no experts), the check says so, and its fix clears them
    # with the step unchanged.
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.hardware.catalog import default_catalog
    from planner.remedies.commands import remedy_command
    from planner.report.evaluate import evaluate

    catalog = default_catalog()
    plan = design(Intent(system="dgx-h100", nodes=8, spare_nodes=0,
                         settings={"workload": {"model": "llama3-70b"}}), catalog).plan
    assert "workload.experts.dense" not in {f.code for f in evaluate(plan, catalog).findings}
    before = evaluate(plan, catalog).workload.step_time_s
    plan.settings.workload = plan.settings.workload.model_copy(update=dict(ep=8, expert_tp=1))
    result = evaluate(plan, catalog)
    finding = next(f for f in result.findings if f.code == "workload.experts.dense")
    assert finding.severity == "info"
    assert "expert parallel 8 and expert TP 1 are not used" in finding.message
    assert result.workload.step_time_s == before
    remedy_command(finding.remedy).do(plan, catalog)
    assert (plan.settings.workload.ep, plan.settings.workload.expert_tp) == (1, None)
    assert "workload.experts.dense" not in {f.code for f in evaluate(plan, catalog).findings}


def test_moe_recompute_on_a_dense_model_is_noted_as_selective():
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.hardware.catalog import default_catalog
    from planner.remedies.commands import remedy_command
    from planner.report.evaluate import evaluate

    catalog = default_catalog()
    plan = design(Intent(system="dgx-h100", nodes=8, spare_nodes=0,
                         settings={"workload": {"model": "llama3-70b"}}), catalog).plan
    plan.settings.workload = plan.settings.workload.model_copy(update=dict(recompute="selective_moe", ep=8))
    finding = next(f for f in evaluate(plan, catalog).findings if f.code == "workload.experts.dense")
    assert "expert parallel 8 and recompute of the MoE layers are not used by the step (its recompute is " \
           "selective)" in finding.message
    remedy_command(finding.remedy).do(plan, catalog)
    assert (plan.settings.workload.ep, plan.settings.workload.recompute) == (1, "selective")
