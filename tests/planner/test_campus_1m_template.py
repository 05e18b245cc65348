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


@pytest.fixture(scope="module")
def campus(catalog):
    result = design_template("campus-1m", catalog=catalog)
    return result.plan, evaluate(result.plan, catalog)


def hall_of(plan, placement) -> str:
    return plan.rack(placement.rack).hall


def racks_named(plan, prefix: str) -> int:
    return sum(1 for r in plan.racks if r.name.startswith(prefix))


def test_a_million_gpus_for_the_job_and_whole_racks_as_spares(campus):
    plan, report = campus
    goodput = report.sections["goodput"]
    # 13,890 NVL72 x 72 = 1,000,080 GPUs on 13,890 x 18 = 250,020 hosts (compute trays). Hot
    # spares: an NVL72 is one node of the goodput model, taken out by a GPU or a host failure
    # on any of its 18 trays: 72 x 0.3029 + 18 x 0.4792 = 30.434 interruptions per 1,000
    # system-days (Llama 3 rates), x 13,890 systems x 3 repair days / 1,000 = 1,268.2 in repair
    # at once -> 1,269 more: 15,159 racks, 1,091,448 GPUs placed.
    assert (goodput["job_gpus"], goodput["job_hosts"], goodput["spare_nodes"]) == (1_000_080, 250_020, 1_269)
    assert (report.totals.gpus, report.totals.gpu_racks) == (1_091_448, 15_159)


def test_the_fabric_is_three_tiers_of_288_port_switches_for_two_planes_per_nic(campus):
    plan, report = campus
    net = report.sections["network"]
    # 15,159 racks x 18 trays = 272,862 trays x 4 ConnectX-8 x 2 planes = 2,182,896 endpoints of
    # 400G on Q3400 split to 288 ports (144^3/4 = 746,496 would not hold the 1,091,448 NICs at
    # 800G; 288^3/4 = 5,971,968 holds their planes). Leaves take k/2 = 144 trays, one rail each:
    #   units = ceil(272,862 / 144) = 1,895 (the last of 126 trays) x 8 rails = 15,160 leaves
    #   pods of 144 leaves: ceil(15,160 / 144) = 106 (<= 288); in each full pod, 144 uplinks a
    #   leaf spread one to each of 144 spines; the last pod's 40 leaves spread theirs over the
    #   fewest spines that hold them, 3 to each of 48 (40 x 3 = 120 of a spine's 144 ports down;
    #   4 to each of 36 would need 160): 105 x 144 + 48 = 15,168 spines
    #   core: 15,160 leaves x 144 uplinks = 2,183,040 spine uplinks / 288 = 7,580
    assert net.size.endpoints == 2_182_896
    assert (net["tiers"], net.size.pods) == (3, 106)
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (15_160, 15_168, 7_580)
    # 37,908 switches x 288 ports, every one placed
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 37_908 * 288
    assert Counter(p.device for p in plan.placements)["q3400-400"] == 37_908


