"""Rack remedies on small plans, figures by hand from the catalog: an HGX H100 node is 4U,
7.0 kW typical, 10.2 kW nameplate, 80 kg, liquid-cooled, six C19 cords; the plan's basis
is typical; a rack stands on 600 x 1,200 mm with a 160 kg enclosure; a 415 V 3-phase PDU
carries sqrt(3) x 415 V x I x 0.8: 34.5 kW at 60 A, 18.4 kW at 32 A.

Why it is long: each remedy a rack check carries (split, move back, larger PDU, feeds,
cooling) is done here on a plan small enough to work its figures by hand, and undone."""

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.commands import CommandError, History
from planner.plan.fileio import plan_to_json
from planner.plan.model import Placement, Plan, Rack
from planner.remedies.commands import remedy_command
from planner.report.evaluate import evaluate

CATALOG = default_catalog()
NODE = "hgx-h100-8"


def _plan(racks: list[tuple[Rack, int]], **settings) -> History:
    """Racks, each with its count of nodes stacked from U1 (U1, U5, U9, ...)."""
    plan = Plan(racks=[r for r, _ in racks])
    for rack, nodes in racks:
        for i in range(nodes):
            plan.insert_placement(Placement(id=f"{rack.id}n{i + 1}", device=NODE, rack=rack.id, u=1 + 4 * i,
                                             label=f"{rack.name}-node-{i + 1}"))
    plan.settings.workload = plan.settings.workload.model_copy(update={"enabled": False})
    for section, values in settings.items():
        setattr(plan.settings, section, getattr(plan.settings, section).model_copy(update=values))
    return History(plan, CATALOG)


def _findings(h: History, code: str):
    return [f for f in evaluate(h.plan, CATALOG).findings if f.code == code]


def _nodes(h: History, rack_name: str) -> list[str]:
    rack = next(r for r in h.plan.racks if r.name == rack_name)
    return sorted(p.label for p in h.plan.rack_members(rack.id).values())


def _fix(h: History, code: str):
    (finding,) = _findings(h, code)[:1]
    command = remedy_command(finding.remedy)
    h.apply(command)
    return finding, command


def test_an_over_cap_rack_is_split_into_a_new_rack_of_its_kind():
    # 5 nodes x 7.0 kW = 35.0 kW against a 30 kW cap: one node out leaves 28.0 kW
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 5)])
    before = plan_to_json(h.plan)
    finding, command = _fix(h, "rack.power.over_cap")
    assert "35.0 kW" in finding.message and finding.remedy.kind == "split_rack"
    assert finding.remedy.label == ("Split rack GPU-01: move 1 device into a rack of its kind with room, or a "
                                    "new one")
    assert dict(finding.remedy.figures) == {"rack": "r1", "devices": 1}
    assert command.label == "Split rack GPU-01: move 1 device into GPU-02"
    assert _nodes(h, "GPU-01") == [f"GPU-01-node-{i}" for i in range(1, 5)]
    assert _nodes(h, "GPU-02") == ["GPU-01-node-5"]  # the top node, with its label
    new = h.plan.racks[1]
    assert (new.cooling, new.power_cap_kw, new.height_u) == ("liquid", 30, 42)
    assert not _findings(h, "rack.power.over_cap")
    h.undo()
    assert plan_to_json(h.plan) == before


def test_a_node_dragged_one_rack_too_far_goes_back_where_there_is_room():
    # GPU-01 holds 2 nodes (14 kW), GPU-02 5 (35 kW) under 30 kW caps: one node out of GPU-02
    # fits GPU-01 (21 kW), so it goes there and no rack is bought; GPU-03 of another cooling
    # (air) is not taken although it is empty of load.
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 2),
               (Rack(id="r2", name="GPU-02", cooling="liquid", power_cap_kw=30), 5),
               (Rack(id="r3", name="GPU-03", cooling="air", power_cap_kw=30), 0)])
    racks = len(h.plan.racks)
    finding, command = _fix(h, "rack.power.over_cap")
    assert command.label == "Split rack GPU-02: move 1 device into GPU-01"
    assert len(h.plan.racks) == racks and _nodes(h, "GPU-01") == ["GPU-01-node-1", "GPU-01-node-2", "GPU-02-node-5"]
    assert not _findings(h, "rack.power.over_cap")


