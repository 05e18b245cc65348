"""Each GPU generation's own measured kernel rates, chosen by the catalog's GPU entry; a GPU
without them borrows the H100's and the plan says so."""

from __future__ import annotations

import typing

import pytest

from planner.hardware.catalog import GpuBlock, default_catalog
from planner.network.checks import summarise_nodes
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.checks import evaluate_workload
from planner.workload.kernels import CURVES, attention_efficiency, gemm_s
from planner.workload.models import PRESETS

CATALOG = default_catalog()


def test_every_generation_the_catalog_names_has_curves():
    named = set(typing.get_args(typing.get_args(GpuBlock.model_fields["kernel_curves"].annotation)[0]))
    assert named == set(CURVES)


@pytest.mark.parametrize("device, generation", [
    ("dgx-a100", "ampere"), ("dgx-a100-320", "ampere"), ("dgx-h100", "hopper"), ("dgx-h200", "hopper"),
    ("hgx-h800-8", "hopper"), ("dgx-b200", "blackwell"), ("dgx-b300", "blackwell"), ("gb200-nvl72", "blackwell"),
    ("amd-mi300x-8", "cdna3"), ("amd-mi325x-8", "cdna3"), ("rtx4090x8", None), ("amd-mi355x-8", None),
])
def test_the_catalog_names_each_gpus_generation(device, generation):
    assert CATALOG.get(device).gpu.kernel_curves == generation


def test_a_large_gemm_reaches_each_gpus_measured_best():
    # 8192^3 BF16 at the maximum achievable matmul rate each GPU was measured at (S. Bekman,
    # ML Engineering Open Book, MAMF table): A100 SXM 271.2 TFLOP/s (2 x 8192^3 = 1.0995e12
    # FLOPs: 4.054 ms), B200 1,745 (0.630 ms), MI300X 668.4 (1.645 ms). The A100 is 8% above
    # the old shared curve's 80% of 312 (249.6 TFLOP/s: 4.405 ms).
    flops = 2 * 8192**3
    a100 = gemm_s(8192, 8192, 8192, peak_tflops=312, bandwidth_tbs=2.04, curves="ampere")
    assert a100 == pytest.approx(4.054e-3, rel=1e-3) and 4.405e-3 / a100 == pytest.approx(1.0865, rel=1e-3)
    assert gemm_s(8192, 8192, 8192, peak_tflops=2250, bandwidth_tbs=8.0, curves="blackwell") == pytest.approx(
        flops / 1745e12, rel=1e-9)
    assert gemm_s(8192, 8192, 8192, peak_tflops=1300, bandwidth_tbs=5.3, curves="cdna3") == pytest.approx(
        flops / 668.4e12, rel=1e-9)


def test_long_sequence_attention_on_b200_runs_at_blackwells_rate_not_hoppers():
    # 128K on B200: cuDNN's Blackwell attention at 55% of 2,250 (FlashAttention-4 paper: 1,613
    # TFLOP/s, 1.3 x cuDNN 9.13); the H100 curve it used before gave 34%. Causal: x 2 of the
    # counted FLOPs. 1.10 against 0.68: attention 1.62 x as fast.
    m = PRESETS["llama3-8b"]
    b200 = attention_efficiency(m, seq_len=131072, flash=True, bf16_tflops=2250, bandwidth_tbs=8.0, curves="blackwell")
    hopper = attention_efficiency(m, seq_len=131072, flash=True, bf16_tflops=2250, bandwidth_tbs=8.0, curves="hopper")
    assert b200 == pytest.approx(1.10) and hopper == pytest.approx(0.68)


def _findings(device: str, **workload):
    w = WorkloadSettings.model_validate({"model": "llama3-8b", "tp": 1, "pp": 1, "dp": 16, "seq_len": 8192,
                                         "global_batch_tokens": 64 * 8192} | workload)
    out = evaluate_workload(w, FabricSettings(), summarise_nodes({device: 2}, CATALOG))
    return {f.code: f for f in out.findings}


def test_a_gpu_without_measurements_says_it_borrows_the_h100_curves():
    note = _findings("rtx4090x8")["workload.kernels.borrowed"]
    assert note.severity == "info" and "GeForce RTX 4090" in note.message
    assert "the H100 curves for matrix multiplications and attention" in note.message


def test_a_gpu_with_its_own_gemm_rate_borrows_only_the_attention_curve():
    note = _findings("amd-mi300x-8")["workload.kernels.borrowed"]
    assert "the H100 FlashAttention curve for attention" in note.message and "Instinct MI300X" in note.message


@pytest.mark.parametrize("device", ["dgx-a100", "dgx-h100", "dgx-b200"])
def test_a_gpu_with_its_own_curves_borrows_nothing(device):
    assert "workload.kernels.borrowed" not in _findings(device)


def test_a_users_own_efficiency_figure_needs_no_borrowed_curves():
    assert "workload.kernels.borrowed" not in _findings("rtx4090x8", mfu=0.4)
