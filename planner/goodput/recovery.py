"""How a training job recovers from an interruption, and what each way costs it.

Three restart paths (``ReliabilitySettings.restart_path``):

- **cold**: the whole job stops, is rescheduled and initialised again and reloads the last
  checkpoint from the parallel file system (``restart_min`` for the fixed steps; the reload
  from the storage section). Meta's Llama 3 run recovered so, automated, with above 90 %
  effective training time on 16K H100 (Dubey et al. 2024, section 3.3.4).
- **warm**: the job keeps its allocation. The failed host is swapped for a hot spare, the
  communicators are rebuilt and every GPU reloads its shard from a copy in the host memory of
  a peer, written every step or few (in-memory checkpoints: Wang et al., "Gemini: Fast
  Failure Recovery in Distributed Training with In-Memory Checkpoints", SOSP 2023). Steps:
  detect, swap, initialise, reload.
- **replica**: fault-tolerant data parallelism. Only the data-parallel replica that holds
  the failed part stops; the others go on with one replica fewer, and the rebuilt replica
  rejoins from a live peer's weights (torchft: "Fault Tolerant Llama: training with 2000
  synthetic failures every ~15 seconds and no checkpoints", PyTorch blog, 2025). An
  interruption costs its replica's share of the job, 1 / DP, for the steps above.

Checkpoint tiers: **memory** (host memory and a peer's; blocks the job for the copy from
GPU memory, ``snapshot_gbs_per_gpu``; read back over the GPU's NIC) for the warm path;
**local NVMe** (``nvme_checkpoint``) for the cold path: each host writes its shard and one
peer host's copy to its own data drives (the catalog's ``local_nvme``), the peer's over the
NIC; after a restart every host reads its shard back from its drives, and a host swapped in
for a failed one (its drives went with it) reads the shard from the peer's; and the **file
system** (the storage section's write and read times; written in the background from host
memory on the warm and replica paths and behind the NVMe tier, blocking on the cold path
unless checkpoints are asynchronous). A share of interruptions (``uncovered_share``: a host
and the peer holding its copy lost at once) falls back to a cold restart from the file
system on every path with a faster tier. The warm and replica paths do not use the NVMe
tier: a peer's host memory (or a live replica) serves every interruption a peer's drives
could, sooner.

Each tier's interval is Young's, sqrt(2 x blocking time x the mean time between the
interruptions it serves), no shorter than a training step (a copy is taken between steps)
nor than its own write; ETTR = (1 - sum over interruptions of their share of the time lost)
x interval / (interval + block), as ``planner.goodput.model.ettr``.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.goodput.model import (HOURS_PER_DAY, NODE_CLASSES, checkpointing, nodes_in_repair, running_share, wait_min,
                                   young_interval_s)
from planner.settings.reliability import RESTART_PATHS, ReliabilitySettings


@dataclass(frozen=True, slots=True)
class Tier:
    name: str  # "memory" or "file system"
    write_s: float  # the write; the job is blocked for ``block_s`` of it
    block_s: float
    reload_s: float
    interval_s: float | None  # None: nothing fails

    def to_json(self) -> dict:
        return {"name": self.name, "write_s": round(self.write_s, 3), "block_s": round(self.block_s, 3),
                "reload_s": round(self.reload_s, 3),
                "interval_min": None if self.interval_s is None else round(self.interval_s / 60.0, 3)}


@dataclass(frozen=True, slots=True)
class Recovery:
    """One restart path's figures for a job: its checkpoint tiers, the steps of a restart
    (seconds), the time lost per interruption (whole-job seconds, half an interval of work
    redone included) and the effective training time ratio."""

    path: str
    tiers: tuple[Tier, ...]  # the one written most often first
    restart_s: dict[str, float]
    lost_s: float
    ettr: float


@dataclass(frozen=True, slots=True)
class JobFigures:
    """What recovery reads of the plan: the interruptions per day by part, a fixed checkpoint
    interval (None: Young's), the checkpoint's size, the file system's write and read times
    for it, the job's GPUs, each GPU's NIC in GB/s, its data-parallel replicas, its step
    time and each GPU's share of its host's local NVMe, written and read, in GB/s (None: the
    catalog has no figure)."""

    by_part: dict[str, float]
    fixed_interval_min: float | None
    checkpoint_gb: float
    fs_write_s: float
    fs_reload_s: float
    gpus: int
    nic_gbs_per_gpu: float | None
    dp: int
    step_s: float
    nvme_write_gbs_per_gpu: float | None = None
    nvme_read_gbs_per_gpu: float | None = None

    @property
    def per_day(self) -> float:
        return sum(self.by_part.values())

    @property
    def node_share(self) -> float:
        """Of the interruptions, those that take a node out (it is swapped or waited for)."""
        per_day = self.per_day
        return sum(self.by_part[k] for k in NODE_CLASSES) / per_day if per_day else 0.0


def _mtbf_s(per_day: float) -> float | None:
    return HOURS_PER_DAY * 3600.0 / per_day if per_day > 0 else None


def _interval(block_s: float, mtbf_s: float | None, floor_s: float) -> float | None:
    if mtbf_s is None:
        return None
    return max(young_interval_s(block_s, mtbf_s), floor_s)


def _ratio(lost_per_day_s: float, interval_s: float | None, block_s: float) -> float:
    return max(0.0, 1.0 - lost_per_day_s / (HOURS_PER_DAY * 3600.0)) * running_share(interval_s, block_s)


def cold(job: JobFigures, rel: ReliabilitySettings) -> Recovery:
    """The whole job restarted from the file system (``planner.goodput.model.checkpointing``),
    or with the NVMe tier on and known, from the hosts' local drives (``_cold_from_nvme``)."""
    if nvme_known(job, rel):
        return _cold_from_nvme(job, rel)
    run = checkpointing(job.by_part, rel, job.fixed_interval_min, job.fs_write_s, job.checkpoint_gb, job.gpus,
                        job.fs_reload_s)
    steps = {"restart": rel.restart_min * 60.0, "wait_for_node": run.lost_s - rel.restart_min * 60.0 - job.fs_reload_s,
             "reload": job.fs_reload_s}
    tier = Tier("file system", job.fs_write_s, run.block_s, job.fs_reload_s, run.interval_s)
    return Recovery("cold", (tier,), steps, run.lost_s + (run.interval_s or 0.0) / 2.0, run.ettr)


def _fallback(job: JobFigures, rel: ReliabilitySettings) -> tuple[Tier, float, float]:
    """The file-system tier written in the background for the interruptions the fast path
    cannot serve, and the time each of those costs (a cold restart from it), with their rate
    per day."""
    per_day = job.per_day * rel.uncovered_share
    interval = _interval(job.fs_write_s, _mtbf_s(per_day), job.fs_write_s)
    tier = Tier("file system", job.fs_write_s, 0.0, job.fs_reload_s, interval)
    lost = rel.restart_min * 60.0 + job.fs_reload_s + (interval or 0.0) / 2.0
    return tier, lost, per_day


def _lost_a_day(job: JobFigures, per_day: float, lost_s: float, fs_per_day: float,
                fs_lost_s: float) -> tuple[float, float]:
    """Seconds lost a day, and per interruption on average, when ``per_day`` interruptions
    cost ``lost_s`` each and the ``fs_per_day`` the fast tier cannot serve ``fs_lost_s``."""
    day = per_day * lost_s + fs_per_day * fs_lost_s
    return day, day / job.per_day if job.per_day else lost_s


def _wait_s(job: JobFigures, rel: ReliabilitySettings) -> float:
    # the interruptions that take a unit out wait for one unless a hot spare is idle: a stocked
    # one's swap, or one from the pool (``wait_min``, over the units expected in repair)
    return wait_min(rel, nodes_in_repair(job.by_part, rel)) * 60.0 * job.node_share


def nvme_known(job: JobFigures, rel: ReliabilitySettings) -> bool:
    """The NVMe tier is on and the catalog gives every node type's drives."""
    return rel.nvme_checkpoint and job.nvme_write_gbs_per_gpu is not None and job.nvme_read_gbs_per_gpu is not None


def nvme_tier_times(job: JobFigures, rel: ReliabilitySettings) -> tuple[float, float, float]:
    """The NVMe tier's write, the job's block for it and the mean reload (seconds).

    Each GPU's shard, checkpoint / GPUs, is written twice to its host's drives (its own and
    a peer's, arriving over the NIC): 2 x shard / the drives' write per GPU, no faster than
    the shard over the NIC. The job is blocked for that write, or with asynchronous
    checkpoints only for the copy to host memory. A reload reads the shard from the host's
    own drives; after an interruption that took a unit out, the host swapped in reads it from
    the peer's over the NIC: the reload is the mean over those shares."""
    shard = job.checkpoint_gb / job.gpus
    nic = job.nic_gbs_per_gpu
    write = max(2.0 * shard / job.nvme_write_gbs_per_gpu, shard / nic if nic else 0.0)
    block = shard / rel.snapshot_gbs_per_gpu if rel.async_checkpoint else write
    local = shard / job.nvme_read_gbs_per_gpu
    peer = shard / min(job.nvme_read_gbs_per_gpu, nic or job.nvme_read_gbs_per_gpu)
    return write, block, job.node_share * peer + (1.0 - job.node_share) * local


def _cold_from_nvme(job: JobFigures, rel: ReliabilitySettings) -> Recovery:
    """The whole job restarted from its hosts' local NVMe copies, at Young's interval for the
    interruptions those serve (no shorter than a step nor than the write); the rest restart
    from the file system, written in the background."""
    fs, fs_lost, fs_per_day = _fallback(job, rel)
    per_day = job.per_day - fs_per_day
    write, block, reload = nvme_tier_times(job, rel)
    interval = _interval(block, _mtbf_s(per_day), max(job.step_s, write))
    steps = {"restart": rel.restart_min * 60.0, "wait_for_node": _wait_s(job, rel), "reload": reload}
    lost_day, mean_lost = _lost_a_day(job, per_day, sum(steps.values()) + (interval or 0.0) / 2.0, fs_per_day,
                                      fs_lost)
    nvme = Tier("local NVMe", write, block, reload, interval)
    return Recovery("cold", (nvme, fs), steps, mean_lost, _ratio(lost_day, interval, block))


def _swap_steps(job: JobFigures, rel: ReliabilitySettings, reload_s: float) -> dict[str, float]:
    return {"detect": rel.detect_s, "swap": rel.swap_s, "wait_for_node": _wait_s(job, rel),
            "initialise": rel.initialise_s, "reload": reload_s}


def _peer_reload_s(job: JobFigures, rel: ReliabilitySettings) -> float:
    """A GPU's shard of the checkpoint read from a peer's host memory: over its NIC, into GPU
    memory no faster than the host copy."""
    shard_gb = job.checkpoint_gb / job.gpus
    rate = min(rel.snapshot_gbs_per_gpu, job.nic_gbs_per_gpu or rel.snapshot_gbs_per_gpu)
    return shard_gb / rate


def warm(job: JobFigures, rel: ReliabilitySettings) -> Recovery:
    """In place: a hot spare swapped in, the shards reloaded from peers' host memory."""
    fs, fs_lost, fs_per_day = _fallback(job, rel)
    per_day = job.per_day - fs_per_day
    copy_s = job.checkpoint_gb / (job.gpus * rel.snapshot_gbs_per_gpu)
    reload_s = _peer_reload_s(job, rel)
    interval = _interval(copy_s, _mtbf_s(per_day), job.step_s)
    memory = Tier("memory", copy_s, copy_s, reload_s, interval)
    steps = _swap_steps(job, rel, reload_s)
    lost_day, mean_lost = _lost_a_day(job, per_day, sum(steps.values()) + (interval or 0.0) / 2.0, fs_per_day,
                                      fs_lost)
    return Recovery("warm", (memory, fs), steps, mean_lost, _ratio(lost_day, interval, copy_s))


def replica(job: JobFigures, rel: ReliabilitySettings) -> Recovery:
    """Fault-tolerant data parallelism: the failed replica rebuilt while the others train."""
    if job.dp < 2:  # one replica: it is the whole job
        return warm(job, rel)
    fs, fs_lost, fs_per_day = _fallback(job, rel)
    per_day = job.per_day - fs_per_day
    # the rebuilt replica takes its weights and optimizer state from a live one: its shard of
    # the checkpoint's bytes, over its NIC
    steps = _swap_steps(job, rel, _peer_reload_s(job, rel))
    steps["step_redone"] = job.step_s  # the failed replica's step in progress
    lost_day, mean_lost = _lost_a_day(job, per_day, sum(steps.values()) / job.dp, fs_per_day, fs_lost)
    return Recovery("replica", (fs,), steps, mean_lost, _ratio(lost_day, None, 0.0))


def recover(job: JobFigures, rel: ReliabilitySettings, path: str | None = None) -> Recovery:
    """The figures of ``path`` (default: the settings')."""
    return {"cold": cold, "warm": warm, "replica": replica}[path or rel.restart_path](job, rel)


def ettr_by_path(job: JobFigures, rel: ReliabilitySettings) -> dict[str, float]:
    return {p: recover(job, rel, p).ettr for p in RESTART_PATHS}


def simplest_reaching(job: JobFigures, rel: ReliabilitySettings, target: float) -> tuple[str, bool]:
    """The first restart path, in the order of what it asks of the software (cold, warm,
    replica), whose ETTR reaches ``target``; else the one with the highest, and False."""
    by_path = ettr_by_path(job, rel)
    for p in RESTART_PATHS:
        if by_path[p] >= target:
            return p, True
    return max(RESTART_PATHS, key=lambda p: by_path[p]), False


def job_of(g, storage, fixed_interval_min: float | None) -> JobFigures:
    """The figures the restart paths read, from a goodput section (``g``, with its
    ``recovery``) and the storage section it was worked out from."""
    rec = g.recovery
    return JobFigures(dict(g.interruptions_by_part), fixed_interval_min, storage["checkpoint_gb"],
                      storage["checkpoint_write_s"], rec["fs_reload_s"], g.job_gpus, rec["nic_gbs_per_gpu"],
                      rec["dp"], rec["step_s"], rec.get("nvme_write_gbs_per_gpu"), rec.get("nvme_read_gbs_per_gpu"))
