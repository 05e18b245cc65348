"""The restart paths (cold, warm, replica) and their checkpoint tiers, worked by hand."""

from __future__ import annotations

import math

import pytest

from planner.goodput.model import checkpointing
from planner.goodput.recovery import JobFigures, cold, recover, replica, simplest_reaching, warm
from planner.settings.reliability import ReliabilitySettings

# 24 interruptions a day (one an hour): 20 GPU and 4 host failures, which take a node out.
BY_PART = {"gpu": 20.0, "node": 4.0, "switch": 0.0, "optical_link": 0.0, "software": 0.0}
# A 70B model's 980 GB checkpoint on 1,024 GPUs with a 400G NIC each (50 GB/s), written to the
# file system in 10 s and read back in 5 s; 128 data-parallel replicas, 5 s steps.
JOB = JobFigures(BY_PART, None, 980.0, 10.0, 5.0, 1024, 50.0, 128, 5.0)
# 24 a day x a 3-day repair: 72 nodes in repair at once on average (Poisson); 200 hot spares
# are all in use less often than once in 10^30 failures: nothing waits for a node.
REL = ReliabilitySettings(spare_nodes=200)


def fs_fallback() -> tuple[float, float]:
    """1 % of 24 a day restart cold: Young's interval for a 10 s write over their mean time
    between, 86,400 / 0.24 = 360,000 s: sqrt(2 x 10 x 360,000) = 2,683.3 s; each costs the
    10-minute restart, the 5 s reload and half an interval."""
    interval = math.sqrt(2 * 10 * 360_000)
    return interval, 600 + 5 + interval / 2


def test_warm_checkpoints_to_memory_by_young_and_falls_back_to_the_file_system():
    r = warm(JOB, REL)
    memory, fs = r.tiers
    # copy to host memory: 980 GB / (1,024 GPUs x 25 GB/s) = 38.3 ms, the job blocked for it;
    # read back from a peer: each GPU's 0.957 GB at min(25, 50) GB/s, the same 38.3 ms
    copy = 980 / (1024 * 25)
    assert memory.block_s == pytest.approx(copy) and memory.reload_s == pytest.approx(copy)
    # Young over the 23.76 a day the memory tier serves: 86,400 / 23.76 = 3,636.4 s between
    # them, sqrt(2 x 0.0383 x 3,636.4) = 16.69 s (above the 5 s step)
    interval = math.sqrt(2 * copy * 86400 / 23.76)
    assert memory.interval_s == pytest.approx(interval) and interval == pytest.approx(16.69, abs=0.01)
    fs_interval, fs_lost = fs_fallback()
    assert fs.block_s == 0 and fs.interval_s == pytest.approx(fs_interval)
    # each warm recovery: detect 30 + swap 60 + rebuild 30 + reload, and half an interval redone
    steps = 30 + 60 + 30 + copy
    assert sum(r.restart_s.values()) == pytest.approx(steps)
    lost_per_day = 23.76 * (steps + interval / 2) + 0.24 * fs_lost
    assert r.ettr == pytest.approx((1 - lost_per_day / 86400) * interval / (interval + copy))


def test_replica_costs_one_replica_of_128_for_the_swap():
    r = replica(JOB, REL)
    # the failed replica, 1 of 128, is out for the detect, swap, rebuild, its shard from a live
    # replica (38.3 ms) and its step in progress (5 s); no memory checkpoints block the job
    per = (30 + 60 + 30 + 980 / 1024 / 25 + 5) / 128
    _, fs_lost = fs_fallback()
    assert r.ettr == pytest.approx(1 - (23.76 * per + 0.24 * fs_lost) / 86400)
    assert r.ettr > warm(JOB, REL).ettr > cold(JOB, REL).ettr


def test_one_replica_recovers_as_warm():
    one = JobFigures(BY_PART, None, 980.0, 10.0, 5.0, 1024, 50.0, 1, 5.0)
    assert replica(one, REL).ettr == warm(one, REL).ettr


def test_cold_is_the_goodput_model_as_it_was():
    run = checkpointing(BY_PART, REL, None, 10.0, 980.0, 1024, 5.0)
    r = cold(JOB, REL)
    assert r.ettr == run.ettr and r.tiers[0].interval_s == run.interval_s
    # with spares kept, nothing waits for a node: the 10-minute restart and the reload
    assert r.restart_s == {"restart": 600.0, "wait_for_node": 0.0, "reload": 5.0}


def test_without_spares_a_swap_waits_for_a_node():
    rel = ReliabilitySettings(spare_nodes=0)
    # every one of these interruptions takes a node out: 30 min for a replacement
    assert warm(JOB, rel).restart_s["wait_for_node"] == pytest.approx(30 * 60)
    assert recover(JOB, rel, "warm").ettr < warm(JOB, REL).ettr


