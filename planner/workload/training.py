"""One training step of a transformer under TP x PP x DP (x EP): compute, pipeline bubble,
communication, tokens/s and end-to-end MFU.

Layout (Megatron-LM's default rank order tp-cp-dp-pp): tensor-parallel ranks are neighbours
inside an NVLink domain (8 GPUs on an HGX board, 72 in an NVL72 rack; GPUs without NVLink
share a node over PCIe); data-parallel ranks come next, so ``g = domain / TP`` ranks of a
DP group share a domain and the group spans ``n = DP / g`` domains; pipeline stages are
``TP x DP`` ranks apart and cross the fabric once the job spans domains. The routed experts
run on their own grid over a stage's TP x CP x DP ranks (MoE parallel folding), expert TP
innermost: expert-parallel ranks are ETP apart (ETP = TP unless folded), so the all-to-all
stays on NVLink while ``ETP x EP`` fits in a domain. A group whose ranks do not tile the domain (64-rank blocks on 72-GPU
NVL72 domains) straddles a boundary: the worst-placed one reaches one more domain, and the
fewest of its ranks in one domain carry its traffic between them over the fabric
(``domain_split``).

Per step, for a global batch of ``T`` tokens of length ``s``, ``N`` active parameters,
``L`` layers, hidden size ``h``:

- compute: (6 N + 12 L s h) x T FLOPs (PaLM appendix B); full activation recompute adds one
  more forward pass, (2 N + 4 L s h) x T, for the share of the layers it recomputes
  (``activations``); recomputing the MoE layers adds their router's and experts' forward
  (``moe_forward_flops_per_token``). A recomputed layer's collectives (its TP pair, a MoE
  layer's dispatch and combine) are not charged again: a simplification. The weight GEMMs'
  FLOPs run at the efficiency their per-GPU shapes reach, attention at FlashAttention's, plus the norms' and activations' HBM time, over
  the fitted step calibration (``kernels``); a kernel efficiency set by the user replaces
  all of that: FLOPs / (GPUs x peak x efficiency);
- pipeline bubble: the stages' work (compute and the TP, PP and EP traffic inside it)
  stretched by 1 / (1 - bubble), bubble = (p-1)/(m+p-1) for 1F1B (``pipeline``);
- data-parallel gradient synchronisation of the GPU's shard S = P / (TP x PP) x 2 bytes,
  hierarchical (NVLink inside the domain, fabric between domains):
  DDP and ZeRO-1/2: reduce-scatter + all-gather of S on g ranks (NVLink), all-reduce of
  S/g on n domains (ZeRO-1/2 reduce-scatter the gradients and all-gather the updated
  weights instead: the same bytes); ZeRO-3 / FSDP FULL_SHARD (PyTorch: shards over every
  DP rank): all-gather for forward, all-gather for backward, reduce-scatter of gradients,
  each of S over the whole DP group; FSDP HYBRID_SHARD (shards inside a node, replicates
  across nodes): the three collectives on g ranks over NVLink and one all-reduce of S/g
  across the n domains. SHARP applies to the fabric all-reduce only. Under expert
  parallelism the routed experts' shard, split ETP x EP ways, synchronises only over the
  TP x CP x DP / (ETP x EP) ranks that hold the same experts (Megatron-Core's expert data
  parallel group), ETP x EP ranks apart;
- tensor parallel: 4 all-reduces of the activations (T/DP x h values) per layer (2 in
  forward, 2 in backward; Shoeybi et al. 2019) on L/PP layers, 2 for the attention and 2
  for the MLP; in a MoE layer the MLP's pair is the shared experts' (none without them), and
  the routed experts' ETP group gathers and reduce-scatters the k copies of its ETP / TP
  share of the tokens after the all-to-all (nothing at expert TP 1); a TP group wider than a
  domain reduces inside each domain over NVLink and across domains over the fabric; a
  group filling an NVSwitch domain with NVLink SHARP runs at its measured busbw
  (``tp_nvlink_gbs``);
- pipeline parallel: activations forward and gradients backward between stages,
  2 x T/DP x h values per GPU, split across the TP ranks; the interleaved schedule sends
  them v times, once per model chunk (Narayanan et al. 2021, section 2.2.2: "the amount
  of communication also increases by v");
- context parallel c: each GPU computes s / c tokens of every sequence (T / (DP x c) per
  TP group); per layer and micro-batch an all-gather of the sequence's K and V over the c
  ranks and a reduce-scatter of their gradients (Llama 3's all-gather CP), on NVLink
  while TP x c fits in a domain; the gradients are reduced over DP x c ranks;
- expert parallel (MoE): 4 all-to-alls per MoE layer (dispatch and combine, forward and
  backward) of the GPU's T/(DP x TP) tokens x experts per token x h values, (EP-1)/EP of
  them leaving the GPU: on NVLink to the EP ranks inside the domain, on the fabric to the
  rest (``moe``); the router's and the token permutation's HBM traffic joins the norms'.

ZeRO-3 and FSDP run their three collectives on every micro-batch, one call per layer. The
data-parallel traffic is hidden behind the compute layer by layer, never more than the
compute beside it, and the compute under it runs ``overlap_slowdown`` slower
(``overlap``); TP, PP and EP traffic is exposed. Step = compute + bubble + exposed communication; tokens/s = T / step; end-to-end
MFU = FLOPs per token x tokens/s / (GPUs x peak), the figure papers publish.

Why it is long: the derivation above is long and lives beside the code it documents.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from planner.network.collective import (
    Collective, collective, total_bus_bandwidth_gbs, total_effective_bandwidth_gbs, total_time,
)
from planner.network.technologies import TECHNOLOGIES, effective_gbs_per_gpu, latency_s
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.activations import full_recompute_share, kept_layer_bytes
from planner.workload.kernels import (ATTENTION_KERNELS, STEP_CALIBRATION, attention_kernel, kernel_efficiency,
                                     peak_at)
from planner.workload.memory import micro_batches
from planner.workload.models import ModelShape, model_shape
from planner.workload.moe import all_to_all, expert_grid, moe_forward_flops_per_token, permutation_bytes_per_token
from planner.workload.overlap import WEIGHT_SHARDED, DpPhases, hidden_dp_s, layer_calls
from planner.workload.pipeline import bubble_fraction

GRAD_BYTES = 2  # gradients reduced in bf16/fp16, also in FP8 training (Transformer Engine)
PCIE5_X16_GBS = 64.0  # PCI-SIG: PCIe 5.0 x16 ~ 63 GB/s per direction; GPUs without NVLink


@dataclass(frozen=True, slots=True)
class JobShape:
    """What the placed nodes give a job: per node and per GPU figures."""

    gpus_per_node: int
    bf16_tflops: float
    nvlink_gbs: float  # datasheet figure, both directions; 0 = no NVLink
    nics_per_gpu: float
    nic_gbps: float | None = None
    domain_gpus: int = 0  # GPUs in one NVLink domain; 0 = the node's GPUs
    memory_gb: float = 0.0  # HBM per GPU; 0 = unknown
    memory_bandwidth_tbs: float | None = None
    nvls_busbw_gbs: float | None = None  # NVLink SHARP all-reduce busbw across the domain; None: ring
    nic_planes: int = 1  # links of the line rate a NIC runs (2: ConnectX-8 on 400G planes)
    kernel_curves: str | None = None  # GPU generation of the measured kernel curves (``kernels.CURVES``)

    @property
    def local_gpus(self) -> int:
        """GPUs that reach each other without the fabric: the NVLink domain, or the node's
        GPUs over PCIe when there is no NVLink."""
        if self.nvlink_gbs > 0 and self.domain_gpus:
            return self.domain_gpus
        return max(1, self.gpus_per_node)


@dataclass(slots=True)
class StepResult:
    gpus: int
    fabric: str
    sharp: bool
    compute_s: float
    tp_s: float
    pp_s: float
    dp_s: float
    dp_fabric: list[Collective] = field(default_factory=list)
    exposed_s: float = 0.0
    hidden_s: float = 0.0  # data-parallel traffic hidden behind the compute
    step_s: float = 0.0
    tokens_per_s: float = 0.0
    tokens_per_s_limit: float = 0.0
    fabric_bytes_per_gpu: float = 0.0
    nvlink_bytes_per_gpu: float = 0.0
    gpus_per_node: int = 1
    ep_s: float = 0.0
    bubble_s: float = 0.0
    bubble: float = 0.0
    micro_batches: int = 1
    flops_per_token: float = 0.0
    peak_tflops: float = 0.0
    tp_fabric_bytes_per_gpu: float = 0.0
    ep_fabric_bytes_per_gpu: float = 0.0
    cp_s: float = 0.0
    compute_efficiency: float = 0.0  # hardware FLOPs / (GPUs x peak x compute time)
    matmul_efficiency: float | None = None  # from the GEMM shapes; None when the user set the efficiency
    attention_efficiency: float | None = None
    attention_kernel: str | None = None  # the kernel whose curve the step used; None when the user set the efficiency

    @property
    def gpu_idle_pct(self) -> float:
        """Share of the step the GPUs wait for the network (exposed communication)."""
        return 100.0 * self.exposed_s / self.step_s if self.step_s > 0 else 0.0

    @property
    def mfu(self) -> float:
        """End-to-end model FLOP utilisation: FLOPs per token x tokens/s / (GPUs x peak)."""
        peak = self.gpus * self.peak_tflops * 1e12
        return self.flops_per_token * self.tokens_per_s / peak if peak > 0 else 0.0

    @property
    def bus_bandwidth_gbs(self) -> float | None:
        """nccl-tests' bus bandwidth per GPU of the gradient synchronisation on the fabric:
        ring-equivalent bytes 2(n-1)/n x S / time. Comparable across fabrics without SHARP;
        with SHARP it exceeds the line rate, because the GPU sends S, not 2(n-1)/n x S."""
        return total_bus_bandwidth_gbs(self.dp_fabric)

    @property
    def node_bus_bandwidth_gbs(self) -> float | None:
        """Bus bandwidth per node: every GPU runs its own DP collective on its own NIC at
        the same time (without SHARP, the 'effective bandwidth' of an 8-NIC node in the fabric table of
        N. Dixit, "The GPU Cluster That Actually Works for Deep Learning in 2026", SIVARO)."""
        bw = self.bus_bandwidth_gbs
        return bw * self.gpus_per_node if bw is not None else None

    @property
    def effective_bandwidth_gbs(self) -> float | None:
        """Bytes each GPU actually sends on the fabric / time, GB/s: never above NICs per
        GPU x line rate / 8 x efficiency (equal to the bus bandwidth without SHARP)."""
        return total_effective_bandwidth_gbs(self.dp_fabric)

    @property
    def node_effective_bandwidth_gbs(self) -> float | None:
        """Effective bandwidth per node: GPUs per node x per-GPU effective bandwidth."""
        bw = self.effective_bandwidth_gbs
        return bw * self.gpus_per_node if bw is not None else None

    @property
    def speedup(self) -> float:
        """Against one GPU computing at the same kernel efficiency with nothing to communicate."""
        return self.gpus * self.compute_s / self.step_s if self.step_s > 0 else 0.0


def domain_split(span: int, local: int, gpus: int) -> tuple[int, int]:
    """The worst-placed block of ``span`` consecutive ranks, the blocks laid one after another
    from rank 0 over domains of ``local`` GPUs (the rank order of the module docstring): the
    NVLink domains it reaches and the fewest of its ranks in one of them (which carry its
    traffic between domains). A job inside one domain: (1, span). Blocks that tile the
    domains: (span / local, local) or (1, span). 64-rank blocks on 72-GPU domains: the second,
    ranks 64-127, has 8 ranks in the first rack and 56 in the next: (2, 8). The block offsets
    repeat every local / gcd(span, local) blocks, so at most that many are looked at."""
    span = max(1, span)
    if gpus <= local:
        return 1, span
    worst = (1, span)
    for k in range(min(max(1, gpus // span), local // math.gcd(span, local))):
        first, last = k * span, min(gpus, (k + 1) * span) - 1
        touched = last // local - first // local + 1
        fewest = span if touched == 1 else min(local - first % local, last % local + 1, local)
        if (touched, -fewest) > (worst[0], -worst[1]):
            worst = (touched, fewest)
    return worst


def _ep_local(tp: int, ep: int, local: int, gpus: int) -> int:
    """EP ranks that share a domain with each other in the worst-placed EP group (``tp``, the
    experts' tensor parallel, apart)."""
    n, fewest = domain_split(tp * ep, local, gpus)
    return ep if n == 1 else max(1, min(ep, fewest // tp))


def peak_tflops(shape: JobShape, precision: str) -> float:
    """Dense peak at the workload's precision (``kernels.peak_at``)."""
    return peak_at(shape.bf16_tflops, precision, shape.kernel_curves)


def tokens_per_s_limit(gpus: int, flops_per_token: float, peak_tflops_per_gpu: float) -> float:
    """GPUs x peak / FLOPs per token: tokens/s of all GPUs at 100% of peak."""
    return gpus * peak_tflops_per_gpu * 1e12 / flops_per_token


def tp_nvlink_gbs(shape: JobShape, tp_local: int, ring_gbs: float) -> float:
    """Bus bandwidth of the TP all-reduce inside the NVLink domain: NVLink SHARP's measured
    nccl-tests busbw when the group is the whole domain it was measured on (8 x H100:
    ~480 GB/s against the ring's ~370; with fewer GPUs NVLS gains little, NCCL issue
    #1455), else the ring's NVLink bandwidth x efficiency."""
    if shape.nvls_busbw_gbs and shape.nvlink_gbs > 0 and tp_local == shape.local_gpus:
        return shape.nvls_busbw_gbs
    return ring_gbs


def _tensor_all_reduce(ranks: int, payload: float, calls: int, shape: JobShape, gpus: int, b_nv: float,
                       b_fab: float, a_fab: float) -> tuple[Collective, Collective]:
    """A tensor-parallel group's all-reduces of ``payload`` bytes per GPU: inside the NVLink
    domain, and, for a group wider than a domain or straddling a boundary (TP 16 on 72-GPU
    racks), across the domains over the fabric."""
    if ranks <= 1 or payload <= 0:
        none = collective("all_reduce", 1, 0.0, b_nv, 0.0)
        return none, none
    domains, fewest = domain_split(ranks, shape.local_gpus, gpus)
    inside = ranks if domains == 1 else min(ranks, fewest)
    return (collective("all_reduce", inside, payload, tp_nvlink_gbs(shape, inside, b_nv), 0.0, calls=calls),
            collective("all_reduce", domains, payload / inside, b_fab, a_fab, calls=calls))


def dp_collectives(sharding: str, S: float, g: int, n: int, b_nv: float, b_fab: float, a_fab: float,
                   sharp: bool, *, rounds: int = 1, calls: int = 1,
                   ) -> tuple[list[Collective], list[Collective], float]:
    """The NVLink and fabric collectives that synchronise a shard of ``S`` bytes over ``g``
    ranks per domain and ``n`` domains (module docstring, data parallel), and the seconds of
    them that run before the forward (ZeRO-3's weight gathers). Weight-sharded collectives
    repeat ``rounds`` times (once per micro-batch) as ``calls`` operations (one per layer)."""
    nv: list[Collective] = []
    fab: list[Collective] = []
    if sharding in ("fsdp_full", "zero3"):
        for kind in ("all_gather", "all_gather", "reduce_scatter"):
            nv.append(collective(kind, g, S * rounds, b_nv, 0.0, calls=calls))
            fab.append(collective(kind, n, S / g * rounds, b_fab, a_fab, calls=calls))
        return nv, fab, nv[0].time_s + fab[0].time_s
    if sharding == "fsdp_hybrid":
        nv += [collective(k, g, S * rounds, b_nv, 0.0, calls=calls)
               for k in ("all_gather", "all_gather", "reduce_scatter")]
        fab.append(collective("all_reduce", n, S / g * rounds, b_fab, a_fab, sharp=sharp, calls=calls))
        return nv, fab, nv[0].time_s
    # DDP, ZeRO-1/2: hierarchical all-reduce (or reduce-scatter + all-gather, the same bytes)
    nv += [collective(k, g, S, b_nv, 0.0) for k in ("reduce_scatter", "all_gather")]
    fab.append(collective("all_reduce", n, S / g, b_fab, a_fab, sharp=sharp))
    return nv, fab, 0.0


def model_step(w: WorkloadSettings, fabric: FabricSettings, shape: JobShape, *, tech: str | None = None,
               dp: int | None = None, sharp: bool | None = None, model: ModelShape | None = None) -> StepResult:
    """The step model of this module's docstring for ``w`` on fabric ``tech`` (default the plan's)."""
    tech = tech or fabric.technology
    dp = w.dp if dp is None else dp
    tp, pp, cp = w.tp, w.pp, w.cp
    etp, ep = expert_grid(w, tp, dp)
    gpus = tp * cp * pp * dp
    model = model or model_shape(w)
    use_sharp = (fabric.sharp if sharp is None else sharp) and TECHNOLOGIES[tech].sharp_capable
    P = model.params
    T = float(w.global_batch_tokens)
    local = shape.local_gpus
    act_bytes = 1 if w.precision == "fp8" else 2
    peak = peak_tflops(shape, w.precision)
    fpt = model.training_flops_per_token(w.seq_len)

    b_fab = effective_gbs_per_gpu(fabric, tech, shape.nics_per_gpu, shape.nic_gbps, shape.nic_planes)
    a_fab = latency_s(fabric, tech)
    b_nv = (shape.nvlink_gbs / 2.0 if shape.nvlink_gbs > 0 else PCIE5_X16_GBS) * fabric.nvlink_efficiency

    grad_ranks = dp * cp  # context-parallel ranks hold the same weights and reduce gradients too
    # a DP (x CP) group's members are TP ranks apart: the domains its block reaches, and the
    # fewest members in one of them, which carry its share over the fabric
    n, fewest = domain_split(tp * grad_ranks, local, gpus)
    g = max(1, min(grad_ranks, fewest // tp)) if n > 1 else grad_ranks
    n = min(n, grad_ranks) if tp <= local else grad_ranks
    tokens_per_replica = T / (dp * cp)  # tokens one tensor-parallel group handles per step
    m = micro_batches(w, dp)

    # Data-parallel gradient synchronisation: the dense weights over the DP group, the routed
    # experts' (already split over ETP x EP) over the TP x DP / (ETP x EP) ranks that hold the
    # same experts.
    # ZeRO-3 and FSDP gather each layer's weights on every micro-batch (``overlap``).
    expert = model.expert_params if ep > 1 or etp < tp else 0.0
    sharded = w.sharding in WEIGHT_SHARDED
    rounds = m if sharded else 1
    calls = layer_calls(model.layers, pp, m) if sharded else 1
    nv, fab, forward_s = dp_collectives(w.sharding, (P - expert) / (tp * pp) * GRAD_BYTES, g, n, b_nv, b_fab, a_fab,
                                        use_sharp, rounds=rounds, calls=calls)
    if expert:
        ranks = max(1, grad_ranks * (tp // etp) // ep)  # the expert-data-parallel group: ETP x EP ranks apart
        g_e = max(1, min(ranks, fewest // (etp * ep))) if n > 1 else ranks
        e_nv, e_fab, e_forward_s = dp_collectives(w.sharding, expert / (etp * pp * ep) * GRAD_BYTES, g_e,
                                                  math.ceil(ranks / g_e), b_nv, b_fab, a_fab, use_sharp,
                                                  rounds=rounds, calls=calls)
        nv, fab, forward_s = nv + e_nv, fab + e_fab, forward_s + e_forward_s
    fab = [c for c in fab if c.time_s > 0]
    dp_s = total_time(nv) + total_time(fab)

    # Tensor parallel: a pair of activation all-reduces (an all-gather and a reduce-scatter under
    # sequence parallelism) per block and micro-batch, forward and backward: the attention's in
    # every layer, the MLP's in the dense layers and, in the MoE layers, the shared experts'
    # (on the attention's TP group). Inside the domain over NVLink, and across domains (a wider
    # group) over the fabric. The routed experts take their tokens as sequence parallelism left
    # them, s / TP a rank; after the all-to-all their ETP group gathers the k copies of its
    # ETP / TP share and reduce-scatters them back (Megatron-Core's all-to-all dispatcher):
    # nothing at ETP 1.
    moe = model.moe_layers if model.is_moe else 0
    pairs = 2 * model.layers - moe + (moe if model.shared_ffn else 0)
    tp_payload = 2.0 * pairs / pp * tokens_per_replica * model.hidden * act_bytes
    tp_calls = (4 * math.ceil(model.layers / pp) - (0 if model.shared_ffn else 2 * math.ceil(moe / pp))) * m
    tp_nv, tp_fab = _tensor_all_reduce(tp, tp_payload, tp_calls, shape, gpus, b_nv, b_fab, a_fab)
    # A recomputed layer's collectives are not charged again, its compute is (full recompute
    # and the MoE layers' alike: a simplification, stated in docs/models/workload.md).
    full = full_recompute_share(w, model, pp)
    moe_recomputed = w.recompute == "selective_moe" and model.is_moe
    routed = (2.0 * moe / pp * tokens_per_replica * etp / tp * model.experts_per_token * w.moe_capacity_factor
              * model.hidden * act_bytes)
    etp_calls = 2 * math.ceil(moe / pp) * m
    etp_nv, etp_fab = _tensor_all_reduce(etp, routed, etp_calls, shape, gpus, b_nv, b_fab, a_fab)
    tp_s = tp_nv.time_s + tp_fab.time_s + etp_nv.time_s + etp_fab.time_s

    # Context parallel: per layer and micro-batch, K and V of the whole sequence all-gathered
    # over the CP ranks (forward) and their gradients reduce-scattered (backward); the CP
    # ranks sit next to TP's, on NVLink while TP x CP fits in a domain.
    cp_s = cp_bytes = 0.0
    cp_on_fabric = cp > 1 and domain_split(tp * cp, local, gpus)[0] > 1
    if cp > 1:
        kv_per_token = 2 * model.head_dim * max(model.kv_heads / tp, 1.0) * act_bytes
        gathered = (model.layers / pp) * tokens_per_replica * cp * kv_per_token
        calls = math.ceil(model.layers / pp) * m
        b_cp, a_cp = (b_fab, a_fab) if cp_on_fabric else (b_nv, 0.0)
        cp_coll = [collective(k, cp, gathered, b_cp, a_cp, calls=calls) for k in ("all_gather", "reduce_scatter")]
        cp_s = total_time(cp_coll)
        cp_bytes = sum(c.wire_bytes for c in cp_coll)

    # Pipeline parallel: point-to-point between neighbouring stages.
    pp_s = pp_bytes = 0.0
    pp_on_fabric = pp > 1 and gpus > local  # some stage's neighbour is in the next domain
    if pp > 1:
        chunks = max(1, w.virtual_stages) if w.pp_schedule == "interleaved" else 1
        pp_bytes = 2.0 * chunks * tokens_per_replica * model.hidden * act_bytes / tp
        if pp_on_fabric:
            pp_s = 2 * m * chunks * a_fab + pp_bytes / (b_fab * 1e9)
        else:
            pp_s = pp_bytes / (b_nv * 1e9)

    # Expert parallel: all-to-all dispatch and combine, forward and backward.
    a2a = all_to_all(model, tokens=tokens_per_replica / tp, layers=model.moe_layers / pp, ep=ep,
                     ep_local=_ep_local(etp, ep, local, gpus),
                     value_bytes=act_bytes, nvlink_gbs=b_nv, fabric_gbs=b_fab,
                     fabric_latency_s=a_fab, calls=4 * math.ceil(model.moe_layers / pp) * m,
                     capacity_factor=w.moe_capacity_factor)
    ep_s = a2a.time_s

    # Recompute is hardware FLOPs that model FLOPs (and MFU) do not count: a layer recomputed
    # in full runs its forward again, its share of 2N + 4 L s h; selective recompute without
    # FlashAttention runs the attention core's forward again, 4 L s h (FlashAttention's own
    # backward recompute is inside its kernels' efficiency).
    attn_fpt = 12.0 * model.layers * w.seq_len * model.attention_width * (1.0 + full / 3.0)
    if w.recompute != "none" and not w.flash_attention:
        attn_fpt += (1.0 - full) * 4.0 * model.layers * w.seq_len * model.attention_width
    dense_fpt = 6.0 * model.active_params * (1.0 + full / 3.0)
    if moe_recomputed:  # the MoE layers' forward once more: router and experts (their permutation traffic not)
        dense_fpt += moe_forward_flops_per_token(model)
    hw_fpt = dense_fpt + attn_fpt
    eff = None
    if w.mfu is not None:
        compute_s = hw_fpt * T / (gpus * peak * 1e12 * w.mfu)
    else:
        tokens = w.micro_batch_size * w.seq_len / cp
        # the tensors a layer writes, kept or not (without FlashAttention: the scores too)
        kept = kept_layer_bytes(w, model, tp, selective=False) / tokens
        eff = kernel_efficiency(model, tokens=tokens, seq_len=w.seq_len, tp=tp, ep=ep, etp=etp,
                                flash=w.flash_attention,
                                peak_tflops=peak, bf16_tflops=shape.bf16_tflops,
                                bandwidth_tbs=shape.memory_bandwidth_tbs, value_bytes=act_bytes,
                                kept_bytes_per_token=kept, capacity_factor=w.moe_capacity_factor,
                                moe_bytes_per_token=permutation_bytes_per_token(
                                    model, tp=tp, value_bytes=act_bytes, capacity_factor=w.moe_capacity_factor),
                                curves=shape.kernel_curves, kernel=w.attention_kernel)
        kernels_s = (dense_fpt * T / (gpus * peak * 1e12 * eff.matmul)
                     + attn_fpt * T / (gpus * shape.bf16_tflops * 1e12 * eff.attention)
                     + eff.elementwise_s_per_token * (1.0 + full / 3.0) * T / (dp * cp * pp))
        compute_s = kernels_s / STEP_CALIBRATION
    bubble = bubble_fraction(pp, m, w.pp_schedule, w.virtual_stages)
    # the overlap's split of the compute into forward and backward: every forward run again in
    # the backward (full recompute's layers, the MoE layers' under selective_moe, the attention
    # core's without FlashAttention) as a share of one forward, 3 x hardware / model FLOPs - 3
    stage_work = compute_s + tp_s + pp_s + ep_s + cp_s
    bubble_s = stage_work * bubble / (1.0 - bubble)
    hidden = hidden_dp_s(DpPhases(forward_s, dp_s - forward_s), sharding=w.sharding, overlap=w.overlap,
                         compute_s=compute_s, recompute_share=max(0.0, 3.0 * hw_fpt / fpt - 3.0),
                         layers_per_stage=model.layers / pp,
                         micro_batches=m)
    # the compute under the hidden traffic runs slower (``overlap_slowdown``)
    exposed = tp_s + pp_s + ep_s + cp_s + dp_s - hidden * (1.0 - w.overlap_slowdown)
    step_s = compute_s + bubble_s + exposed

    fabric_bytes = (sum(c.wire_bytes for c in fab) + (pp_bytes if pp_on_fabric else 0.0) + tp_fab.wire_bytes
                    + etp_fab.wire_bytes
                    + a2a.fabric_bytes + (cp_bytes if cp_on_fabric else 0.0))
    nvlink_bytes = (sum(c.wire_bytes for c in nv) + (0.0 if pp_on_fabric else pp_bytes) + tp_nv.wire_bytes
                    + etp_nv.wire_bytes
                    + a2a.nvlink_bytes + (0.0 if cp_on_fabric else cp_bytes))
    return StepResult(
        gpus=gpus, fabric=tech, sharp=use_sharp, compute_s=compute_s, tp_s=tp_s, pp_s=pp_s,
        dp_s=dp_s, dp_fabric=fab, exposed_s=exposed, hidden_s=hidden, step_s=step_s, tokens_per_s=T / step_s,
        tokens_per_s_limit=tokens_per_s_limit(gpus, fpt, peak), fabric_bytes_per_gpu=fabric_bytes,
        nvlink_bytes_per_gpu=nvlink_bytes, gpus_per_node=max(1, shape.gpus_per_node), ep_s=ep_s,
        bubble_s=bubble_s, bubble=bubble, micro_batches=m, flops_per_token=fpt, peak_tflops=peak,
        tp_fabric_bytes_per_gpu=tp_fab.wire_bytes + etp_fab.wire_bytes, ep_fabric_bytes_per_gpu=a2a.fabric_bytes,
        cp_s=cp_s, compute_efficiency=hw_fpt * T / (gpus * peak * 1e12 * compute_s),
        matmul_efficiency=None if eff is None else eff.matmul,
        attention_efficiency=None if eff is None else eff.attention,
        attention_kernel=None if eff is None else (
            ATTENTION_KERNELS[attention_kernel(shape.kernel_curves, w.attention_kernel)] if w.flash_attention
            else "none: batched GEMMs"),
    )


def scaling_curve(w: WorkloadSettings, fabric: FabricSettings, shape: JobShape) -> list[dict[str, float]]:
    """Speedup against GPU count, growing DP at fixed TP, PP and global batch: DP = 1, 2, 4,
    ... up to 4 x the plan's DP (and the plan's own DP), while every replica still gets
    one sequence. Speedup = GPUs x compute time / step time (ideal = GPUs). Each point
    carries its end-to-end MFU; the plan's own point carries ``"plan": True``."""
    max_dp = max(1, min(4 * w.dp, w.global_batch_tokens // w.seq_len))
    dps = {w.dp} if w.dp <= max_dp else set()
    d = 1
    while d <= max_dp:
        dps.add(d)
        d *= 2
    out = []
    model = model_shape(w)
    for d in sorted(dps):
        r = model_step(w, fabric, shape, dp=d, model=model)
        out.append({"gpus": r.gpus, "speedup": round(r.speedup, 3),
                    "efficiency": round(r.speedup / r.gpus, 4), "mfu": round(r.mfu, 4), "plan": d == w.dp})
    return out


def compare_fabrics(w: WorkloadSettings, fabric: FabricSettings, shape: JobShape) -> list[dict]:
    """The plan's workload on every fabric technology (the plan's nodes, their NICs per GPU
    and SHARP setting), like the fabric table of N. Dixit, "The GPU Cluster That Actually Works
    for Deep Learning in 2026", SIVARO. The nodes' NICs run at the technology's line rate, or
    at their own where that is lower: a fabric faster than the NICs gains them nothing."""
    rows = []
    # Everything (NICs, memory, its bandwidth, NVLink SHARP, planes) as the plan's, so the
    # plan's own row is the plan's step; on another technology the NIC links run as its
    # ports do, not at the link rate the plan set for its own fabric.
    other = fabric.model_copy(update={"nic_link_gbps": None})
    model = model_shape(w)
    for tech in TECHNOLOGIES.values():
        r = model_step(w, fabric if tech.id == fabric.technology else other, shape, tech=tech.id, model=model)
        rows.append(step_row(r) | {"title": tech.title, "line_rate_gbps": tech.line_rate_gbps})
    return rows


def step_row(r: StepResult) -> dict:
    """One fabric's figures. ``bus_bandwidth_gbs``: nccl-tests busbw per GPU (ring-relative,
    above line rate with SHARP); ``effective_bandwidth_gbs``: bytes each GPU sends / time."""
    def rounded(x: float | None) -> float | None:
        return round(x, 3) if x is not None else None

    return {
        "fabric": r.fabric,
        "sharp": r.sharp,
        "allreduce_ms": round(r.dp_s * 1e3, 3),
        "effective_bandwidth_gbs": rounded(r.effective_bandwidth_gbs),
        "node_effective_bandwidth_gbs": rounded(r.node_effective_bandwidth_gbs),
        "bus_bandwidth_gbs": rounded(r.bus_bandwidth_gbs),
        "node_bus_bandwidth_gbs": rounded(r.node_bus_bandwidth_gbs),
        "gpu_idle_pct": round(r.gpu_idle_pct, 3),
        "tokens_per_s": round(r.tokens_per_s, 1),
        "mfu": round(r.mfu, 4),
    }
