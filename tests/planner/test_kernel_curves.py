"""Each GPU generation's own measured kernel rates, chosen by the catalog's GPU entry; a GPU
without them borrows the H100's and the plan says so."""

from __future__ import annotations

import typing

import pytest

from planner.hardware.catalog import GpuBlock, default_catalog
from planner.hardware.nodes import summarise_nodes
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


def test_cudnn_attention_on_h100_runs_at_its_measured_forward_and_backward_rate():
    # FlashAttention-3 paper (arXiv 2407.08608), H100 SXM BF16, head 128, at 4K: cuDNN's causal
    # forward 518 TFLOP/s, backward 499. The backward runs 2.5 x the forward's FLOPs:
    # 3.5 / (1/518 + 2.5/499) = 504.3 TFLOP/s = 51.0% of 989; causal doubles the counted rate.
    # FlashAttention-2 (the default) stays at 30% of peak: attention 1.70 x as fast.
    m = PRESETS["llama3-8b"]
    rate = 3.5 / (1 / 518 + 2.5 / 499)
    cudnn = attention_efficiency(m, seq_len=4096, flash=True, bf16_tflops=989, bandwidth_tbs=3.35,
                                 curves="hopper", kernel="cudnn")
    auto = attention_efficiency(m, seq_len=4096, flash=True, bf16_tflops=989, bandwidth_tbs=3.35, curves="hopper")
    assert cudnn == pytest.approx(2 * rate / 989, rel=1e-9) and rate == pytest.approx(504.3, abs=0.1)
    assert auto == pytest.approx(0.60) and cudnn / auto == pytest.approx(1.70, abs=0.005)
    # FlashAttention-3 at 16K: forward 616, backward 561 -> 575.7 TFLOP/s.
    fa3 = attention_efficiency(m, seq_len=16384, flash=True, bf16_tflops=989, bandwidth_tbs=3.35,
                               curves="hopper", kernel="flash3")
    assert fa3 * 989 / 2 == pytest.approx(575.7, abs=0.1)


def test_a_kernel_not_measured_on_the_gpu_runs_at_its_own_kernels_rate_and_says_so():
    m = PRESETS["llama3-8b"]
    a100 = {k: attention_efficiency(m, seq_len=4096, flash=True, bf16_tflops=312, bandwidth_tbs=2.04,
                                    curves="ampere", kernel=k) for k in ("auto", "flash2", "flash3", "cudnn")}
    assert a100 == {k: pytest.approx(1.20) for k in a100}  # FlashAttention-2's 60% of the A100's peak, x 2
    # FlashAttention-3 is written for Hopper: on an A100 it cannot run, a warning says so.
    note = _findings("dgx-a100", attention_kernel="flash3")["workload.kernels.attention"]
    assert note.severity == "warning" and note.message.startswith(
        "FlashAttention-3 runs on Hopper GPUs (H100, H200, H800) only, not on the A100")
    assert "FlashAttention-2's rate for that GPU" in note.message
    # cuDNN runs on an A100 but was not measured there: a note.
    note = _findings("dgx-a100", attention_kernel="cudnn")["workload.kernels.attention"]
    assert note.severity == "info" and "No published cuDNN attention measurements on the A100" in note.message
    # B200's one measured kernel is cuDNN's: FlashAttention-2 asked there runs at it.
    assert "cuDNN attention's rate for that GPU" in _findings("dgx-b200", attention_kernel="flash2")[
        "workload.kernels.attention"].message
    for device, kernel in (("dgx-h100", "flash3"), ("dgx-h100", "cudnn"), ("dgx-a100", "auto"), ("dgx-b200", "cudnn")):
        assert "workload.kernels.attention" not in _findings(device, attention_kernel=kernel)


def test_a_gpu_of_no_known_generation_is_not_told_it_is_not_hopper():
    # a user's catalog may add a Hopper GPU without naming its generation: FlashAttention-3
    # asked there is a note (no measurements), not the warning that it runs on Hopper only
    note = _findings("rtx4090x8", attention_kernel="flash3")["workload.kernels.attention"]
    assert note.severity == "info" and "runs on Hopper GPUs" not in note.message


def test_a_kernel_warning_leaves_the_users_layout_to_the_design():
    # FlashAttention-3 on A100s is a warning about the kernel, not the layout: new keeps the
    # TP 1 x PP 1 x DP 16 asked, as with the automatic kernel
    from planner.design.build import design
    from planner.design.intent import Intent

    stated = {"model": "llama3-8b", "tp": 1, "pp": 1, "dp": 16, "sharding": "zero1"}
    for kernel in ("auto", "flash3"):
        result = design(Intent(system="dgx-a100", nodes=2, spare_nodes=0,
                               settings={"workload": stated | {"attention_kernel": kernel}}), CATALOG)
        w = result.plan.settings.workload
        assert (w.tp, w.pp, w.dp) == (1, 1, 16), kernel
        assert "design.parallelism" not in {f.code for f in result.findings}, kernel


