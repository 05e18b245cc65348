"""Model shapes: named presets with their sources, or the custom shape of the settings.

FLOPs per token (PaLM, Chowdhery et al. 2022, appendix B): training 6 N + 12 L s d
(forward 2 N + 2 x 2 L s d for the attention scores and their use, backward twice the
forward), inference forward 2 N + 4 L s d; N is the active parameter count (a
mixture-of-experts token passes through ``experts_per_token`` of the experts and every
shared expert), s the sequence length, d the attention width: the mean of the query-key
width a x d_qk and the value width a x d_v (the scores take 2 s a d_qk, their use 2 s a d_v),
which is the hidden size when the head size is hidden / heads. Memory holds all N_total
parameters.

A head size set on its own (Qwen3: 128 with hidden 2048 and 32 heads) and multi-head latent
attention (DeepSeek-V2, arXiv 2405.04434, section 2.1): queries and keys of d_nope + d_rope
(128 + 64) per head, values of 128, keys and values decompressed from a latent of
``kv_lora_rank`` (512) that the KV cache holds with the shared rotary key (64), queries from
a latent of ``q_lora_rank`` (1536). Its weight GEMMs are those low-rank projections
(``kernels.layer_gemms``).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.settings import WorkloadSettings


@dataclass(frozen=True, slots=True)
class ModelShape:
    name: str
    params: float  # total parameters
    active_params: float  # parameters one token passes through (= params for a dense model)
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    experts: int = 1
    experts_per_token: int = 1
    kv_values_per_layer: int | None = None  # KV cache values per token per layer; None: 2 x kv_heads x head_dim
    source: str = ""
    mlp: str = "swiglu"  # "swiglu" (gate, up and down matrices) or "gelu" (two matrices)
    dropout: bool = False  # dropout after attention and MLP (GPT-3 style); Llama trains without
    head_size: int = 0  # query/key size per head; 0: hidden / heads
    v_head_size: int = 0  # value size per head; 0: the head size
    shared_ffn: int = 0  # FFN width of the shared experts every token passes through (MoE)
    dense_layers: int = 0  # leading layers with a dense FFN instead of experts (MoE)
    q_lora_rank: int = 0  # multi-head latent attention: query latent; 0 = full-rank queries
    kv_lora_rank: int = 0  # multi-head latent attention: key/value latent; 0 = not MLA
    rope_head_size: int = 0  # multi-head latent attention: the shared rotary key per token
    weights_precision: str = "bf16"  # the precision the model's weights are published in (its model card)
    context: int = 0  # the longest sequence (prompt and output) the model serves (its model card); 0: not known

    @property
    def is_moe(self) -> bool:
        return self.experts > 1

    @property
    def head_dim(self) -> int:
        return self.head_size or max(1, self.hidden // self.heads)

    @property
    def v_head_dim(self) -> int:
        return self.v_head_size or self.head_dim

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def attention_width(self) -> float:
        """(a d_qk + a d_v) / 2: the width attention's FLOPs scale with (module docstring)."""
        return self.heads * (self.head_dim + self.v_head_dim) / 2.0

    @property
    def moe_layers(self) -> int:
        """Layers with routed experts (the all-to-all and the token permutation run in these)."""
        return max(0, self.layers - self.dense_layers) if self.is_moe else 0

    @property
    def kv_values_per_token(self) -> int:
        """Keys and values cached per token, over all layers (GQA: 2 x KV heads x head size per layer)."""
        per_layer = self.kv_values_per_layer or 2 * self.kv_heads * self.head_dim
        return self.layers * per_layer

    @property
    def expert_params(self) -> float:
        """Parameters in routed experts: total - active = experts' share not used by a token,
        so expert params = (total - active) x E / (E - k)."""
        if not self.is_moe or self.experts <= self.experts_per_token:
            return 0.0
        return (self.params - self.active_params) * self.experts / (self.experts - self.experts_per_token)

    def training_flops_per_token(self, seq_len: int) -> float:
        """6 N_active + 12 L s d (PaLM appendix B; d the attention width)."""
        return 6.0 * self.active_params + 12.0 * self.layers * seq_len * self.attention_width

    def forward_flops_per_token(self, context: int) -> float:
        """2 N_active + 4 L s d: one token's forward pass attending to ``context`` tokens."""
        return 2.0 * self.active_params + 4.0 * self.layers * context * self.attention_width


# DeepSeek-V3's multi-head latent attention (arXiv 2412.19437, section 4.2), which Kimi K2 keeps:
# queries and keys of 128 + 64 (rotary), values of 128, query latent 1536, KV latent 512; the
# KV cache holds the latent and the rotary key, 576 values per token per layer.
DEEPSEEK_MLA = dict(kv_values_per_layer=576, head_size=192, v_head_size=128, q_lora_rank=1536, kv_lora_rank=512,
                    rope_head_size=64)