def test_an_over_weight_rack_moves_two_nodes_out():
    # 5 x 80 kg = 400 kg on a 300 kg rating: 4 nodes are 320 kg, still over; 3 are 240 kg
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=100, max_weight_kg=300), 5)])
    finding, command = _fix(h, "rack.weight.over_limit")
    assert finding.remedy.figure("devices") == 2
    assert command.label == "Split rack GPU-01: move 2 devices into GPU-02"
    assert _nodes(h, "GPU-01") == [f"GPU-01-node-{i}" for i in range(1, 4)]
    assert _nodes(h, "GPU-02") == ["GPU-01-node-4", "GPU-01-node-5"]
    moved = sorted((h.plan.placement(f"r1n{i}").u, h.plan.placement(f"r1n{i}").label) for i in (4, 5))
    assert moved == [(1, "GPU-01-node-4"), (5, "GPU-01-node-5")]  # in the order they stood
    assert not _findings(h, "rack.weight.over_limit")


def test_a_rack_over_the_floor_rating_is_split():
    # 700 kg/m2 x 0.72 m2 = 504 kg under the rack, 344 kg after the enclosure: 4 nodes (320 kg) fit, 5 (400) not
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=100), 5)],
              floor={"floor_rating_kg_m2": 700.0})
    finding, command = _fix(h, "rack.floor.over_rating")
    assert "778 kg/m²" in finding.message  # (400 + 160) kg / 0.72 m2
    assert command.label == "Split rack GPU-01: move 1 device into GPU-02"
    assert not _findings(h, "rack.floor.over_rating")


def test_a_rack_of_one_device_has_no_split():
    # one node (7 kW typical) in a 5 kW rack: moving it out mends nothing
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=5), 1)])
    (finding,) = _findings(h, "rack.power.over_cap")
    assert finding.remedy is None


def test_pdu_positions_short_take_the_larger_pdu_of_the_same_circuit():
    # 4 nodes: 40.8 kW nameplate; 32 A PDUs (18.4 kW) need 3 a feed, 2 positions; 60 A (34.5 kW) need 2
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 4)],
              power={"pdu_device": "pdu-415v-3ph-32a"})
    finding, command = _fix(h, "rack.power.pdu_positions")
    assert finding.remedy.kind == "set_pdu" and dict(finding.remedy.figures) == {"device": "pdu-3ph-60a"}
    assert command.label == "Use Rack PDU 3-phase 415 V 60 A (34.5 kW) PDUs: 2 per feed in rack GPU-01"
    assert h.plan.settings.power.pdu_device == "pdu-3ph-60a"
    assert not _findings(h, "rack.power.pdu_positions")
    assert [f.pdus for f in evaluate(h.plan, CATALOG).rack_results["r1"].feeds] == [2, 2]
    h.undo()
    assert h.plan.settings.power.pdu_device == "pdu-415v-3ph-32a"


def test_pdu_positions_short_with_the_largest_pdu_split_the_rack():
    # 7 nodes: 71.4 kW nameplate, 3 x 34.5 kW PDUs a feed; 6 nodes (61.2 kW) take 2
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=100), 7)])
    finding, command = _fix(h, "rack.power.pdu_positions")
    assert finding.remedy.kind == "split_rack"
    assert command.label == "Split rack GPU-01: move 1 device into GPU-02"
    assert not _findings(h, "rack.power.pdu_positions")


def test_a_feed_loss_under_n_plus_1_adds_pdus_by_2n_feeds():
    # 40.8 kW nameplate: N+1 is 2 + 1 PDUs, 2 on A and 1 on B; B alone (34.5 kW) cannot carry it.
    # 2N: each feed takes ceil(40.8 / 34.5) = 2
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 4)],
              power={"feed_redundancy": "N+1"})
    assert [f.pdus for f in evaluate(h.plan, CATALOG).rack_results["r1"].feeds] == [2, 1]
    finding, command = _fix(h, "rack.power.feed_loss")
    assert command.label == "Add PDUs: 2N feeds, 2 PDUs on each feed"
    assert [f.pdus for f in evaluate(h.plan, CATALOG).rack_results["r1"].feeds] == [2, 2]
    assert not _findings(h, "rack.power.feed_loss")


def _with_air_node(h: History) -> History:
    """An air-cooled DGX H100 (8U) beside the liquid-cooled node in AIR-01: the rack stays air."""
    h.plan.insert_placement(Placement(id="r2dgx", device="dgx-h100", rack="r2", u=5, label="AIR-01-dgx"))
    return h


def test_an_air_rack_of_liquid_nodes_only_is_set_to_liquid():
    # AIR-01 holds one liquid-cooled HGX node and nothing else that needs air: the rack's
    # cooling is what is wrong, as the finding says, and its fix sets it (one undo step)
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 3),
               (Rack(id="r2", name="AIR-01", cooling="air", power_cap_kw=30), 1)])
    before = plan_to_json(h.plan)
    finding, command = _fix(h, "rack.cooling.liquid_device_in_air_rack")
    assert "set the rack's cooling to liquid" in finding.message
    assert finding.remedy.kind == "set_rack_cooling" and dict(finding.remedy.figures) == {"rack": "r2",
                                                                                         "cooling": "liquid"}
    assert command.label == "Set rack AIR-01's cooling to liquid"
    assert h.plan.rack("r2").cooling == "liquid" and h.plan.placement("r2n1").rack == "r2"
    assert not _findings(h, "rack.cooling.liquid_device_in_air_rack")
    h.undo()
    assert plan_to_json(h.plan) == before


