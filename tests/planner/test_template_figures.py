"""Two templates' figures worked out by hand from datasheets and the planning guide, and
read back from ``check --json``.

The inputs, as the built-in catalog gives them with their sources:

- HGX H100 8-GPU node, direct liquid cooled (hgx-h100-8): 8 x H100 SXM, 4U, 80 kg, 10.2 kW
  nameplate (DGX/HGX H100 user guide), 7 kW typical (the planning guide: "call it 7 kW per
  node"), 8 x 400G compute NICs (one per GPU) + 2 x 400G storage NICs. No liquid-capture
  figure of its own: the 0.8 default (ASHRAE TC 9.9 cold plates take ~70-85%).
- GB200 NVL72 rack (gb200-nvl72): 72 GPUs, 18 compute trays of 4 GPUs with 4 x CX-7 400G
  (72 compute NICs) and 2 BlueField-3 ports each (36 storage ports), 48U, 1,360 kg, 132 kW
  nameplate, 120 kW typical, 85% of its heat to liquid, 8 x 33 kW power shelves (NVIDIA
  DGX GB200 user guide).
- Quantum-2 QM9700: 64 x NDR 400G, 1.72 kW max; typical 0.75 kW + 32 twin-port OSFP x 17 W
  = 1.294 kW (QM9700 datasheet). SN5600 split to 128 x 400GbE: 3.0 kW max, 2.028 kW
  typical. Parallel-filesystem appliance: 2U, 250 TB, 25 GB/s write, 50 GB/s read, 4
  storage ports, 2.4 kW max, 1.8 kW typical. In-rack CDU: 250 kW, 4U, pumps 3.0 kW max,
  1.5 kW typical. 48-port management switch: 0.15 kW max, 0.08 kW typical. UFM appliance
  0.6 / 0.35 kW; head node 1.1 / 0.6 kW.
- Defaults: racks capped at 30 kW (the guide: "Most colocation facilities cap at 30kW per
  rack"), air-cooled racks at the 25 kW air-cooling limit, typical power basis, PUE 1.56
  (Uptime Institute 2023-24), CDUs by capacity on the design heat (nameplate x the
  liquid share) with one spare (N+1).

Fat-tree rules (Al-Fares et al., SIGCOMM 2008; DGX SuperPOD RA): two non-blocking tiers of
radix-k switches hold k^2/2 endpoints; leaves = ceil(N / (k/2)), spines = ceil(leaf
uplinks / k). Rail-optimised: GPU i of every node goes to leaf (rail) i of its scalable
unit, 8 leaves per unit of up to k/2 = 32 nodes.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan
from planner.design.templates import build_template
from tests.planner.json_shape import cli_json

CAT = default_catalog()


def check(tmp_path, template: str, **options):
    """The template built as ``new`` builds it (with ``options``), its devices by catalog id,
    and ``check --json`` of it."""
    plan = build_template(template, catalog=CAT, **options)
    path = tmp_path / f"{template}.json"
    save_plan(plan, path, keep=0)
    return Counter(p.device for p in plan.placements), cli_json("check", str(path), "--json")


def kw(value):
    return pytest.approx(value, abs=0.0005)  # the report gives kW to the watt


@pytest.fixture(scope="module")
def medium(tmp_path_factory):
    return check(tmp_path_factory.mktemp("medium"), "medium")


@pytest.fixture(scope="module")
def gb200(tmp_path_factory):
    return check(tmp_path_factory.mktemp("gb200"), "gb200-nvl72-su")


# --- medium: the planning guide's Type 2, 16 nodes x 8 H100 on NDR400 ---------------------

def test_medium_nodes_gpus_and_gpu_racks(medium):
    _, r = medium
    # 16 nodes x 8 GPUs = 128 GPUs
    assert (r["totals"]["nodes"], r["totals"]["gpus"]) == (16, 128)
    # Typical basis, 30 kW cap: 30 / 7 = 4.3 -> 4 nodes a rack (4 x 7 = 28 kW; 5 would be 35);
    # 16 / 4 = 4 GPU racks, as the guide's worked example ("at 30 kW per rack, 4 nodes per rack").
    assert r["totals"]["gpu_racks"] == 4
    gpu_racks = [rack for rack in r["racks"] if rack["nodes"]]
    assert len(gpu_racks) == 4
    for rack in gpu_racks:
        assert (rack["nodes"], rack["gpus"], rack["used_u"]) == (4, 32, 16)  # 4 x 8 GPUs, 4 x 4U
        assert rack["power_typical_kw"] == kw(28.0)     # 4 x 7
        assert rack["power_nameplate_kw"] == kw(40.8)   # 4 x 10.2: over the cap at nameplate
        assert rack["weight_kg"] == pytest.approx(320)  # 4 x 80 kg
    # The guide's "16 nodes at 7 kW = 112 kW"; at nameplate 16 x 10.2 = 163.2 kW
    assert sum(rack["power_typical_kw"] for rack in gpu_racks) == kw(112.0)
    assert sum(rack["power_nameplate_kw"] for rack in gpu_racks) == kw(163.2)


def test_medium_on_the_nameplate_basis_needs_twice_the_racks(tmp_path):
    _, r = check(tmp_path, "medium", power_basis="nameplate")
    # 30 / 10.2 = 2.9 -> 2 nodes a rack (20.4 kW; 3 would be 30.6): 16 / 2 = 8 GPU racks, not 4
    assert r["plan"]["power_basis"] == "nameplate"
    assert r["totals"]["gpu_racks"] == 8


def test_medium_fabric_is_one_rail_optimised_unit_of_8_leaves_and_2_spines(medium):
    devices, r = medium
    net = r["network"]
    # 16 nodes <= 32: one scalable unit; 8 rails -> 8 leaves of 16 nodes down, 16 up (1:1);
    # spines = ceil(8 x 16 / 64) = 2; no third tier
    assert (net["topology"], net["tiers"]) == ("rail_optimized", 2)
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (8, 2, 0)
    assert devices["qm9700"] == 10
    assert net["switch_ports_placed"] == 10 * 64
    # a cable per link: 128 GPU NICs to their leaves + 128 leaf uplinks = 256
    assert net["cables"] == 128 + 128


def test_medium_storage_and_its_network(medium):
    devices, r = medium
    s = r["storage"]
    # 7 appliances: 7 x 250 = 1,750 TB, 7 x 25 = 175 GB/s write, 7 x 50 = 350 GB/s read;
    # all 16 nodes writing at once get 175 / 16 = 10.94 GB/s each
    assert devices["pfs-appliance"] == s["storage_devices"] == 7
    assert (s["capacity_tb"], s["write_gbs"], s["read_gbs"]) == pytest.approx((1750, 175, 350))
    assert s["write_gbs_per_node_all_writing"] == pytest.approx(175 / 16, abs=0.001)
    # A full checkpoint of the 70B model with Adam in mixed precision: 14 bytes a parameter
    # (bf16 weights 2 + fp32 master 4 + Adam m 4 + v 4): 70e9 x 14 = 980 GB
    assert s["checkpoint_gb"] == pytest.approx(980)
    # storage ports: 16 nodes x 2 + 7 appliances x 4 = 60 <= 128: one SN5600 split to 400GbE
    assert devices["sn5600-400"] == 1
    # a BMC port for each of 16 + 10 + 1 + 7 + 2 CDUs = 36 devices: one 48-port switch
    assert devices["mgmt-1g-48"] == 1


def test_medium_power_cooling_and_racks(medium):
    devices, r = medium
    t = r["totals"]
    # Typical: nodes 16 x 7 = 112; fabric 10 x 1.294 = 12.94; storage switch 2.028;
    # appliances 7 x 1.8 = 12.6; CDU pumps 2 x 1.5 = 3.0; management 0.08 -> 142.648 kW
    assert t["it_power_typical_kw"] == kw(112 + 12.94 + 2.028 + 12.6 + 3.0 + 0.08)
    # Nameplate: 163.2 + 10 x 1.72 + 3.0 + 7 x 2.4 + 2 x 3.0 + 0.15 = 206.35 kW
    assert t["it_power_nameplate_kw"] == kw(163.2 + 17.2 + 3.0 + 16.8 + 6.0 + 0.15)
    assert t["it_power_kw"] == t["it_power_typical_kw"]  # the typical basis
    assert t["facility_power_kw"] == pytest.approx(142.648 * 1.56, abs=0.001)  # x PUE = 222.53 kW
    # Design heat to liquid: 16 x 10.2 x 0.8 = 130.56 kW; ceil(130.56 / 250) = 1 CDU, + 1 spare
    # = 2 -- the guide's "a CDU for every 8 nodes" gives 16 / 8 = 2 as well
    assert t["liquid_heat_kw"] == kw(130.56)
    assert (t["cdus"], t["cdus_placed"], t["cdus_short"]) == (2, 2, False)
    assert devices["cdu-inrack-250"] == 2 and t["cdu_capacity_kw"] == pytest.approx(2 * 250)
    # Racks: 4 GPU racks; one air-cooled network rack (10 x 1.294 + 2.028 + 0.08 = 15.05 kW
    # <= 25 kW, 10 x 1U + 2U + 1U = 13U); one storage rack (7 x 2U = 14U, 12.6 kW); one CDU
    # rack (the GPU racks run at 28 of their 30 kW)
    assert t["racks"] == 4 + 1 + 1 + 1


def test_medium_cdus_per_the_guides_rule(tmp_path):
    _, r = check(tmp_path, "medium", settings={"facility": {"cdu_policy": "per_nodes"}})
    assert r["totals"]["cdus"] == 16 // 8  # one CDU per 8 liquid-cooled nodes


def test_medium_trains_no_faster_than_its_peak_flops(medium):
    _, r = medium
    w = r["workload"]
    # TP 8 x PP 4 x DP 4 = 128 GPUs; 6 x 70e9 FLOPs a token; at 100% of the H100's 989
    # TFLOP/s BF16 dense: 128 x 989e12 / 4.2e11 = 301,410 tokens/s is the ceiling
    assert 0 < w["tokens_per_s"] <= w["tokens_per_s_limit"] <= 128 * 989e12 / (6 * 70e9)


# --- gb200-nvl72-su: one DGX SuperPOD GB200 scalable unit, 8 NVL72 racks -------------------

def test_gb200_su_is_eight_72_gpu_racks(gb200):
    devices, r = gb200
    t = r["totals"]
    # 8 racks x 72 GPUs = 576, each rack one NVL72 (one 72-GPU NVLink domain)
    assert (t["nodes"], t["gpus"], t["gpu_racks"]) == (8, 576, 8)
    assert devices["gb200-nvl72"] == 8
    nvl = [rack for rack in r["racks"] if rack["nodes"]]
    assert len(nvl) == 8
    for rack in nvl:
        assert (rack["gpus"], rack["nodes"], rack["height_u"], rack["used_u"]) == (72, 1, 48, 48)
        assert (rack["power_typical_kw"], rack["power_nameplate_kw"]) == (kw(120), kw(132))
        assert rack["power_shelves"] == 8  # 8 x 33 kW shelves on the bus bar
        assert rack["weight_kg"] == pytest.approx(1360)
    # 8 x 120 = 960 kW typical, 8 x 132 = 1,056 kW nameplate
    assert sum(rack["power_typical_kw"] for rack in nvl) == kw(960)
    assert sum(rack["power_nameplate_kw"] for rack in nvl) == kw(1056)


def test_gb200_su_fabric_is_a_two_tier_fat_tree_of_18_leaves_and_16_spines(gb200):
    devices, r = gb200
    net = r["network"]
    endpoints = 8 * 18 * 4  # 4 CX-7 a compute tray, 18 trays a rack: 576, one per GPU
    assert endpoints <= 64 ** 2 // 2  # two tiers of 64-port switches hold 2,048
    leaves = math.ceil(endpoints / 32)  # 18
    # 32 uplinks a leaf spread evenly (ECMP): S spines, m = 32 / S links to each, 18 x m <= 64
    # ports a spine -> m = 2, S = 16 (ceil(576 / 64) = 9 spines would take 3.6 from each leaf)
    spines = 16
    assert leaves * 32 // spines <= 64 and 32 % spines == 0
    assert (net["topology"], net["tiers"]) == ("fat_tree", 2)
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (18, spines, 0)
    assert devices["qm9700"] == 18 + 16
    assert net["switch_ports_placed"] == 34 * 64
    assert net["cables"] == 576 + 576  # each GPU NIC to its leaf, each leaf's 32 uplinks


def test_gb200_su_storage_cooling_and_power(gb200):
    devices, r = gb200
    t = r["totals"]
    # The guide's 1.2 PB per 384 GPUs: 576 / 384 x 1.2 = 1.8 PB -> ceil(1,800 / 250) = 8
    # appliances, 2,000 TB
    assert devices["pfs-appliance"] == math.ceil(576 / 384 * 1200 / 250) == 8
    assert r["storage"]["capacity_tb"] == pytest.approx(2000)
    # storage ports: 8 racks x 36 BlueField-3 ports + 8 appliances x 4 = 320, past one 128-port
    # switch: a leaf-spine at 3:1, ceil(320 / 96) = 4 leaves whose 4 x 32 uplinks one spine takes
    assert devices["sn5600-400"] == 4 + 1
    # BMC ports: 8 + 27 + 5 + 8 + 2 UFM + 2 head nodes + 5 CDUs = 57 devices -> 2 x 48-port
    assert devices["mgmt-1g-48"] == 2
    # Design heat to liquid: 8 x 132 x 0.85 = 897.6 kW; ceil(897.6 / 250) = 4, + 1 spare = 5
    assert t["liquid_heat_kw"] == kw(897.6)
    assert (t["cdus"], t["cdus_placed"]) == (5, 5) and devices["cdu-inrack-250"] == 5
    # Nameplate: 1,056 + 34 x 1.72 + 5 x 3.0 + 8 x 2.4 + 2 x 0.6 + 2 x 1.1 + 5 x 3.0 + 2 x 0.15
    # = 1,161.38 kW: the RA's "Each SU requires a TDP of 1.2 MW"
    assert t["it_power_nameplate_kw"] == kw(1056 + 58.48 + 15.0 + 19.2 + 1.2 + 2.2 + 15.0 + 0.3)
    # Typical: 960 + 34 x 1.294 + 5 x 2.028 + 8 x 1.8 + 2 x 0.35 + 2 x 0.6 + 5 x 1.5 + 2 x 0.08
    typical = 960 + 43.996 + 10.14 + 14.4 + 0.7 + 1.2 + 7.5 + 0.16
    assert t["it_power_typical_kw"] == t["it_power_kw"] == kw(typical)  # 1,038.10 kW
    assert t["facility_power_kw"] == pytest.approx(typical * 1.56, abs=0.001)
    # Racks: 8 NVL72; the fabric's switches and the management devices draw 43.996 + 0.7 + 1.2
    # + 0.16 = 46.06 kW: two 25 kW air-cooled racks; the storage leaf-spine stands together in
    # a network rack of its own (5 x 2.028 = 10.14 kW); 8 x 2U appliances (14.4 kW): 1 storage
    # rack; 5 x 4U CDUs: 1 CDU rack
    assert t["racks"] == 8 + 3 + 1 + 1


def test_gb200_su_trains_no_faster_than_its_peak_flops(gb200):
    _, r = gb200
    w = r["workload"]
    # TP 8 x PP 4 x DP 18 = 576 GPUs at 2,500 TFLOP/s BF16 dense (the catalog's GB200 B200
    # figure): 576 x 2.5e15 / (6 x 70e9) = 3,428,571 tokens/s at 100% utilisation
    assert 0 < w["tokens_per_s"] <= w["tokens_per_s_limit"] <= 576 * 2.5e15 / (6 * 70e9)