PRESETS: dict[str, ModelShape] = {
    s.name: s
    for s in (
        ModelShape("llama3-8b", 8.03e9, 8.03e9, 32, 4096, 32, 8, 14336, 128256,
                   context=131072,
                   source="Meta Llama 3 8B model card / config.json: 8.03B parameters, 32 layers, hidden 4096, "
                   "32 heads, 8 KV heads, FFN 14,336, vocabulary 128,256. "
                   "Context 128K tokens (Llama 3.1 model card)."),
        ModelShape("llama3-70b", 70.6e9, 70.6e9, 80, 8192, 64, 8, 28672, 128256,
                   context=131072,
                   source="Meta Llama 3 70B model card / config.json: 70.6B parameters, 80 layers, hidden 8192, "
                   "64 heads, 8 KV heads, FFN 28,672. "
                   "Context 128K tokens (Llama 3.1 model card)."),
        ModelShape("llama3-405b", 405.9e9, 405.9e9, 126, 16384, 128, 8, 53248, 128256,
                   context=131072,
                   source="The Llama 3 Herd of Models (Meta, 2024), table 3: 126 layers, hidden 16,384, FFN 53,248, "
                   "128 heads, 8 KV heads; 405.9B parameters (Llama 3.1 405B config). "
                   "Context 128K tokens (Llama 3.1 model card)."),
        ModelShape("deepseek-v3", 671e9, 37e9, 61, 7168, 128, 128, 2048, 129280, experts=256, experts_per_token=8,
                   shared_ffn=2048, dense_layers=3, **DEEPSEEK_MLA,
                   context=131072,
                   source="DeepSeek-V3 technical report (arXiv 2412.19437), section 4.2: 671B total, 37B activated, "
                   "61 layers, hidden 7168, 128 heads of 128 + 64 (rotary) for queries and keys and 128 for values, "
                   "KV latent 512, query latent 1536 (MLA caches 512 + 64 values per token per layer); the first 3 "
                   "layers dense, then 1 shared and 256 routed experts (FFN 2048) with 8 per token; weights published "
                   "in FP8 (the report's FP8 training framework, section 3.3; the model card's FP8 weights). "
                   "Context 128K tokens (report, section 4.3).",
                   weights_precision="fp8"),
        ModelShape("kimi-k2", 1.04e12, 32e9, 61, 7168, 64, 64, 2048, 163840, experts=384, experts_per_token=8,
                   shared_ffn=2048, dense_layers=1, **DEEPSEEK_MLA,
                   context=131072,
                   source="Kimi K2 technical report (Moonshot AI, arXiv 2507.20534), its comparison of the "
                   "architecture with DeepSeek-V3's, and the model's config.json: 1.04T total, 32B activated, 61 layers (the first dense), hidden 7168, 64 heads of MLA as "
                   "DeepSeek-V3's, 1 shared and 384 routed experts (FFN 2048) with 8 per token, vocabulary 163,840; "
                   "weights published in block FP8 (the Kimi-K2-Instruct model card). "
                   "Context 128K tokens (model card).", weights_precision="fp8"),
        ModelShape("qwen3-30b-a3b", 30.5e9, 3.3e9, 48, 2048, 32, 4, 768, 151936, experts=128, experts_per_token=8,
                   head_size=128,
                   context=131072,
                   source="Qwen3 technical report (Qwen team, arXiv 2505.09388), tables 1-2, and the Qwen3-30B-A3B "
                   "config.json: 30.5B total, 3.3B activated, 48 layers, hidden 2048, 32 query and 4 KV heads of "
                   "128, 128 experts (FFN 768) with 8 per token, no shared expert, vocabulary 151,936. "
                   "Context 32,768 tokens natively, 131,072 with YaRN (model card)."),
        ModelShape("qwen3-235b-a22b", 235e9, 22e9, 94, 4096, 64, 4, 1536, 151936, experts=128, experts_per_token=8,
                   head_size=128,
                   context=131072,
                   source="Qwen3 technical report (Qwen team, arXiv 2505.09388), tables 1-2, and the Qwen3-235B-A22B "
                   "config.json: 235B total, 22B activated, 94 layers, hidden 4096, 64 query and 4 KV heads of "
                   "128, 128 experts (FFN 1536) with 8 per token, no shared expert, vocabulary 151,936. "
                   "Context 32,768 tokens natively, 131,072 with YaRN (model card)."),
        ModelShape("mixtral-8x7b", 46.7e9, 12.9e9, 32, 4096, 32, 8, 14336, 32000, experts=8, experts_per_token=2,
                   context=32768,
                   source="Mixtral of Experts (Jiang et al. 2024): 46.7B total, 12.9B active, 32 layers, hidden "
                   "4096, 8 experts with 2 per token, 8 KV heads. "
                   "Context 32K tokens (the paper, section 2)."),
    )
}


def preset_fields(model: str) -> dict:
    """A preset's shape as the workload settings' custom-shape fields hold one (what a form
    shows, greyed, under the preset); empty for an unknown preset."""
    m = PRESETS.get(model)
    if m is None:
        return {}
    return {"model_params_b": m.params / 1e9, "active_params_b": m.active_params / 1e9 if m.is_moe else None,
            "layers": m.layers, "hidden_size": m.hidden, "heads": m.heads, "kv_heads": m.kv_heads,
            "ffn_size": m.ffn, "vocab_size": m.vocab, "experts": m.experts, "experts_per_token": m.experts_per_token,
            "head_size": m.head_size or None, "shared_expert_ffn": m.shared_ffn, "mlp_activation": m.mlp,
            "dropout": m.dropout}


def shown_values(section: object) -> dict:
    """What a settings form shows in a section's greyed fields instead of their stored values:
    under a model preset, the preset's own shape in the custom shape's fields."""
    if isinstance(section, WorkloadSettings) and section.model != "custom":
        return preset_fields(section.model)
    return {}


def model_shape(w: WorkloadSettings) -> ModelShape:
    """The preset named by ``w.model``, or the custom shape of the settings."""
    preset = PRESETS.get(w.model)
    if preset is not None:
        return preset
    total = w.model_params_b * 1e9
    active = min(total, w.active_params_b * 1e9) if w.active_params_b else total
    return ModelShape("custom", total, active, w.layers, w.hidden_size, w.heads, min(w.kv_heads, w.heads),
                      w.ffn_size, w.vocab_size, w.experts, min(w.experts_per_token, w.experts),
                      source="The workload settings' custom shape.", mlp=w.mlp_activation, dropout=w.dropout,
                      head_size=w.head_size, shared_ffn=w.shared_expert_ffn if w.experts > 1 else 0)
