"""In-node tensor-parallel all-reduce with NVLink SHARP (NVLS), at its measured bus bandwidth."""

from __future__ import annotations

import pytest

from planner.hardware.catalog import default_catalog
from planner.hardware.nodes import summarise_nodes
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.checks import job_shape
from planner.workload.training import JobShape, model_step

CAT = default_catalog()
RING = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                domain_gpus=8, memory_gb=80)
NVLS = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400,
                domain_gpus=8, memory_gb=80, nvls_busbw_gbs=480)


def test_tp8_all_reduce_runs_at_480_gbs_busbw_with_nvls_and_360_without():
    """Default 70B job, TP 8, PP 4, DP 4, global batch 4,194,304 tokens: per GPU 4 all-reduces
    x 20 layers of 1,048,576 tokens x 8,192 values x 2 bytes = 1.3744e12 bytes; ring factor
    2 x 7/8. Ring over NVLink: 900 / 2 x 0.8 = 360 GB/s -> 6.681 s; NVLS 480 GB/s (nccl-tests
    busbw on 8 x H100) -> 5.011 s."""
    w = WorkloadSettings()
    payload = 4 * 20 * 1_048_576 * 8192 * 2
    ring = model_step(w, FabricSettings(), RING)
    nvls = model_step(w, FabricSettings(), NVLS)
    assert ring.tp_s == pytest.approx(payload * 2 * 7 / 8 / 360e9)
    assert nvls.tp_s == pytest.approx(payload * 2 * 7 / 8 / 480e9)
    assert nvls.tokens_per_s > ring.tokens_per_s


def test_a_tp_group_smaller_than_the_domain_keeps_the_ring():
    """NVLS gains little below the whole NVSwitch domain (NCCL issue #1455: ~370 GB/s on 2-4 GPUs)."""
    w = WorkloadSettings(tp=4, dp=8)
    assert model_step(w, FabricSettings(), NVLS).tp_s == pytest.approx(model_step(w, FabricSettings(), RING).tp_s)


def test_hopper_nodes_carry_nvls_and_a100_nodes_do_not():
    """NVLink SHARP needs third-generation NVSwitch (Hopper): DGX A100's NVSwitch has none."""
    fabric = FabricSettings()
    assert job_shape(summarise_nodes({"hgx-h100-8": 16}, CAT), fabric).nvls_busbw_gbs == 480
    assert job_shape(summarise_nodes({"hgx-h800-8": 2}, CAT), fabric).nvls_busbw_gbs == 215
    assert job_shape(summarise_nodes({"dgx-a100": 4}, CAT), fabric).nvls_busbw_gbs is None
    # A mixed plan runs at its slowest node type's NVLink; one type without NVLS: none.
    assert summarise_nodes({"hgx-h100-8": 2, "hgx-h800-8": 2}, CAT).nvls_busbw_gbs == 215
    assert summarise_nodes({"hgx-h100-8": 2, "dgx-a100": 2}, CAT).nvls_busbw_gbs is None


def test_the_h800_node_is_an_h100_with_400_gbs_nvlink():
    h800, h100 = CAT.get("hgx-h800-8").gpu, CAT.get("dgx-h100").gpu
    assert (h800.nvlink_gbs, h800.bf16_tflops, h800.memory_gb, h800.count) == (400, 989, 80, 8)
    assert (h100.bf16_tflops, h100.memory_gb) == (989, 80)
    assert [n.gbps for n in CAT.get("hgx-h800-8").compute_nics()] == [400]