def test_the_simplest_path_that_reaches_the_target():
    by = {p: recover(JOB, REL, p).ettr for p in ("cold", "warm", "replica")}
    assert simplest_reaching(JOB, REL, by["cold"]) == ("cold", True)
    assert simplest_reaching(JOB, REL, by["warm"]) == ("warm", True)
    assert simplest_reaching(JOB, REL, 1.0) == ("replica", False)  # none reaches: the best


def test_the_design_keeps_a_cold_restart_where_it_reaches_90_percent():
    # Llama 3's scale, 16,384 H100: about 8 interruptions a day at its own rates, and Meta
    # reports above 90 % effective training time with automated cold restarts; the design
    # needs nothing faster, and says nothing about it.
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.hardware.catalog import default_catalog
    from planner.report.evaluate import evaluate

    cat = default_catalog()
    result = design(Intent(system="dgx-h100", gpus=16384, fabric="eth400_roce", model="llama3-405b",
                           seq_len=8192, batch_tokens=2048 * 8192), cat)
    g = evaluate(result.plan, cat).sections["goodput"]
    assert result.plan.settings.reliability.restart_path == "cold"
    assert "design.recovery" not in {f.code for f in result.findings}
    assert 6 <= g["interruptions_per_day"] <= 10 and g["ettr"] >= 0.9


# The same job on DGX H100 nodes checkpointing to their local NVMe: 8 x 3.84 TB U.2 drives a
# node (DGX H100 user guide) at 3.8 GB/s sequential write and 6.4 GB/s read each (Samsung
# PM1733 3.84 TB U.2 product brief), 8 GPUs a node: 3.8 GB/s written and 6.4 GB/s read per GPU.
NVME_JOB = JobFigures(BY_PART, None, 980.0, 10.0, 5.0, 1024, 50.0, 128, 5.0, 3.8, 6.4)
NVME = ReliabilitySettings(spare_nodes=200, nvme_checkpoint=True)


def test_a_cold_restart_reloads_from_local_nvme_written_by_young():
    r = cold(NVME_JOB, NVME)
    nvme, fs = r.tiers
    assert (nvme.name, fs.name) == ("local NVMe", "file system")
    # each GPU's shard, 980 / 1,024 = 0.957 GB, written twice (its own and a peer's) at 3.8 GB/s:
    # 2 x 0.957 / 3.8 = 0.504 s; the peer's copy over the 50 GB/s NIC takes 0.019 s, not the
    # bound. Synchronous checkpoints: the job is blocked for the whole write.
    assert nvme.write_s == pytest.approx(0.5037, abs=1e-4) and nvme.block_s == nvme.write_s
    # read back at 6.4 GB/s: 0.957 / 6.4 = 0.150 s, from the host's own drives or, for a host
    # swapped in, from its peer's (6.4 GB/s drives behind a 50 GB/s NIC: the same 0.150 s)
    assert nvme.reload_s == pytest.approx(0.1495, abs=1e-4)
    # Young over the 23.76 a day the tier serves (1 % restart from the file system): 86,400 /
    # 23.76 = 3,636.4 s between them, sqrt(2 x 0.5037 x 3,636.4) = 60.53 s (above the 5 s step
    # and the write)
    assert nvme.interval_s == pytest.approx(60.53, abs=0.01)
    fs_interval, fs_lost = fs_fallback()
    assert fs.block_s == 0 and fs.interval_s == pytest.approx(fs_interval)
    # each restart: the 10 minutes, no wait (spares), the 0.150 s reload and half of 60.53 s redone
    lost = 600 + 0.1495 + 60.53 / 2
    assert r.restart_s == pytest.approx({"restart": 600.0, "wait_for_node": 0.0, "reload": 0.1495}, abs=1e-4)
    ettr = (1 - (23.76 * lost + 0.24 * fs_lost) / 86400) * 60.53 / (60.53 + 0.5037)
    assert r.ettr == pytest.approx(ettr, abs=1e-4) and r.ettr == pytest.approx(0.8145, abs=1e-4)
    # against 0.766 restarting from the file system (a 10 s write, a checkpoint every 268 s)
    assert cold(JOB, REL).ettr == pytest.approx(0.766, abs=1e-3)


