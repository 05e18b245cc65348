"""Bill of materials: placed devices plus the cables, optics, racks, PDUs, CDUs and
facility power the layout implies, counted by hand."""

import pytest

from planner.facility.distribution import size_feeds
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.plan.model import Rack
from tests.planner.cost_helpers import plan_with

NODES = [("hgx-h100-8", 1), ("hgx-h100-8", 9), ("hgx-h100-8", 17), ("hgx-h100-8", 25)]


def four_node_plan(extra_infra=(), **settings):
    gpu = Rack(id="GPU-1", name="GPU-1", cooling="liquid", power_cap_kw=45)
    net = Rack(id="NET-1", name="NET-1")
    return plan_with([(gpu, NODES), (net, [("qm9700", 1), *extra_infra])], **settings)


def lines_by_item(plan):
    bom = evaluate(plan, default_catalog()).sections["cost"]["bom"]
    return {line["item"]: line for line in bom}


def pdus_per_rack(rack_kw, redundancy="2N"):
    from planner.settings import PowerSettings
    pdu = default_catalog()["pdu-3ph-60a"]  # sqrt(3) x 415 x 60 x 0.8 = 34.50 kW
    return sum(f.pdus for f in size_feeds(rack_kw, ((0, 0), (0, 0)), pdu,
                                          PowerSettings(feed_redundancy=redundancy)))


def test_pdus_per_rack_a_plus_b_each_feed_carries_the_rack():
    # 28 kW on a 34.5 kW PDU: one per feed, two feeds -> 2; 40.8 kW needs 2 per feed -> 4
    assert pdus_per_rack(28) == 2
    assert pdus_per_rack(40.8) == 4
    assert pdus_per_rack(40.8, "N") == 2
    assert pdus_per_rack(40.8, "N+1") == 3  # the 2 the nameplate needs + 1 spare
    assert pdus_per_rack(34.5) == 2  # exactly at the rating still fits one per feed
    assert pdus_per_rack(0) == 0


def test_placed_devices_priced_from_the_catalog():
    items = lines_by_item(four_node_plan())
    node = next(v for k, v in items.items() if "HGX H100" in k)
    assert node["quantity"] == 4 and node["unit_usd"] == 315_000 and node["total_usd"] == 1_260_000
    assert node["category"] == "GPU servers" and "317k" in node["source"]


def test_cables_and_transceivers_per_tier_from_the_fabric_sizing():
    # 4 nodes x 8 rails = 32 endpoints fit one 64-port switch: 32 node-switch cables, no uplinks.
    single = lines_by_item(four_node_plan())
    assert single["Fabric cable, node to leaf"]["quantity"] == 32
    assert "Fabric cable, leaf to spine" not in single
    # Two tiers forced: one scalable unit, 8 leaves with 4 nodes each;
    # 32 node-leaf links, 32 leaf-spine uplinks (non-blocking). One cable per link, 32 + 32
    # cables at $150. Optics at both ends, but twin-port 2 x 400G OSFP modules (DGX SuperPOD
    # H100 RA: 4 twin-port cages per node, QM9700's 32 cages) each serve two links:
    # node to leaf 32 / 2 at the nodes + 32 / 2 at the leaves = 32 modules (not 64);
    # leaf to spine 32 / 2 + 32 / 2 = 32 modules at $1,000.
    items = lines_by_item(four_node_plan(fabric={"tiers": "2"}))
    assert items["Fabric cable, node to leaf"]["quantity"] == 32
    assert items["Fabric cable, leaf to spine"]["quantity"] == 32
    assert items["Transceiver, node to leaf (both ends)"]["quantity"] == 32
    assert items["Transceiver, leaf to spine (both ends)"]["total_usd"] == 32 * 1_000
    dac = lines_by_item(four_node_plan(costs={"node_leaf_dac": True}, fabric={"tiers": "2"}))
    assert "Transceiver, node to leaf (both ends)" not in dac
    assert dac["Fabric cable, node to leaf"]["part"] == "passive DAC"


def test_pdus_by_rack_power_and_cdus_by_policy_without_double_counting():
    items = lines_by_item(four_node_plan())
    # PDUs are sized on nameplate: GPU rack 4 x 10.2 kW = 40.8 kW -> ceil(40.8 / 34.5) = 2 per
    # feed, A+B -> 4; NET rack 1.72 kW -> 1 per feed -> 2; 6 in all
    pdu = next(v for k, v in items.items() if "by rack power" in k)
    assert pdu["quantity"] == 6 and pdu["total_usd"] == 6 * 3_000
    # by capacity: 4 x 10.2 kW x 0.8 to liquid = 32.64 kW -> one 250 kW CDU, N+1 -> 2; none placed
    cdu = next(v for k, v in items.items() if "by cooling policy" in k)
    assert cdu["quantity"] == 2 and cdu["total_usd"] == 30_000
    # the guide's rule: 4 liquid-cooled nodes, one CDU per 8 nodes -> 1 CDU
    guide = {"cdu_policy": "per_nodes"}
    cdu = next(v for k, v in lines_by_item(four_node_plan(facility=guide)).items() if "by cooling policy" in k)
    assert cdu["quantity"] == 1 and cdu["total_usd"] == 15_000
    # with the CDU placed it is a placed line and no policy line is added
    placed = lines_by_item(four_node_plan(extra_infra=[("cdu-inrack-250", 10)], facility=guide))
    assert not any("by cooling policy" in k for k in placed)
    cdus = [v for k, v in placed.items() if v["category"] == "Cooling (CDU)"]
    assert [c["quantity"] for c in cdus] == [1]
    # the nameplate basis buys the same PDUs (they are always sized on nameplate): 6
    nameplate = lines_by_item(four_node_plan(facility={"power_basis": "nameplate"}))
    assert next(v for k, v in nameplate.items() if "by rack power" in k)["quantity"] == 6


def test_racks_and_facility_power_distribution():
    items = lines_by_item(four_node_plan())
    assert items["Rack enclosure"]["quantity"] == 2 and items["Rack enclosure"]["total_usd"] == 5_000
    assert items["Facility power distribution"]["total_usd"] == 75_000  # the guide's $50-100K, midpoint
    assert "Facility power distribution" not in lines_by_item(four_node_plan(costs={"facility_power_usd": 0}))


def test_capex_is_the_bom_total():
    report = evaluate(four_node_plan(), default_catalog())
    cost = report.sections["cost"]
    # 4 x 315,000 + 43,000 (one switch holds the 32 endpoints) + 32 cables x 150 +
    # 32 twin-port transceivers x 1,000 (16 at the nodes, 16 at the switch) + 2 racks x 2,500
    # + 6 PDUs x 3,000 + 2 CDUs (N+1) 30,000 + 75,000
    assert cost["capex_usd"] == pytest.approx(1_260_000 + 43_000 + 4_800 + 32_000 + 5_000 + 18_000 + 30_000 + 75_000)
    assert cost["capex_usd"] == pytest.approx(sum(line["total_usd"] for line in cost["bom"]))


def test_unknown_pdu_model_is_a_warning_not_a_crash():
    report = evaluate(four_node_plan(power={"pdu_device": "no-such-pdu"}), default_catalog())
    assert any(f.code == "cost.bom.incomplete" and "no-such-pdu" in f.message for f in report.findings)
    assert not any("by rack power" in line["item"] for line in report.sections["cost"]["bom"])
