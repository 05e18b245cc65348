"""Mixture-of-experts as it runs: the expert all-to-all on NVLink and beyond the domain, the
token permutation's memory traffic, the capacity factor, expert data parallelism, shared
experts, multi-head latent attention and a head size set on its own. Figures by hand."""

from __future__ import annotations

import pytest

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.kernels import layer_gemms, matmul_efficiency
from planner.workload.models import PRESETS, model_shape
from planner.workload.moe import all_to_all, permutation_bytes_per_token
from planner.workload.training import JobShape, model_step

# DGX H100: NVLink 900 GB/s both directions (450 each way), one 400G NIC per GPU, 3.35 TB/s HBM.
H100_NODE = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                     domain_gpus=8, memory_gb=80, memory_bandwidth_tbs=3.35)
MIXTRAL = PRESETS["mixtral-8x7b"]  # 32 layers, hidden 4,096, 8 experts, top-2


def mixtral_on_one_node(**extra) -> WorkloadSettings:
    return WorkloadSettings(model="mixtral-8x7b", tp=1, pp=1, dp=8, ep=8, seq_len=4096,
                            global_batch_tokens=64 * 4096, sharding="zero1", recompute="full", **extra)


def test_the_all_to_all_inside_one_node_is_charged_on_nvlink():
    """Mixtral 8x7B, EP 8 on one DGX H100: each GPU handles 64 x 4,096 / 8 = 32,768 tokens a
    step. Per MoE layer it dispatches and combines, forward and backward (4 passes), 2 copies
    of each token of 4,096 bf16 values, 7/8 of them to the other GPUs:
    4 x 32 x 32,768 x 2 x 4,096 x 2 B x 7/8 = 60.13 GB. NVLink 450 GB/s a way at the default
    80 % = 360 GB/s: 0.1670 s, and not a byte on the fabric."""
    step = model_step(mixtral_on_one_node(), FabricSettings(), H100_NODE)
    assert step.ep_s == pytest.approx(60.129542144e9 / 360e9, rel=1e-9)
    assert step.ep_s == pytest.approx(0.16703, rel=1e-4)
    assert step.ep_fabric_bytes_per_gpu == 0.0


def test_beyond_the_domain_a_token_crosses_the_fabric_once_per_other_domain():
    """EP 16 over two 8-GPU domains, top-2, one token, one layer (4 passes of 4,096 x 2 B =
    32,768 B a copy): the other domain holds one or both of its experts with probability
    1 - (1/2)^2 = 3/4, so the fabric carries 0.75 copies (24,576 B), not 2 x 8/16 = 1. Mixtral's
    8 experts over 16 GPUs are half an expert a GPU: a given GPU holds one of the token's two
    with probability 1 - (7.5/8)(6.5/7) = 7.25/56; NVLink carries that to the 7 other GPUs of
    each domain, 2 x 7 x 7.25/56 = 1.8125 copies (59,392 B). At 50 GB/s of fabric and 360 GB/s
    of NVLink the fabric is the longer: 24,576 / 50e9 s plus 4 calls of 5 us."""
    a2a = all_to_all(MIXTRAL, tokens=1, layers=1, ep=16, ep_local=8, value_bytes=2, nvlink_gbs=360,
                     fabric_gbs=50, fabric_latency_s=5e-6, calls=4)
    assert a2a.fabric_bytes == pytest.approx(24_576)
    assert a2a.nvlink_bytes == pytest.approx(59_392)
    assert a2a.time_s == pytest.approx(24_576 / 50e9 + 4 * 5e-6)


def test_a_token_goes_once_to_each_gpu_that_holds_its_experts():
    """Qwen3-30B-A3B, EP 8 on one node: 128 experts, 16 a GPU, top-8. A given other GPU holds
    none of a token's 8 experts with probability (112 x 111 x ... x 105) / (128 x 127 x ... x
    121) = 0.33258, so 7 x 0.66742 = 4.672 copies leave the GPU, not the 8 x 7/8 = 7 a copy per
    expert would send. One token, one layer: 4 passes x 2,048 x 2 B = 16,384 B a copy."""
    none = 1.0
    for i in range(8):
        none *= (112 - i) / (128 - i)
    assert none == pytest.approx(0.33258, abs=1e-5)
    a2a = all_to_all(PRESETS["qwen3-30b-a3b"], tokens=1, layers=1, ep=8, ep_local=8, value_bytes=2,
                     nvlink_gbs=360, fabric_gbs=50, fabric_latency_s=5e-6, calls=4)
    assert a2a.nvlink_bytes == pytest.approx(16_384 * 7 * (1 - none)) and a2a.fabric_bytes == 0.0
    assert a2a.nvlink_bytes / (16_384 * 7) == pytest.approx(0.6674, abs=1e-4)


