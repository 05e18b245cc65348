"""The rack-scale templates: the DGX SuperPOD GB200 scalable unit counted by hand, and the
400,000-GPU campus whose fabric real switches can build."""

import json

import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from tests.planner.spares_by_hand import spares_for

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
    # 576 node-leaf + 576 leaf-spine cables; were every run optical (the sizing's count):
    # single-port OSFP at the trays (576), twin-port cages at the switches (576 / 2 per tier at
    # each switch end): 576 + 288, 288 + 288
    assert net["cables_per_tier"] == {"node-leaf": 576, "leaf-spine": 576, "spine-core": 0}
    assert net["sizing"]["transceivers_per_tier"] == {"node-leaf": 864, "leaf-spine": 576, "spine-core": 0}
    # the modules bought are the cable schedule's: its copper runs (switches side by side in
    # the network racks, trays next to them) take none
    assert net["transceivers"] == data["cables"]["fabric_transceivers"] < 864 + 576
    assert net["optical_links"] + net["copper_links"] == 576 + 576
    # no rack over its cap, cooling or weight
    assert not [f for f in data["findings"] if f["severity"] == "error"]


def test_campus_400k_is_buildable_with_real_switches():
    plan = build_template("campus-400k", catalog=CAT)
    report = evaluate(plan, CAT)
    t = report.totals
    # The job: 5,556 GB300 NVL72 racks x 72 = 400,032 GPUs on 5,556 x 18 = 100,008 hosts
    # (compute trays). Spares are compute trays, the unit the vendor swaps: a GPU or a host
    # failure takes one tray out; (400,032 x 0.3029 + 100,008 x 0.4792) / 1,000 = 121.17 +
    # 47.92 = 169.09 a day x 3 repair days = 507.3 trays in repair at once on average; fewer
    # than 561 at a failure with 99.01 % (Poisson; fewer than 560: 98.89 %) -> 561 trays stocked,
    # no rack placed as a spare (where 561 whole racks would have held 40,392 GPUs).
    goodput = report.sections["goodput"]
    assert (goodput["job_gpus"], goodput["job_hosts"], goodput["spare_nodes"]) == (400_032, 100_008, 0)
    assert (goodput["spare_unit"], goodput["spares_stocked"]) == ("compute tray", 561)
    assert goodput["node_failures_per_repair"] == pytest.approx(507.3, abs=0.1)
    assert spares_for(goodput["node_failures_per_repair"]) == 561
    assert t.gpus == 400_032 and t.gpu_racks == 5_556
    # the 561 trays at the catalog's GB300 compute tray price ($195,000): $109,395,000, where
    # 561 racks at $3.7M were $2,075.7M
    cost = report.sections["cost"]
    tray = CAT["gb300-compute-tray"]
    assert cost["spares_usd"] == {"hot": 0.0, "stocked": 561 * tray.price_usd} and tray.price_usd == 195_000
    net = report.sections["network"]
    # 400,032 ConnectX-8 800G endpoints on 144-port Q3400: two tiers hold 144^2 / 2 = 10,368,
    # three hold 144^3 / 4 = 746,496. Rails = the 4 NICs of a tray: 100,008 trays / 72 per
    # leaf = 1,389 units (all full) x 4 rails = 5,556 leaves; pods of 72 leaves: 78 (<= 144),
    # the last of 5,556 - 77 x 72 = 12 leaves whose 72 uplinks spread over the fewest spines
    # that hold them, 6 to each of 12 (12 x 6 = 72 of a spine's 72 ports down);
    # spines: 77 pods x 72 + 12 = 5,556; core 5,556 x 72 uplinks / 144 = 2,778.
    assert net["tiers"] == 3
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (5_556, 5_556, 2_778)
    assert net["switch_ports_needed"] == net["switch_ports_placed"] == 13_890 * 144
    # typical IT load: 5,556 x 132 kW = 733.4 MW in the GPU racks alone, plus 13,890 Q3400 at
    # 5.2 kW (72.2 MW): over 805 MW of IT, over a gigawatt at the facility with PUE 1.3
    it_kw = t.typical_milliwatts / 1e6
    assert it_kw > 733_392 + 72_228 and it_kw * 1.3 > 1_000_000
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
