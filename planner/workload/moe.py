"""What a mixture-of-experts layer costs beside its expert GEMMs: the expert-parallel
all-to-all and the router's and the token permutation's memory traffic.

All-to-all (Megatron-Core MoE, DeepEP): in each MoE layer every GPU dispatches each of its
tokens to its k experts and combines their outputs back, forward and backward: 4 all-to-alls
per layer and micro-batch (x the capacity factor: padded room is sent too); a recomputed
layer's are not charged again (the step model's simplification for every recompute). A token goes
once to each GPU that holds any of its k experts, not once per expert (DeepEP's dispatch
layout marks the ranks a token is for, and the receiving GPU hands it to its own experts:
deepseek-ai/DeepEP, "get_dispatch_layout"): with balanced routing, E/EP experts a GPU and k
distinct experts a token, a given other GPU holds one of them with probability
p = 1 - C(E - E/EP, k) / C(E, k), and the e - 1 other GPUs of its NVLink domain take
(e - 1) p copies of h values over NVLink (Mixtral's 8 experts on 8 GPUs, top-2: 2 x 7/8, one
a GPU; Qwen3-30B-A3B's 128 on 8, top-8: 4.7 copies, not 7). An expert-parallel group inside
one NVLink domain is not free: its copies cross NVLink. Beyond the domain the dispatch is
hierarchical (DeepSeek-V3, arXiv 2412.19437, section 3.2.2; DeepEP): a token crosses the
fabric once to each other domain that holds one of its k experts, and NVLink forwards it
there. With D = EP / e domains and experts chosen evenly, a token reaches
(D-1) (1 - (1 - 1/D)^k) other domains on average, so the fabric carries that many copies
instead of k (D-1)/D, and NVLink carries the forwarded copies as well: the GPU a copy lands
on hands it to the (e - 1) p others of its domain that hold its experts. The
two links run at once (the fabric's share crosses each GPU's own NIC), so the all-to-all
takes the longer of the two; each fabric call also pays the fabric's latency.

Router and permutation (Megatron-Core's token dispatcher: sort the tokens by expert, scatter
them to the experts' buffers, gather and weight them back): per MoE layer and token, forward
and backward, the router's fp32 probabilities over E experts are written and read, the
permutation reads h values and writes k x h, the unpermutation reads k x h and writes h.
Streamed through HBM with the norms and activations (``kernels``).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.settings import WorkloadSettings
from planner.workload.models import ModelShape

ROUTER_BYTES = 4.0  # Planner assumption: router probabilities in fp32, as Megatron-Core's router computes them
PERMUTE_PASSES = 2.0  # forward, and its gradient backward


@dataclass(frozen=True, slots=True)
class AllToAll:
    time_s: float
    nvlink_bytes: float  # per GPU per step
    fabric_bytes: float


def expert_tensor_parallel(w: WorkloadSettings, tp: int) -> int:
    """The experts' tensor parallel at attention TP ``tp``: the asked expert TP where it divides
    TP, else the largest divisor of TP below it (the planner evaluates expert TPs that divide
    TP; Megatron-Core allows others); TP when none is asked."""
    if not w.expert_tp:
        return tp
    return max(d for d in range(1, min(tp, w.expert_tp) + 1) if tp % d == 0)


def expert_ranks(w: WorkloadSettings, tp: int, dp: int) -> int:
    """The ranks of a pipeline stage the routed experts spread over, ETP apart: TP x CP x DP /
    ETP (MoE parallel folding, Liu et al. 2025, arXiv 2504.14960: the expert grid ETP x EP x
    expert DP covers the attention's TP x CP x DP; at ETP = TP, EP within CP x DP)."""
    return dp * w.cp * (tp // expert_tensor_parallel(w, tp))


def expert_grid(w: WorkloadSettings, tp: int, dp: int, ep: int | None = None) -> tuple[int, int]:
    """(ETP, EP) the routed experts run with at tensor parallel ``tp`` and data parallel ``dp``:
    ``expert_tensor_parallel``, and EP at most the ranks they spread over (``expert_ranks``);
    ``ep``: the EP asked, by default ``w``'s."""
    return expert_tensor_parallel(w, tp), max(1, min(w.ep if ep is None else ep, expert_ranks(w, tp, dp)))


def gpu_holds_one(experts: int, ep: int, k: int) -> float:
    """The chance that a given GPU of ``ep`` holds at least one of a token's ``k`` distinct
    experts, the ``experts`` spread evenly (E/EP each, fewer than one where the experts are
    replicated): 1 - C(E - E/EP, k) / C(E, k), as a product."""
    held = experts / ep
    none = 1.0
    for i in range(min(k, experts)):
        none *= max(0.0, (experts - held - i) / (experts - i))
    return 1.0 - none


def moe_forward_flops_per_token(model: ModelShape) -> float:
    """FLOPs of one token's pass forward through the MoE layers' router and experts (2 per
    multiply-add): the k routed experts' share of the expert parameters, the shared experts
    (SwiGLU: three matrices, GeLU: two) and the router (hidden x experts): what recomputing
    the MoE layers runs again."""
    if not model.is_moe:
        return 0.0
    routed = model.expert_params * model.experts_per_token / model.experts
    shared = (3.0 if model.mlp == "swiglu" else 2.0) * model.shared_ffn * model.hidden * model.moe_layers
    router = float(model.experts) * model.hidden * model.moe_layers
    return 2.0 * (routed + shared + router)


def all_to_all(model: ModelShape, *, tokens: float, layers: float, ep: int, ep_local: int, value_bytes: float,
               nvlink_gbs: float, fabric_gbs: float, fabric_latency_s: float, calls: int,
               capacity_factor: float = 1.0) -> AllToAll:
    """The expert all-to-alls of one GPU's ``tokens`` per step over ``layers`` MoE layers
    (module docstring); ``ep_local``: EP ranks in the GPU's NVLink domain; link rates in GB/s
    per direction."""
    if not model.is_moe or ep <= 1:
        return AllToAll(0.0, 0.0, 0.0)
    ep_local = max(1, min(ep, ep_local))
    k = model.experts_per_token
    copy = 4.0 * layers * tokens * model.hidden * value_bytes * capacity_factor  # one copy of each token
    domains = ep / ep_local
    per_gpu = (ep_local - 1) * gpu_holds_one(model.experts, ep, k)  # copies into one domain's other GPUs
    nv_bytes = copy * per_gpu
    fab_bytes = 0.0
    if domains > 1:
        fab_bytes = copy * (domains - 1) * (1.0 - (1.0 - 1.0 / domains) ** k)
        nv_bytes += copy * per_gpu * (domains - 1)  # forwarded in the other domains
    nv_s = nv_bytes / (nvlink_gbs * 1e9) if nv_bytes else 0.0
    fab_s = calls * fabric_latency_s + fab_bytes / (fabric_gbs * 1e9) if fab_bytes else 0.0
    return AllToAll(max(nv_s, fab_s), nv_bytes, fab_bytes)


def permutation_bytes_per_token(model: ModelShape, *, tp: int, value_bytes: float,
                                capacity_factor: float = 1.0) -> float:
    """HBM bytes of the router and the token permutation per token, over all MoE layers, on
    one of the ``tp`` ranks that share the token (module docstring)."""
    if not model.is_moe:
        return 0.0
    k, h = model.experts_per_token, float(model.hidden)
    router = 2.0 * model.experts * ROUTER_BYTES
    permute = 2.0 * (1.0 + k * capacity_factor) * h * value_bytes
    return PERMUTE_PASSES * model.moe_layers * (router + permute) / max(1, tp)
