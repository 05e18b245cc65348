"""ETTR, goodput and the checkpoint interval against the cluster's size: the plan's job
grown or shrunk from one node to four times its nodes, its switches and optical links in
proportion, its per-GPU throughput held (failure-free throughput scales with the GPUs), the
same storage (checkpoint write and read limited by the filesystem or by the nodes' links)."""

from __future__ import annotations

from dataclasses import dataclass

from planner.figures import Figures, figure
from planner.goodput.model import Parts, checkpointing, interruptions_by_part
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


def sizes(plan_nodes: int) -> list[int]:
    """1, 2, 4, ... nodes up to BEYOND x the plan's, and the plan's own."""
    out, n = {plan_nodes}, 1
    while n <= BEYOND * plan_nodes:
        out.add(n)
        n *= 2
    return sorted(out)


def goodput_curve(parts: Parts, rates, fixed_interval_min: float | None, storage, tokens_per_s: float | None
                  ) -> tuple[GoodputPoint, ...]:
    """The curve for a job on ``parts`` (the plan's), its storage section and throughput."""
    if not parts.nodes or not parts.gpus:
        return ()
    per_node, hosts_per_node = parts.gpus / parts.nodes, parts.hosts / parts.nodes
    size_gb, fs_write, fs_read = storage["checkpoint_gb"], storage["write_gbs"], storage["read_gbs"]
    node_gbs = storage["node_storage_gbs"] or 0.0
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
        run = checkpointing(interruptions_by_part(at, rates), rates, fixed_interval_min, write_s, size_gb, at.gpus,
                            size_gb / read if read > 0 else 0.0)
        goodput = None if tokens_per_s is None else round(tokens_per_s * scale * run.ettr, 1)
        interval = None if run.interval_s is None else round(run.interval_s / 60.0, 3)
        points.append(GoodputPoint(nodes=n, gpus=at.gpus, ettr=round(run.ettr, 4), goodput_tokens_per_s=goodput,
                                   checkpoint_interval_min=interval, plan=n == parts.nodes))
    return tuple(points)
