"""FSDP's weight gathers and gradient reduce-scatters hidden layer by layer behind the compute,
never more than the compute beside them, worked by hand on one small model on 8 GPUs."""

from __future__ import annotations

import pytest

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.memory import training_memory
from planner.workload.models import model_shape
from planner.workload.training import JobShape, model_step

# An 8B dense model of 32 layers, hidden 4,096 (32 heads), sequence 4,096, FSDP over 8 GPUs of
# one node, one sequence each (one micro-batch), kernels at half of a 1,000 TFLOP/s peak.
W = WorkloadSettings(model="custom", model_params_b=8.0, layers=32, hidden_size=4096, heads=32, kv_heads=32,
                     ffn_size=14336, seq_len=4096, global_batch_tokens=8 * 4096, tp=1, pp=1, dp=8,
                     micro_batch_size=1, sharding="fsdp_full", recompute="none", mfu=0.5)
FABRIC = FabricSettings(technology="ib400", nvlink_efficiency=0.8)

# Compute: (6 N + 12 L s h) x T / (GPUs x peak x efficiency)
#   6 x 8e9 + 12 x 32 x 4,096 x 4,096 = 48e9 + 6.442e9 = 54.442e9 FLOPs per token
#   x 32,768 tokens / (8 x 1,000e12 x 0.5) = 0.44599 s; forward 1/3 = 0.14866 s, backward 0.29733 s.
COMPUTE_S = (6 * 8e9 + 12 * 32 * 4096 * 4096) * 32768 / (8 * 1000e12 * 0.5)
# Each all-gather (and the reduce-scatter) moves 7/8 of the 16 GB bf16 shard-set S = 8e9 x 2 bytes.
SHARD_BYTES = 8e9 * 2
SLOWDOWN = 0.189  # the default compute slowdown under a collective (Lee et al. 2025)


def _shape(nvlink_gbs: float) -> JobShape:
    return JobShape(gpus_per_node=8, bf16_tflops=1000.0, nvlink_gbs=nvlink_gbs, nics_per_gpu=1.0, nic_gbps=400.0,
                    domain_gpus=8 if nvlink_gbs else 0, memory_gb=80.0)


def test_on_nvlink_every_gather_but_the_first_hides_under_its_layer():
    """NVLink 900 GB/s: 450 per direction x 0.8 = 360 GB/s. One all-gather: 7/8 x 16e9 /
    360e9 = 38.89 ms, 1.215 ms a layer; a layer's forward is 148.66 / 32 = 4.646 ms, so
    only the first layer's gather is exposed: 1.215 ms. Backward: the next layer's gather
    and this layer's reduce-scatter share the links, 2.431 ms a layer under 9.292 ms of
    compute: the first gather and the last reduce-scatter exposed, 2.431 ms. Hidden: 3 x
    38.89 - 3.646 = 113.02 ms, which slows the compute under it by 18.9%: 21.36 ms."""
    r = model_step(W, FABRIC, _shape(900.0))
    gather = 7 / 8 * SHARD_BYTES / 360e9
    assert gather == pytest.approx(0.038889, rel=1e-4)
    exposed_dp = gather / 32 + 2 * gather / 32
    hidden = 3 * gather - exposed_dp
    assert r.compute_s == pytest.approx(COMPUTE_S, rel=1e-9) and r.dp_s == pytest.approx(3 * gather, rel=1e-9)
    assert r.hidden_s == pytest.approx(hidden, rel=1e-6)
    assert r.exposed_s == pytest.approx(exposed_dp + SLOWDOWN * hidden, rel=1e-6)  # 25.0 ms
    assert r.step_s == pytest.approx(0.44599 + 0.00365 + 0.02136, abs=2e-5)


def test_over_pcie_the_gathers_outlast_the_compute_and_the_rest_waits():
    """No NVLink: PCIe 5.0 x16, 64 GB/s x 0.8 = 51.2 GB/s. One all-gather: 7/8 x 16e9 /
    51.2e9 = 273.4 ms, 8.545 ms a layer against 4.646 ms of forward: exposed = 8.545 +
    31 x (8.545 - 4.646) = 129.4 ms. Backward: 17.09 ms a layer against 9.292: exposed =
    17.09 + 31 x 7.798 = 258.8 ms. Hidden: 820.3 - 388.2 = 432.1 ms, slowing the compute
    under it by 18.9%."""
    r = model_step(W, FABRIC, _shape(0.0))
    gather = 7 / 8 * SHARD_BYTES / 51.2e9
    assert gather == pytest.approx(0.27344, rel=1e-4)
    fwd, bwd = COMPUTE_S / 3, COMPUTE_S * 2 / 3
    exposed_fwd = gather / 32 + 31 * (gather / 32 - fwd / 32)
    exposed_bwd = 2 * gather / 32 + 31 * (2 * gather / 32 - bwd / 32)
    assert exposed_fwd == pytest.approx(0.1294, abs=1e-4) and exposed_bwd == pytest.approx(0.2589, abs=1e-4)
    hidden = 3 * gather - exposed_fwd - exposed_bwd
    assert r.hidden_s == pytest.approx(hidden, rel=1e-6)
    assert r.exposed_s == pytest.approx(exposed_fwd + exposed_bwd + SLOWDOWN * hidden, rel=1e-6)


def test_overlap_zero_still_exposes_everything_and_a_share_hides_no_more_than_the_layers_allow():
    """Plans saved with overlap 0 keep the worst case: all three collectives exposed. Over
    PCIe a share of 0.9 would hide 738 ms, more than the 432 ms the layers can cover."""
    none = model_step(W.model_copy(update={"overlap": 0.0}), FABRIC, _shape(0.0))
    assert none.hidden_s == 0.0 and none.exposed_s == pytest.approx(none.dp_s, rel=1e-12)
    modelled = model_step(W, FABRIC, _shape(0.0))
    most = model_step(W.model_copy(update={"overlap": 0.9}), FABRIC, _shape(0.0))
    assert most.hidden_s == pytest.approx(modelled.hidden_s, rel=1e-12)
    assert most.hidden_s < 0.9 * most.dp_s


def test_gradient_accumulation_gathers_the_weights_on_every_micro_batch():
    """Four sequences per GPU in micro-batches of one: FSDP frees each layer's gathered
    weights after use, so the three collectives run 4 times: 4 x 116.7 ms on NVLink."""
    four = W.model_copy(update={"global_batch_tokens": 32 * 4096})
    r = model_step(four, FABRIC, _shape(900.0))
    assert r.dp_s == pytest.approx(4 * 3 * 7 / 8 * SHARD_BYTES / 360e9, rel=1e-9)


def test_fsdp_memory_holds_two_gathered_layers_and_one_layers_gradients():
    """Sharded states: 8e9 / 8 x 16 bytes = 16 GB. A layer's whole weights: 8e9 / 32 =
    0.25e9 parameters, 0.5 GB in bf16; two in flight (FSDP's rate limiter) and one layer's
    gradients: +1.5 GB."""
    mem = training_memory(W, model_shape(W), tp=1, pp=1, dp=8)
    assert mem.weights_gb == pytest.approx(8e9 / 8 * 2 / 1e9 + 2 * 0.5, rel=1e-9)
    assert mem.gradients_gb == pytest.approx(8e9 / 8 * 2 / 1e9 + 0.5, rel=1e-9)
