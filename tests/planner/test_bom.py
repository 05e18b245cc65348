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


def test_cables_by_medium_and_length_and_optics_by_module_from_the_schedule():
    # 4 nodes x 8 rails = 32 endpoints on one 64-port QM9700 in the next rack (0.6 m along
    # the row). A run goes up from the node's top U to the tray (0.3 m above the 42U rack),
    # along, down to the switch's top U (U1), plus 1 m slack, in U of 0.04445 m:
    # node at U1 (top U4): (38 + 41) x 0.04445 + 0.3 + 0.3 + 0.6 + 1 = 5.71 m; each node 8U
    # higher is 8 x 0.04445 = 0.36 m shorter: 5.36 m, 5.00 m (just over), 4.65 m (U25).
    # 400G copper reaches 5 m (active, ACC), so the U25 node's 8 runs are 5 m ACC, the
    # other 24 multimode fibre in 7 m with a transceiver at each end.
    items = lines_by_item(four_node_plan())
    acc, mmf = items["Fabric cable, 400G active copper cable, 5 m"], items["Fabric cable, multimode fibre (OM4), 7 m"]
    assert acc["quantity"] == 8 and mmf["quantity"] == 24
    # priced from the catalog cable of the next length at or above: ACC 5 m $550, OM4 trunk 10 m $35
    assert acc["unit_usd"] == 550 and "acc-800g-5m" in acc["source"]
    assert mmf["unit_usd"] == 35 and "fiber-om4-mpo-10m" in mmf["source"]
    # Optics: HGX H100's compute NICs are single-port ConnectX-7 adapters (one 400G OSFP SR4
    # at $700 each: 3 fibre-linked nodes x 8 = 24); QM9700's cages are twin-port OSFP
    # (2 x 400G): 24 / 2 = 12 twin-port SR modules at $1,200; each line names its module.
    optic = items["Transceiver, fabric: 800G twin-port OSFP transceiver (2 x 400G SR4)"]
    assert optic["quantity"] == 12 and optic["unit_usd"] == 1_200
    single = items["Transceiver, fabric: 400G OSFP SR4 transceiver (single-port)"]
    assert single["quantity"] == 24 and single["unit_usd"] == 700
    assert not any("leaf to spine" in k for k in items)


def test_optics_priced_by_form_factor_and_speed():
    from planner.costs.parts import module_part

    cat = default_catalog()
    # 100GbE on QSFP28 is not a 400G OSFP module: 100GBASE-SR4 at $100
    assert module_part(cat, 100, 1, "QSFP28", "MMF", 7)[0].id == "xcvr-100g-qsfp28-sr4"
    # a twin-port OSFP cage takes one 2 x 400G module for two links; a single-port one a 400G SR4
    assert module_part(cat, 400, 2, "OSFP", "MMF", 30) == (cat.components["xcvr-2x400g-osfp-sr8"], 2)
    assert module_part(cat, 400, 1, "OSFP", "MMF", 30) == (cat.components["xcvr-400g-osfp-sr4"], 1)
    assert module_part(cat, 400, 1, "QSFP112", "MMF", 30)[0].id == "xcvr-400g-qsfp112-sr4"
    # 200G ports split four to a twin-port cage (QM9700 NDR200): one 2 x 400G module serves four
    assert module_part(cat, 200, 4, "OSFP", "MMF", 30) == (cat.components["xcvr-2x400g-osfp-sr8"], 4)
    # single-mode beyond 50 m: DR optics; 800G twin-port -> 1.6T 2 x DR4; 1G management -> LX
    assert module_part(cat, 800, 2, "OSFP", "SMF", 150)[0].id == "xcvr-1p6t-osfp-2xdr4"
    assert module_part(cat, 800, 1, "OSFP", "SMF", 150)[0].id == "xcvr-800g-osfp-dr8"
    assert module_part(cat, 1, 1, "SFP", "SMF", 150)[0].id == "xcvr-1g-sfp-lx"
    # 5 km at 400G: LR4 (10 km); nothing reaches 20 km: no module (the BOM then uses the cost
    # setting and says so)
    assert module_part(cat, 400, 1, "OSFP", "SMF", 5_000)[0].id == "xcvr-400g-osfp-lr4"
    assert module_part(cat, 400, 1, "OSFP", "SMF", 20_000)[0] is None


