"""Model shapes: named presets with their sources, or the custom shape of the settings.

FLOPs per token (PaLM, Chowdhery et al. 2022, appendix B): training 6 N + 12 L s d
(forward 2 N + 2 x 2 L s d for the attention scores and their use, backward twice the
forward), inference forward 2 N + 4 L s d; N is the active parameter count (a
mixture-of-experts token passes through ``experts_per_token`` of the experts), s the
sequence length, d the hidden size. Memory holds all N_total parameters.
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

    @property
    def is_moe(self) -> bool:
        return self.experts > 1

    @property
    def head_dim(self) -> int:
        return max(1, self.hidden // self.heads)

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
        """6 N_active + 12 L s d (PaLM appendix B)."""
        return 6.0 * self.active_params + 12.0 * self.layers * seq_len * self.hidden

    def forward_flops_per_token(self, context: int) -> float:
        """2 N_active + 4 L s d: one token's forward pass attending to ``context`` tokens."""
        return 2.0 * self.active_params + 4.0 * self.layers * context * self.hidden


PRESETS: dict[str, ModelShape] = {
    s.name: s
    for s in (
        ModelShape("llama3-8b", 8.03e9, 8.03e9, 32, 4096, 32, 8, 14336, 128256,
                   source="Meta Llama 3 8B model card / config.json: 8.03B parameters, 32 layers, hidden 4096, "
                   "32 heads, 8 KV heads, FFN 14,336, vocabulary 128,256."),
        ModelShape("llama3-70b", 70.6e9, 70.6e9, 80, 8192, 64, 8, 28672, 128256,
                   source="Meta Llama 3 70B model card / config.json: 70.6B parameters, 80 layers, hidden 8192, "
                   "64 heads, 8 KV heads, FFN 28,672."),
        ModelShape("llama3-405b", 405.9e9, 405.9e9, 126, 16384, 128, 8, 53248, 128256,
                   source="The Llama 3 Herd of Models (Meta, 2024), table 3: 126 layers, hidden 16,384, FFN 53,248, "
                   "128 heads, 8 KV heads; 405.9B parameters (Llama 3.1 405B config)."),
        ModelShape("deepseek-v3", 671e9, 37e9, 61, 7168, 128, 128, 2048, 129280, experts=256, experts_per_token=8,
                   kv_values_per_layer=576,
                   source="DeepSeek-V3 technical report (arXiv 2412.19437): 671B total, 37B activated, 61 layers, "
                   "hidden 7168, 128 heads, 256 routed experts (FFN 2048) with 8 per token; MLA caches 512 + 64 "
                   "values per token per layer."),
        ModelShape("mixtral-8x7b", 46.7e9, 12.9e9, 32, 4096, 32, 8, 14336, 32000, experts=8, experts_per_token=2,
                   source="Mixtral of Experts (Jiang et al. 2024): 46.7B total, 12.9B active, 32 layers, hidden "
                   "4096, 8 experts with 2 per token, 8 KV heads."),
    )
}


def model_shape(w: WorkloadSettings) -> ModelShape:
    """The preset named by ``w.model``, or the custom shape of the settings."""
    preset = PRESETS.get(w.model)
    if preset is not None:
        return preset
    total = w.model_params_b * 1e9
    active = min(total, w.active_params_b * 1e9) if w.active_params_b else total
    return ModelShape("custom", total, active, w.layers, w.hidden_size, w.heads, min(w.kv_heads, w.heads),
                      w.ffn_size, w.vocab_size, w.experts, min(w.experts_per_token, w.experts),
                      source="The workload settings' custom shape.", mlp=w.mlp_activation, dropout=w.dropout)