def test_a_host_swapped_in_reads_its_shard_from_the_peer_over_the_nic():
    # one 200G NIC shared by 8 GPUs: 25 / 8 = 3.125 GB/s each. Of 24 interruptions a day 20
    # take a node out (GPU 18, host 2), whose replacement reads 0.957 GB from the peer's drives
    # over the NIC (0.306 s); the 4 software ones read the local drives (0.150 s): the job waits
    # 20/24 x 0.306 + 4/24 x 0.150 = 0.280 s on average
    by_part = {"gpu": 18.0, "node": 2.0, "switch": 0.0, "optical_link": 0.0, "software": 4.0}
    slow_nic = JobFigures(by_part, None, 980.0, 10.0, 5.0, 1024, 3.125, 128, 5.0, 3.8, 6.4)
    nvme = cold(slow_nic, NVME).tiers[0]
    assert nvme.reload_s == pytest.approx(0.2801, abs=1e-4)
    # still written at the drives' pace: the peer's 0.957 GB over the NIC takes 0.306 s < 0.504 s
    assert nvme.write_s == pytest.approx(0.5037, abs=1e-4)


def test_asynchronous_nvme_checkpoints_block_only_for_the_copy_to_host_memory():
    rel = ReliabilitySettings(spare_nodes=2, nvme_checkpoint=True, async_checkpoint=True)
    nvme = cold(NVME_JOB, rel).tiers[0]
    # blocked 0.957 / 25 = 38.3 ms; Young: sqrt(2 x 0.0383 x 3,636.4) = 16.69 s, above the step
    assert nvme.block_s == pytest.approx(0.03828, abs=1e-5) and nvme.interval_s == pytest.approx(16.69, abs=0.01)


def test_the_nvme_tier_needs_the_setting_and_the_drives():
    assert [t.name for t in cold(NVME_JOB, REL).tiers] == ["file system"]  # the setting off
    assert [t.name for t in cold(JOB, NVME).tiers] == ["file system"]  # drives not in the catalog
    # the warm and replica paths keep their tiers: a peer's memory or a live replica serves sooner
    assert [t.name for t in warm(NVME_JOB, NVME).tiers] == ["memory", "file system"]
    assert replica(NVME_JOB, NVME).ettr == replica(NVME_JOB, REL).ettr


# One node-taking interruption a day (half GPU, half host) and a 2-day repair: 2 nodes in
# repair on average, Poisson: P(fewer than 2) = e^-2 (1 + 2) = 0.40601, P(fewer than 3) =
# e^-2 (1 + 2 + 2) = 0.67668.
SMALL = JobFigures({"gpu": 0.5, "node": 0.5, "switch": 0.0, "optical_link": 0.0, "software": 0.0}, None, 980.0,
                   10.0, 5.0, 1024, 50.0, 128, 5.0)


def test_a_hot_spare_spares_the_wait_only_while_one_is_idle():
    # 2 hot spares and 1 in stock, a 4-hour wait for a node where the site has no pool: a
    # failure finds a hot spare idle 40.6 % of the time, the stocked one 27.1 % (its 60-min
    # swap), neither 32.3 % (240 min): (0.27067 x 60 + 0.32332 x 240) = 93.84 min
    rel = ReliabilitySettings(spare_nodes=2, spares_stocked=1, repair_days=2.0, replace_node_min=240.0)
    assert cold(SMALL, rel).restart_s["wait_for_node"] == pytest.approx(93.84 * 60, abs=1.0)
    # the pool's default 30 min is shorter than the swap: the stocked spare waits no longer
    # than the pool, 30 x (1 - 0.40601) = 17.82 min, and more stock never makes it longer
    rel = ReliabilitySettings(spare_nodes=2, spares_stocked=1, repair_days=2.0)
    assert cold(SMALL, rel).restart_s["wait_for_node"] == pytest.approx(17.82 * 60, abs=1.0)
    more = ReliabilitySettings(spare_nodes=2, spares_stocked=5, repair_days=2.0)
    assert cold(SMALL, more).restart_s["wait_for_node"] == pytest.approx(17.82 * 60, abs=1.0)


def test_one_hot_spare_spares_the_wait_while_nothing_else_is_in_repair():
    # one hot spare (a node, or a whole rack-scale system: the job leaves the failed system for
    # it, so it covers one failed tray, not its 18): idle at e^-2 = 13.5 % of failures, else
    # the pool's 30 min
    rel = ReliabilitySettings(spare_nodes=1, repair_days=2.0)
    assert cold(SMALL, rel).restart_s["wait_for_node"] == pytest.approx(30 * 60 * (1 - math.exp(-2)), abs=0.1)


@pytest.mark.parametrize("mean", [0.5, 2.0, 72.0, 1268.2])
def test_the_poisson_chances_are_the_term_by_term_sums(mean):
    from planner.goodput.model import poisson_below, poisson_quantile
    from tests.planner.spares_by_hand import below, spares_for

    n = spares_for(mean) if mean >= 1 else 3
    for k in (0, 1, n - 1, n, n + 5):
        assert poisson_below(k, mean) == pytest.approx(below(k, mean), abs=1e-9)
    if mean >= 1:
        assert poisson_quantile(0.99, mean) == n