def test_a_liquid_node_in_an_air_rack_moves_into_a_liquid_rack_with_room():
    # GPU-01 holds 3 nodes (21 kW of 30): a fourth fits at U13; AIR-01 keeps an air-cooled
    # DGX H100, so the liquid-cooled node moves rather than the rack changing
    h = _with_air_node(_plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 3),
                              (Rack(id="r2", name="AIR-01", cooling="air", power_cap_kw=30), 1)]))
    before = plan_to_json(h.plan)
    finding, command = _fix(h, "rack.cooling.liquid_device_in_air_rack")
    assert finding.remedy.kind == "move_to_liquid" and dict(finding.remedy.figures) == {"device": "r2n1"}
    assert command.label == "Move AIR-01-node-1 into liquid-cooled rack GPU-01"
    moved = h.plan.placement("r2n1")
    assert (moved.rack, moved.u, moved.label) == ("r1", 13, "AIR-01-node-1")
    assert not _findings(h, "rack.cooling.liquid_device_in_air_rack")
    h.undo()
    assert plan_to_json(h.plan) == before


def test_a_liquid_node_goes_to_a_new_liquid_rack_when_none_has_room():
    # GPU-01 holds 4 nodes (28 kW of 30): no room for 7 kW more
    h = _with_air_node(_plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 4),
                              (Rack(id="r2", name="AIR-01", cooling="air", power_cap_kw=30), 1)]))
    finding, command = _fix(h, "rack.cooling.liquid_device_in_air_rack")
    assert "move it to a liquid-cooled rack" in finding.message
    assert command.label == "Move AIR-01-node-1 into a new liquid-cooled rack GPU-02"
    new = h.plan.rack(h.plan.placement("r2n1").rack)
    assert (new.name, new.cooling, new.power_cap_kw) == ("GPU-02", "liquid", 30)
    assert [r.name for r in h.plan.racks] == ["GPU-01", "AIR-01", "GPU-02"]  # beside the node's old rack


def test_a_split_that_cannot_hold_is_refused_and_changes_nothing():
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 5)])
    finding = _findings(h, "rack.power.over_cap")[0]
    h.plan.settings.facility = h.plan.settings.facility.model_copy(update={"power_basis": "nameplate"})
    h.plan.racks[0].power_cap_kw = 8  # one node's 10.2 kW nameplate is over an empty rack's 8 kW
    before = plan_to_json(h.plan)
    with pytest.raises(CommandError, match="does not fit an empty rack"):
        h.apply(remedy_command(finding.remedy))
    assert plan_to_json(h.plan) == before


def test_racks_of_one_shape_each_name_themselves_in_their_remedy():
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 5),
               (Rack(id="r2", name="GPU-02", cooling="liquid", power_cap_kw=30), 5)])
    remedies = {f.where: f.remedy for f in _findings(h, "rack.power.over_cap")}
    assert dict(remedies["r2"].figures) == {"rack": "r2", "devices": 1} and "GPU-02" in remedies["r2"].label
    assert dict(remedies["r1"].figures) == {"rack": "r1", "devices": 1} and "GPU-01" in remedies["r1"].label


def test_a_pdu_without_the_outlets_the_cords_need_takes_the_smallest_one_with_them():
    # A 415 V 32 A PDU with C13 outlets only; 2 nodes: 20.4 kW nameplate, 6 C19 cords a feed.
    # Same circuit: the 32 A PDU with 6 C19 (18.4 kW: 2 a feed, 12 C19) and the 60 A (34.5 kW:
    # 1 a feed, 12 C19) both fit; the smaller wins
    from planner.facility.power import evaluate_rack
    from planner.hardware.catalog import Catalog

    base = CATALOG["pdu-415v-3ph-32a"]
    c13_only = base.model_copy(update={"id": "pdu-c13-only", "pdu": base.pdu.model_copy(update={"outlets_c19": 0})})
    catalog = Catalog([*CATALOG, c13_only])
    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 2)],
              power={"pdu_device": "pdu-c13-only"})
    res = evaluate_rack(h.plan, h.plan.rack("r1"), catalog)
    (finding, *_) = [f for f in res.findings if f.code == "rack.power.outlets"]
    assert "need 6 C19 outlets" in finding.message
    assert finding.remedy.label == "Use Rack PDU 3-phase 415 V 32 A (18.4 kW) PDUs: 2 per feed in rack GPU-01"
    assert dict(finding.remedy.figures) == {"device": "pdu-415v-3ph-32a"}


