"""ETTR, goodput and the checkpoint interval against the cluster's size: the plan's job
grown or shrunk from one node to four times its nodes, its switches and optical links in
proportion, its per-GPU throughput held (failure-free throughput scales with the GPUs), the
same storage (checkpoint write and read limited by the filesystem or by the nodes' links), its
data-parallel replicas in proportion, its step time held; ETTR on the plan's restart path and
on each of the three (``planner.goodput.recovery``)."""

from __future__ import annotations

from dataclasses import dataclass

from planner.figures import Figures, figure
from planner.goodput.model import Parts, interruptions_by_part
from planner.goodput.recovery import JobFigures, recover
from planner.settings.reliability import RESTART_PATHS
from planner.storage.sizing import checkpoint_write_s

BEYOND = 4  # the curve runs to four times the plan's nodes


@dataclass(frozen=True, slots=True)
class GoodputPoint(Figures):
    nodes: int = figure(title="Nodes in the job")
    gpus: int = figure(title="GPUs in the job")
    ettr: float = figure(title="Effective training time ratio", unit="share")
    goodput_tokens_per_s: float | None = figure(None, title="Goodput", unit="tokens/s")
    checkpoint_interval_min: float | None = figure(None, title="Checkpoint interval", unit="min")
    plan: bool = figure(False, title="The plan's size", unit="name")
    ettr_by_path: dict[str, float] = figure(title="ETTR on each restart path (cold, warm, replica)", unit="share",
                                            factory=dict)


def sizes(plan_nodes: int) -> list[int]:
    """1, 2, 4, ... nodes up to BEYOND x the plan's, and the plan's own."""
    out, n = {plan_nodes}, 1
    while n <= BEYOND * plan_nodes:
        out.add(n)
        n *= 2
    return sorted(out)


def goodput_curve(parts: Parts, rates, fixed_interval_min: float | None, storage, tokens_per_s: float | None,
                  *, nic_gbs_per_gpu: float | None = None, dp: int = 1, step_s: float = 0.0,
                  nvme_gbs_per_gpu: tuple[float | None, float | None] = (None, None)
                  ) -> tuple[GoodputPoint, ...]:
    """The curve for a job on ``parts`` (the plan's), its storage section and throughput, its
    NIC per GPU, data-parallel replicas, step time and local NVMe per GPU (write, read)."""
    if not parts.nodes or not parts.gpus:
        return ()
    per_node, hosts_per_node = parts.gpus / parts.nodes, parts.hosts / parts.nodes
    size_gb, fs_write, fs_read = storage["checkpoint_gb"], storage["write_gbs"], storage["read_gbs"]
    # every node writing (and reading back) at once: its links shared as the storage network's
    # leaves share their uplinks (the storage section's rule)
    node_gbs = (storage["node_storage_gbs"] or 0.0) / storage["storage_oversubscription"]
    points = []
    for n in sizes(parts.nodes):
        scale = n / parts.nodes
        at = Parts(gpus=round(n * per_node), nodes=n, hosts=round(n * hosts_per_node),
                   switches=round(parts.switches * scale),
                   optical_links=round(parts.optical_links * scale))
        write_s = checkpoint_write_s(size_gb, fs_write, n, node_gbs)
        if write_s is None:
            continue
        read = min(fs_read, n * node_gbs)
        job = JobFigures(interruptions_by_part(at, rates), fixed_interval_min, size_gb, write_s,
                         size_gb / read if read > 0 else 0.0, at.gpus, nic_gbs_per_gpu, max(1, round(dp * scale)),
                         step_s, *nvme_gbs_per_gpu)
        each = {path: recover(job, rates, path) for path in RESTART_PATHS}  # the plan's path is one of them
        rec = each[rates.restart_path]
        by_path = {k: round(r.ettr, 4) for k, r in each.items()}
        goodput = None if tokens_per_s is None else round(tokens_per_s * scale * rec.ettr, 1)
        first = rec.tiers[0].interval_s
        interval = None if first is None else round(first / 60.0, 5)  # as the section rounds it
        points.append(GoodputPoint(nodes=n, gpus=at.gpus, ettr=round(rec.ettr, 4), goodput_tokens_per_s=goodput,
                                   checkpoint_interval_min=interval, plan=n == parts.nodes, ettr_by_path=by_path))
    return tuple(points)
