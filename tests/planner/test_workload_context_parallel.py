"""Context parallelism: each rank keeps s / CP tokens of every sequence, K and V are
gathered across the CP ranks, and the gradients are reduced over DP x CP ranks."""

from __future__ import annotations

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, SetSetting
from planner.design.templates import build_template
from planner.report.evaluate import evaluate
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.memory import training_memory
from planner.workload.models import model_shape
from planner.workload.training import JobShape, model_step

CAT = default_catalog()
H100_NODE = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                     domain_gpus=8, memory_gb=80)


def test_cp_divides_the_activations_as_a_shorter_sequence_would():
    """CP 4 at 16,384 tokens keeps what one rank of 4,096 tokens keeps: every term of a
    FlashAttention layer is linear in the rank's tokens."""
    w = WorkloadSettings(sharding="zero1")
    m = model_shape(w)
    short = training_memory(w, m, tp=8, pp=4, dp=4).activations_gb
    long_cp = training_memory(w.model_copy(update={"seq_len": 16384, "cp": 4}), m, tp=8, pp=4, dp=4).activations_gb
    assert long_cp == pytest.approx(short)
    # ZeRO-1 shards the optimizer over DP x CP = 16 ranks: 2.1875e9 x (4 + 12/16) bytes.
    states = training_memory(w.model_copy(update={"cp": 4}), m, tp=8, pp=4, dp=4).states_gb
    assert states == pytest.approx(70e9 / 32 * (4 + 12 / 16) / 1e9)


def test_cp_all_gathers_k_and_v_on_nvlink_inside_the_node():
    """70B (8 KV heads of 128), TP 4, CP 2, PP 4, DP 4, 4,194,304 tokens: a TP group handles
    4,194,304 / (4 x 2) = 524,288 tokens; K and V per token per TP rank 2 x 2 heads x 128 x
    2 bytes = 1,024; the gathered K, V of 20 layers: 20 x 524,288 x 2 x 1,024 = 21.47 GB.
    All-gather and reduce-scatter on 2 ranks send half of it each, at 900 / 2 x 0.8 = 360 GB/s:
    2 x 10.74e9 / 360e9 = 59.65 ms."""
    w = WorkloadSettings(tp=4, cp=2, pp=4, dp=4)
    r = model_step(w, FabricSettings(), H100_NODE)
    gathered = 20 * 524_288 * 2 * 1024
    assert r.cp_s == pytest.approx(2 * gathered / 2 / 360e9)
    assert r.gpus == 128


def test_gradients_are_reduced_over_dp_times_cp_ranks():
    """TP 8 fills the node either way: DP 2 x CP 2 reduce gradients over 4 nodes, as DP 4 does."""
    f = FabricSettings()
    with_cp = model_step(WorkloadSettings(tp=8, cp=2, pp=4, dp=2), f, H100_NODE)
    without = model_step(WorkloadSettings(tp=8, cp=1, pp=4, dp=4), f, H100_NODE)
    assert with_cp.dp_s == pytest.approx(without.dp_s) and with_cp.dp_s > 0


def test_a_plan_counts_cp_in_its_gpus():
    plan = build_template("medium")
    h = History(plan, CAT)
    for key, value in (("cp", 2), ("seq_len", 8192)):
        h.apply(SetSetting("workload", key, value))
    report = evaluate(plan, CAT)
    bad = [f for f in report.findings if f.code == "workload.parallelism.mismatch"]
    assert bad and "TP 8 x CP 2 x PP 4 x DP 4 = 256 GPUs" in bad[0].message and "places 128" in bad[0].message
    h.apply(SetSetting("workload", "dp", 2))
    report = evaluate(plan, CAT)
    assert not [f for f in report.findings if f.code == "workload.parallelism.mismatch"]
    assert report.sections["workload"].to_json()["tokens_per_s"] > 0
