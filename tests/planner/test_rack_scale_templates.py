"""The rack-scale templates: the DGX SuperPOD GB200 scalable unit counted by hand, and the
400,000-GPU campus whose fabric real switches can build."""

import json

import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate

CAT = default_catalog()


@pytest.fixture(scope="module")
def su_json(tmp_path_factory):
    path = tmp_path_factory.mktemp("su") / "su.json"
    assert main(["new", "--template", "gb200-nvl72-su", "-o", str(path)]) == 0
    return path


def test_gb200_su_gpus_racks_and_compute_fabric_by_hand(su_json, capsys):
    capsys.readouterr()
    code = main(["check", str(su_json), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    totals = data["totals"]
    # 8 GB200 NVL72 racks x 72 GPUs = 576 (DGX SuperPOD GB200 RA: one SU = 8 DGX GB200)
    assert totals["gpus"] == 576
    # Racks: 8 NVL72 racks (each its own 48U MGX rack, the system fills it)
    #  + network racks, air-cooled at min(30 kW cap, 25 kW air limit) = 25 kW:
    #    34 QM9700 at 1.294 kW typical -> floor(25 / 1.294) = 19 in NET-01, 15 in NET-02
    #    (19.41 kW) with 2 of the 3 SN5600 (2.028 kW): 23.47 kW; the third SN5600, 2 UFM
    #    (0.35 kW), 2 head nodes (0.6 kW) and the management switches in NET-03
    #  + 1 storage rack: 8 appliances x 1.8 kW = 14.4 kW, 16U
    #  + 1 CDU rack (the NVL72 racks have no free U)
    # = 8 + 3 + 1 + 1 = 13 racks
    assert totals["racks"] == 13
    net = data["network"]
    # Compute fabric: 8 racks x 72 ConnectX-7 400G = 576 endpoints on 64-port QM9700,
    # non-blocking two tiers: leaves = 576 / 32 down-ports = 18, 32 uplinks each. Spread
    # evenly (ECMP): 9 spines would take 32 / 9 = 3.6 links from each leaf; the fewest S
    # with m = ceil(32 / S) links to each, S x m <= 32 and 18 x m <= 64 ports, is S = 16,
    # m = 2; no core. 18 + 16 = 34 switches, all placed.
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (18, 16, 0)
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 34 * 64
    # 576 node-leaf + 576 leaf-spine cables; single-port OSFP at the trays (576), twin-port
    # cages at the switches (576 / 2 per tier at each switch end): 576 + 288, 288 + 288
    assert net["cables_per_tier"] == {"node-leaf": 576, "leaf-spine": 576, "spine-core": 0}
    assert net["transceivers_per_tier"] == {"node-leaf": 864, "leaf-spine": 576, "spine-core": 0}
    # no rack over its cap, cooling or weight
    assert not [f for f in data["findings"] if f["severity"] == "error"]


def test_campus_400k_is_buildable_with_real_switches():
    plan = build_template("campus-400k", catalog=CAT)
    report = evaluate(plan, CAT)
    t = report.totals
    # The job: 5,556 GB300 NVL72 racks x 72 = 400,032 GPUs on 5,556 x 18 = 100,008 hosts
    # (compute trays). Hot spares: an NVL72 is one node of the goodput model, taken out by a GPU
    # or a host failure on any of its trays (72 x 0.3029 + 18 x 0.4792 = 30.434 interruptions
    # per 1,000 system-days) x 5,556 x 3 repair days / 1,000 = 507.3 in repair at once -> 508
    # whole systems more: 6,064 racks, 436,608 GPUs placed.
    goodput = report.sections["goodput"]
    assert (goodput["job_gpus"], goodput["job_hosts"], goodput["spare_nodes"]) == (400_032, 100_008, 508)
    assert t.gpus == 436_608 and t.gpu_racks == 6_064
    net = report.sections["network"]
    # 436,608 ConnectX-8 800G endpoints on 144-port Q3400: two tiers hold 144^2 / 2 = 10,368,
    # three hold 144^3 / 4 = 746,496. Rails = the 4 NICs of a tray: 109,152 trays / 72 per
    # leaf = 1,516 units x 4 rails = 6,064 leaves; pods of 72 leaves: 85 (<= 144), the last
    # of 16 leaves whose 72 uplinks spread over the fewest spines that hold them, 4 to each
    # of 18 (16 x 4 = 64 of a spine's 72 ports down; 5 to each of 15 would need 80);
    # spines: 84 pods x 72 + 18 = 6,066; core 6,064 x 72 uplinks / 144 = 3,032.
    assert net["tiers"] == 3
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (6_064, 6_066, 3_032)
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 15_162 * 144
    # typical IT load: 6,064 x 132 kW = 800.4 MW in the GPU racks alone, plus 15,162 Q3400 at
    # 5.2 kW (78.8 MW): over 879 MW of IT, over a gigawatt at the facility with PUE 1.3
    it_kw = t.typical_milliwatts / 1e6
    assert it_kw > 800_448 + 78_842 and it_kw * 1.3 > 1_000_000
    assert not [f.code for f in report.findings if f.severity == "error"]


def test_an_nvl72_rack_weighs_what_the_system_weighs_with_no_second_enclosure(su_json, capsys):
    """A GB200 NVL72 weighs 1.36 t in all, its MGX rack included (NVIDIA DGX GB200 user guide;
    ServeTheHome GTC 2024): no 160 kg enclosure is added to its rack, on the scale, the floor
    or the bill; the network and storage racks keep theirs."""
    capsys.readouterr()
    main(["check", str(su_json), "--json"])
    data = json.loads(capsys.readouterr().out)
    nvl = [r for r in data["racks"] if r["name"].startswith("NVL")]
    others = [r for r in data["racks"] if not r["name"].startswith("NVL")]
    assert len(nvl) == 8 and len(others) == 5
    for rack in nvl:
        assert (rack["enclosure_kg"], rack["total_weight_kg"]) == (0, 1360)
        # 1,360 kg over 600 mm x (1,200 mm + the template's 1,050 mm of aisle) = 1.35 m2
        assert rack["floor_load_kg_m2"] == pytest.approx(1360 / 1.35, abs=0.05)  # 1,007.4, not 1,125.9
    assert all(r["enclosure_kg"] == 160 for r in others)
    bom = {line["item"]: line for line in data["cost"]["bom"]}
    assert bom["Rack enclosure"]["quantity"] == 5  # the NVL72s' racks come with them
