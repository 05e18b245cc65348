"""One training step of a transformer under TP x PP x DP: compute, communication, tokens/s.

Layout (Megatron-LM's default rank order tp-dp-pp): tensor-parallel ranks are neighbours
inside a node; data-parallel ranks come next, so ``g = gpus_per_node / TP`` ranks of a DP
group share a node and the group spans ``m = DP / g`` nodes; pipeline stages are ``TP x DP``
ranks apart and cross the fabric once ``TP x DP`` fills a node.

Per step, for global batch ``T`` tokens, ``P`` parameters, ``L`` layers, hidden size ``h``:

- compute: 6 x P x T FLOPs (forward 2, backward 4) / (GPUs x peak x MFU)   (REFERENCE);
  MFU here is the kernels' utilisation while computing; communication that is not
  hidden is added on top of it.
- data-parallel gradient synchronisation of the GPU's shard S = P / (TP x PP) x 2 bytes,
  hierarchical (NVLink inside the node, fabric between nodes):
  DDP: reduce-scatter + all-gather of S on g ranks (NVLink), all-reduce of S/g on m nodes;
  FSDP FULL_SHARD (PyTorch: shards over every DP rank): all-gather for forward, all-gather
  for backward, reduce-scatter of gradients, each of S over the whole DP group (S on g
  ranks in the node, S/g on m nodes); FSDP HYBRID_SHARD (PyTorch: shards inside a node,
  replicates across nodes): the three collectives on g ranks over NVLink and one
  all-reduce of S/g across the m nodes. SHARP applies to the fabric all-reduce only.
- tensor parallel: 4 all-reduces of the activations (T/DP x h values) per layer (2 in
  forward, 2 in backward; Megatron-LM, Shoeybi et al. 2019) on L/PP layers.
- pipeline parallel: activations forward and their gradients backward between stages,
  2 x T/DP x h values per GPU, split across the TP ranks (Megatron's scatter/gather).

The overlap setting hides that fraction of the gradient synchronisation behind the
backward pass (at most the backward's 4/6 of the compute); TP and PP traffic is exposed.
GPU idle % = exposed communication / step time; tokens/s = T / step time, never above
the limit GPUs x peak / (6 x P) of all GPUs at 100% of peak.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from planner.network.collective import (
    Collective, collective, total_bus_bandwidth_gbs, total_effective_bandwidth_gbs, total_time,
)
from planner.network.technologies import TECHNOLOGIES, effective_gbs_per_gpu, latency_s
from planner.settings import FabricSettings, WorkloadSettings

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
    step_s: float = 0.0
    tokens_per_s: float = 0.0
    tokens_per_s_limit: float = 0.0
    fabric_bytes_per_gpu: float = 0.0
    nvlink_bytes_per_gpu: float = 0.0
    gpus_per_node: int = 1

    @property
    def gpu_idle_pct(self) -> float:
        return 100.0 * self.exposed_s / self.step_s if self.step_s > 0 else 0.0

    @property
    def bus_bandwidth_gbs(self) -> float | None:
        """nccl-tests' bus bandwidth per GPU of the gradient synchronisation on the fabric:
        ring-equivalent bytes 2(n-1)/n x S / time. Comparable across fabrics without SHARP;
        with SHARP it exceeds the line rate, because the GPU sends S, not 2(n-1)/n x S."""
        return total_bus_bandwidth_gbs(self.dp_fabric)

    @property
    def node_bus_bandwidth_gbs(self) -> float | None:
        """Bus bandwidth per node: every GPU runs its own DP collective on its own NIC at
        the same time (without SHARP, the guide's 'effective bandwidth' of an 8-NIC node)."""
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
        """Against one GPU computing at the same MFU with nothing to communicate."""
        return self.gpus * self.compute_s / self.step_s if self.step_s > 0 else 0.0


def peak_tflops(shape: JobShape, precision: str) -> float:
    """Dense peak at the workload's precision: FP8 is twice BF16 on GPUs that have it
    (H100 datasheet: 1,979 vs 989 TFLOP/s dense); FP16 equals BF16."""
    return shape.bf16_tflops * (2.0 if precision == "fp8" else 1.0)


def tokens_per_s_limit(gpus: int, params: float, peak_tflops_per_gpu: float) -> float:
    """GPUs x peak / (6 x P): tokens/s of all GPUs at 100% of peak (6 FLOPs per parameter per token)."""
    return gpus * peak_tflops_per_gpu * 1e12 / (6.0 * params)


def model_step(w: WorkloadSettings, fabric: FabricSettings, shape: JobShape, *, tech: str | None = None,
               dp: int | None = None, sharp: bool | None = None) -> StepResult:
    """The step model of this module's docstring for ``w`` on fabric ``tech`` (default the plan's)."""
    tech = tech or fabric.technology
    dp = w.dp if dp is None else dp
    tp, pp = w.tp, w.pp
    gpus = tp * pp * dp
    use_sharp = (fabric.sharp if sharp is None else sharp) and TECHNOLOGIES[tech].sharp_capable
    P = w.model_params_b * 1e9
    T = float(w.global_batch_tokens)
    gpn = max(1, shape.gpus_per_node)
    act_bytes = 1 if w.precision == "fp8" else 2
    peak = peak_tflops(shape, w.precision)

    b_fab = effective_gbs_per_gpu(fabric, tech, shape.nics_per_gpu, shape.nic_gbps)
    a_fab = latency_s(fabric, tech)
    b_nv = (shape.nvlink_gbs / 2.0 if shape.nvlink_gbs > 0 else PCIE5_X16_GBS) * fabric.nvlink_efficiency

    tp_in_node = tp <= gpn
    g = max(1, min(dp, gpn // tp)) if tp_in_node else 1
    m = math.ceil(dp / g)
    tokens_per_replica = T / dp
    micro_batches = max(1, math.ceil(tokens_per_replica / w.seq_len))

    # Data-parallel gradient synchronisation.
    S = P / (tp * pp) * GRAD_BYTES
    nv: list[Collective] = []
    fab: list[Collective] = []
    if w.sharding == "fsdp_full":
        for kind in ("all_gather", "all_gather", "reduce_scatter"):
            nv.append(collective(kind, g, S, b_nv, 0.0))
            fab.append(collective(kind, m, S / g, b_fab, a_fab))
    else:
        if w.sharding == "fsdp_hybrid":
            nv += [collective(k, g, S, b_nv, 0.0) for k in ("all_gather", "all_gather", "reduce_scatter")]
        else:  # DDP, hierarchical all-reduce
            nv += [collective(k, g, S, b_nv, 0.0) for k in ("reduce_scatter", "all_gather")]
        fab.append(collective("all_reduce", m, S / g, b_fab, a_fab, sharp=use_sharp))
    fab = [c for c in fab if c.time_s > 0]
    dp_s = total_time(nv) + total_time(fab)

    # Tensor parallel: 4 activation all-reduces per layer per micro-batch.
    tp_payload = 4.0 * (w.layers / pp) * tokens_per_replica * w.hidden_size * act_bytes
    tp_calls = 4 * math.ceil(w.layers / pp) * micro_batches
    tp_coll = collective("all_reduce", tp, tp_payload, b_nv if tp_in_node else b_fab,
                         0.0 if tp_in_node else a_fab, calls=tp_calls)

    # Pipeline parallel: point-to-point between neighbouring stages.
    pp_s = pp_bytes = 0.0
    pp_on_fabric = pp > 1 and tp * dp >= gpn
    if pp > 1:
        pp_bytes = 2.0 * tokens_per_replica * w.hidden_size * act_bytes / tp
        if pp_on_fabric:
            pp_s = 2 * micro_batches * a_fab + pp_bytes / (b_fab * 1e9)
        else:
            pp_s = pp_bytes / (b_nv * 1e9)

    compute_s = 6.0 * P * T / (gpus * peak * 1e12 * w.mfu)
    hidden = min(w.overlap * dp_s, compute_s * 4.0 / 6.0)
    exposed = tp_coll.time_s + pp_s + dp_s - hidden
    step_s = compute_s + exposed

    fabric_bytes = sum(c.wire_bytes for c in fab) + (pp_bytes if pp_on_fabric else 0.0) \
        + (0.0 if tp_in_node else tp_coll.wire_bytes)
    nvlink_bytes = sum(c.wire_bytes for c in nv) + (0.0 if pp_on_fabric else pp_bytes) \
        + (tp_coll.wire_bytes if tp_in_node else 0.0)
    return StepResult(
        gpus=gpus, fabric=tech, sharp=use_sharp, compute_s=compute_s, tp_s=tp_coll.time_s, pp_s=pp_s,
        dp_s=dp_s, dp_fabric=fab, exposed_s=exposed, step_s=step_s, tokens_per_s=T / step_s,
        tokens_per_s_limit=tokens_per_s_limit(gpus, P, peak), fabric_bytes_per_gpu=fabric_bytes,
        nvlink_bytes_per_gpu=nvlink_bytes, gpus_per_node=gpn,
    )


def scaling_curve(w: WorkloadSettings, fabric: FabricSettings, shape: JobShape) -> list[dict[str, float]]:
    """Speedup against GPU count, growing DP at fixed TP, PP and global batch: DP = 1, 2, 4,
    ... up to 4 x the plan's DP (and the plan's own DP), while every replica still gets
    one sequence. Speedup = GPUs x compute time / step time (ideal = GPUs). The plan's own
    point carries ``"plan": True``."""
    max_dp = max(1, min(4 * w.dp, w.global_batch_tokens // w.seq_len))
    dps = {w.dp} if w.dp <= max_dp else set()
    d = 1
    while d <= max_dp:
        dps.add(d)
        d *= 2
    out = []
    for d in sorted(dps):
        r = model_step(w, fabric, shape, dp=d)
        out.append({"gpus": r.gpus, "speedup": round(r.speedup, 3),
                    "efficiency": round(r.speedup / r.gpus, 4), "plan": d == w.dp})
    return out


def compare_fabrics(w: WorkloadSettings, fabric: FabricSettings, shape: JobShape) -> list[dict]:
    """The plan's workload on every fabric technology (one NIC speed = the technology's line
    rate, the plan's NICs per GPU and SHARP setting), like the guide's fabric table."""
    rows = []
    nic_free = JobShape(shape.gpus_per_node, shape.bf16_tflops, shape.nvlink_gbs, shape.nics_per_gpu, None)
    for tech in TECHNOLOGIES.values():
        r = model_step(w, fabric, nic_free, tech=tech.id)
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
    }