def test_large_plans_price_cabling_per_fabric_tier(monkeypatch):
    import planner.costs.section as cost_section

    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 0)  # as a plan too large to route
    # Two tiers forced: one scalable unit, 8 leaves with 4 nodes each; 32 node-leaf links,
    # 32 leaf-spine uplinks (non-blocking; 8 leaves x 4 to one spine), each tier priced by the
    # lengths its runs take. Leaf to spine: the hall stands its one placed QM9700 alone in its
    # rack, so the 9 switches sized (8 leaves, then the spine) take 9 racks in a row, none
    # sharing the spine's; the leaves 0.6, 1.2, ... 4.8 m along the row from it; each end from
    # U1 of a 42U rack up to the tray 0.3 m above, 41 x 0.04445 + 0.3 = 2.122 m, and 1 m
    # slack: 5.245 m + along. 5.845 and 6.445 m on 7 m multimode (2 of 8), 7.045 to 9.445 m
    # on 10 m (5 of 8), 10.045 m on 15 m (1 of 8): 8, 20 and 4 of the 32 links. The catalog's
    # 10 m OM4 trunk serves the 7 and 10 m runs (one line of 28), its 30 m trunk the 15 m.
    assert [round(5.245 + 0.6 * k, 3) for k in (1, 2, 3, 7, 8)] == [5.845, 6.445, 7.045, 9.445, 10.045]
    items = lines_by_item(four_node_plan(fabric={"tiers": "2"}))
    node_leaf = {k: v["quantity"] for k, v in items.items() if k.startswith("Fabric cable, node to leaf")}
    assert sum(node_leaf.values()) == 32
    assert items["Fabric cable, leaf to spine, multimode fibre (OM4), 10 m"]["quantity"] == 28
    assert items["Fabric cable, leaf to spine, multimode fibre (OM4), 15 m"]["quantity"] == 4
    # twin-port modules at both ends, each length's counted whole: 2 x (4 + 10 + 2)
    assert items["Transceiver, leaf to spine: 800G twin-port OSFP transceiver (2 x 400G SR4)"]["quantity"] == 32
    # node to leaf: the runs on fibre take a 400G SR4 at each node's single-port ConnectX-7 and
    # twin-port 2 x 400G SR modules at the QM9700s' cages, each fibre length's counted whole
    fibre = {k: n for k, n in node_leaf.items() if "multimode" in k}
    twin = "800G twin-port OSFP transceiver (2 x 400G SR4)"
    assert items["Transceiver, node to leaf: 400G OSFP SR4 transceiver (single-port)"]["quantity"] == sum(
        fibre.values())
    assert items[f"Transceiver, node to leaf: {twin}"]["quantity"] == sum(-(-n // 2) for n in fibre.values())
    dac = lines_by_item(four_node_plan(costs={"node_leaf_dac": True}, fabric={"tiers": "2"}))
    assert not any(k.startswith("Transceiver, node to leaf") for k in dac)
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


def test_racks_and_facility_power_distribution_and_cooling_per_kw():
    items = lines_by_item(four_node_plan())
    assert items["Rack enclosure"]["quantity"] == 2 and items["Rack enclosure"]["total_usd"] == 5_000
    # IT power on the typical basis: 4 nodes x 7,000 W + QM9700 1,294 W = 29.294 kW, at the
    # guide's $75K / 112 kW = $670 per kW: 19,626.98
    assert items["Facility power distribution"]["total_usd"] == pytest.approx(29.294 * 670, abs=0.005)
    assert "Facility power distribution" not in lines_by_item(four_node_plan(costs={"facility_power_usd_per_kw": 0}))
    assert "Facility cooling plant" not in items  # 0 by default: the colocation provider's plant
    owned = lines_by_item(four_node_plan(costs={"facility_cooling_usd_per_kw": 2_000}))
    assert owned["Facility cooling plant"]["total_usd"] == pytest.approx(29.294 * 2_000, abs=0.005)


def test_doubling_the_per_kw_distribution_rate_moves_capex_by_exactly_that_line():
    base = evaluate(four_node_plan(), default_catalog()).sections["cost"]
    double = evaluate(four_node_plan(costs={"facility_power_usd_per_kw": 1_340}), default_catalog()).sections["cost"]
    # 29.294 kW x (1,340 - 670) = 19,626.98 more capex (no project costs by default)
    assert double["capex_usd"] - base["capex_usd"] == pytest.approx(29.294 * 670, abs=0.01)


def test_capex_is_the_bom_total():
    report = evaluate(four_node_plan(), default_catalog())
    cost = report.sections["cost"]
    # 4 x 315,000 + 43,000 (one switch holds the 32 endpoints) + 8 ACC x 550 + 24 OM4 x 35
    # + 12 twin-port transceivers x 1,200 + 24 single-port x 700 (test above) + 2 racks x 2,500
    # + 6 PDUs x 3,000 + 2 CDUs (N+1) 30,000 + 29.294 kW x 670
    assert cost["capex_usd"] == pytest.approx(1_260_000 + 43_000 + 4_400 + 840 + 14_400 + 16_800 + 5_000 + 18_000
                                              + 30_000 + 19_626.98)
    assert cost["capex_usd"] == pytest.approx(sum(line["total_usd"] for line in cost["bom"]))


def test_spares_in_stock_are_a_line_of_the_bill_and_hot_ones_are_priced_apart():
    # four HGX H100 at $315,000, one of them a hot spare, three more stocked: the stocked are a
    # line of 3 x 315,000 = 945,000 in capex; the hot one stays in the placed nodes' line
    base = evaluate(four_node_plan(), default_catalog()).sections["cost"]
    plan = four_node_plan(reliability={"spare_nodes": 1, "spares_stocked": 3})
    cost = evaluate(plan, default_catalog()).sections["cost"]
    items = {line["item"]: line for line in cost["bom"]}
    stocked = items["Spare nodes (stocked, not placed)"]
    assert (stocked["quantity"], stocked["unit_usd"], stocked["total_usd"]) == (3, 315_000, 945_000)
    assert next(v for k, v in items.items() if "HGX H100" in k)["quantity"] == 4
    assert cost["capex_usd"] - base["capex_usd"] == pytest.approx(945_000)
    assert cost["spares_usd"] == {"hot": 315_000, "stocked": 945_000}
    # none stocked: no line
    assert "Spare nodes (stocked, not placed)" not in lines_by_item(four_node_plan())


def test_spare_trays_are_priced_as_the_systems_tray_or_its_share_of_the_system():
    from planner.costs.spares import stocked_spares_line
    from planner.hardware.catalog import Catalog
    from planner.settings.reliability import ReliabilitySettings

    rel = ReliabilitySettings(spares_stocked=3)
    # GB300 NVL72: the catalog's GB300 compute tray (same rack type and GPU, 72 / 18 = 4 GPUs)
    line = stocked_spares_line({"gb300-nvl72": 2}, default_catalog(), rel)
    tray = default_catalog()["gb300-compute-tray"]
    assert (line.item, line.part, line.quantity, line.unit_usd) == (
        "Spare compute trays (stocked, not placed)", tray.model, 3, tray.price_usd)
    # a catalog without that tray: the system's $3.7M over its 18 trays = $205,555.56 a tray
    no_tray = Catalog([d for d in default_catalog() if d.id != "gb300-compute-tray"])
    line = stocked_spares_line({"gb300-nvl72": 2}, no_tray, rel)
    assert line.unit_usd == pytest.approx(3_700_000 / 18) and "over its 18 compute trays" in line.source
    assert stocked_spares_line({"gb300-nvl72": 2}, default_catalog(), ReliabilitySettings()) is None


def test_unknown_pdu_model_is_a_warning_not_a_crash():
    report = evaluate(four_node_plan(power={"pdu_device": "no-such-pdu"}), default_catalog())
    assert any(f.code == "cost.bom.incomplete" and "no-such-pdu" in f.message for f in report.findings)
    assert not any("by rack power" in line["item"] for line in report.sections["cost"]["bom"])
