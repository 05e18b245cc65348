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
from planner.goodput.model import Parts, interruptions_by_part, mtbf_h, nodes_in_repair, spares_to_cover
from planner.goodput.findings import (checkpoint_findings, duration_text, ettr_findings, nvme_findings,
                                      spare_findings, spare_unit)
from planner.goodput.recovery import JobFigures, ettr_by_path, recover
from planner.hardware.nodes import nic_gbs
from planner.workload.section import plan_job_nodes, plan_nodes, run_cost, training_tokens_per_s, workload_outcome


@dataclass(frozen=True, slots=True)
class GoodputSection(Figures):
    job_gpus: int = figure(0, title="GPUs the job runs on (placed minus spares)")
    job_nodes: int = figure(0, title="Nodes the job runs on (placed minus spares)")
    job_hosts: int = figure(0, title="Hosts the job runs on (compute trays of rack-scale systems)",
                            description="Each with its own CPUs, NICs, BMC and OS: host and software "
                            "interruptions are counted per host")
    spare_nodes: int = figure(0, title="Hot spare nodes")
    spare_unit: str = figure("node", title="The unit a spare is (what the vendor swaps)", unit="name",
                             description="A node, or a compute tray of a rack-scale system")
    spares_stocked: int = figure(0, title="Spares stocked (not placed)", unit="",
                                 description="Units in stock, swapped in for a failed one while it is repaired")
    spares_to_cover: int = figure(0, title="Spares to keep for the units in repair", unit="",
                                  description="The fewest a failing unit finds one of free at the spares' "
                                  "availability (Settings > Reliability, 99%): the units in repair at a failure are "
                                  "Poisson with mean the units expected down within one repair time; none while "
                                  "that mean is below one")
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
    checkpoint_stall_pct: float | None = figure(
        None, title="Job blocked by checkpoints (share of the interval)", unit="%",
        description="The job blocked per checkpoint (the write, or with asynchronous checkpoints the copy to "
        "host memory) over the interval it checkpoints at, automatic or set")
    reload_s: float | None = figure(None, title="Checkpoint read back after a restart", unit="s")
    lost_per_interruption_min: float | None = figure(
        None, title="Time lost per interruption", unit="min",
        description="Restart, re-load, the mean wait for a node (none while a hot spare is idle), and half an "
        "interval of work redone")
    ettr: float | None = figure(None, title="Effective training time ratio (ETTR)", unit="share")
    goodput_tokens_per_s: float | None = figure(None, title="Goodput (throughput x ETTR)", unit="tokens/s")
    time_to_train_days: float | None = figure(None, title="Time to train with failures", unit="days")
    run_cost_usd: dict[str, float] | None = figure(None, title="Cost of the training run with failures", unit="$")
    cost_per_million_tokens_usd: float | None = figure(
        None, title="Cost per million tokens with failures, build", unit="$/M tokens",
        description="The cost section's build cost per million tokens over ETTR: of the horizon's hours, the job "
        "trains ETTR of them")
    node_failures_per_repair: float | None = figure(
        None, title="Nodes (compute trays of rack-scale systems) expected down within one repair time", unit="")
    curve: tuple[GoodputPoint, ...] = figure((), title="ETTR and goodput against the cluster's size")
    recovery: dict[str, Any] | None = figure(
        None, title="Recovery: the restart path, its checkpoint tiers and steps, ETTR on each path",
        description="path; tiers (each name, write_s, block_s, reload_s, interval_min); restart_s by step; "
        "ettr_by_path (cold, warm, replica); what they read of the job: nic_gbs_per_gpu, dp, step_s, fs_reload_s, "
        "nvme_write_gbs_per_gpu and nvme_read_gbs_per_gpu (each GPU's share of its host's NVMe; null: unknown)")


def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


def plan_parts(ctx) -> Parts:
    """The job's GPUs, nodes and hosts (the placed ones minus the spares), the switches placed
    and the fabric's optical links (the network section's: its links on fibre or active optical
    cable as the cable schedule routes them; a copper run has no optic to fail)."""
    job = plan_job_nodes(ctx)
    switches = 0
    for device_id, n in ctx.counts.items():
        d = ctx.catalog.get(device_id)
        if d is not None and d.switch is not None:
            switches += n
    network = ctx.sections.get("network")
    links = network["optical_links"] if network is not None else 0
    return Parts(gpus=job.gpus, nodes=job.nodes, hosts=job.hosts, switches=switches, optical_links=links)


