"""Published training runs beside the planner's prediction for the same job.

Each run gives the hardware, the model's shape, the parallelism and the batch as its
source publishes them; everything the source does not state stays at the planner's
defaults (kernel efficiency, overlap, recompute, fabric profile). The published figure is
end-to-end model FLOP utilisation (MFU) or tokens/s per GPU.

Print the README's table: ``PYTHONPATH=. python -m tests.planner.validation_runs``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.models import ModelShape, PRESETS
from planner.workload.training import JobShape, model_step

# Node figures from the datasheets (REFERENCE.md and NVIDIA's): BF16 dense peak per GPU,
# NVLink per GPU (both directions), one compute NIC per GPU.
DGX_A100 = JobShape(8, 312.0, 600.0, 1.0, 200.0, 8, 80)  # 8 x HDR 200G (DGX A100 / Selene)
H100_400G = JobShape(8, 989.0, 900.0, 1.0, 400.0, 8, 80)  # Grand Teton / DGX H100, 8 x 400G
H800_400G = JobShape(8, 989.0, 400.0, 1.0, 400.0, 8, 80)  # H800: H100 compute, NVLink cut to 400 GB/s

# GPT shapes of Megatron-LM's weak-scaling study (Narayanan et al. 2021, table 1):
# vocabulary 51,200, sequence 2,048, FFN 4h; parameters as the paper counts them.
GPT_530B = ModelShape("gpt-530b", 529.6e9, 529.6e9, 105, 20480, 128, 128, 4 * 20480, 51200)
GPT_1T = ModelShape("gpt-1t", 1008.0e9, 1008.0e9, 128, 25600, 160, 160, 4 * 25600, 51200)


@dataclass(frozen=True)
class Run:
    name: str
    citation: str
    shape: JobShape
    model: ModelShape
    workload: dict[str, Any]
    fabric: dict[str, Any]
    metric: str  # "mfu" or "tokens_per_s_per_gpu"
    published: float
    tolerance: float  # relative
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


RUNS: list[Run] = [
    Run("Llama 3 405B, 8,192 H100", "The Llama 3 Herd of Models (Meta, 2024, arXiv 2407.21783), table 4: "
        "TP 8, CP 1, PP 16, DP 64, sequence 8,192, 16M tokens per batch, 430 TFLOP/s per GPU, BF16 MFU 43%",
        H100_400G, PRESETS["llama3-405b"],
        dict(model="llama3-405b", tp=8, pp=16, dp=64, seq_len=8192, global_batch_tokens=2048 * 8192,
             pp_schedule="interleaved", virtual_stages=4, sharding="zero1"),
        dict(technology="eth400_roce", sharp=False), "mfu", 0.43, 0.15,
        "400G RoCE; interleaved schedule as the paper describes (v not published: 4 assumed)"),
    Run("Llama 3 405B, 16,384 H100", "The Llama 3 Herd of Models (Meta, 2024), table 4: TP 8, PP 16, DP 128, sequence 8,192, "
        "16M tokens per batch, 400 TFLOP/s per GPU, BF16 MFU 41%",
        H100_400G, PRESETS["llama3-405b"],
        dict(model="llama3-405b", tp=8, pp=16, dp=128, seq_len=8192, global_batch_tokens=2048 * 8192,
             pp_schedule="interleaved", virtual_stages=4, sharding="zero1"),
        dict(technology="eth400_roce", sharp=False), "mfu", 0.41, 0.15,
        "as above; half the micro-batches per replica, so a larger bubble"),
    Run("Megatron-LM GPT 530B, 2,520 A100", "Narayanan et al. 2021 (SC21, arXiv 2104.04473), table 1: TP 8, PP 35, "
        "batch 2,520 x 2,048 tokens, 163 TFLOP/s per GPU = 52% of peak counting the recompute pass; "
        "model FLOPs 3/4 of that: MFU 39%",
        DGX_A100, GPT_530B,
        dict(model="custom", tp=8, pp=35, dp=9, seq_len=2048, global_batch_tokens=2520 * 2048, recompute="full",
             pp_schedule="interleaved", virtual_stages=3),
        dict(technology="ib200", sharp=False), "mfu", 0.52 * 3 / 4, 0.15,
        "HDR 200G InfiniBand, full recompute; interleaved (v = 3 layers per chunk assumed)"),
    Run("Megatron-LM GPT 1T, 3,072 A100", "Narayanan et al. 2021, table 1 and abstract: TP 8, PP 64, batch "
        "3,072 x 2,048 tokens, 502 PFLOP/s = 163 TFLOP/s per GPU, 52% of peak with recompute: MFU 39%",
        DGX_A100, GPT_1T,
        dict(model="custom", tp=8, pp=64, dp=6, seq_len=2048, global_batch_tokens=3072 * 2048, recompute="full",
             pp_schedule="interleaved", virtual_stages=2),
        dict(technology="ib200", sharp=False), "mfu", 0.52 * 3 / 4, 0.15,
        "HDR 200G InfiniBand, full recompute; interleaved (v = 2 assumed)"),
    Run("DeepSeek-V3 671B MoE, 2,048 H800", "DeepSeek-V3 technical report (DeepSeek-AI, 2024, arXiv 2412.19437): 2,048 H800, PP 16, "
        "EP 64, ZeRO-1 DP, FP8; 180K H800 GPU-hours per trillion tokens = 1,543 tokens/s per GPU",
        H800_400G, PRESETS["deepseek-v3"],
        dict(model="deepseek-v3", tp=1, pp=16, dp=128, ep=64, seq_len=4096, global_batch_tokens=15360 * 4096,
             precision="fp8", sharding="zero1", pp_schedule="interleaved", virtual_stages=2, overlap=1.0),
        dict(technology="ib400", sharp=False), "tokens_per_s_per_gpu", 1e12 / (180e3 * 3600), 0.35,
        "DualPipe overlaps the expert all-to-all, which the planner exposes: wider tolerance"),
]


def predict(run: Run) -> float:
    w = WorkloadSettings(**run.workload)
    r = model_step(w, FabricSettings(**run.fabric), run.shape, model=run.model)
    if run.metric == "mfu":
        return r.mfu
    return r.tokens_per_s / r.gpus


def table() -> str:
    lines = ["| Run | Published | Planner | Difference | Tolerance | Source |", "|---|---|---|---|---|---|"]
    for run in RUNS:
        got = predict(run)
        fmt = (lambda x: f"MFU {x:.1%}") if run.metric == "mfu" else (lambda x: f"{x:,.0f} tokens/s/GPU")
        lines.append(f"| {run.name} | {fmt(run.published)} | {fmt(got)} | {got / run.published - 1:+.0%} | "
                     f"±{run.tolerance:.0%} | {run.citation}; {run.note} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
