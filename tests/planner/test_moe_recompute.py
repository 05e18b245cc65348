"""Recomputing the MoE layers (Megatron-Core's --recompute-modules moe): the MoE layers keep only
their input, and their forward (router, experts, dispatch and combine) runs again in the
backward. Figures by hand from Qwen3-235B-A22B's shape (94 layers, all MoE, hidden 4,096,
128 experts of FFN 1,536, 8 a token, SwiGLU)."""

from __future__ import annotations

import pytest

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.activations import activation_bytes
from planner.workload.fit import describe_recompute, fit_training, recompute_ladder
from planner.workload.memory import training_memory
from planner.workload.models import PRESETS
from planner.workload.moe import moe_forward_flops_per_token
from planner.workload.training import JobShape, model_step

QWEN = PRESETS["qwen3-235b-a22b"]
H100_NODE = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                     domain_gpus=8, memory_gb=80, memory_bandwidth_tbs=3.35)


def long_context(recompute: str) -> WorkloadSettings:
    # The Megatron-Core model zoo's 16K layout on 256 H100: TP 4 x PP 8 (VPP 4) x DP 8, EP 8 at
    # expert TP 1, 256 sequences of 16,384 tokens, micro-batch 1.
    return WorkloadSettings(model="qwen3-235b-a22b", seq_len=16384, global_batch_tokens=256 * 16384, tp=4, pp=8,
                            dp=8, ep=8, expert_tp=1, pp_schedule="interleaved", virtual_stages=4,
                            sharding="zero1", recompute=recompute)


def test_the_moe_layers_forward_again_is_the_experts_and_router_of_a_token():
    # 94 layers x (8 experts x 3 matrices x 4,096 x 1,536 + 4,096 x 128 router) x 2 FLOPs
    by_hand = 94 * (8 * 3 * 4096 * 1536 + 4096 * 128) * 2
    assert by_hand == pytest.approx(28.5e9, rel=1e-3)
    # the preset's expert parameters come from its published totals (235B, 22B): within 0.2%
    assert moe_forward_flops_per_token(QWEN) == pytest.approx(by_hand, rel=2e-3)
    assert moe_forward_flops_per_token(PRESETS["llama3-70b"]) == 0.0


def test_recomputing_the_moe_layers_drops_their_experts_tensors():
    # Each GPU's 16,384 / TP 4 = 4,096 tokens keep 3 SwiGLU tensors of 1,536 for 8 experts in
    # bf16: 4,096 x 3 x 2 x 1,536 x 8 = 302 MB a layer. A stage of 94 / 8 = 11.75 layers holds
    # min(8, 32) x (1 + 7 / 32) = 9.75 micro-batches under the interleaved schedule: the MoE
    # recompute frees 9.75 x 11.75 x 302 MB and holds one layer's 302 MB while recomputing it.
    layer = 4096 * 3 * 2 * 1536 * 8
    freed = 9.75 * 11.75 * layer - layer
    selective = activation_bytes(long_context("selective"), QWEN, tp=4, pp=8, m=32)
    moe = activation_bytes(long_context("selective_moe"), QWEN, tp=4, pp=8, m=32)
    assert selective - moe == pytest.approx(freed, rel=1e-9)
    assert freed / 1e9 == pytest.approx(34.3, abs=0.05)


def test_auto_takes_the_moe_layers_before_full_recompute_and_dense_models_skip_it():
    w = long_context("auto")
    assert recompute_ladder(w, QWEN, 8)[:3] == [("selective", None), ("selective_moe", None), ("full", 1)]
    # selective alone is over the 80 GB; the MoE recompute frees the 34.3 GB worked out above
    sel, moe = (training_memory(long_context(r), QWEN, tp=4, pp=8, dp=8, ep=8) for r in ("selective",
                                                                                         "selective_moe"))
    assert sel.total_gb > 80 > moe.total_gb and sel.total_gb - moe.total_gb == pytest.approx(34.3, abs=0.05)
    fit = fit_training(w, QWEN, available_gb=80)
    assert fit.settings.recompute == "selective_moe" and fit.fits
    assert describe_recompute(fit.settings, QWEN) == "selective recompute with the MoE layers"
    dense = WorkloadSettings(model="llama3-70b", tp=8, pp=4, dp=4)
    assert ("selective_moe", None) not in recompute_ladder(dense, PRESETS["llama3-70b"], 4)