# What the curve reads: not the costs nor the racks' PDUs, so it is kept in the evaluator's
# memo apart from the rest of the section, which a drop that changes a rack's PDUs (and so
# the cost) recomputes. campus-400k (2026-12-01, shared 2-core machine): the curve is
# 0.14-0.4 ms of an incremental evaluation whose p95 target is 2 ms. Of the network section
# it reads the workload model ("network fabric", the memo entry that keeps it) and the
# optical links ("fabric links"), not the optics bought, which a fabric switch moved to
# another hall changes.
CURVE_READS = ("counts", "settings.reliability", "settings.storage", "settings.workload", "settings.fabric",
               "network fabric", "fabric links", "storage")


def plan_curve(ctx) -> tuple[GoodputPoint, ...]:
    """The goodput curve (``goodput_curve``) of the plan's job: its parts, the reliability
    settings, the checkpoint interval, the storage section and the training throughput."""
    rel = ctx.plan.settings.reliability
    parts = plan_parts(ctx)
    nic, step_s, nvme = _node_figures(ctx)
    return goodput_curve(parts, rel, ctx.plan.settings.storage.checkpoint_interval_min,
                         ctx.sections.get("storage"), training_tokens_per_s(workload_outcome(ctx)),
                         nic_gbs_per_gpu=nic, dp=max(1, ctx.plan.settings.workload.dp), step_s=step_s,
                         nvme_gbs_per_gpu=nvme)


def _node_figures(ctx) -> tuple[float | None, float, tuple[float | None, float | None]]:
    """Each GPU's compute NIC in GB/s (None: none), the workload's step time (0: none) and its
    share of its host's local NVMe, write and read in GB/s (the slowest type's; None: unknown)."""
    nodes = plan_nodes(ctx)
    step = workload_outcome(ctx).step  # the network section's model: not the priced workload section
    return (nic_gbs(nodes), step.step_s if step is not None else 0.0,
            (nodes.nvme_write_gbs_per_gpu, nodes.nvme_read_gbs_per_gpu))


def evaluate_goodput(ctx) -> tuple[GoodputSection, list[Finding]]:
    """The job's goodput (``_job_goodput``, kept apart in the evaluator's memo: it reads
    neither the costs nor the priced workload section), then the days to train and the run's
    cost at its ETTR."""
    kept, kept_findings, ratio = ctx.memo.get("goodput job", CURVE_READS, _job_goodput, ctx)
    figures = dict(kept)
    work = ctx.sections.get("workload")
    if ratio is None:  # no training job
        return GoodputSection(**figures), list(kept_findings)
    tokens = work["tokens_per_s"] if work is not None else None
    if tokens is not None:
        figures["goodput_tokens_per_s"] = round(tokens * ratio, 1)
    days = work["time_to_train_days"] if work is not None else None
    if days is not None and ratio > 0:
        figures["time_to_train_days"] = round(days / ratio, 3)
        figures["run_cost_usd"] = run_cost(ctx, days / ratio)
    cost = ctx.sections.get("cost")
    per_m = cost["cost_per_million_tokens_usd"] if cost is not None else None
    if per_m is not None and ratio > 0:
        figures["cost_per_million_tokens_usd"] = round(per_m / ratio, 4)
    figures["curve"] = ctx.memo.get("goodput curve", CURVE_READS, plan_curve, ctx)
    return GoodputSection(**figures), list(kept_findings)


