"""Compute efficiency from the shapes: each GEMM on a roofline with the published size
curve, attention at FlashAttention's measured rate, and a user's single figure as override."""

from __future__ import annotations

import pytest

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.kernels import STEP_CALIBRATION, attention_efficiency, gemm_s, matmul_efficiency
from planner.workload.models import PRESETS, model_shape
from planner.workload.training import JobShape, model_step

H100_TF, H100_TBS = 989.0, 3.35  # H100 SXM datasheet: 989 TFLOP/s dense BF16, 3.35 TB/s HBM3
H100 = JobShape(8, H100_TF, 900.0, 1.0, 400.0, memory_gb=80.0, memory_bandwidth_tbs=H100_TBS)


def test_a_large_gemm_runs_at_the_top_of_the_curve():
    # 8192^3: the H100's maximum achievable matmul rate (Bekman, ML Engineering Open Book:
    # 794.5 TFLOP/s of 989); 2 x 8192^3 = 1.0995e12 FLOPs / 794.5e12 = 1.384 ms.
    assert gemm_s(8192, 8192, 8192, peak_tflops=H100_TF, bandwidth_tbs=H100_TBS) == pytest.approx(
        2 * 8192**3 / 794.5e12, rel=1e-9)


def test_an_fp8_gemm_reaches_the_measured_fp8_share_of_its_peak():
    # Maximum achievable matmul TFLOP/s on H100 SXM (Bekman, ML Engineering Open Book): BF16
    # 794.5 of 989 (80.3%), FP8 1,402.6 of 1,979 (70.9%). An 8192^3 FP8 GEMM runs at the
    # curve's 80.3% x 70.9/80.3 = 70.87% of 2 x 989 TFLOP/s = 1,401.9 TFLOP/s: 0.7843 ms; its
    # one-byte operands, 3 x 8192^2 B = 201 MB at 90% of 3.35 TB/s, take 67 us.
    fp8 = gemm_s(8192, 8192, 8192, peak_tflops=2 * H100_TF, bandwidth_tbs=H100_TBS, value_bytes=1.0)
    assert fp8 == pytest.approx(2 * 8192**3 / (1402.6 / 1979 * 1978e12), rel=1e-9)
    assert fp8 == pytest.approx(0.7843e-3, rel=1e-3)
    bf16 = gemm_s(8192, 8192, 8192, peak_tflops=H100_TF, bandwidth_tbs=H100_TBS)
    assert bf16 / fp8 == pytest.approx(1.766, rel=1e-3)  # FP8 is 1.77x BF16, not the datasheet's 2x


def test_a_small_group_of_a_grouped_gemm_runs_at_the_measured_grouped_rate():
    # DeepGEMM's README (DeepSeek-AI, 2025, H800 FP8), grouped GEMMs at N x K 4,096 x 7,168 and
    # 7,168 x 2,048: 1,288 and 1,093 TFLOP/s in groups of 4,096 tokens, 1,040 and 916 in groups
    # of 512. A group of 512 runs at the mean of 1,040 / 1,288 = 0.8075 and 916 / 1,093 = 0.8381,
    # 0.8228 of a 4,096-token group's rate per FLOP, wherever the shape curve puts that rate.
    def per_flop(m, n, k, grouped):
        return gemm_s(m, n, k, peak_tflops=H100_TF, bandwidth_tbs=None, grouped=grouped) / (2 * m * n * k)
    for n, k in ((4096, 7168), (7168, 2048), (3072, 4096)):
        assert per_flop(4096, n, k, True) / per_flop(512, n, k, True) == pytest.approx(0.8228, abs=1e-4)
    # A group of 4,096 tokens or more is one GEMM of its shape; one 512-row GEMM of 4,096 x 7,168
    # (cube edge 2,467, 90.2% of the best rate against 98.2% at 4,096 rows) outruns the group.
    assert per_flop(4096, 4096, 7168, True) == per_flop(4096, 4096, 7168, False)
    assert per_flop(8192, 4096, 7168, True) == per_flop(8192, 4096, 7168, False)
    assert per_flop(4096, 4096, 7168, False) / per_flop(512, 4096, 7168, False) == pytest.approx(0.9186, abs=1e-3)
    # a small N x K: 512 x 2,048 x 768 alone has a cube edge of 930, 64.4% of the best rate
    # (between 512: 37.5% and 1,024: 68.75%); a 4,096-token group of it (edge 1,861) reaches
    # 84.9%, times 0.8228 is 69.9%: the group runs at its own shape's 64.4%, never faster
    assert per_flop(512, 2048, 768, True) == per_flop(512, 2048, 768, False)


def test_without_flash_attention_the_scores_stream_through_hbm():
    """A GPT of h 2,048, 24 layers, 16 heads, FFN 8,192, GeLU, dropout, s 2,048, b 1, TP 1,
    no FlashAttention, nothing recomputed, on H100s. Per token and layer the tensors it
    writes (Korthikanti et al. 2022): 34 h = 69,632 B, and the attention core's scores,
    softmax and dropout mask, 5 a s = 163,840 B, each streamed 6 times (written and read
    forward, twice that backward) at 90% of 3.35 TB/s: 24 x 6 x 233,472 B / 3.015 TB/s =
    11.15 us per token, beside the GEMMs and attention at their shape efficiencies, all over
    the step calibration."""
    w = WorkloadSettings(model="custom", model_params_b=1.3, layers=24, hidden_size=2048, heads=16, kv_heads=16,
                         ffn_size=8192, vocab_size=51200, mlp_activation="gelu", dropout=True, flash_attention=False,
                         recompute="none", tp=1, pp=1, dp=8, seq_len=2048, global_batch_tokens=8 * 2048)
    r = model_step(w, FabricSettings(), H100)
    n = model_shape(w).active_params
    tokens_per_gpu = 2048
    elementwise = 24 * 6 * (34 * 2048 + 5 * 16 * 2048) / (0.9 * 3.35e12)
    assert elementwise == pytest.approx(11.15e-6, rel=1e-3)
    kernels = tokens_per_gpu * (6 * n / (989e12 * r.matmul_efficiency)
                                + 12 * 24 * 2048 * 2048 / (989e12 * r.attention_efficiency) + elementwise)
    assert r.compute_s == pytest.approx(kernels / STEP_CALIBRATION, rel=1e-9)