def test_every_rack_and_device_by_hand_within_the_plan_limits(campus):
    plan, report = campus
    counts = Counter(p.device for p in plan.placements)
    # Storage: the guide's 1.2 PB per 384 GPUs x 1,000,080 / 384 = 3,125.25 PB = 12,501 x 250 TB,
    # 10 to an air-cooled rack (10 x 2.4 kW = 24 kW within the 25 kW air limit): 1,251 racks
    assert counts["pfs-appliance"] == 12_501 and racks_named(plan, "STOR") == 1_251
    # Storage network, wired within each hall: a hall's 473 or 474 NVL72 x 18 trays x 2
    # BlueField-3 and its 390, 391 or 400 appliances x 4 (39 or 40 storage racks of 10, the last
    # rack of the plan 1) are 473 x 36 + 390 x 4 = 18,588 to 474 x 36 + 400 x 4 = 18,664 ports:
    # over 145 x 128 = 18,560 and at most 146 x 128 = 18,688, so 146 SN5600 at 400GbE in each
    # of the 32 halls = 4,672 (the campus's 15,159 x 36 + 12,501 x 4 = 595,728 ports as one
    # network would take 4,655)
    assert counts["sn5600-400"] == 32 * 146 == 4_672
    assert set(Counter(hall_of(plan, p) for p in plan.placements if p.device == "sn5600-400").values()) == {146}
    # Network racks of 60 kW: 7 x 8 kW Q3400 (8 would be 64 kW): ceil(37,908 / 7) = 5,416; the
    # 4 kW and 14U each leaves take the storage switches (3 kW, 2U) and the management devices
    assert racks_named(plan, "NET") == 5_416
    # CDUs of 2 MW by capacity, N+1, on each hall's own heat to liquid (a CDU's loop serves its
    # hall): plan-wide, 15,159 NVL72 x 140 kW (their 28 kW of air through rear doors) = 2,122,260
    # kW + 50 kW through each network rack's rear door (5,415 full racks; the last, of 3 Q3400,
    # under 50 kW): 2,393,010-2,393,060 kW / 2,000 -> 1,197, + 1 = 1,198. A hall of 473 or 474
    # NVL72 (66,220-66,360 kW) and 161 to 186 network racks (8,050-9,300 kW: 3 or 4 pods'
    # spines, see below) has 74,270-75,660 kW, over 37 x 2,000 and within 38 x 2,000 -> 38,
    # + 1 = 39; 32 x 39 = 1,248 in row CDU racks (42U) of their own.
    assert 2_393_010 <= report.totals.liquid_heat_milliwatts / 1e6 <= 2_393_060
    assert report.totals.cdus == 1_198
    assert counts["cdu-row-2000"] == report.totals.cdus_placed == 1_248 == racks_named(plan, "CDU")
    # one 1G management port per device but the management switches, 48 a switch, in each
    # hall for its own devices: at least the campus's (15,159 + 37,908 + 12,501 + 4,672 + 16 +
    # 1,248) = 71,504 / 48 = 1,489.7 -> 1,490, and at most one more in each of the 32 halls
    halls = Counter(hall_of(plan, p) for p in plan.placements)
    mgmt = Counter(hall_of(plan, p) for p in plan.placements if p.device == "mgmt-1g-48")
    assert all(mgmt[h] == math.ceil((n - mgmt[h]) / 48) for h, n in halls.items())
    assert len(plan.placements) - counts["mgmt-1g-48"] == 71_504
    assert 1_490 <= counts["mgmt-1g-48"] <= 1_490 + 32
    assert len(plan.racks) == 15_159 + 5_416 + 1_251 + 1_248 == 23_074
    assert len(plan.racks) <= MAX_RACKS and len(plan.placements) <= MAX_DEVICES


def test_it_opens_with_no_error_and_no_warning_recovering_by_replica(campus, catalog):
    plan, report = campus
    assert [f.code for f in report.findings if f.severity == "error"] == []
    assert [f.code for f in report.findings if f.severity == "warning"] == []
    # per day at the Llama 3 rates: 1,000,080 GPUs x 0.3029 + 250,020 hosts x (0.4792 host +
    # 0.5697 software) + 42,580 switches (37,908 fabric, 4,672 storage) x 0.3165 + 6,548,976
    # optical links x 0.00989, per 1,000 = 302.92 + 262.25 + 13.48 + 64.77 = 643.4: one every
    # 1,440 / 643.4 = 2.24 min, sooner than a 10-minute cold restart of the whole job
    g = report.sections["goodput"]
    assert g["interruptions_per_day"] == pytest.approx(643.4, abs=0.05)
    rec, rel = g["recovery"], plan.settings.reliability
    assert rec["path"] == "replica" and "recovers by replica" in plan.description
    # By replica: 99 % of them cost their data-parallel replica, 1 of DP 6,945, the detect
    # (30 s), swap (60 s) and communicator rebuild (30 s), the reload of its shard from a live
    # replica (5,682.6 GB / 1,000,080 GPUs at 25 GB/s: 0.2 ms) and its step in progress; the
    # other 1 % restart cold from the file system: 600 s + its reload + half of Young's
    # interval for them, sqrt(2 x write x 86,400 / (0.01 x 643.4)), no shorter than the write.
    dp = plan.settings.workload.dp
    step = report.sections["workload"]["step_time_s"]
    write, reload = report.sections["storage"]["checkpoint_write_s"], g["reload_s"]
    per_day = g["interruptions_per_day"]
    replica_s = (30 + 60 + 30 + 5682.6 / 1_000_080 / 25 + step) / dp
    interval = max(math.sqrt(2 * write * 86400 / (0.01 * per_day)), write)
    cold_s = 600 + reload + interval / 2
    ettr = 1 - (0.99 * per_day * replica_s + 0.01 * per_day * cold_s) / 86400
    assert dp == 6945 and g["ettr"] == pytest.approx(ettr, abs=2e-4) and g["ettr"] >= 0.85
    # the whole job restarted cold cannot train: an error, with the replica path as its remedy
    assert rec["ettr_by_path"]["cold"] < 0.5 and rec["ettr_by_path"]["warm"] < rel.min_ettr
    cold = plan.model_copy(deep=True)
    cold.settings.reliability = rel.model_copy(update={"restart_path": "cold"})
    error = next(f for f in evaluate(cold, catalog).findings if f.code == "goodput.ettr.cannot_train")
    assert error.severity == "error" and error.remedy.figure("path") == "replica"


