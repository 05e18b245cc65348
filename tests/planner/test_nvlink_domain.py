"""Tensor and expert parallelism inside an NVLink domain travel over NVLink, not the fabric:
the collective model splits intra- and inter-domain traffic by the domain's size (8 GPUs on
an HGX board, 72 in a GB200 NVL72 rack)."""

from __future__ import annotations

import pytest

from planner.hardware.catalog import Catalog, DeviceType, default_catalog
from planner.hardware.nodes import summarise_nodes
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.checks import job_shape
from planner.workload.training import model_step

CAT = default_catalog()

# GB200 NVL72 as one system, figures from NVIDIA's GB200 NVL72 datasheet: 72 Blackwell
# GPUs in one NVLink domain at 1.8 TB/s each, 186 GB HBM3e and 8 TB/s per GPU, 2.5 PF
# dense BF16 per GPU (180 PF / 72), about 132 kW, 1.36 t, liquid cooled; 72 x 400G CX-7.
NVL72 = DeviceType.model_validate({
    "id": "test-gb200-nvl72", "vendor": "NVIDIA", "model": "GB200 NVL72 (test)", "category": "gpu_server",
    "u_height": 48, "weight_kg": 1360, "power_max_w": 132_000, "power_typical_w": 120_000, "cooling": "liquid",
    "gpu": {"model": "B200 (GB200)", "count": 72, "tdp_w": 1200, "memory_gb": 186, "bf16_tflops": 2500,
            "nvlink_gbs": 1800, "memory_bandwidth_tbs": 8.0, "nvlink_domain": 72},
    "nics": [{"count": 36, "gbps": 400, "technology": "infiniband", "purpose": "compute"}] * 2,
    "price_usd": 3_000_000, "source": "NVIDIA GB200 NVL72 datasheet (test entry)",
})


def tp_fabric_bytes(device_id: str, nodes: int, catalog, tp: int, pp: int, dp: int) -> float:
    summary = summarise_nodes({device_id: nodes}, catalog)
    fabric = FabricSettings()
    shape = job_shape(summary, fabric)
    w = WorkloadSettings(model_params_b=70, tp=tp, pp=pp, dp=dp)
    return model_step(w, fabric, shape).tp_fabric_bytes_per_gpu


def test_hgx_domain_is_eight_and_nvl72_is_seventy_two():
    assert CAT["hgx-h100-8"].gpu.domain_gpus == 8
    assert NVL72.gpu.domain_gpus == 72


def test_tp8_on_hgx_and_tp72_on_nvl72_move_no_tensor_parallel_bytes_over_the_fabric():
    """Issue 15, acceptance 3."""
    # 16 HGX nodes (128 GPUs): TP 8 x PP 4 x DP 4.
    assert tp_fabric_bytes("hgx-h100-8", 16, CAT, tp=8, pp=4, dp=4) == 0.0
    # 2 NVL72 racks (144 GPUs): TP 72 x PP 1 x DP 2.
    cat = Catalog([*CAT, NVL72])
    assert tp_fabric_bytes(NVL72.id, 2, cat, tp=72, pp=1, dp=2) == 0.0


def test_tp16_on_hgx_sends_tensor_parallel_bytes_over_the_fabric():
    """TP 16 spans two 8-GPU domains: each layer's all-reduce is reduced inside the domain
    over NVLink, then across the 2 domains over the fabric: per GPU 2 x (2-1)/2 x payload / 8,
    payload = 4 all-reduces x 80/4 layers x (4,194,304 / 2 DP) tokens x 8192 x 2 bytes."""
    got = tp_fabric_bytes("hgx-h100-8", 16, CAT, tp=16, pp=4, dp=2)
    payload = 4 * 20 * (4_194_304 / 2) * 8192 * 2
    assert got == pytest.approx(2 * (2 - 1) / 2 * payload / 8)
    assert got > 0


def test_moe_all_to_all_leaves_nvlink_only_when_ep_spans_domains():
    fabric = FabricSettings()
    hgx = job_shape(summarise_nodes({"hgx-h100-8": 16}, CAT), fabric)
    w = WorkloadSettings(model="mixtral-8x7b", tp=1, pp=1, dp=128, ep=8, sharding="zero1")
    assert model_step(w, fabric, hgx).ep_fabric_bytes_per_gpu == 0.0  # EP 8 in one HGX board
    wide = w.model_copy(update={"ep": 16})
    # EP 16 over two boards, top-2: a token crosses the fabric once if the other board holds one
    # or both of its experts, 1 - (1/2)^2 = 3/4 of a copy (DeepEP's hierarchical dispatch), so
    # 4 all-to-alls x 32 layers x (4,194,304 / 128 tokens / TP 1) x 4096 x 2 bytes x 0.75
    expect = 4 * 32 * (4_194_304 / 128) * 4096 * 2 * 0.75
    assert model_step(wide, fabric, hgx).ep_fabric_bytes_per_gpu == pytest.approx(expect)