def test_permutation_and_router_traffic_per_token():
    """Mixtral, per token and MoE layer, forward and backward: router probabilities 8 x 4 B
    written and read (64 B); permutation reads 4,096 values and writes 2 x 4,096, the
    unpermutation the reverse: 2 x 3 x 4,096 x 2 B = 49,152 B. 2 x 32 x 49,216 = 3,149,824 B;
    halved on each of 2 TP ranks."""
    assert permutation_bytes_per_token(MIXTRAL, tp=1, value_bytes=2) == pytest.approx(3_149_824)
    assert permutation_bytes_per_token(MIXTRAL, tp=2, value_bytes=2) == pytest.approx(3_149_824 / 2)
    assert permutation_bytes_per_token(PRESETS["llama3-8b"], tp=1, value_bytes=2) == 0.0


def test_capacity_factor_pads_the_experts_and_the_all_to_all_but_not_the_model_flops():
    """A capacity factor of 1.25 sends and computes a quarter more rows; the model FLOPs (and
    so MFU's numerator) stay those of the tokens routed."""
    base = model_step(mixtral_on_one_node(), FabricSettings(), H100_NODE)
    padded = model_step(mixtral_on_one_node(moe_capacity_factor=1.25), FabricSettings(), H100_NODE)
    assert padded.ep_s == pytest.approx(1.25 * base.ep_s)
    assert padded.flops_per_token == base.flops_per_token
    assert padded.matmul_efficiency < base.matmul_efficiency
    assert padded.step_s > base.step_s


def test_expert_gemms_run_at_their_own_shape():
    """Qwen3-30B-A3B, 16,384 tokens per micro-batch, EP 8: each of the 16 local experts sees
    16,384 x 8 x 8 / 128 = 8,192 tokens, a 8,192 x 1,536 x 2,048 gate-and-up GEMM; without EP
    each of the 128 sees 1,024: small GEMMs, a lower efficiency."""
    qwen = PRESETS["qwen3-30b-a3b"]
    experts = [g for g in layer_gemms(qwen, 16384, 1, 8) if g[3] > 1]
    assert experts[0][:4] == (8192, 1536, 2048, 16)
    assert [g for g in layer_gemms(qwen, 16384, 1, 1) if g[3] > 1][0][:4] == (1024, 1536, 2048, 128)
    kw = dict(tokens=16384, tp=1, peak_tflops=989, bandwidth_tbs=3.35, value_bytes=2)
    assert matmul_efficiency(qwen, ep=1, **kw) < matmul_efficiency(qwen, ep=8, **kw)


def test_experts_synchronise_only_over_the_ranks_that_hold_them():
    """DeepSeek-V3 with EP = DP = 64: every GPU holds its own experts, so only the dense
    parameters are synchronised: 671 - 634 x 256 / 248 = 16.55B of 671B, 2.47 % of the
    bytes the data-parallel collectives move without EP."""
    w = dict(model="deepseek-v3", tp=1, pp=4, dp=64, seq_len=4096, global_batch_tokens=512 * 4096,
             sharding="zero1", pp_schedule="1f1b", recompute="full")
    one = model_step(WorkloadSettings(**w, ep=1), FabricSettings(), H100_NODE)
    spread = model_step(WorkloadSettings(**w, ep=64), FabricSettings(), H100_NODE)
    dense = 671e9 - 634e9 * 256 / 248
    assert spread.dp_s == pytest.approx(one.dp_s * dense / 671e9, rel=0.01)


def test_multi_head_latent_attention_and_shared_experts_in_deepseek_v3():
    """DeepSeek-V3 (arXiv 2412.19437): 128 heads, queries and keys of 128 + 64, values of
    128: attention FLOPs scale with 128 x (192 + 128) / 2 = 20,480, not the hidden 7,168.
    Training FLOPs per token at 4,096: 6 x 37e9 + 12 x 61 x 4,096 x 20,480 = 2.834e11. The
    KV cache holds 512 + 64 values per layer: 61 x 576 = 35,136. Its GEMMs include the
    shared expert (7,168 -> 2 x 2,048) and the KV latent (7,168 -> 512 + 64)."""
    ds = PRESETS["deepseek-v3"]
    assert ds.attention_width == 20480
    assert ds.training_flops_per_token(4096) == pytest.approx(6 * 37e9 + 12 * 61 * 4096 * 20480)
    assert ds.kv_values_per_token == 35136 and ds.moe_layers == 58
    shapes = [g[:3] for g in layer_gemms(ds, 4096, 1, 64)]
    assert (4096, 576, 7168) in shapes and (4096, 4096, 7168) in shapes


def test_a_head_size_set_on_its_own():
    """Qwen3-30B-A3B: 32 heads of 128 on hidden 2,048, so attention is 4,096 wide; a custom
    shape takes the same from its head size setting, and 0 keeps hidden / heads."""
    assert PRESETS["qwen3-30b-a3b"].attention_width == 4096
    custom = model_shape(WorkloadSettings(model="custom", hidden_size=2048, heads=32, kv_heads=4, head_size=128))
    assert custom.head_dim == 128 and custom.attention_width == 4096
    assert model_shape(WorkloadSettings(model="custom")).head_dim == 8192 // 64
