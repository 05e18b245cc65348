"""The campus-1m template: a million GPUs of GB300 NVL72 that open with no error. Built once
for the module (a few seconds); its time, memory and export figures are measured by
benchmarks/frontier_core.py --template campus-1m."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from planner.design.templates import design_template
from planner.plan.model import MAX_DEVICES, MAX_RACKS
from planner.report.evaluate import evaluate
from tests.planner.spares_by_hand import spares_for


@pytest.fixture(scope="module")
def campus(catalog):
    result = design_template("campus-1m", catalog=catalog)
    return result.plan, evaluate(result.plan, catalog)


def hall_of(plan, placement) -> str:
    return plan.rack(placement.rack).hall


def racks_named(plan, prefix: str) -> int:
    return sum(1 for r in plan.racks if r.name.startswith(prefix))


def test_a_million_gpus_for_the_job_and_compute_trays_as_spares(campus, catalog):
    plan, report = campus
    goodput = report.sections["goodput"]
    # 13,890 NVL72 x 72 = 1,000,080 GPUs on 13,890 x 18 = 250,020 hosts (compute trays). Spares
    # are compute trays, the unit the vendor swaps: a GPU or a host failure takes one tray out,
    # 72 x 0.3029 + 18 x 0.4792 = 30.434 such interruptions per 1,000 system-days (Llama 3
    # rates), x 13,890 systems x 3 repair days / 1,000 = 1,268.2 trays in repair at once on
    # average; fewer than 1,353 at a failure with 99 % (Poisson) -> 1,353 trays in stock, no rack
    # placed as a spare: 13,890 racks, 1,000,080 GPUs placed.
    assert (goodput["job_gpus"], goodput["job_hosts"], goodput["spare_nodes"]) == (1_000_080, 250_020, 0)
    assert goodput["node_failures_per_repair"] == pytest.approx(1268.2, abs=0.1)
    assert spares_for(goodput["node_failures_per_repair"]) == 1_353
    assert (goodput["spare_unit"], goodput["spares_stocked"]) == ("compute tray", 1_353)
    assert (report.totals.gpus, report.totals.gpu_racks) == (1_000_080, 13_890)
    # 1,353 x the GB300 compute tray's $195,000 = $263,835,000
    assert report.sections["cost"]["spares_usd"]["stocked"] == 1_353 * catalog["gb300-compute-tray"].price_usd


def test_the_fabric_is_three_tiers_of_288_port_switches_for_two_planes_per_nic(campus):
    plan, report = campus
    net = report.sections["network"]
    # 13,890 racks x 18 trays = 250,020 trays x 4 ConnectX-8 x 2 planes = 2,000,160 endpoints of
    # 400G on Q3400 split to 288 ports (144^3/4 = 746,496 would not hold the 1,000,080 NICs at
    # 800G; 288^3/4 = 5,971,968 holds their planes). Leaves take k/2 = 144 trays, one rail each:
    #   units = ceil(250,020 / 144) = 1,737 (the last of 36 trays) x 8 rails = 13,896 leaves
    #   pods of 144 leaves: ceil(13,896 / 144) = 97 (<= 288); in each full pod, 144 uplinks a
    #   leaf spread one to each of 144 spines; the last pod's 13,896 - 96 x 144 = 72 leaves
    #   spread theirs over the fewest spines that hold them, 2 to each of 72 (72 x 2 = 144 of a
    #   spine's 144 ports down): 96 x 144 + 72 = 13,896 spines
    #   core: 13,896 leaves x 144 uplinks = 2,001,024 spine uplinks / 288 = 6,948
    assert net.size.endpoints == 2_000_160
    assert (net["tiers"], net.size.pods) == (3, 97)
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (13_896, 13_896, 6_948)
    # 34,740 switches x 288 ports, every one placed
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 34_740 * 288
    assert Counter(p.device for p in plan.placements)["q3400-400"] == 34_740


def test_every_rack_and_device_by_hand_within_the_plan_limits(campus):
    plan, report = campus
    counts = Counter(p.device for p in plan.placements)
    # Storage: the guide's 1.2 PB per 384 GPUs x 1,000,080 / 384 = 3,125.25 PB = 12,501 x 250 TB,
    # 10 to an air-cooled rack (10 x 2.4 kW = 24 kW within the 25 kW air limit): 1,251 racks
    assert counts["pfs-appliance"] == 12_501 and racks_named(plan, "STOR") == 1_251
    # Storage network, wired within each hall: a hall's 434 or 435 NVL72 x 18 trays x 2
    # BlueField-3 and its 390, 391 or 400 appliances x 4 (39 or 40 storage racks of 10, the last
    # rack of the plan 1) are 434 x 36 + 390 x 4 = 17,184 to 435 x 36 + 400 x 4 = 17,260 ports,
    # far past one SN5600's 128 (at 400GbE): a leaf-spine at 3:1, a leaf 96 ports down and 32 up,
    # so 179 or 180 leaves (17,184 / 96 = 179 exactly), more than a spine's 128 ports reach:
    # pods of 64 leaves (the third of 51 or 52), each leaf's 32 uplinks one to each of its pod's
    # 32 spines (64 down and 64 up each): 96 spines; 179 or 180 x 32 uplinks over 128-port
    # cores: 45. 320 switches in a hall of 17,184 ports, 321 above
    storage = Counter(hall_of(plan, p) for p in plan.placements if p.device == "sn5600-400")
    ports = Counter()
    for p in plan.placements:
        ports[hall_of(plan, p)] += {"gb300-nvl72": 18 * 2, "pfs-appliance": 4}.get(p.device, 0)
    for hall, n in ports.items():
        leaves = math.ceil(n / 96)
        assert 17_184 <= n <= 17_260 and leaves in (179, 180)
        assert storage[hall] == leaves + 3 * 32 + math.ceil(leaves * 32 / 128)
    assert counts["sn5600-400"] == sum(storage.values()) == 10_244 and len(storage) == 32
    # Network racks of 60 kW: 7 x 8 kW Q3400 (8 would be 64 kW): ceil(34,740 / 7) = 4,963; the
    # 4 kW and 14U each leaves take the management devices. A hall's storage leaf-spine stands
    # together in network racks of its own, 20 to a rack (60 kW / 3 kW; 40U): 16 for 320, 17
    # for 321 (the last holding one)
    fabric_racks = Counter(r.hall for r in plan.racks if any(
        p.device == "q3400-400" for p in plan.rack_members(r.id).values()))
    assert sum(fabric_racks.values()) == 4_963
    more = sum(math.ceil(storage[h] / 20) for h in storage)
    assert more == 28 * 16 + 4 * 17 == 516 and racks_named(plan, "NET") == 4_963 + more
    # CDUs of 2 MW by capacity, N+1, on each hall's own heat to liquid (a CDU's loop serves its
    # hall): plan-wide, 13,890 NVL72 x 140 kW x 85% to liquid (their 21 kW of air, within the 25
    # kW air limit, goes to the room) = 1,652,910 kW + 50 kW through each fabric rack's rear
    # door (4,962 full racks; the last, of 6 Q3400, 48 kW) + 50 kW through each full storage
    # rack's (20 x 3 kW; 28 halls' 16, 4 halls' 16 and one of 3 kW): 1,901,058 + 22,400 + 3,212
    # = 1,926,670 kW / 2,000 -> 964, + 1 = 965. A hall of 434 or 435 NVL72 (51,646-51,765 kW),
    # 153 to 166 fabric racks (7,650-8,300 kW: 3 pods' spines and the last pod's, see below)
    # and its storage racks (800-803 kW) has 60,096-60,866 kW: 31 CDUs, + 1 each; 32 x 32 =
    # 1,024 in row CDU racks (42U) of their own.
    assert report.totals.liquid_heat_milliwatts / 1e6 == pytest.approx(1_926_670, abs=1)
    assert report.totals.cdus == 965
    assert counts["cdu-row-2000"] == report.totals.cdus_placed == 1_024 == racks_named(plan, "CDU")
    # one 1G management port per device but the management switches, 48 a switch, in each
    # hall for its own devices: at least the campus's (13,890 + 34,740 + 12,501 + 10,244 + 16 +
    # 1,024) = 72,415 / 48 = 1,508.6 -> 1,509, and at most one more in each of the 32 halls
    halls = Counter(hall_of(plan, p) for p in plan.placements)
    mgmt = Counter(hall_of(plan, p) for p in plan.placements if p.device == "mgmt-1g-48")
    assert all(mgmt[h] == math.ceil((n - mgmt[h]) / 48) for h, n in halls.items())
    assert len(plan.placements) - counts["mgmt-1g-48"] == 72_415
    assert 1_509 <= counts["mgmt-1g-48"] <= 1_509 + 32
    assert len(plan.racks) == 13_890 + 4_963 + 516 + 1_251 + 1_024 == 21_644
    assert len(plan.racks) <= MAX_RACKS and len(plan.placements) <= MAX_DEVICES


def test_it_opens_with_no_error_and_only_the_storage_warning_recovering_by_replica(campus, catalog):
    plan, report = campus
    assert [f.code for f in report.findings if f.severity == "error"] == []
    # the guide's 1.2 PB per 384 GPUs writes 312,525 GB/s, shared by 250,020 compute trays
    # (a tray is the guide's node): 1.25 GB/s each, below its 10 GB/s per node
    (slow,) = [f for f in report.findings if f.severity == "warning"]
    assert slow.code == "storage.write.slow_per_node" and "a compute tray writes at 1.2 GB/s" in slow.message
    # per day at the Llama 3 rates: 1,000,080 GPUs x 0.3029 + 250,020 hosts x (0.4792 host +
    # 0.5697 software) + 44,984 switches (34,740 fabric, 10,244 storage) x 0.3165 + the optical
    # ones of the 6,002,208 fabric links (2,000,160 + 2 x 2,001,024): the halls' lengths put
    # 119,660 of them on active copper (the network section's count), leaving 5,882,548 x
    # 0.00989, per 1,000 = 302.92 + 262.25 + 14.24 + 58.18 = 637.6: one every 1,440 / 637.6 =
    # 2.26 min, sooner than a 10-minute cold restart of the whole job
    network = report.sections["network"]
    assert network["optical_links"] + network["copper_links"] == 6_002_208
    assert network["optical_links"] == 6_002_208 - 119_660
    g = report.sections["goodput"]
    assert g["interruptions_per_day"] == pytest.approx(637.6, abs=0.05)
    rec, rel = g["recovery"], plan.settings.reliability
    assert rec["path"] == "replica" and "recovers by replica" in plan.description
    # By replica: 99 % of them cost their data-parallel replica, 1 of DP 12,501 (TP 16 x PP 5), the detect
    # (30 s), swap (60 s), the wait for a tray on the GPU and host interruptions (the shorter of
    # a stocked tray's 60-min swap and the pool's 30 min: 30 min x 422.7 / 637.6 of them), the communicator rebuild (30 s), the
    # reload of its shard from a live replica (5,682.6 GB / 1,000,080 GPUs at 25 GB/s: 0.2 ms)
    # and its step in progress; the other 1 % restart cold from the file system: 600 s + its
    # reload + half of Young's interval for them, sqrt(2 x write x 86,400 / (0.01 x 637.6)),
    # no shorter than the write.
    dp = plan.settings.workload.dp
    step = report.sections["workload"]["step_time_s"]
    write, reload = report.sections["storage"]["checkpoint_write_s"], g["reload_s"]
    per_day = g["interruptions_per_day"]
    unit_share = (g["interruptions_by_part"]["gpu"] + g["interruptions_by_part"]["node"]) / per_day
    assert unit_share == pytest.approx(422.7 / 637.6, abs=1e-3)
    replica_s = (30 + 60 + 1800 * unit_share + 30 + 5682.6 / 1_000_080 / 25 + step) / dp
    interval = max(math.sqrt(2 * write * 86400 / (0.01 * per_day)), write)
    cold_s = 600 + reload + interval / 2
    ettr = 1 - (0.99 * per_day * replica_s + 0.01 * per_day * cold_s) / 86400
    assert dp == 12501 and g["ettr"] == pytest.approx(ettr, abs=2e-4) and g["ettr"] >= 0.85
    # the whole job restarted cold cannot train: an error, with the replica path as its remedy
    assert rec["ettr_by_path"]["cold"] < 0.5 and rec["ettr_by_path"]["warm"] < rel.min_ettr
    cold = plan.model_copy(deep=True)
    cold.settings.reliability = rel.model_copy(update={"restart_path": "cold"})
    error = next(f for f in evaluate(cold, catalog).findings if f.code == "goodput.ettr.cannot_train")
    assert error.severity == "error" and error.remedy.figure("path") == "replica"
    # each GPU or host interruption of a cold restart waits 30 min for a tray (the pool's wait,
    # shorter than a stocked tray's 60-min swap): 600 s restart + re-load (under a second) +
    # 1,800 x 422.7 / 637.6 = 1,793.3 s = 29.9 min
    assert "29.9 min to recover each, on the cold path" in error.message


def test_it_opens_as_four_buildings_of_eight_halls_each_with_its_share(campus, tmp_path, catalog):
    from planner.plan.fileio import open_plan, save_plan

    plan, _ = campus
    save_plan(plan, tmp_path / "campus.json")
    again = open_plan(tmp_path / "campus.json", catalog)
    assert [len(b.halls) for b in again.buildings] == [8, 8, 8, 8]
    # 13,890 NVL72 racks over 32 halls: 13,890 = 32 x 434 + 2, so 2 halls of 435, 30 of 434
    gpu = Counter(r.hall for r in again.racks if r.name.startswith("NVL"))
    assert sorted(Counter(gpu.values()).items()) == [(434, 30), (435, 2)]
    # every hall has its share of the fabric's switches (roles in plan order: the first 13,896
    # Q3400 are the leaves, the next 13,896 the spines, then the 6,948 cores), in network racks
    # of 7 standing in the hall most of their switches belong in
    hall_of = {r.id: r.hall for r in again.racks}
    roles: dict[str, Counter] = {}
    switches = [p for r in again.racks for p in sorted(again.rack_members(r.id).values(), key=lambda p: p.u)
                if p.device == "q3400-400"]
    for i, p in enumerate(switches):
        role = "leaf" if i < 13_896 else "spine" if i < 13_896 + 13_896 else "core"
        roles.setdefault(hall_of[p.rack], Counter())[role] += 1
    for hall, n in roles.items():
        # a unit of 8 NVL72 (144 trays) has 8 leaves: a leaf per rack, give or take a unit
        # straddling the hall's edge (8) and a rack of 7 switches straddling two units
        assert abs(n["leaf"] - gpu[hall]) <= 8 + 7
        # cores dealt evenly: 6,948 / 32 = 217.1 a hall, give or take a rack of 7
        assert 217 - 7 <= n["core"] <= 218 + 7
    # spines by whole pods, in the hall of most of the pod's leaves: 96 pods of 144 and the
    # last of 72 over 32 halls of 13,896 / 32 = 434.25 leaves, 3.02 pods: 3 full pods a hall
    # (32 x 3 = 96), give or take a rack of 7; the hall of the last pod has its 72 spines besides
    spines = sorted(n["spine"] for n in roles.values())
    assert all(abs(n - 3 * 144) <= 7 for n in spines[:-1]) and abs(spines[-1] - (3 * 144 + 72)) <= 7
    # and its CDUs for its own heat to liquid: 140 kW x 85% = 119 kW an NVL72, 50 kW a network
    # rack's rear door (the last network rack, of 3 Q3400, has less, and a storage rack of one
    # switch 3 kW: the ceiling is the same), 2 MW a CDU, and a spare
    net = Counter(r.hall for r in again.racks if r.name.startswith("NET"))
    cdus = Counter(r.hall for r in again.racks if r.name.startswith("CDU"))
    assert len(net) == 32
    for hall in net:
        assert cdus[hall] == math.ceil((gpu[hall] * 119 + net[hall] * 50) / 2_000) + 1
    assert sum(cdus.values()) == 1_024