def test_a_block_of_ranks_that_does_not_tile_the_domain_reaches_one_more():
    from planner.workload.training import domain_split

    # a job inside one domain never leaves it
    assert domain_split(4, 8, 8) == (1, 4) and domain_split(64, 72, 72) == (1, 64)
    # blocks that tile the domains: 8 on 8-GPU boards, 16 over two boards, 144 over two racks
    assert (domain_split(8, 8, 64), domain_split(16, 8, 64), domain_split(144, 72, 576)) == ((1, 8), (2, 8), (2, 72))
    # 64-rank blocks on 72-GPU racks: the second runs from rank 64 to 127, 8 of them in the first
    # rack and 56 in the next; 12-rank blocks on 8-GPU boards: ranks 12-23, 4 on board 1, 8 on 2
    assert domain_split(64, 72, 576) == (2, 8) and domain_split(12, 8, 96) == (2, 4)
    # a job that ends inside a domain: 100 ranks over 72-GPU domains in one block, 72 + 28
    assert domain_split(100, 72, 100) == (2, 28)


def fabric_bytes(device_id: str, nodes: int, catalog, **layout) -> float:
    summary = summarise_nodes({device_id: nodes}, catalog)
    fabric = FabricSettings(sharp=False)
    w = WorkloadSettings(model_params_b=70, **layout)
    return model_step(w, fabric, job_shape(summary, fabric)).fabric_bytes_per_gpu


def test_nvl72_racks_a_layout_does_not_tile_send_data_parallel_and_pipeline_bytes_over_the_fabric():
    cat = Catalog([*CAT, NVL72])
    # TP 4 x PP 9 x DP 16 on 8 racks (576 GPUs), a 70B model, 4,194,304 tokens a step, DDP:
    # each stage's 64 ranks (TP 4 x DP 16) in rank order 0-63, 64-127, ...: the second
    # straddles racks 1 and 2 (a boundary at 72), 8 ranks (2 DP members) in rack 1 and 56 in
    # rack 2; the 2 members carry their rack's share of the gradients, 70e9 / (4 x 9) x 2 bytes
    # / 2, all-reduced over the 2 racks (ring, no SHARP: 2 x (2-1)/2 of it sent); and stage 1
    # (ranks 64-127) sends to stage 2 (128-191) in the next rack: 2 x 4,194,304 / 16 tokens x
    # 8192 x 2 bytes / TP 4.
    dp = 2 * (2 - 1) / 2 * 70e9 / 36 * 2 / 2
    pp = 2 * 4_194_304 / 16 * 8192 * 2 / 4
    assert fabric_bytes(NVL72.id, 8, cat, tp=4, pp=9, dp=16) == pytest.approx(dp + pp)
    # the same model on one rack, TP 4 x PP 2 x DP 9: nothing leaves the NVLink domain
    assert fabric_bytes(NVL72.id, 1, cat, tp=4, pp=2, dp=9) == 0.0


def test_tensor_parallel_groups_that_straddle_racks_reduce_over_the_fabric():
    # TP 16 x PP 4 x DP 9 on 8 NVL72 racks: TP blocks of 16 ranks, the fifth (64-79) with 8
    # in rack 1 and 8 in rack 2: each layer's all-reduce crosses the fabric between the 2
    # halves: 2 x (2-1)/2 x payload / 8, payload = 4 all-reduces x 80/4 layers x
    # (4,194,304 / 9 DP) tokens x 8192 x 2 bytes
    cat = Catalog([*CAT, NVL72])
    got = tp_fabric_bytes(NVL72.id, 8, cat, tp=16, pp=4, dp=9)
    payload = 4 * 20 * (4_194_304 / 9) * 8192 * 2
    assert got == pytest.approx(2 * (2 - 1) / 2 * payload / 8)


def test_pipeline_stages_narrower_than_a_board_still_cross_boards():
    # TP 2 x PP 4 x DP 2 on 2 HGX boards: stages of 4 ranks (0-3, 4-7 | 8-11, 12-15): stage 2
    # hands its activations from board 1 to board 2 over the fabric; DP 2 x TP 2 tiles a board,
    # so the gradients stay on NVLink: 2 x 4,194,304 / 2 tokens x 8192 x 2 bytes / TP 2
    assert fabric_bytes("hgx-h100-8", 2, CAT, tp=2, pp=4, dp=2) == pytest.approx(2 * 4_194_304 / 2 * 8192 * 2 / 2)