def test_it_opens_as_four_buildings_of_eight_halls_each_with_its_share(campus, tmp_path, catalog):
    from planner.plan.fileio import open_plan, save_plan

    plan, _ = campus
    save_plan(plan, tmp_path / "campus.json")
    again = open_plan(tmp_path / "campus.json", catalog)
    assert [len(b.halls) for b in again.buildings] == [8, 8, 8, 8]
    # 15,159 NVL72 racks over 32 halls: 15,159 = 32 x 473 + 23, so 23 halls of 474, 9 of 473
    gpu = Counter(r.hall for r in again.racks if r.name.startswith("NVL"))
    assert sorted(Counter(gpu.values()).items()) == [(473, 9), (474, 23)]
    # every hall has its share of the fabric's switches (roles in plan order: the first 15,160
    # Q3400 are the leaves, the next 15,168 the spines, then the 7,580 cores), in network racks
    # of 7 standing in the hall most of their switches belong in
    hall_of = {r.id: r.hall for r in again.racks}
    roles: dict[str, Counter] = {}
    switches = [p for r in again.racks for p in sorted(again.rack_members(r.id).values(), key=lambda p: p.u)
                if p.device == "q3400-400"]
    for i, p in enumerate(switches):
        role = "leaf" if i < 15_160 else "spine" if i < 15_160 + 15_168 else "core"
        roles.setdefault(hall_of[p.rack], Counter())[role] += 1
    for hall, n in roles.items():
        # a unit of 8 NVL72 (144 trays) has 8 leaves: a leaf per rack, give or take a unit
        # straddling the hall's edge (8) and a rack of 7 switches straddling two units
        assert abs(n["leaf"] - gpu[hall]) <= 8 + 7
        # cores dealt evenly: 7,580 / 32 = 236.9 a hall, give or take a rack of 7
        assert 236 - 7 <= n["core"] <= 237 + 7
    # spines by whole pods, in the hall of most of the pod's leaves: 105 pods of 144 and the
    # last of 48 over 32 halls of 3.3 pods' leaves, 3 or 4 full pods a hall (23 x 3 + 9 x 4 =
    # 105), give or take a rack of 7; the hall of the last pod has its 48 spines besides
    assert sorted(Counter(round(n["spine"] / 144) for n in roles.values()).items()) == [(3, 23), (4, 9)]
    off = sorted(n["spine"] - 144 * round(n["spine"] / 144) for n in roles.values())
    assert all(abs(d) <= 7 for d in off[:-1]) and abs(off[-1] - 48) <= 7
    # and its CDUs for its own heat to liquid: 140 kW an NVL72, 50 kW a network rack's rear door
    # (the last network rack, of 3 Q3400, has less), 2 MW a CDU, and a spare
    net = Counter(r.hall for r in again.racks if r.name.startswith("NET"))
    cdus = Counter(r.hall for r in again.racks if r.name.startswith("CDU"))
    assert len(net) == 32
    for hall in net:
        assert cdus[hall] == math.ceil((gpu[hall] * 140 + net[hall] * 50) / 2_000) + 1
    assert sum(cdus.values()) == 1_248
