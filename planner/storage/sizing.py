"""Parallel filesystem capacity and bandwidth, checkpoint size and write time.

- capacity and write/read bandwidth: sums over the storage devices placed (datasheets);
- checkpoint size = parameters x bytes per parameter (14 for a full mixed-precision Adam
  checkpoint: bf16 weights 2 + fp32 master 4 + Adam m 4 + v 4, Rajbhandari et al., "ZeRO",
  SC'20; 70B -> 980 GB), the parameters of the model shape the workload trains (a preset's
  or the custom shape's: ``planner.workload.models.model_shape``);
- checkpoint write time = size / min(filesystem write bandwidth, nodes x per-node storage
  bandwidth): every node writes its shard at once, limited by the filesystem or the nodes' links;
- per-node storage bandwidth = sum over the node's storage NICs of min(NIC rate, switch
  port rate) / 8: a 400G NIC in a 100GbE port runs at 100 Gb/s (the storage switch when
  storage has its own network, the compute fabric switch when it shares it);
- per-node write bandwidth alone = min(per-node storage bandwidth, filesystem write);
- per-node write bandwidth all writing = min(filesystem write, nodes x per-node) / nodes:
  with DDP/FSDP every node writes its shard at the same moment, so this is what the rule
  of N. Dixit, "The GPU Cluster That Actually Works for Deep Learning in 2026", SIVARO, is
  judged on ("if checkpoint writes are slower than 10 GB/s per node, fix storage").
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.hardware.catalog import Catalog
from planner.settings import StorageSettings, WorkloadSettings
from planner.workload.models import model_shape


@dataclass(slots=True)
class StorageTotals:
    devices: int = 0
    capacity_tb: float = 0.0
    read_gbs: float = 0.0
    write_gbs: float = 0.0


def storage_totals(counts: dict[str, int], catalog: Catalog) -> StorageTotals:
    """Capacity and bandwidth of the storage devices placed (O(device types))."""
    t = StorageTotals()
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is None or d.storage is None or n <= 0:
            continue
        t.devices += n
        t.capacity_tb += n * d.storage.capacity_tb
        t.read_gbs += n * d.storage.read_gbs
        t.write_gbs += n * d.storage.write_gbs
    return t


def storage_switch_of(plan, catalog: Catalog):
    """The switch the nodes reach storage through: the storage switch model on a separate
    storage network, the compute fabric switch when storage shares it (None: unknown)."""
    fabric = plan.settings.fabric
    device_id = fabric.storage_switch_device if fabric.storage_fabric == "separate" else fabric.switch_device
    device = catalog.get(device_id)
    return device if device is not None and device.switch is not None else None


def node_storage_nics(device, shared_fabric: bool) -> tuple:
    """The NICs a GPU node reaches storage with: its storage NICs, or its compute NICs
    when storage shares the compute fabric and the node has none."""
    return tuple(device.storage_nics() or (device.compute_nics() if shared_fabric else ()))


def node_storage_gbs(counts: dict[str, int], catalog: Catalog, shared_fabric: bool,
                     port_gbps: float | None = None) -> float | None:
    """Storage bandwidth of one GPU node, GB/s: sum of min(NIC rate, switch port rate) / 8
    over its storage NICs (``port_gbps`` None: no switch known, the NICs' rate); the
    slowest node type counts, as a checkpoint waits for every node. None: no nodes.
    Example: 2 x 400G NICs into 100GbE ports: 2 x 100 / 8 = 25 GB/s, not 100."""
    slowest: float | None = None
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is None or d.gpu is None or n <= 0:
            continue
        nics = node_storage_nics(d, shared_fabric)
        gbs = sum(x.count * (min(x.gbps, port_gbps) if port_gbps else x.gbps) for x in nics) / 8.0
        slowest = gbs if slowest is None else min(slowest, gbs)
    return slowest


def checkpoint_gb(params_b: float, bytes_per_param: float) -> float:
    """Full checkpoint size in GB (1e9 bytes): parameters x bytes per parameter."""
    return params_b * 1e9 * bytes_per_param / 1e9


def model_checkpoint_gb(workload: WorkloadSettings, storage: StorageSettings) -> float:
    """The full checkpoint of the model the workload trains: its shape's parameters x the
    bytes per parameter."""
    return checkpoint_gb(model_shape(workload).params / 1e9, storage.checkpoint_bytes_per_param)


def checkpoint_write_s(size_gb: float, fs_write_gbs: float, nodes: int, per_node_gbs: float) -> float | None:
    """size / min(filesystem write, nodes x per-node storage bandwidth); None if nothing can write."""
    rate = min(fs_write_gbs, nodes * per_node_gbs)
    return size_gb / rate if rate > 0 else None


def fastest_storage_nic_gbps(counts: dict[str, int], catalog: Catalog, shared_fabric: bool) -> float | None:
    """The fastest storage NIC (Gb/s) among the GPU node types placed; None: none."""
    fastest: float | None = None
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is None or d.gpu is None or n <= 0:
            continue
        for x in node_storage_nics(d, shared_fabric):
            fastest = x.gbps if fastest is None else max(fastest, x.gbps)
    return fastest
