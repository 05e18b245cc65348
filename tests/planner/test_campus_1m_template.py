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
    # 13,890 NVL72 x 72 = 1,000,080 GPUs. Hot spares: an NVL72 is one node of the goodput model;
    # 72 x 0.3029 + 0.4792 = 22.288 interruptions per 1,000 system-days take one out (Llama 3
    # rates), x 13,890 systems x 3 repair days / 1,000 = 928.7 in repair at once -> 929 more:
    # 14,819 racks, 1,066,968 GPUs placed.
    assert (goodput["job_gpus"], goodput["spare_nodes"]) == (1_000_080, 929)
    assert (report.totals.gpus, report.totals.gpu_racks) == (1_066_968, 14_819)


def test_the_fabric_is_three_tiers_of_288_port_switches_for_two_planes_per_nic(campus):
    plan, report = campus
    net = report.sections["network"]
    # 14,819 racks x 18 trays = 266,742 trays x 4 ConnectX-8 x 2 planes = 2,133,936 endpoints of
    # 400G on Q3400 split to 288 ports (144^3/4 = 746,496 would not hold the 1,066,968 NICs at
    # 800G; 288^3/4 = 5,971,968 holds their planes). Leaves take k/2 = 144 trays, one rail each:
    #   units = ceil(266,742 / 144) = 1,853 (the last of 54 trays) x 8 rails = 14,824 leaves
    #   pods of 144 leaves: ceil(14,824 / 144) = 103 (<= 288); in each, 144 uplinks a leaf
    #   spread one to each of 144 spines (the last pod's 136 leaves x 1 link <= 144 ports):
    #   103 x 144 = 14,832 spines
    #   core: 14,824 leaves x 144 uplinks = 2,134,656 spine uplinks / 288 = 7,412
    assert net.size.endpoints == 2_133_936
    assert (net["tiers"], net.size.pods) == (3, 103)
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (14_824, 14_832, 7_412)
    # 37,068 switches x 288 ports, every one placed
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 37_068 * 288
    assert Counter(p.device for p in plan.placements)["q3400-400"] == 37_068


def test_every_rack_and_device_by_hand_within_the_plan_limits(campus):
    plan, report = campus
    counts = Counter(p.device for p in plan.placements)
    # Storage: the guide's 1.2 PB per 384 GPUs x 1,000,080 / 384 = 3,125.25 PB = 12,501 x 250 TB,
    # 10 to an air-cooled rack (10 x 2.4 kW = 24 kW within the 25 kW air limit): 1,251 racks
    assert counts["pfs-appliance"] == 12_501 and racks_named(plan, "STOR") == 1_251
    # Storage network, wired within each hall: a hall's 463 or 464 NVL72 x 18 trays x 2
    # BlueField-3 and its 390, 391 or 400 appliances x 4 (39 or 40 storage racks of 10, the last
    # rack of the plan 1) are 463 x 36 + 390 x 4 = 18,228 to 464 x 36 + 400 x 4 = 18,304 ports:
    # over 142 x 128 = 18,176 and at most 143 x 128, so 143 SN5600 at 400GbE in each of the 32
    # halls = 4,576 (the campus's 583,488 ports as one network would take 4,559)
    assert counts["sn5600-400"] == 32 * 143 == 4_576
    assert set(Counter(hall_of(plan, p) for p in plan.placements if p.device == "sn5600-400").values()) == {143}
    # Network racks of 60 kW: 7 x 8 kW Q3400 (8 would be 64 kW): ceil(37,068 / 7) = 5,296; the
    # 4 kW and 14U each leaves take the storage switches (3 kW, 2U) and the management devices
    assert racks_named(plan, "NET") == 5_296
    # CDUs of 2 MW by capacity, N+1, on each hall's own heat to liquid (a CDU's loop serves its
    # hall): plan-wide, 14,819 NVL72 x 140 kW (their 28 kW of air through rear doors) = 2,074,660
    # kW + 50 kW through each network rack's rear door (5,295 full racks; the last, of 3 Q3400,
    # under 50 kW): 2,339,410-2,339,460 kW / 2,000 -> 1,170, + 1 = 1,171. A hall of 463 or 464
    # NVL72 and up to 183 network racks: 64,820-64,960 + up to 9,150 kW, at most 74,000 kW of
    # them / 2,000 -> 37, + 1 = 38; the hall of 463 NVL72 and 184 network racks (4 pods' spines,
    # see below): 64,820 + 9,200 = 74,020 kW -> 38, + 1 = 39; 31 x 38 + 39 = 1,217 in row CDU
    # racks (42U) of their own.
    assert 2_339_410 <= report.totals.liquid_heat_milliwatts / 1e6 <= 2_339_460
    assert report.totals.cdus == 1_171
    assert counts["cdu-row-2000"] == report.totals.cdus_placed == 1_217 == racks_named(plan, "CDU")
    # one 1G management port per device but the management switches, 48 a switch, in each
    # hall for its own devices: at least the campus's (14,819 + 37,068 + 12,501 + 4,576 + 16 +
    # 1,217) = 70,197 / 48 = 1,462.4 -> 1,463, and at most one more in each of the 32 halls
    halls = Counter(hall_of(plan, p) for p in plan.placements)
    mgmt = Counter(hall_of(plan, p) for p in plan.placements if p.device == "mgmt-1g-48")
    assert all(mgmt[h] == math.ceil((n - mgmt[h]) / 48) for h, n in halls.items())
    assert len(plan.placements) - counts["mgmt-1g-48"] == 70_197
    assert 1_463 <= counts["mgmt-1g-48"] <= 1_463 + 32
    assert len(plan.racks) == 14_819 + 5_296 + 1_251 + 1_217 == 22_583
    assert len(plan.racks) <= MAX_RACKS and len(plan.placements) <= MAX_DEVICES


