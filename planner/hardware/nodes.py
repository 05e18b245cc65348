"""The GPU nodes placed, reduced to what the fabric, the workload, costs and goodput need: one
summary of the device counts (O(device types)), memoized by the evaluator under the counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.hardware.catalog import Catalog, DeviceType


@dataclass(slots=True)
class NodeSummary:
    """The GPU node types placed, reduced to what the fabric and workload need."""

    nodes: int = 0
    gpus: int = 0
    gpus_per_node: int = 0  # of the node type holding most GPUs
    hosts: int = 0  # a rack-scale system's compute trays each, a GPU node one
    hosts_per_node: int = 1  # of the node type holding most GPUs (an NVL72: 18)
    node_device: str = ""  # the node type holding most GPUs (the one spares are of)
    bf16_tflops: float = 0.0  # slowest GPU: synchronous training runs at its pace
    kernel_curves: str | None = None  # the slowest GPU's generation of measured kernel curves
    gpu_model: str = ""  # the slowest GPU's model
    gpu_models: tuple[tuple[str, int], ...] = ()  # (GPU model, GPUs) of every model, sorted by model
    nvlink_gbs: float = 0.0  # smallest NVLink figure among the types
    nics_per_gpu: float | None = None  # fewest compute NICs per GPU; None: no compute NICs
    nic_gbps: float | None = None  # slowest compute NIC
    nic_planes: int = 1  # fewest planes a compute NIC spreads its rate over (2: ConnectX-8 on 400G planes)
    nic_link_gbps: float | None = None  # the fastest link a compute NIC needs (its rate / its planes)
    nic_lane_gbps: float | None = None  # the slowest lanes a compute NIC signals at; None: none limited
    nic_technologies: frozenset[str] = frozenset()
    nic_modes: frozenset[str] = frozenset()  # link layers every compute NIC can run (VPI: InfiniBand and Ethernet)
    shared_nic_types: tuple[str, ...] = ()
    no_nic_types: tuple[str, ...] = ()  # types whose NICs the catalog lists, none of them for compute
    consumer_types: tuple[str, ...] = ()
    domain_gpus: int = 0  # NVLink domain of the node type holding most GPUs (8 HGX, 72 NVL72)
    memory_gb: float = 0.0  # smallest GPU memory among the types
    memory_bandwidth_tbs: float | None = None  # slowest HBM among the types; None: not in the catalog
    nvls_busbw_gbs: float | None = None  # NVLink SHARP all-reduce busbw, lowest among the types; None: no NVLS
    nvme_write_gbs_per_gpu: float | None = None  # local NVMe per GPU, lowest among the types; None: one has none
    nvme_read_gbs_per_gpu: float | None = None
    nvme_unknown: tuple[str, ...] = ()  # node types the catalog gives no local NVMe figure for


def nic_gbs(nodes: NodeSummary) -> float | None:
    """Each GPU's compute NICs in GB/s (their rate x NICs per GPU / 8); None without any."""
    return (nodes.nic_gbps or 0.0) * (nodes.nics_per_gpu or 0.0) / 8.0 or None


def _lowest_known(first: bool, current: float | None, value: float | None) -> float | None:
    """The lowest figure among the node types, None as soon as one type has none."""
    if first:
        return value
    return None if current is None or value is None else min(current, value)


def summarise_nodes(counts: dict[str, int], catalog: Catalog) -> NodeSummary:
    s = NodeSummary()
    best_gpus = 0
    techs: set[str] = set()
    modes: frozenset[str] | None = None  # what every compute NIC so far can run
    shared: list[str] = []
    no_nics: list[str] = []
    consumer: list[str] = []
    models: dict[str, int] = {}
    for device_id, n in counts.items():
        d: DeviceType | None = catalog.get(device_id)
        if d is None or d.gpu is None or n <= 0:
            continue
        s.nodes += n
        s.gpus += n * d.gpus
        models[d.gpu.model] = models.get(d.gpu.model, 0) + n * d.gpus
        s.hosts += n * d.hosts
        if n * d.gpus > best_gpus:
            best_gpus, s.gpus_per_node, s.domain_gpus = n * d.gpus, d.gpus, d.gpu.domain_gpus
            s.hosts_per_node = d.hosts
            s.node_device = d.id
        s.memory_gb = d.gpu.memory_gb if s.nodes == n else min(s.memory_gb, d.gpu.memory_gb)
        first = s.nodes == n
        s.memory_bandwidth_tbs = _lowest_known(first, s.memory_bandwidth_tbs, d.gpu.memory_bandwidth_tbs)
        s.nvls_busbw_gbs = _lowest_known(first, s.nvls_busbw_gbs, d.gpu.nvls_allreduce_busbw_gbs)
        nvme = d.nvme_gbs_per_gpu()
        s.nvme_write_gbs_per_gpu = _lowest_known(first, s.nvme_write_gbs_per_gpu, nvme and nvme[0])
        s.nvme_read_gbs_per_gpu = _lowest_known(first, s.nvme_read_gbs_per_gpu, nvme and nvme[1])
        if nvme is None:
            s.nvme_unknown += (d.model,)
        if not s.bf16_tflops or d.gpu.bf16_tflops < s.bf16_tflops:
            s.kernel_curves, s.gpu_model = d.gpu.kernel_curves, d.gpu.model
        s.bf16_tflops = d.gpu.bf16_tflops if not s.bf16_tflops else min(s.bf16_tflops, d.gpu.bf16_tflops)
        s.nvlink_gbs = d.gpu.nvlink_gbs if s.nodes == n else min(s.nvlink_gbs, d.gpu.nvlink_gbs)
        nics = d.compute_nics()
        count = sum(x.count for x in nics)
        if count:
            per_gpu = count / d.gpus
            s.nics_per_gpu = per_gpu if s.nics_per_gpu is None else min(s.nics_per_gpu, per_gpu)
            slowest = min(x.gbps for x in nics)
            planes, link = min(x.planes for x in nics), max(x.plane_gbps for x in nics)
            if s.nic_gbps is None:
                s.nic_gbps, s.nic_planes, s.nic_link_gbps = slowest, planes, link
            else:
                s.nic_gbps, s.nic_planes = min(s.nic_gbps, slowest), min(s.nic_planes, planes)
                s.nic_link_gbps = max(s.nic_link_gbps, link)
            techs.update(x.technology for x in nics)
            lanes = [lane for lane in (d.compute_nic_lane_gbps, s.nic_lane_gbps) if lane]
            s.nic_lane_gbps = min(lanes) if lanes else None
            for x in nics:
                runs = catalog.nic_link_layers(x)
                modes = runs if modes is None else modes & runs
        if count < d.gpus and (count or not d.nics):  # none at all, where the catalog lists its NICs: no_nics
            shared.append(d.model)
        if d.lacks_compute_nics:
            no_nics.append(d.model)
        if not d.gpu.ecc:  # the guide's consumer GPU: no ECC (and no NVLink)
            consumer.append(d.model)
    s.nic_technologies = frozenset(techs)
    s.nic_modes = modes or frozenset()
    # Sorted: the counts' order differs between an incremental and a full evaluation.
    s.shared_nic_types = tuple(sorted(shared))
    s.no_nic_types = tuple(sorted(no_nics))
    s.consumer_types = tuple(sorted(consumer))
    s.gpu_models = tuple(sorted(models.items()))  # sorted: the counts' order differs incremental to full
    return s
