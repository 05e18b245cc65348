"""The goodput section's findings (spares short, checkpoints too close, ETTR too low, the
NVMe tier left out) and the texts they share with the views: durations and restart paths."""

from __future__ import annotations

from planner.findings import Finding, Remedy
from planner.goodput.model import spares_kept, spares_to_cover
from planner.goodput.recovery import JobFigures, recover, simplest_reaching


def nvme_findings(rel, unknown: tuple[str, ...]) -> list[Finding]:
    """The NVMe tier asked for where the catalog gives a node type no local drives: left out."""
    return [Finding("info", "goodput.nvme.unknown", f"Local NVMe checkpoint tier left out: the catalog gives no "
                    f"local NVMe drives for {', '.join(unknown)}, so a cold restart reloads from the file system; "
                    "add the node type's local_nvme (drives, each drive's datasheet write and read) to use it")
            ] if rel.nvme_checkpoint and unknown else []


def spare_unit(hosts_per_node: int) -> str:
    """The unit the vendor swaps: a compute tray of a rack-scale system (hosts per node above
    one), else the node."""
    return "compute tray" if hosts_per_node > 1 else "node"


def spare_findings(rel, down: float, hosts_per_node: int) -> list[Finding]:
    """Spares short of the units (nodes, or compute trays) expected to be in repair at once:
    hot spares (a rack-scale system covers one failed tray) and stocked ones together."""
    kept, need = spares_kept(rel), spares_to_cover(down, rel.spare_availability)
    if kept < need:
        unit = spare_unit(hosts_per_node)
        stocked = f" ({rel.spares_stocked:,} in stock)" if rel.spares_stocked else ""
        return [Finding(
            "warning", "goodput.spares.short",
            f"{down:,.1f} {unit}s are expected to fail within one {rel.repair_days:g}-day repair time and "
            f"{kept:,} spare {unit}{'s are' if kept != 1 else ' is'} kept{stocked}: the job waits "
            f"{rel.replace_node_min:g} min for a {unit} after the spares run out; keep at least "
            f"{need:,} spare {unit}s (enough for {rel.spare_availability:.0%} of failures) or repair faster")]
    return []


def checkpoint_findings(rel, auto: bool, interval_s: float, block_s: float, write_s: float,
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


def ettr_findings(rel, ratio: float, mtbf: float | None, interval_s: float | None,
                   lost_s: float, job: JobFigures) -> list[Finding]:
    """ETTR below the lowest acceptable is a warning; below ``cannot_train_ettr`` the job
    cannot train (an error). Either carries the simplest restart path that reaches the
    lowest acceptable, when one does and it is not the plan's."""
    if ratio >= rel.min_ettr:
        return []
    at = f"an interruption every {duration_text(mtbf * 3600)}" if mtbf else "no interruptions"
    every = f", checkpoints every {duration_text(interval_s)}" if interval_s else ""
    path, reaches = simplest_reaching(job, rel, rel.min_ettr)
    remedy = None
    if path != rel.restart_path and recover(job, rel, path).ettr > ratio:
        better = recover(job, rel, path).ettr
        remedy = Remedy("set_restart_path", f"Recover {PATH_TITLES[path]} (ETTR {better:.1%})", (("path", path),))
    others = ("use asynchronous checkpoints, a faster storage tier, hot spares to cut the restart, or fewer "
              "parts that fail")
    if remedy is None:
        advice = others + ("" if reaches else "; no modelled restart path reaches it")
    elif reaches:
        advice = f"recover {PATH_TITLES[path]}, which reaches {recover(job, rel, path).ettr:.1%}"
    else:
        advice = (f"recover {PATH_TITLES[path]}, the best modelled path at {recover(job, rel, path).ettr:.1%}, "
                  f"and {others}")
    cannot = ratio < rel.cannot_train_ettr
    return [Finding(
        "error" if cannot else "warning", "goodput.ettr.cannot_train" if cannot else "goodput.ettr.low",
        f"Effective training time ratio {ratio:.1%} is below {rel.min_ettr:.0%}"
        f"{f' and below {rel.cannot_train_ettr:.0%}: the job cannot train' if cannot else ''} ({at}{every}, "
        f"{duration_text(lost_s)} to recover each, on the {rel.restart_path} path): {advice}", remedy=remedy)]


PATH_TITLES = {"cold": "cold (restart the whole job from the file system)",
               "warm": "warm (swap in a hot spare, reload from peers' memory)",
               "replica": "by replica (only the failed data-parallel replica restarts)"}


def duration_text(seconds: float) -> str:
    """A duration in the unit that reads: "2.8 s", "3.7 min", "10.0 h" (a million GPUs are
    interrupted every few minutes and checkpoint every few seconds)."""
    if round(seconds, 1) < 60:  # the unit after rounding: 59.96 s is "1.0 min", not "60.0 s"
        return f"{seconds:,.1f} s"
    if round(seconds / 60, 1) < 60:
        return f"{seconds / 60:,.1f} min"
    return f"{seconds / 3600:,.1f} h"
