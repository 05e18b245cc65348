"""The workload the plan is judged against: a model's shape, how training splits it over
the GPUs, and an optional inference service.

A named model preset (``planner.workload.models``) supplies the shape; the shape fields
below are used when the preset is "custom".
"""

from __future__ import annotations

from typing import Literal

from planner.settings._base import GUIDE, Section, setting

ModelPreset = Literal["custom", "llama3-8b", "llama3-70b", "llama3-405b", "deepseek-v3", "mixtral-8x7b", "kimi-k2",
                      "qwen3-30b-a3b", "qwen3-235b-a22b"]
Sharding = Literal["ddp", "zero1", "zero2", "zero3", "fsdp_full", "fsdp_hybrid"]
AttentionKernel = Literal["auto", "flash2", "cudnn", "flash3"]

_CUSTOM = "Used when the model preset is 'custom'. "


class WorkloadSettings(Section):
    enabled: bool = setting(True, title="Evaluate a training workload", source="Planner assumption: on; off for inference-only plans.")
    model: ModelPreset = setting(
        "custom", title="Model preset",
        source="Published shapes with their sources (Llama 3 8B/70B/405B: Meta's Llama 3 paper and model cards; "
        "DeepSeek-V3 671B with 37B active: DeepSeek-V3 technical report; Mixtral 8x7B: Mistral AI; Kimi K2 1.04T "
        "with 32B active: Kimi K2 technical report; Qwen3-30B-A3B and Qwen3-235B-A22B: Qwen3 technical report). "
        "'custom' uses the shape fields below.")
    model_params_b: float = setting(
        70.0, title="Model parameters (total)", unit="billion",
        source=_CUSTOM + f"{GUIDE}: 70B model (Llama-3 scale).", gt=0, le=100000)
    active_params_b: float | None = setting(
        None, title="Active parameters per token (MoE)", unit="billion",
        source=_CUSTOM + "Mixture-of-experts: parameters one token passes through (FLOPs); memory holds all of "
        "them. Planner assumption: empty = dense (all parameters active).", gt=0, le=100000)
    layers: int = setting(
        80, title="Transformer layers", unit="layers",
        source=_CUSTOM + "Llama 2 70B: 80 layers (Touvron et al. 2023).", ge=1, le=100_000)
    hidden_size: int = setting(
        8192, title="Hidden size", unit="values",
        source=_CUSTOM + "Llama 2 70B: hidden size 8192 (Touvron et al. 2023).", ge=1, le=10_000_000)
    heads: int = setting(
        64, title="Attention heads", unit="heads", source=_CUSTOM + "Llama 2 70B: 64 heads (Touvron et al. 2023).", ge=1, le=100_000)
    kv_heads: int = setting(
        8, title="Key/value heads", unit="heads",
        source=_CUSTOM + "Llama 2 70B: 8 KV heads (grouped-query attention, Touvron et al. 2023); sets the KV cache.", ge=1, le=100_000)
    head_size: int = setting(
        0, title="Head size (0 = hidden / heads)", unit="values",
        source=_CUSTOM + "Planner assumption: 0 takes hidden / heads (Llama 2 70B: 8192 / 64 = 128); set it where a "
        "model's heads are not hidden / heads wide (Qwen3-30B-A3B: 32 heads of 128 on hidden 2048, its config.json).",
        ge=0, le=100_000)
    ffn_size: int = setting(
        28672, title="FFN size (per expert)", unit="values", source=_CUSTOM + "Llama 2 70B: 28,672 (Touvron et al. 2023).",
        ge=1, le=100_000_000)
    vocab_size: int = setting(
        32000, title="Vocabulary", unit="tokens", source=_CUSTOM + "Llama 2: 32,000 (Touvron et al. 2023).", ge=1, le=100_000_000)
    mlp_activation: Literal["swiglu", "gelu"] = setting(
        "swiglu", title="MLP activation",
        source=_CUSTOM + "Llama 2 70B: SwiGLU (three FFN matrices; Touvron et al. 2023). GPT-3 / Megatron GPT: "
        "GeLU with two matrices of FFN 4h (Brown et al. 2020).")
    dropout: bool = setting(
        False, title="Dropout in training",
        source=_CUSTOM + "Llama 2/3 train without dropout; GPT-3 / Megatron GPT apply it after attention and "
        "the MLP, which stores a 1-byte mask per value (Korthikanti et al. 2022).")
    experts: int = setting(
        1, title="Experts per MoE layer", unit="experts", source=_CUSTOM + "Planner assumption: 1 = dense model.", ge=1, le=100_000)
    experts_per_token: int = setting(
        1, title="Experts per token (top-k)", unit="experts", source=_CUSTOM + "Planner assumption: 1 for a dense model.",
        ge=1, le=1000)
    shared_expert_ffn: int = setting(
        0, title="Shared experts' FFN size (MoE)", unit="values",
        source=_CUSTOM + "Mixture-of-experts only: the FFN width of the shared experts every token passes through "
        "besides its routed ones (DeepSeek-V3: 1 shared expert of 2048, arXiv 2412.19437). Planner assumption: 0 = "
        "none (Mixtral, Qwen3 MoE).", ge=0, le=100_000_000)
    moe_capacity_factor: float = setting(
        1.0, title="Expert capacity factor (MoE)", unit="x",
        source="Mixture-of-experts only: the tokens each expert is given room for, as a multiple of an even share "
        "(Fedus et al. 2021, Switch Transformers, section 2.2); padded room is computed and sent, dropped tokens "
        "are not. Planner assumption: 1.0 = dropless with balanced routing (Megatron-Core's default, no capacity "
        "factor; DeepSeek-V3 drops no tokens, arXiv 2412.19437 section 2.1.2).", gt=0, le=64)
    seq_len: int = setting(4096, title="Sequence length", unit="tokens", source=f"{GUIDE}: sequence length 4096.",
                           ge=1, le=10_000_000)
    global_batch_tokens: int = setting(
        4_194_304, title="Global batch", unit="tokens",
        source="Llama-2/3 training used ~4M-token global batches (Touvron et al. 2023).", ge=1, le=10**12)
    micro_batch_size: int = setting(
        1, title="Micro-batch size", unit="sequences",
        source="Megatron-LM: 1-2 sequences per micro-batch for large models (Narayanan et al. 2021); "
        "micro-batches per step = global batch / (DP x micro-batch).", ge=1, le=100_000)
    precision: Literal["bf16", "fp16", "fp8"] = setting(
        "bf16", title="Precision",
        source=f"{GUIDE}: mixed precision (FP16/BF16). FP8 (Transformer Engine) keeps bf16 weights and "
        "fp32 master weights; its peak is twice BF16's.")
    tp: int = setting(8, title="Tensor parallel", unit="GPUs", source=f"{GUIDE}, 70B case: tensor parallelism = 8.",
                      ge=1, le=1_000_000)
    pp: int = setting(4, title="Pipeline parallel", unit="stages", source=f"{GUIDE}, 70B case: pipeline parallelism = 4.",
                      ge=1, le=1_000_000)
    cp: int = setting(
        1, title="Context parallel", unit="GPUs",
        source="Long sequences split over CP ranks, each holding s / CP tokens of every sequence (Megatron-LM "
        "--context-parallel-size); K and V are all-gathered across them for attention and their gradients "
        "reduce-scattered. Llama 3 405B trained 131K-token sequences with CP 16 (Dubey et al. 2024, The Llama 3 Herd of Models, "
        "table 4). GPUs = TP x CP x PP x DP.", ge=1, le=1_000_000)
    dp: int = setting(4, title="Data parallel", unit="replicas", source=f"{GUIDE}, 70B case: data parallelism = 4.",
                      ge=1, le=1_000_000)
    ep: int = setting(
        1, title="Expert parallel", unit="GPUs",
        source="MoE only: experts spread over EP ranks of the data-parallel group (Megatron-LM); its all-to-all "
        "stays on NVLink while TP x EP fits in an NVLink domain. DeepSeek-V3 used EP 64 (DeepSeek-V3 technical report). "
        "EP may span CP x DP ranks, and TP / ETP x CP x DP with an expert tensor parallel below TP.", ge=1, le=1_000_000)
    expert_tp: int | None = setting(
        None, title="Expert tensor parallel", unit="GPUs",
        source="MoE only: the tensor parallelism of the routed experts (Megatron-Core --expert-tensor-parallel-size); "
        "empty = the attention's TP. Below TP, the experts fold over the TP x CP x DP ranks of a stage: EP up to "
        "TP / ETP x CP x DP, each expert's GEMMs whole on fewer GPUs, and no tensor-parallel traffic for the routed "
        "experts at ETP 1 (shared experts keep the attention's TP) (Liu et al. 2025, 'MoE Parallel Folding', arXiv "
        "2504.14960; Megatron-Core MoE user guide). The planner evaluates expert TPs that divide TP (Megatron-Core "
        "allows others); one that does not is taken down to the largest divisor of TP below it.",
        ge=1, le=1_000_000)
    pp_schedule: Literal["1f1b", "interleaved"] = setting(
        "1f1b", title="Pipeline schedule",
        source="1F1B: bubble (p-1)/(m+p-1); interleaved with v virtual stages: (p-1)/(v m+p-1) "
        "(Narayanan et al. 2021).")
    virtual_stages: int = setting(
        1, title="Virtual stages per GPU (interleaved)", unit="stages",
        source="Interleaved schedule only: model chunks per pipeline rank (Narayanan et al. 2021).", ge=1, le=1000)
    sharding: Sharding = setting(
        "ddp", title="Sharding",
        source="ZeRO (Rajbhandari et al. 2020): stage 1 shards optimizer states, 2 also gradients, 3 also weights "
        "over the data-parallel ranks. PyTorch FSDP FULL_SHARD = ZeRO-3; HYBRID_SHARD shards within a node and "
        f"replicates across nodes ({GUIDE}, states HYBRID_SHARD backwards).")
    recompute: Literal["auto", "none", "selective", "selective_moe", "full"] = setting(
        "auto", title="Activation recompute",
        source="Korthikanti et al. 2022 (arXiv 2205.05198): nothing recomputed keeps every layer's activations "
        "(s b h (34 + 5 a s / h) / t bytes for a GPT layer); selective recomputes the attention core; full keeps "
        "only each layer's input and runs its forward again (+1/3 of its compute). Selective + MoE layers "
        "(Megatron-Core's --recompute-modules moe; NVIDIA Megatron-Core API documentation, TransformerConfig."
        "recompute_modules): the MoE layers keep only their input and run their router and experts forward "
        "again. Auto: the least recompute that fits in GPU memory: selective, then (MoE models) with the MoE layers, then full recompute of some layers "
        "per stage, then of all. A choice that does not fit is evaluated with the recompute that does, and a "
        "warning says so.")
    recompute_layers: int | None = setting(
        None, title="Layers per stage recomputed in full", unit="layers",
        source="Empty: every layer of the stage. With full recompute only: Megatron-LM's --recompute-num-layers "
        "with --recompute-method block: the first N layers of each pipeline stage are recomputed in full, the "
        "rest selectively (Korthikanti et al. 2022; Megatron-LM arguments reference).",
        ge=1, le=100_000)
    flash_attention: bool = setting(
        True, title="FlashAttention",
        source="Dao et al. 2022 (FlashAttention): attention scores are recomputed in the backward pass, so no "
        "s x s score matrix is stored (only the softmax statistics, 4 bytes per head per token).")
    attention_kernel: AttentionKernel = setting(
        "auto", title="Attention kernel",
        source="The kernel the training stack runs attention in, each at its measured forward + backward rate "
        "by sequence length: flash2 = FlashAttention-2 (T. Dao 2023, arXiv 2307.08691; PyTorch and Hugging Face "
        "stacks); cudnn = cuDNN's fused attention, which Transformer Engine (Megatron-Core, NeMo) prefers on Hopper "
        "and later (NeMo Framework user guide, 'Memory Optimizations: Flash Attention'); flash3 = FlashAttention-3 "
        "(Shah et al. 2024, arXiv 2407.08608, Hopper only); H100 cuDNN and FlashAttention-3 rates from that paper's "
        "figures 5-6. Auto: the GPU generation's first measured kernel (FlashAttention-2 on A100 and H100, cuDNN on "
        "B200). A kernel not measured on the plan's GPU runs at that GPU's own kernel's rate, and a note says so.")
    sequence_parallel: bool = setting(
        True, title="Sequence parallelism (with TP > 1)",
        source="Korthikanti et al. 2022: the norms and dropouts outside the tensor-parallel blocks are split over "
        "the sequence, so every activation is divided by TP (Megatron-LM --sequence-parallel).")
    memory_overhead_gb: float = setting(
        5.0, title="Framework memory overhead per GPU", unit="GB",
        source="Planner assumption: CUDA context, NCCL buffers and allocator fragmentation; measure yours.",
        ge=0, le=10_000)
    mfu: float | None = setting(
        None, title="Math kernel efficiency (fraction of peak while computing)", unit="fraction",
        source="Empty: from the step's shapes, each matrix multiplication's per-GPU size on a roofline with the "
        "GEMM efficiency curve of the NVIDIA Matrix Multiplication Background user guide (DU-09799-001) and "
        "cuBLAS H100 measurements, attention at FlashAttention-2's measured throughput (T. Dao 2023, arXiv "
        "2307.08691), and one step calibration fitted on named calibration runs (Llama 3: Dubey et al. 2024; "
        "Megatron-LM: Narayanan et al., SC'21). A figure here overrides all of that: the fraction of "
        "peak the kernels reach while they run (end-to-end MFU adds the bubble and exposed communication).",
        ge=0.01, le=1)
    overlap: float | None = setting(
        None, title="Share of data-parallel traffic issued beside the compute", unit="fraction",
        source="Empty: what the frameworks do by default: ZeRO-3 / FSDP prefetch every layer's weight gathers and "
        "gradient reduce-scatters beside the compute (Zhao et al. 2023, 'PyTorch FSDP', arXiv 2304.11277: backward "
        "prefetch, rate limiter; DeepSpeed ZeRO-3 stage3_prefetch_bucket_size), and DDP / ZeRO-1/2 reduce the "
        "gradients after the backward (Megatron-LM's --overlap-grad-reduce is off by default). A figure: that "
        "share of the traffic is issued beside the compute (0 = none, the worst case; 1 = all). Either way only "
        "what each layer's compute can cover is hidden: the first gather and the last reduction of a phase stay "
        "exposed, and a layer whose collectives outlast its compute waits for the rest.",
        ge=0, le=1)
    overlap_slowdown: float = setting(
        0.189, title="Compute slowdown while a collective runs beside it", unit="fraction",
        source="Lee et al. 2025, 'Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep "
        "Learning: Performance and Power Implications' (arXiv 2507.03114): compute overlapped with communication "
        "ran 18.9% slower on average (at most 40%) on A100, H100, MI250 and MI210, the collectives' kernels "
        "taking SMs and memory bandwidth. Each second of communication hidden adds this share of a second.",
        ge=0, le=1)
    gathered_layers: int = setting(
        2, title="Layers of gathered weights in flight (ZeRO-3 / FSDP)", unit="layers",
        source="Zhao et al. 2023, 'PyTorch FSDP' (arXiv 2304.11277), section 3.4: the rate limiter lets at most two "
        "all-gathers be in flight, the layer computing and the one prefetched; each holds its layer's whole "
        "weights, and the backward one layer's whole gradients until they are reduce-scattered. Counted in the "
        "memory of weight-sharded jobs.", ge=1, le=64)
    train_tokens_b: float = setting(
        15_000.0, title="Training token budget", unit="billion tokens",
        source="Llama 3 was pre-trained on ~15T tokens (Dubey et al., 'The Llama 3 Herd of Models', 2024).", gt=0, le=1e9)
    claimed_tokens_per_s: float | None = setting(
        None, title="Claimed throughput to check", unit="tokens/s",
        source="Planner assumption: none (optional); a vendor or article figure; the planner flags it if the GPUs cannot compute it.", ge=0)

    # -- inference ---------------------------------------------------------------
    inference: bool = setting(
        False, title="Size an inference service",
        source=f"The inference archetype of {GUIDE}: decode is memory-bound (weights and KV cache read per token), "
        "prefill compute-bound.")
    inference_gpus_per_replica: int = setting(
        1, title="GPUs per inference replica (per pipeline stage)", unit="GPUs",
        source=f"{GUIDE}: 'Each request hits a single GPU (or a small tensor-parallel group)'.", ge=1, le=1024)
    inference_pipeline_stages: int = setting(
        1, title="Pipeline stages of an inference replica (across nodes)", unit="stages",
        source="Planner assumption: 1, one node; a model larger than one node's memory is split by its layers "
        "over nodes, each stage a tensor-parallel group of the GPUs per replica above (vLLM documentation, "
        "'Distributed Inference and Serving': pipeline_parallel_size).", ge=1, le=64)
    prompt_tokens: int = setting(
        1024, title="Prompt length", unit="tokens", source="Planner assumption: a chat prompt with context.",
        ge=1, le=10_000_000)
    output_tokens: int = setting(
        256, title="Output length", unit="tokens", source="Planner assumption: a chat answer.", ge=1, le=10_000_000)
    requests_per_s: float | None = setting(
        None, title="Target requests per second", unit="requests/s",
        source="Planner assumption: none (optional); the load the service must carry; the planner sizes the GPUs for it.", ge=0, le=1e9)
    latency_ms_per_token: float = setting(
        50.0, title="Latency target per output token (TPOT)", unit="ms",
        source="Planner assumption: 50 ms per token (20 tokens/s per user) is a common interactive target.",
        gt=0, le=1e6)
    ttft_target_ms: float = setting(
        2000.0, title="Time to first token target (TTFT)", unit="ms",
        source="Planner assumption: 2 s to the first token for an interactive prompt; TTFT is the prompt's "
        "prefill, TPOT the time between a sequence's tokens: the decode step and the new requests' prefills "
        "between the steps (the two targets of MLPerf Inference's server scenario for Llama 2 70B, "
        "MLCommons 2024).", gt=0, le=1e7)
    inference_batch: int | None = setting(
        None, title="Operating batch (continuous batching)", unit="sequences",
        source="Planner assumption: empty = the largest batch whose time per output token (the decode step and "
        "the prefills between the steps) meets the TPOT target and "
        "whose KV cache fits; serving engines with continuous (in-flight) batching keep this many sequences "
        "decoding at once (Kwon et al. 2023, vLLM / PagedAttention).", ge=1, le=1_000_000)

    def unused_fields(self) -> frozenset[str]:
        """Under a model preset the custom shape's fields reach no figure."""
        return CUSTOM_SHAPE if self.model != "custom" else frozenset()


# The fields of a custom model's shape: their source says they are used with the 'custom' preset only.
CUSTOM_SHAPE = frozenset(name for name, f in WorkloadSettings.model_fields.items()
                         if f.json_schema_extra["source"].startswith(_CUSTOM))