def test_a_tensor_parallel_slice_is_a_smaller_gemm_and_slower_per_flop():
    # Llama 3 8B's attention output projection at TP 8 on 2,048 tokens: 2,048 x 4,096 x 512.
    # Cube edge (2048 x 4096 x 512)^(1/3) = 1,625.5, 2/3 of the way (in log) from 1,024
    # (68.75% of the GPU's best) to 2,048 (87.5%): 81.25% of the H100's 794.5/989, 65.3% of
    # peak. Math 2 x 4.295e9 / (0.6527 x 989e12) = 13.31 us;
    # its operands, 2 x (2048 x 512 + 512 x 4096 + 2048 x 4096) = 23.07 MB at 90% of
    # 3.35 TB/s take 7.65 us: compute-bound.
    t = gemm_s(2048, 4096, 512, peak_tflops=H100_TF, bandwidth_tbs=H100_TBS)
    assert t == pytest.approx(2 * 2048 * 4096 * 512 / (0.8125 * 794.5e12), rel=1e-3)


def test_a_one_token_gemm_is_bound_by_hbm():
    # Decode: 1 x 8192 x 8192 reads the 134.2 MB weight matrix: 2 x (8192 + 8192^2 + 8192)
    # bytes / (0.9 x 3.35e12) = 44.5 us, while its 134 MFLOPs would take well under 1 us.
    t = gemm_s(1, 8192, 8192, peak_tflops=H100_TF, bandwidth_tbs=H100_TBS)
    assert t == pytest.approx(2 * (8192 + 8192**2 + 8192) / (0.9 * 3.35e12), rel=1e-9)


def test_flash_attention_rate_follows_the_sequence_length_and_the_gpu():
    # FlashAttention-2 fwd+bwd, causal, head 128 (Dao 2023): A100 ~54% of 312 at 2K, H100
    # ~32% of 989 at 8K; causal kernels run half of PaLM's counted 12 L s h, so x 2.
    m = PRESETS["llama3-8b"]
    a100 = attention_efficiency(m, seq_len=2048, flash=True, bf16_tflops=312, bandwidth_tbs=2.0, curves="ampere")
    h100 = attention_efficiency(m, seq_len=8192, flash=True, bf16_tflops=989, bandwidth_tbs=3.35, curves="hopper")
    assert a100 == pytest.approx(1.08) and h100 == pytest.approx(0.64)


def test_tensor_parallel_lowers_the_matmul_efficiency_of_a_small_model():
    # Llama 3 8B on 8,192 tokens at TP 1: every GEMM has a cube edge of 5,000 or more (QKV
    # 8192 x 6144 x 4096: 5,905 -> 79%); at TP 8 on 2,048 tokens the edges fall to 1,600-2,600
    # (the projection above: 65%), so the FLOP-weighted efficiency drops below 75%; the top is
    # the H100's best, 80.3%.
    m = PRESETS["llama3-8b"]
    one = matmul_efficiency(m, tokens=8192, tp=1, ep=1, peak_tflops=H100_TF, bandwidth_tbs=H100_TBS, value_bytes=2)
    eight = matmul_efficiency(m, tokens=2048, tp=8, ep=1, peak_tflops=H100_TF, bandwidth_tbs=H100_TBS, value_bytes=2)
    assert 0.78 < one <= 794.5 / 989 and eight < 0.75


def test_a_single_figure_set_by_the_user_overrides_the_shape_model():
    # mfu = 0.5: compute = (6 N + 12 L s h) x T / (GPUs x peak x 0.5), the shapes play no part.
    w = WorkloadSettings(model="llama3-8b", tp=1, pp=1, dp=8, seq_len=8192, global_batch_tokens=64 * 8192, mfu=0.5)
    r = model_step(w, FabricSettings(), H100)
    fpt = 6 * 8.03e9 + 12 * 32 * 8192 * 4096
    assert r.compute_s == pytest.approx(fpt * 64 * 8192 / (8 * 989e12 * 0.5))
    assert r.compute_efficiency == pytest.approx(0.5) and r.matmul_efficiency is None


def test_from_the_shapes_a_small_model_computes_below_a_large_one():
    # With no figure set, the 8B model at TP 8 (small GEMMs, elementwise traffic a larger
    # share) reaches a lower fraction of peak than the 405B model at TP 8 on the same GPUs.
    small = WorkloadSettings(model="llama3-8b", tp=8, pp=1, dp=1, seq_len=2048, global_batch_tokens=64 * 2048)
    large = WorkloadSettings(model="llama3-405b", tp=8, pp=1, dp=1, seq_len=8192, global_batch_tokens=64 * 8192)
    e_small = model_step(small, FabricSettings(), H100).compute_efficiency
    e_large = model_step(large, FabricSettings(), H100).compute_efficiency
    assert small.mfu is None and e_small < e_large < 0.80
