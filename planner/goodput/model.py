"""The failure model of a plan and the checkpoint/restart arithmetic, pure functions.

- interruptions per day = sum over the part classes of (parts x failures per part-day); host
  and software failures are counted per host, the unit with its own CPUs, NICs, BMC and OS
  (a server, or one of an NVL72's 18 compute trays), as the rates are per server-day;
  a synchronous job stops at any one of them (Kokolis et al., "Revisiting Reliability in
  Large-Scale Machine Learning Research Clusters", HPCA 2025: a job's MTTF falls as 1 / size);
- units in repair when one more fails: Poisson with mean (GPU and host interruptions per
  day x repair days) (an M/G/infinity queue); a hot spare spares the wait while fewer are in
  repair than hot spares, and the spares kept are those a failure finds free with the chance
  ``spare_availability``;
- mean time between interruptions (MTBF) = 24 h / interruptions per day;
- checkpoint interval, automatic = sqrt(2 x blocking time x MTBF) (J. W. Young, "A first
  order approximation to the optimum checkpoint interval", CACM 17(9), 1974);
- ETTR = (1 - (restart + re-load + interval / 2) / MTBF) x interval / (interval + blocking):
  each interruption costs the restart, reading the checkpoint back and on average half an
  interval of work done again; each interval is followed by the time the job is blocked
  writing (or, asynchronously, copying to host memory).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.settings.reliability import ReliabilitySettings

HOURS_PER_DAY = 24.0


# interruptions that take a node out: one unit the vendor swaps, a node or a rack-scale
# system's compute tray (it is swapped for a spare or waited for)
NODE_CLASSES = ("gpu", "node")


@dataclass(frozen=True, slots=True)
class Parts:
    """What a job depends on: its GPUs, nodes and their hosts (spares excluded), every switch
    placed and every optical link cabled. A host is what fails and what is swapped: a node, or
    one compute tray of a rack-scale system (its NVLink domain waits for the tray's swap)."""

    gpus: int
    nodes: int
    hosts: int
    switches: int = 0
    optical_links: int = 0


def interruptions_by_part(parts: Parts, rates: ReliabilitySettings) -> dict[str, float]:
    """Expected interruptions per day of a job on ``parts``, by part class."""
    per_day = {
        "gpu": parts.gpus * rates.gpu_failures_per_1000_gpu_days,
        "node": parts.hosts * rates.node_failures_per_1000_node_days,
        "switch": parts.switches * rates.switch_failures_per_1000_switch_days,
        "optical_link": parts.optical_links * rates.link_failures_per_1000_link_days,
        "software": parts.hosts * rates.software_failures_per_1000_node_days,
    }
    return {k: v / 1000.0 for k, v in per_day.items()}


def nodes_in_repair(by_part: dict[str, float], rates: ReliabilitySettings) -> float:
    """Units expected in repair at once: the interruptions per day that take a unit out
    (``NODE_CLASSES``: each takes one node, or one compute tray of a rack-scale system) x the
    days one takes to repair (Little's law, L = arrival rate x time)."""
    return sum(by_part[k] for k in NODE_CLASSES) * rates.repair_days


def spares_to_cover(down: float, availability: float) -> int:
    """The fewest spares for ``down`` units expected in repair at once: none while less
    than one is (the shared pool serves), else enough that a failing unit finds one free
    with the chance ``availability`` (``poisson_quantile``)."""
    return 0 if down < 1.0 else poisson_quantile(availability, down)


def spares_kept(rates: ReliabilitySettings) -> int:
    """Spares kept: the hot spares placed and those stocked. A hot spare rack-scale system
    covers one failed compute tray, not its 18: the job leaves the failed system whole for it
    (its NVLink domain is down until the tray is back)."""
    return rates.spare_nodes + rates.spares_stocked


def _poisson_window(mean: float) -> tuple[int, int, float]:
    """Where a Poisson(``mean``) has its mass, ``(lo, hi, P(K = lo))``: outside mean +- 12
    standard deviations (and 10) each term is below e^-72, nothing a float's sum keeps."""
    spread = 12.0 * math.sqrt(mean) + 10.0
    lo, hi = max(0, int(mean - spread)), int(mean + spread) + 1
    return lo, hi, math.exp(lo * math.log(mean) - mean - math.lgamma(lo + 1.0))


def poisson_below(k: int, mean: float) -> float:
    """P(K < k) for K Poisson with ``mean``: the chance that fewer than ``k`` units are in
    repair when one more fails (an arrival sees the steady state of the units in repair,
    an M/G/infinity queue: Poisson with mean arrival rate x repair time, whatever the repair
    time's spread)."""
    if k <= 0:
        return 0.0
    if mean <= 0:
        return 1.0
    lo, hi, term = _poisson_window(mean)
    if k >= hi:
        return 1.0
    total = 0.0
    for i in range(lo, k):
        total += term
        term *= mean / (i + 1)
    return min(1.0, total)


def poisson_quantile(level: float, mean: float) -> int:
    """The fewest ``n`` with P(K < n) >= ``level``, K Poisson with ``mean``."""
    if mean <= 0:
        return 1
    lo, hi, term = _poisson_window(mean)
    total, n = 0.0, lo
    while n < hi:
        total += term
        term *= mean / (n + 1)
        n += 1
        if total >= level:
            return n
    return hi


def spare_chances(rates: ReliabilitySettings, down: float) -> tuple[float, float]:
    """The chances that a unit failing with ``down`` units expected in repair at once finds a
    hot spare idle (fewer units in repair than hot spares; a hot rack-scale system covers one,
    as ``spares_kept``), and that it finds none but a stocked one on the shelf."""
    hot = rates.spare_nodes
    idle = poisson_below(hot, down)
    stocked = poisson_below(hot + rates.spares_stocked, down) - idle if rates.spares_stocked else 0.0
    return idle, stocked


def wait_min(rates: ReliabilitySettings, down: float) -> float:
    """The mean wait (minutes) on an interruption that takes a unit out (``spare_chances``):
    none with a hot spare idle, the shorter of a stocked spare's swap and a node from the
    shared pool with one on the shelf, the pool's once the spares kept are all in use."""
    idle, stocked = spare_chances(rates, down)
    pool = max(0.0, 1.0 - idle - stocked)
    return stocked * min(rates.swap_spare_min, rates.replace_node_min) + pool * rates.replace_node_min


def mtbf_h(interruptions_per_day: float) -> float | None:
    """Mean time between interruptions in hours; None when nothing fails."""
    return HOURS_PER_DAY / interruptions_per_day if interruptions_per_day > 0 else None


def young_interval_s(block_s: float, mtbf_s: float) -> float:
    """Young's optimum checkpoint interval, sqrt(2 x blocking time x MTBF) (CACM 1974)."""
    return math.sqrt(2.0 * block_s * mtbf_s)


def running_share(interval_s: float | None, block_s: float) -> float:
    """The share of the time the job trains between checkpoints, interval / (interval + block):
    all of it with no checkpoint to block on (no interval, or nothing to write)."""
    if interval_s is None or interval_s + block_s <= 0:
        return 1.0
    return interval_s / (interval_s + block_s)


def ettr(interval_s: float, block_s: float, lost_s: float, mtbf_s: float | None) -> float:
    """Effective training time ratio for a checkpoint every ``interval_s`` of training that
    blocks the job ``block_s``, each interruption costing ``lost_s`` (restart and re-load)
    plus half an interval: (1 - (lost + interval / 2) / MTBF) x interval / (interval + block),
    at least 0."""
    running = running_share(interval_s, block_s)
    if mtbf_s is None:
        return running
    return max(0.0, 1.0 - (lost_s + interval_s / 2.0) / mtbf_s) * running


@dataclass(frozen=True, slots=True)
class Checkpointing:
    """A job's checkpoint and restart figures at one size (seconds; None: nothing fails)."""

    per_day: float
    mtbf_s: float | None
    block_s: float
    interval_s: float | None
    lost_s: float  # restart, re-load and the wait for a node, per interruption
    ettr: float


def checkpointing(by_part: dict[str, float], rates: ReliabilitySettings, fixed_interval_min: float | None,
                  write_s: float, size_gb: float, gpus: int, reload_s: float) -> Checkpointing:
    """The interval (fixed, or Young's for the blocking time; asynchronously at least one
    write), the time lost per interruption (the restart, the re-load and the mean wait for a
    unit on the interruptions that take one out: ``wait_min``) and ETTR."""
    per_day = sum(by_part.values())
    hours = mtbf_h(per_day)
    mtbf_s = None if hours is None else hours * 3600.0
    block_s = size_gb / (gpus * rates.snapshot_gbs_per_gpu) if rates.async_checkpoint else write_s
    if fixed_interval_min is not None:
        interval_s = fixed_interval_min * 60.0
    elif mtbf_s is None:
        interval_s = None
    else:
        interval_s = max(young_interval_s(block_s, mtbf_s), write_s if rates.async_checkpoint else 0.0)
    node_share = (by_part["gpu"] + by_part["node"]) / per_day if per_day else 0.0
    wait_s = wait_min(rates, nodes_in_repair(by_part, rates)) * 60.0 * node_share
    lost_s = rates.restart_min * 60.0 + reload_s + wait_s
    ratio = ettr(interval_s, block_s, lost_s, mtbf_s) if interval_s is not None else 1.0
    return Checkpointing(per_day, mtbf_s, block_s, interval_s, lost_s, ratio)