def test_check_json_gives_the_split_with_its_figures():
    from planner.report.compare import report_json

    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 5)])
    findings = report_json(h.plan, CATALOG, evaluate(h.plan, CATALOG))["findings"]
    over = next(f for f in findings if f["code"] == "rack.power.over_cap")
    assert over["remedy"] == {"kind": "split_rack", "label": "Split rack GPU-01: move 1 device into a rack of its "
                              "kind with room, or a new one", "rack": "r1", "devices": 1}


def test_the_split_count_follows_an_edit_of_the_power_basis():
    # split counts are kept by rack shape for the settings they were worked out under: on the
    # nameplate basis the same 5 nodes draw 5 x 10.2 = 51.0 kW, and 3 must go (20.4 kW left)
    from planner.plan.commands import SetSetting

    h = _plan([(Rack(id="r1", name="GPU-01", cooling="liquid", power_cap_kw=30), 5)])
    assert dict(_findings(h, "rack.power.over_cap")[0].remedy.figures)["devices"] == 1
    h.apply(SetSetting("facility", "power_basis", "nameplate"))
    assert dict(_findings(h, "rack.power.over_cap")[0].remedy.figures)["devices"] == 3
    h.apply(SetSetting("facility", "power_basis", "typical"))
    assert dict(_findings(h, "rack.power.over_cap")[0].remedy.figures)["devices"] == 1


def test_a_storage_appliance_dragged_into_a_gpu_rack_goes_back_to_the_storage_rack():
    # medium: GPU-02 holds 4 nodes (4 x 7.0 = 28.0 kW of its 30 kW); two 1.8 kW storage
    # appliances dropped on it make 31.6 kW. Moving the top node out to a new rack would mend
    # it, and buy a rack; one appliance back to STOR-01 (air-cooled, 11.2 + 1.8 kW of 25) leaves
    # GPU-02 at 29.8 kW, and no rack is added.
    from planner.design.templates import build_template
    from planner.plan.commands import MoveDevice

    h = History(build_template("medium", catalog=CATALOG), CATALOG)
    plan = h.plan
    gpu02 = next(r for r in plan.racks if r.name == "GPU-02")
    stor = next(r for r in plan.racks if r.name == "STOR-01")
    pfs6, pfs7 = (next(p for p in plan.placements if p.label == label) for label in ("pfs-6", "pfs-7"))
    h.apply(MoveDevice(pfs6.id, gpu02.id, 33))
    h.apply(MoveDevice(pfs7.id, gpu02.id, 35))
    over = [f for f in _findings(h, "rack.power.over_cap") if "GPU-02" in f.message]
    assert over and "31.6 kW" in over[0].message
    racks = len(plan.racks)
    command = remedy_command(over[0].remedy)
    h.apply(command)
    assert command.label == "Split rack GPU-02: move 1 device into STOR-01"
    assert {plan.placement(pfs6.id).rack, plan.placement(pfs7.id).rack} == {stor.id, gpu02.id}
    assert len(plan.racks) == racks and len(plan.rack_members(gpu02.id)) == 5
    assert not _findings(h, "rack.power.over_cap")


def test_a_rack_s_own_management_switch_stays_when_moving_it_mends_nothing():
    # medium with a 1 GbE management switch (80 W) in each of GPU-01..03, GPU-02 capped at
    # 27 kW: 4 x 7.0 + 0.08 = 28.08 kW. Its switch could go to NET-01 (which holds one), but
    # 28.0 kW would still be over: a node moves out, as before, and the switch stays.
    from planner.design.templates import build_template
    from planner.plan.commands import AddDevice, EditRack

    h = History(build_template("medium", catalog=CATALOG), CATALOG)
    plan = h.plan
    racks = {r.name: r for r in plan.racks}
    for name in ("GPU-01", "GPU-02", "GPU-03"):
        h.apply(AddDevice("mgmt-1g-48", racks[name].id, 40, placement_id=f"sw-{name}"))
    h.apply(EditRack(racks["GPU-02"].id, power_cap_kw=27.0))
    over = [f for f in _findings(h, "rack.power.over_cap") if "GPU-02" in f.message]
    command = remedy_command(over[0].remedy)
    h.apply(command)
    assert plan.placement("sw-GPU-02").rack == racks["GPU-02"].id
    moved = [p for p in plan.placements if p.rack not in {r.id for r in racks.values()}]
    assert [CATALOG[p.device].gpu is not None for p in moved] == [True]
    assert not _findings(h, "rack.power.over_cap")
