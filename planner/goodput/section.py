"""The report's goodput section: interruptions, the checkpoint interval, ETTR and what
failures do to the time and cost of the training run; and its findings.

Computed after the workload section, whose failure-free figures it reads and leaves as they
are: tokens/s x ETTR is the goodput, time to train / ETTR the time with failures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from planner.figures import Figures, figure
from planner.findings import Finding
from planner.goodput.curve import GoodputPoint, goodput_curve
from planner.goodput.model import (Parts, checkpointing, interruptions_by_part, mtbf_h, nodes_in_repair,
                                   spares_to_cover)
from planner.network.checks import summarise_nodes
from planner.workload.section import run_cost, training_tokens_per_s, workload_outcome


@dataclass(frozen=True, slots=True)
class GoodputSection(Figures):
    job_gpus: int = figure(0, title="GPUs the job runs on (placed minus spares)")
    job_nodes: int = figure(0, title="Nodes the job runs on (placed minus spares)")
    spare_nodes: int = figure(0, title="Hot spare nodes")
    switches: int = figure(0, title="Switches placed")
    optical_links: int = figure(0, title="Optical links in the fabric",
                               description="Fibre or active optical cable, as the network section counts them: "
                               "copper runs (DAC, ACC) have no optics to fail")
    interruptions_per_day: float = figure(0.0, title="Interruptions", unit="per day")
    interruptions_by_part: dict[str, float] = figure(title="Interruptions per day by part", unit="per day",
                                                     factory=dict)
    mtbf_h: float | None = figure(None, title="Mean time between interruptions", unit="h", none="no failures")
    checkpoint_interval_auto: bool = figure(True, title="Checkpoint interval automatic (Young)", unit="name")
    checkpoint_interval_min: float | None = figure(None, title="Checkpoint interval", unit="min")
    checkpoint_block_s: float | None = figure(None, title="Job blocked per checkpoint", unit="s",
                                              description="The write time, or with asynchronous checkpoints "
                                              "the copy to host memory")
    reload_s: float | None = figure(None, title="Checkpoint read back after a restart", unit="s")
    lost_per_interruption_min: float | None = figure(
        None, title="Time lost per interruption", unit="min",
        description="Restart, re-load, the wait for a node without a spare, and half an interval of work redone")
    ettr: float | None = figure(None, title="Effective training time ratio (ETTR)", unit="share")
    goodput_tokens_per_s: float | None = figure(None, title="Goodput (throughput x ETTR)", unit="tokens/s")
    time_to_train_days: float | None = figure(None, title="Time to train with failures", unit="days")
    run_cost_usd: dict[str, float] | None = figure(None, title="Cost of the training run with failures", unit="$")
    node_failures_per_repair: float | None = figure(
        None, title="Nodes expected down within one repair time", unit="")
    curve: tuple[GoodputPoint, ...] = figure((), title="ETTR and goodput against the cluster's size")


def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


def plan_parts(ctx, spare_nodes: int) -> Parts:
    """The job's GPUs and nodes (the placed ones minus the spares), the switches placed and
    the fabric's optical links (the network section's: its links on fibre or active optical
    cable as the cable schedule routes them; a copper run has no optic to fail)."""
    nodes = summarise_nodes(ctx.counts, ctx.catalog)
    job_nodes = max(0, nodes.nodes - spare_nodes)
    job_gpus = max(0, nodes.gpus - spare_nodes * nodes.gpus_per_node)
    switches = 0
    for device_id, n in ctx.counts.items():
        d = ctx.catalog.get(device_id)
        if d is not None and d.switch is not None:
            switches += n
    network = ctx.sections.get("network")
    links = network["optical_links"] if network is not None else 0
    return Parts(gpus=job_gpus, nodes=job_nodes, switches=switches, optical_links=links)


# What the curve reads: not the costs nor the racks' PDUs, so it is kept in the evaluator's
# memo apart from the rest of the section, which a drop that changes a rack's PDUs (and so
# the cost) recomputes. campus-400k (2026-12-01, shared 2-core machine): the curve is
# 0.14-0.4 ms of an incremental evaluation whose p95 target is 2 ms.
CURVE_READS = ("counts", "settings.reliability", "settings.storage", "settings.workload", "settings.fabric",
               "network", "storage")


def plan_curve(ctx) -> tuple[GoodputPoint, ...]:
    """The goodput curve (``goodput_curve``) of the plan's job: its parts, the reliability
    settings, the checkpoint interval, the storage section and the training throughput."""
    rel = ctx.plan.settings.reliability
    return goodput_curve(plan_parts(ctx, rel.spare_nodes), rel, ctx.plan.settings.storage.checkpoint_interval_min,
                         ctx.sections.get("storage"), training_tokens_per_s(workload_outcome(ctx)))


def evaluate_goodput(ctx) -> tuple[GoodputSection, list[Finding]]:
    settings = ctx.plan.settings
    rel, st = settings.reliability, settings.storage
    parts = plan_parts(ctx, rel.spare_nodes)
    by_part = interruptions_by_part(parts, rel)
    per_day = sum(by_part.values())
    mtbf = mtbf_h(per_day)
    figures: dict[str, Any] = dict(
        job_gpus=parts.gpus, job_nodes=parts.nodes, spare_nodes=rel.spare_nodes, switches=parts.switches,
        optical_links=parts.optical_links, interruptions_per_day=round(per_day, 4),
        interruptions_by_part={k: round(v, 4) for k, v in by_part.items()}, mtbf_h=_r(mtbf),
        checkpoint_interval_auto=st.checkpoint_interval_min is None,
        checkpoint_interval_min=st.checkpoint_interval_min)
    findings: list[Finding] = []
    if ctx.totals.nodes and rel.spare_nodes >= ctx.totals.nodes:
        findings.append(Finding("error", "goodput.spares.all",
                                f"{rel.spare_nodes:,} hot spare nodes of {ctx.totals.nodes:,} placed: no node is "
                                "left for the job; place more nodes or keep fewer spares"))
    if parts.nodes:
        down = nodes_in_repair(by_part, rel)
        figures["node_failures_per_repair"] = round(down, 3)
        findings += _spare_findings(rel, down)
    storage = ctx.sections.get("storage")
    work = ctx.sections.get("workload")
    write_s = storage["checkpoint_write_s"] if storage is not None else None
    if write_s is None or not parts.gpus or not settings.workload.enabled:
        return GoodputSection(**figures), findings
    size_gb = storage["checkpoint_gb"]
    read = min(storage["read_gbs"], parts.nodes * (storage["node_storage_gbs"] or 0.0))
    reload_s = size_gb / read if read > 0 else 0.0
    run = checkpointing(by_part, rel, st.checkpoint_interval_min, write_s, size_gb, parts.gpus, reload_s)
    block_s, interval_s, lost_s, ratio = run.block_s, run.interval_s, run.lost_s, run.ettr
    figures.update(checkpoint_block_s=_r(block_s), reload_s=_r(reload_s),
                   checkpoint_interval_min=_r(None if interval_s is None else interval_s / 60.0),
                   lost_per_interruption_min=_r((lost_s + (interval_s or 0.0) / 2.0) / 60.0),
                   ettr=_r(ratio, 4))
    tokens = work["tokens_per_s"] if work is not None else None
    if tokens is not None:
        figures["goodput_tokens_per_s"] = round(tokens * ratio, 1)
    days = work["time_to_train_days"] if work is not None else None
    if days is not None and ratio > 0:
        figures["time_to_train_days"] = round(days / ratio, 3)
        figures["run_cost_usd"] = run_cost(ctx, days / ratio)
    figures["curve"] = ctx.memo.get("goodput curve", CURVE_READS, plan_curve, ctx)
    if interval_s is not None:
        findings += _checkpoint_findings(rel, st.checkpoint_interval_min is None, interval_s, block_s, write_s,
                                         mtbf)
    findings += _ettr_findings(rel, ratio, mtbf, interval_s, lost_s)
    return GoodputSection(**figures), findings


def _spare_findings(rel, down: float) -> list[Finding]:
    """Spares short of the nodes expected to be in repair at once (spares kept, or none kept
    while more than one node is expected down)."""
    if rel.spare_nodes < spares_to_cover(down):
        return [Finding(
            "warning", "goodput.spares.short",
            f"{down:,.1f} nodes are expected to fail within one {rel.repair_days:g}-day repair time and "
            f"{rel.spare_nodes:,} hot spare{'s are' if rel.spare_nodes != 1 else ' is'} kept: the job waits "
            f"{rel.replace_node_min:g} min for a node after the spares run out; keep at least "
            f"{spares_to_cover(down):,} spare nodes or repair faster")]
    return []


def _checkpoint_findings(rel, auto: bool, interval_s: float, block_s: float, write_s: float,
                         mtbf: float | None) -> list[Finding]:
    if interval_s >= rel.min_interval_write_multiple * block_s:
        return []
    why = (f"Young's interval for a {mtbf:,.1f} h mean time between interruptions" if auto and mtbf
           else "the fixed interval")
    remedy = ("a faster storage tier (more filesystem write bandwidth)" if rel.async_checkpoint
              else "asynchronous checkpoints or a faster storage tier")
    return [Finding(
        "warning", "goodput.checkpoint.interval_short",
        f"Checkpoint every {interval_s / 60:,.1f} min ({why}) is {interval_s / block_s:,.1f} times the "
        f"{block_s:,.0f} s the job is blocked per checkpoint (write {write_s:,.0f} s), fewer than "
        f"{rel.min_interval_write_multiple:g}: storage is too slow for this scale; use {remedy}")]


def _ettr_findings(rel, ratio: float, mtbf: float | None, interval_s: float | None,
                   lost_s: float) -> list[Finding]:
    if ratio >= rel.min_ettr:
        return []
    at = f"an interruption every {duration_text(mtbf * 3600)}" if mtbf else "no interruptions"
    every = f", checkpoints every {duration_text(interval_s)}" if interval_s else ""
    return [Finding(
        "warning", "goodput.ettr.low",
        f"Effective training time ratio {ratio:.1%} is below {rel.min_ettr:.0%} ({at}{every}, "
        f"{duration_text(lost_s)} restart and re-load each): use asynchronous checkpoints, a faster storage "
        "tier, hot spares to cut the restart, or fewer parts that fail")]


def duration_text(seconds: float) -> str:
    """A duration in the unit that reads: "2.8 s", "3.7 min", "10.0 h" (a million GPUs are
    interrupted every few minutes and checkpoint every few seconds)."""
    if round(seconds, 1) < 60:  # the unit after rounding: 59.96 s is "1.0 min", not "60.0 s"
        return f"{seconds:,.1f} s"
    if round(seconds / 60, 1) < 60:
        return f"{seconds / 60:,.1f} min"
    return f"{seconds / 3600:,.1f} h"