def test_the_recompute_runs_the_experts_again_not_their_all_to_all():
    fabric = FabricSettings(technology="ib400", sharp=False)
    a = model_step(long_context("selective"), fabric, H100_NODE, model=QWEN)
    b = model_step(long_context("selective_moe"), fabric, H100_NODE, model=QWEN)
    # the dispatch and combine are charged forward and backward once, as under full recompute
    assert b.ep_s == a.ep_s > 0
    # model FLOPs (MFU's) stay; the hardware FLOPs of the step, efficiency x GPUs x peak x compute
    # time, grow by the experts' and router's forward of every token of the batch
    assert b.flops_per_token == a.flops_per_token

    def hardware(r):
        return r.compute_efficiency * 256 * 989e12 * r.compute_s

    tokens = 256 * 16384
    by_hand = 94 * (8 * 3 * 4096 * 1536 + 4096 * 128) * 2  # the experts' and router's forward, a token
    assert hardware(b) - hardware(a) == pytest.approx(tokens * by_hand, rel=2e-3)
    assert b.compute_s > a.compute_s


def test_the_first_stage_keeps_the_tensors_of_its_leading_dense_layers():
    # DeepSeek-V3: 61 layers, the first 3 dense, experts of FFN 2,048 with 8 a token. At PP 16
    # the first stage holds 61 / 16 = 3.8125 layers: the 3 dense ones and 0.8125 of a MoE
    # layer, so recomputing the MoE layers frees 0.8125 layers' expert tensors, not 3.8125:
    # 4,096 tokens x 3 SwiGLU tensors x 2 bytes x 2,048 x 8 = 403 MB a layer, x 16 micro-batches
    # in flight (1F1B, 64 a replica), less the one layer held while it is recomputed.
    model = PRESETS["deepseek-v3"]
    assert (model.layers, model.dense_layers, model.ffn, model.experts_per_token) == (61, 3, 2048, 8)

    def w(recompute: str) -> WorkloadSettings:
        return WorkloadSettings(model="deepseek-v3", seq_len=4096, global_batch_tokens=64 * 4 * 4096, tp=1, pp=16,
                                dp=4, ep=8, recompute=recompute)

    layer = 4096 * 3 * 2 * 2048 * 8
    freed = 16 * 0.8125 * layer - layer
    selective = activation_bytes(w("selective"), model, tp=1, pp=16, m=64)
    moe = activation_bytes(w("selective_moe"), model, tp=1, pp=16, m=64)
    assert selective - moe == pytest.approx(freed, rel=1e-9)


def test_the_overlap_counts_the_moe_forward_run_again_in_the_backward(monkeypatch):
    """Weight-sharded traffic hides behind the forward and the backward in the shares of their
    compute: the backward of selective_moe runs the MoE layers' forward again, so the forward is
    1 / (3 + r) of the compute with r = 3 x 28.5 GFLOPs / the 6 N + 12 L s d of a token (full
    recompute: r = 1, one whole forward again)."""
    import planner.workload.training as training

    seen = []
    real = training.hidden_dp_s

    def spy(phases, **kw):
        seen.append(kw["recompute_share"])
        return real(phases, **kw)

    monkeypatch.setattr(training, "hidden_dp_s", spy)
    fabric = FabricSettings(technology="ib400", sharp=False)
    fsdp = {"sharding": "full", "tp": 4, "pp": 1, "dp": 64, "pp_schedule": "1f1b", "virtual_stages": 1}
    moe = model_step(long_context("selective_moe").model_copy(update=fsdp), fabric, H100_NODE, model=QWEN)
    by_hand = 94 * (8 * 3 * 4096 * 1536 + 4096 * 128) * 2
    assert seen[-1] == pytest.approx(3 * by_hand / moe.flops_per_token, rel=2e-3)
    # 6 x 22B + 12 x 94 layers x 16,384 x 8,192 (64 heads of 128) = 283 GFLOPs a token: r = 0.30
    assert seen[-1] == pytest.approx(3 * 28.5e9 / (6 * 22e9 + 12 * 94 * 16384 * 8192), rel=0.01)
    model_step(long_context("full").model_copy(update=fsdp), fabric, H100_NODE, model=QWEN)
    assert seen[-1] == pytest.approx(1.0)
    model_step(long_context("selective").model_copy(update=fsdp), fabric, H100_NODE, model=QWEN)
    assert seen[-1] == 0.0
