"""The training workload the fabric and storage checks are judged against."""

from __future__ import annotations

from typing import Literal

from planner.settings._base import Section, setting


class WorkloadSettings(Section):
    enabled: bool = setting(True, title="Evaluate a training workload", source="Off for inference-only plans.")
    model_params_b: float = setting(
        70.0, title="Model parameters", unit="billion", source="Planning guide: 70B model (Llama-3 scale).", gt=0, le=100000
    )
    layers: int = setting(
        80, title="Transformer layers", unit="layers",
        source="Llama 2 70B: 80 layers (Touvron et al. 2023); sets the tensor-parallel traffic.", ge=1, le=100_000)
    hidden_size: int = setting(
        8192, title="Hidden size", unit="values",
        source="Llama 2 70B: hidden size 8192 (Touvron et al. 2023); sets activation sizes.", ge=1, le=10_000_000)
    seq_len: int = setting(4096, title="Sequence length", unit="tokens", source="Planning guide: sequence length 4096.", ge=1, le=10_000_000)
    global_batch_tokens: int = setting(
        4_194_304,
        title="Global batch",
        unit="tokens",
        source="Llama-2/3 training used ~4M-token global batches (Touvron et al. 2023).",
        ge=1,
        le=10**12,
    )
    precision: Literal["bf16", "fp16", "fp8"] = setting("bf16", title="Precision", source="Planning guide: mixed precision (FP16/BF16).")
    tp: int = setting(8, title="Tensor parallel", unit="GPUs", source="Planning guide 70B case: tensor parallelism = 8.", ge=1, le=1_000_000)
    pp: int = setting(4, title="Pipeline parallel", unit="stages", source="Planning guide 70B case: pipeline parallelism = 4.", ge=1, le=1_000_000)
    dp: int = setting(4, title="Data parallel", unit="replicas", source="Planning guide 70B case: data parallelism = 4.", ge=1, le=1_000_000)
    sharding: Literal["ddp", "fsdp_full", "fsdp_hybrid"] = setting(
        "ddp",
        title="Sharding",
        source="PyTorch FSDP: FULL_SHARD shards across all ranks; HYBRID_SHARD shards within a node and replicates "
        "across nodes (the planning guide states HYBRID_SHARD backwards).",
    )
    mfu: float = setting(
        0.40, title="Model FLOP utilisation", unit="fraction", source="REFERENCE: 30-50% MFU is good on H100.", ge=0.01, le=1
    )
    overlap: float = setting(
        0.0,
        title="Communication overlapped with compute",
        unit="fraction",
        source="Planning guide: backward prefetch 'hides 70% of communication latency'; 0 = no overlap (worst case).",
        ge=0,
        le=1,
    )
    claimed_tokens_per_s: float | None = setting(
        None,
        title="Claimed throughput to check",
        unit="tokens/s",
        source="Optional: a vendor or article figure; the planner flags it if the GPUs cannot compute it.",
        ge=0,
    )