def test_with_flash_attention_off_the_kernel_set_is_said_to_be_unused():
    note = _findings("dgx-h100", attention_kernel="cudnn", flash_attention=False)["workload.kernels.attention"]
    assert note.severity == "info" and "FlashAttention is off" in note.message and "cuDNN attention" in note.message


def test_a_transformer_engine_stack_trains_a_long_sequence_faster_on_h100():
    # Llama 3 8B at 8K on two DGX H100: the same layout with cuDNN attention has a shorter
    # step, and the report's attention efficiency is cuDNN's rate at 8K (529 forward, 518
    # backward: 521.1 TFLOP/s, 52.7% of 989, x 2 causal).
    def run(kernel):
        w = WorkloadSettings.model_validate({"model": "llama3-8b", "tp": 1, "pp": 1, "dp": 16, "seq_len": 8192,
                                             "global_batch_tokens": 64 * 8192, "attention_kernel": kernel})
        return evaluate_workload(w, FabricSettings(), summarise_nodes({"dgx-h100": 2}, CATALOG)).step
    fa2, cudnn = run("auto"), run("cudnn")
    assert cudnn.step_s < fa2.step_s
    assert cudnn.attention_efficiency == pytest.approx(2 * 3.5 / (1 / 529 + 2.5 / 518) / 989, rel=1e-6)
    assert (fa2.attention_kernel, cudnn.attention_kernel) == ("FlashAttention-2", "cuDNN attention")


@pytest.mark.parametrize("device, gpu", [("amd-mi300x-8", "Instinct MI300X"), ("rtx4090x8", "GeForce RTX 4090")])
def test_a_gpu_that_borrows_the_h100_attention_curve_borrows_no_other_kernel(device, gpu):
    # cuDNN's and FlashAttention-3's rates were measured on the H100 only: asked on a GPU
    # that borrows the H100 curve, attention runs at FlashAttention-2's, and a note says so.
    m = PRESETS["llama3-8b"]
    rates = {k: attention_efficiency(m, seq_len=4096, flash=True, bf16_tflops=1000, bandwidth_tbs=5.0,
                                     curves=CATALOG.get(device).gpu.kernel_curves, kernel=k)
             for k in ("auto", "cudnn", "flash3")}
    assert rates == {k: pytest.approx(0.60) for k in rates}
    note = _findings(device, attention_kernel="cudnn")["workload.kernels.attention"]
    assert gpu in note.message and "FlashAttention-2's rate measured on the H100" in note.message
    # cuDNN is NVIDIA's: on the MI300X it cannot run at all, a warning; on the RTX 4090 it was
    # only not measured, a note.
    assert note.severity == ("warning" if device == "amd-mi300x-8" else "info")


def test_fp8_on_an_a100_runs_at_its_bf16_peak_and_says_so():
    # the A100's datasheet lists no FP8 tensor cores: 312 TFLOP/s BF16 dense is its peak in FP8
    # too; an H100's FP8 peak is twice its BF16 (1,979 against 989)
    from planner.workload.training import model_step
    from planner.workload.checks import job_shape

    def step(device: str, precision: str):
        w = WorkloadSettings(model="llama3-8b", tp=1, pp=1, dp=16, precision=precision)
        nodes = summarise_nodes({device: 2}, CATALOG)
        return model_step(w, FabricSettings(), job_shape(nodes, FabricSettings()))

    fpt = PRESETS["llama3-8b"].training_flops_per_token(4096)
    assert step("dgx-a100", "fp8").tokens_per_s_limit == pytest.approx(16 * 312e12 / fpt)
    assert step("dgx-h100", "fp8").tokens_per_s_limit == pytest.approx(16 * 1979e12 / fpt, rel=0.002)
    note = _findings("dgx-a100", precision="fp8")["workload.precision.fp8"]
    assert note.severity == "warning" and note.message.startswith("The A100 SXM4 80GB has no FP8 tensor cores")
    assert note.remedy is not None and dict(note.remedy.figures) == {"precision": "bf16"}
    assert "workload.precision.fp8" not in _findings("dgx-h100", precision="fp8")
    assert "workload.precision.fp8" not in _findings("dgx-a100", precision="bf16")