def _job_goodput(ctx) -> tuple[dict[str, Any], list[Finding], float | None]:
    """The section's figures and findings that follow from the job's parts, the reliability
    and storage settings and the network section's step, and its ETTR (None: no training job).
    A drop that reprices the cabling (a fabric switch to another hall: about half the random
    moves on campus-1m) leaves them: the recovery paths were 0.4 of goodput's 0.5 ms there."""
    settings = ctx.plan.settings
    rel, st = settings.reliability, settings.storage
    parts = plan_parts(ctx)
    by_part = interruptions_by_part(parts, rel)
    per_day = sum(by_part.values())
    mtbf = mtbf_h(per_day)
    figures: dict[str, Any] = dict(
        job_gpus=parts.gpus, job_nodes=parts.nodes, job_hosts=parts.hosts, spare_nodes=rel.spare_nodes,
        switches=parts.switches, optical_links=parts.optical_links, interruptions_per_day=round(per_day, 4),
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
        hosts_per_node = plan_nodes(ctx).hosts_per_node
        figures.update(spare_unit=spare_unit(hosts_per_node), spares_stocked=rel.spares_stocked,
                       spares_to_cover=spares_to_cover(down, rel.spare_availability))
        findings += spare_findings(rel, down, hosts_per_node)
    storage = ctx.sections.get("storage")
    write_s = storage["checkpoint_write_s"] if storage is not None else None
    if write_s is None or not parts.gpus or not settings.workload.enabled:
        return figures, findings, None
    size_gb = storage["checkpoint_gb"]
    read = min(storage["read_gbs"], parts.nodes * (storage["node_storage_gbs"] or 0.0)
               / storage["storage_oversubscription"])
    reload_s = size_gb / read if read > 0 else 0.0
    job = _job_figures(ctx, parts, by_part, size_gb, write_s, reload_s)
    rec = recover(job, rel)
    first = rec.tiers[0]  # the tier the job checkpoints to most often
    block_s, interval_s, ratio = first.block_s, first.interval_s, rec.ettr
    lost_s = rec.lost_s - (interval_s or 0.0) / 2.0  # without the half interval of work redone
    figures.update(checkpoint_block_s=_r(block_s), reload_s=_r(first.reload_s),
                   # to 5 decimals: a checkpoint each step of a few seconds reads as that step (3.2 s, not 3.18)
                   checkpoint_interval_min=_r(None if interval_s is None else interval_s / 60.0, 5),
                   checkpoint_stall_pct=_r(100.0 * block_s / interval_s if interval_s else None),
                   lost_per_interruption_min=_r(rec.lost_s / 60.0), ettr=_r(ratio, 4),
                   recovery={"path": rec.path, "tiers": [t.to_json() for t in rec.tiers],
                             "restart_s": {k: round(v, 3) for k, v in rec.restart_s.items()},
                             "ettr_by_path": {k: round(v, 4) for k, v in ettr_by_path(job, rel).items()},
                             "nic_gbs_per_gpu": job.nic_gbs_per_gpu, "dp": job.dp, "step_s": job.step_s,
                             "fs_reload_s": _r(reload_s), "nvme_write_gbs_per_gpu": job.nvme_write_gbs_per_gpu,
                             "nvme_read_gbs_per_gpu": job.nvme_read_gbs_per_gpu})
    if interval_s is not None:
        findings += checkpoint_findings(rel, st.checkpoint_interval_min is None, interval_s, block_s, write_s,
                                         mtbf)
    findings += ettr_findings(rel, ratio, mtbf, interval_s, lost_s, job)
    findings += nvme_findings(rel, plan_nodes(ctx).nvme_unknown)
    return figures, findings, ratio


def _job_figures(ctx, parts: Parts, by_part: dict[str, float], size_gb: float, write_s: float,
                 reload_s: float) -> JobFigures:
    """What the restart paths read of the plan (``planner.goodput.recovery.JobFigures``)."""
    nic, step_s, nvme = _node_figures(ctx)
    return JobFigures(by_part, ctx.plan.settings.storage.checkpoint_interval_min, size_gb, write_s, reload_s,
                      parts.gpus, nic, max(1, ctx.plan.settings.workload.dp), step_s, *nvme)


PART_TITLES = {"gpu": "GPU", "node": "host", "switch": "switch", "optical_link": "optical link", "software": "software"}
STEP_TITLES = {"restart": "restart", "detect": "detect", "swap": "swap in a spare", "wait_for_node": "wait for a node",
               "initialise": "rebuild communicators", "reload": "reload", "step_redone": "step redone"}


def recovery_rows(g: GoodputSection | None) -> list[tuple[str, str]]:
    """The goodput section's recovery as (label, text) rows a person reads: the restart path
    and what each path would give, the interruptions a day by part, the time lost per
    interruption by step and the checkpoint tiers. Empty without a training job."""
    rec = g.recovery if g is not None else None
    if not rec:
        return []
    by_path = rec["ettr_by_path"]
    paths = ", ".join(f"{p} {by_path[p]:.1%}" for p in ("cold", "warm", "replica"))
    parts = ", ".join(f"{PART_TITLES.get(k, k)} {v:,.2f}" for k, v in g.interruptions_by_part.items() if v)
    steps = ", ".join(f"{STEP_TITLES.get(k, k)} {duration_text(v)}" for k, v in rec["restart_s"].items() if v)
    if rec["path"] == "replica":
        steps += f", for 1 of {rec['dp']:,} data-parallel replicas"
    tiers = "; ".join(f"{t['name']}: every {duration_text(t['interval_min'] * 60) if t['interval_min'] else '-'}, "
                      f"blocks {duration_text(t['block_s'])}, reload {duration_text(t['reload_s'])}"
                      for t in rec["tiers"])
    return [("Restart path", f"{rec['path']}: ETTR {g.ettr:.1%} (each path: {paths})"),
            ("Interruptions a day", f"{g.interruptions_per_day:,.2f} ({parts or 'none'})"),
            ("Lost per interruption", steps or "-"),
            ("Checkpoint tiers", tiers)]