def test_it_opens_with_no_error_and_only_the_goodput_warning_it_states(campus):
    plan, report = campus
    assert [f.code for f in report.findings if f.severity == "error"] == []
    # an interruption every few minutes at the Llama 3 rates, sooner than a 10-minute restart:
    # true of one synchronous job of a million GPUs, and the description says so
    assert [f.code for f in report.findings if f.severity == "warning"] == ["goodput.ettr.low"]
    assert "effective training time ratio is near 0" in plan.description
    # in units that read: 394.0 interruptions a day are one every 1,440 / 394.0 = 3.65 min;
    # Young's interval for them, 0.047 min, is 2.8 s
    warning = next(f for f in report.findings if f.code == "goodput.ettr.low")
    assert report.sections["goodput"]["interruptions_per_day"] == pytest.approx(394.0, abs=0.05)
    assert "an interruption every 3.7 min, checkpoints every 2.8 s, 10.0 min restart" in warning.message


def test_it_opens_as_four_buildings_of_eight_halls_each_with_its_share(campus, tmp_path, catalog):
    from planner.plan.fileio import open_plan, save_plan

    plan, _ = campus
    save_plan(plan, tmp_path / "campus.json")
    again = open_plan(tmp_path / "campus.json", catalog)
    assert [len(b.halls) for b in again.buildings] == [8, 8, 8, 8]
    # 14,819 NVL72 racks over 32 halls: 14,819 = 32 x 463 + 3, so 3 halls of 464, 29 of 463
    gpu = Counter(r.hall for r in again.racks if r.name.startswith("NVL"))
    assert sorted(Counter(gpu.values()).items()) == [(463, 29), (464, 3)]
    # every hall has its share of the fabric's switches (roles in plan order: the first 14,824
    # Q3400 are the leaves, the next 14,832 the spines, then the 7,412 cores), in network racks
    # of 7 standing in the hall most of their switches belong in
    hall_of = {r.id: r.hall for r in again.racks}
    roles: dict[str, Counter] = {}
    switches = [p for r in again.racks for p in sorted(again.rack_members(r.id).values(), key=lambda p: p.u)
                if p.device == "q3400-400"]
    for i, p in enumerate(switches):
        role = "leaf" if i < 14_824 else "spine" if i < 14_824 + 14_832 else "core"
        roles.setdefault(hall_of[p.rack], Counter())[role] += 1
    for hall, n in roles.items():
        # a unit of 8 NVL72 (144 trays) has 8 leaves: a leaf per rack, give or take a unit
        # straddling the hall's edge (8) and a rack of 7 switches straddling two units
        assert abs(n["leaf"] - gpu[hall]) <= 8 + 7
        # cores dealt evenly: 7,412 / 32 = 231.6 a hall, give or take a rack of 7
        assert 231 - 7 <= n["core"] <= 232 + 7
    # spines by whole pods of 144, in the hall of most of the pod's leaves: 103 pods over 32
    # halls of 3.2 pods' leaves, 3 or 4 a hall (25 x 3 + 7 x 4 = 103), give or take a rack of 7
    assert sorted(Counter(round(n["spine"] / 144) for n in roles.values()).items()) == [(3, 25), (4, 7)]
    assert all(abs(n["spine"] - 144 * round(n["spine"] / 144)) <= 7 for n in roles.values())
    # and its CDUs for its own heat to liquid: 140 kW an NVL72, 50 kW a network rack's rear door
    # (the last network rack, of 3 Q3400, has less), 2 MW a CDU, and a spare
    net = Counter(r.hall for r in again.racks if r.name.startswith("NET"))
    cdus = Counter(r.hall for r in again.racks if r.name.startswith("CDU"))
    assert len(net) == 32
    for hall in net:
        assert cdus[hall] == math.ceil((gpu[hall] * 140 + net[hall] * 50) / 2_000) + 1
    assert sum(cdus.values()) == 1_217
