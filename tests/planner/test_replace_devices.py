"""Replacing a device type: the swap, the re-fit of racks by power, cooling and U, one undo
step, refusals.

Catalog figures used (typical / nameplate power, height):
HGX H100 8-GPU node 7.0 / 10.2 kW, 4U, liquid-cooled; DGX B200 10.0 / 14.3 kW, 10U, air-cooled;
DGX H100 7.0 / 10.2 kW, 8U, air-cooled. Default settings: racks capped at 30 kW, the air-cooling
limit 25 kW (an air rack is filled no further), power basis typical.
"""

import pytest

from planner.design.build import design
from planner.design.intent import Intent
from planner.design.replace import ReplaceDevices, compatible_types
from planner.design.templates import build_template
from planner.plan.commands import CommandError, History, RemoveDevices
from planner.report.evaluate import Evaluator, evaluate


def _racks(plan, device):
    """{rack name: [(label, U)]} of the racks holding ``device``."""
    out = {}
    for r in plan.racks:
        held = [(p.label, p.u) for p in plan.rack_members(r.id).values() if p.device == device]
        if held:
            out[r.name] = sorted(held, key=lambda x: x[1])
    return out


def test_every_hgx_h100_of_medium_becomes_a_dgx_b200_refitted_by_power(medium, catalog):
    # 16 HGX H100 stand 4 to a liquid rack (4 x 7 kW = 28 of 30 kW). A DGX B200 draws 10 kW:
    # 3 fit a 30 kW rack (30 kW; a 4th would be 40), so each of the 4 GPU racks keeps 3 (12)
    # and 4 must move. No other GPU rack has room; new racks for an air-cooled B200 are air
    # racks, filled to the 25 kW air limit: 2 each (20 kW; 3 would be 30), so 2 new racks.
    history = History(medium, catalog)
    ids_before = sorted(p.id for p in medium.placements)
    command = ReplaceDevices("dgx-b200", from_device="hgx-h100-8")
    history.apply(command)
    assert history.label == "Replace 16 x HGX H100 8-GPU node (direct liquid cooled, 4U) with DGX B200"
    assert command.summary.text() == "16 nodes; 4 racks re-fitted; 4 moved to other racks; 2 new racks"
    held = _racks(medium, "dgx-b200")
    # 10U each: the first keeps U1 (U1-U10), the next go to U11 and U21, the 4th (U13) moves out
    for name in ("GPU-01", "GPU-02", "GPU-03", "GPU-04"):
        assert [u for _, u in held[name]] == [1, 11, 21]
    assert [u for _, u in held["GPU-05"]] == [1, 11] and [u for _, u in held["GPU-06"]] == [1, 11]
    assert held["GPU-01"] == [("node-1", 1), ("node-2", 11), ("node-3", 21)]
    assert [label for label, _ in held["GPU-05"]] == ["node-4", "node-8"]  # moved, label kept
    new = [r for r in medium.racks if r.name in ("GPU-05", "GPU-06")]
    assert [(r.cooling, r.power_cap_kw) for r in new] == [("air", 25.0), ("air", 25.0)]
    assert not any(p.device == "hgx-h100-8" for p in medium.placements)
    # ids are the same devices: nothing added, nothing removed
    assert sorted(p.id for p in medium.placements) == ids_before
    codes = {f.code for f in evaluate(medium, catalog).findings if f.severity == "error"}
    assert not any(c.startswith(("rack.power", "rack.space", "rack.cooling")) for c in codes)


def test_on_nameplate_the_cdu_racks_give_up_a_node(catalog):
    # On the nameplate basis an HGX H100 is 10.2 kW: 2 to a 30 kW rack (3 would be 30.6), 8
    # GPU racks; GPU-01 and GPU-02 also hold an in-rack CDU (3.0 kW, U9-U12). A DGX B200 is
    # 14.3 kW: 2 fit a rack without a CDU (28.6 kW), the second (at U5) overlapping the first
    # (U1-U10) goes to U11. With a CDU only one fits (14.3 + 3.0 = 17.3; two 31.6), and it
    # cannot keep U1 (U1-U10 overlaps the CDU at U9): U13. The 2 that move find no GPU rack
    # with room and go to new air racks at the 25 kW air limit, one each (two would be 28.6).
    plan = build_template("medium", power_basis="nameplate", catalog=catalog)
    command = ReplaceDevices("dgx-b200", from_device="hgx-h100-8")
    History(plan, catalog).apply(command)
    assert command.summary.text() == "16 nodes; 8 racks re-fitted; 2 moved to other racks; 2 new racks"
    held = _racks(plan, "dgx-b200")
    assert [u for _, u in held["GPU-01"]] == [13] and [u for _, u in held["GPU-02"]] == [13]
    assert all([u for _, u in held[f"GPU-0{i}"]] == [1, 11] for i in range(3, 9))
    assert held["GPU-09"] == [("node-2", 1)] and held["GPU-10"] == [("node-4", 1)]


def test_a_liquid_cooled_node_leaves_an_air_rack(catalog):
    # 4 DGX H100 (air, 7 kW) fill air racks to the 25 kW air limit: 3 + 1 in 2 racks. An HGX
    # H100 is liquid-cooled: none can stay in an air rack, no liquid GPU rack exists, so they
    # go to a new liquid rack at the 30 kW cap: 4 x 7 = 28 kW, all 4 in one rack.
    plan = design(Intent(system="dgx-h100", nodes=4), catalog).plan
    assert [len(v) for v in _racks(plan, "dgx-h100").values()] == [3, 1]
    command = ReplaceDevices("hgx-h100-8", from_device="dgx-h100")
    History(plan, catalog).apply(command)
    assert command.summary.text() == "4 nodes; 2 racks re-fitted; 4 moved to other racks; 1 new rack"
    held = _racks(plan, "hgx-h100-8")
    assert list(held) == ["GPU-03"]
    assert [u for _, u in held["GPU-03"]] == [1, 5, 9, 13]
    assert plan.rack(plan.placements[0].rack).cooling == "liquid"


def test_the_moved_nodes_fill_a_gpu_rack_with_room_first(medium, catalog):
    # GPU-02 keeps 2 of its 4 HGX H100 (2 x 7 = 14 kW, U1-U8). Replacing GPU-01's 4 with DGX
    # B200: 3 stay (30 kW), node-4 must move; GPU-02 takes it (14 + 10 = 24 kW) at its lowest
    # free U, U9: no new rack.
    history = History(medium, catalog)
    gpu02 = [p.id for p in medium.placements if medium.rack(p.rack).name == "GPU-02"]
    history.apply(RemoveDevices(gpu02[2:]))
    gpu01 = [p.id for p in medium.placements if medium.rack(p.rack).name == "GPU-01"]
    command = ReplaceDevices("dgx-b200", placements=gpu01)
    history.apply(command)
    assert command.summary.text() == "4 nodes; 1 rack re-fitted; 1 moved to other racks; 0 new racks"
    assert history.label == "Replace 4 x HGX H100 8-GPU node (direct liquid cooled, 4U) with DGX B200"
    held = _racks(medium, "dgx-b200")
    assert [u for _, u in held["GPU-01"]] == [1, 11, 21]
    assert held["GPU-02"] == [("node-4", 9)]  # U1-U8 hold the two H100s; U9 is the lowest free


def test_undo_restores_the_plan_exactly_and_redo_repeats_it(medium, catalog):
    before = medium.model_dump()
    history = History(medium, catalog)
    history.apply(ReplaceDevices("dgx-b200", from_device="hgx-h100-8"))
    after = medium.model_dump()
    history.undo()
    assert medium.model_dump() == before
    assert {r.id for r in medium.racks} == {r["id"] for r in before["racks"]}
    history.redo()
    assert medium.model_dump() == after  # the same ids and positions, new racks included
    history.undo()
    assert medium.model_dump() == before


def test_incremental_evaluation_follows_the_replacement(medium, catalog):
    ev = Evaluator(medium, catalog)
    ev.evaluate()
    history = History(medium, catalog)
    changes = history.apply(ReplaceDevices("dgx-b200", from_device="hgx-h100-8"))
    assert ev.evaluate(changes).to_json() == evaluate(medium, catalog).to_json()
    assert ev.evaluate(history.undo()).to_json() == evaluate(medium, catalog).to_json()


def test_preview_says_what_would_happen_and_changes_nothing(medium, catalog):
    before = medium.model_dump()
    summary = ReplaceDevices("dgx-b200", from_device="hgx-h100-8").preview(medium, catalog)
    assert (summary.devices, summary.refitted, summary.moved, summary.new_racks) == (16, 4, 4, 2)
    assert medium.model_dump() == before


def test_one_device_of_a_selection(medium, catalog):
    # One B200 for node-1: U1-U10, 10 + 3 x 7 = 31 kW > 30: it cannot stay; the other GPU
    # racks are at 28 kW, so it goes to a new air rack at U1.
    node1 = next(p for p in medium.placements if p.label == "node-1")
    command = ReplaceDevices("dgx-b200", placements=[node1.id])
    history = History(medium, catalog)
    history.apply(command)
    assert history.label == "Replace HGX H100 8-GPU node (direct liquid cooled, 4U) with DGX B200"
    assert medium.rack(node1.rack).name == "GPU-05" and node1.u == 1
    assert command.summary.text() == "1 node; 1 rack re-fitted; 1 moved to other racks; 1 new rack"


@pytest.mark.parametrize("command, message", [
    (lambda: ReplaceDevices("qm9700", from_device="hgx-h100-8"),
     "HGX H100 8-GPU node (direct liquid cooled, 4U) is a GPU node and Quantum-2 QM9700 (64 x NDR 400G) is a "
     "switch: a device is replaced only by one of its own kind"),
    (lambda: ReplaceDevices("no-such-node", from_device="hgx-h100-8"), "the catalog has no device type 'no-such-node'"),
    (lambda: ReplaceDevices("dgx-b200", from_device="dgx-h100"), "the plan has no DGX H100 to replace"),
    (lambda: ReplaceDevices("hgx-h100-8", from_device="hgx-h100-8"),
     "the devices chosen are all HGX H100 8-GPU node (direct liquid cooled, 4U) already"),
    (lambda: ReplaceDevices("dgx-b200", placements=["d22"], from_device="hgx-h100-8"),
     "the selection holds no HGX H100 8-GPU node (direct liquid cooled, 4U) to replace"),
    (lambda: ReplaceDevices("gb200-nvl72", from_device="hgx-h100-8"),
     "HGX H100 8-GPU node (direct liquid cooled, 4U) is a GPU node and GB200 NVL72 rack (72 x B200, 36 Grace) is a "
     "rack-scale system: "
     "a device is replaced only by one of its own kind"),
])
def test_refusals_say_why_and_leave_the_plan(medium, catalog, command, message):
    before = medium.model_dump()
    history = History(medium, catalog)
    with pytest.raises(CommandError) as refused:
        history.apply(command())
    assert str(refused.value) == message
    assert medium.model_dump() == before and not history.done


def test_switch_for_switch_stays_in_the_network_rack(medium, catalog):
    # QM9700 (1U, 1.294 kW typical) for SN5600 (2U, 2.028 kW): NET-01 holds 10 QM9700, one
    # SN5600-400 and a management switch, 12.94 + 2.028 + 0.08 = 15.05 kW. With 10 SN5600:
    # 20.28 + 2.028 + 0.08 = 22.39 kW, within the 25 kW air rack; 23U of 42: all stay.
    command = ReplaceDevices("sn5600", from_device="qm9700")
    History(medium, catalog).apply(command)
    assert command.summary.new_racks == 0 and command.summary.moved == 0
    assert len(_racks(medium, "sn5600")["NET-01"]) == 10


def test_compatible_types_are_of_the_same_kind(catalog):
    nodes = [d.id for d in compatible_types(catalog, "hgx-h100-8")]
    assert "dgx-b200" in nodes and "hgx-h100-8" in nodes
    assert "gb200-nvl72" not in nodes and "qm9700" not in nodes and "gb200-compute-tray" not in nodes
    assert [d.id for d in compatible_types(catalog, "gb200-nvl72")] == ["gb200-nvl72", "gb300-nvl72"]
    assert all(d.category == "cdu" for d in compatible_types(catalog, "cdu-inrack-250"))


def test_when_the_moved_devices_fit_no_new_rack_nothing_changes(medium, catalog):
    # New racks capped at 5 kW (and air racks at 5 kW too) take no 10 kW DGX B200: the 4
    # that no longer fit their racks cannot go anywhere, so the whole replacement is refused.
    from planner.plan.commands import SetSetting
    history = History(medium, catalog)
    history.apply(SetSetting("facility", "default_rack_cap_kw", 5.0))
    before = medium.model_dump()
    command = ReplaceDevices("dgx-b200", from_device="hgx-h100-8")
    with pytest.raises(CommandError) as refused:
        history.apply(command)
    assert str(refused.value) == ("4 nodes no longer fit their racks and cannot be moved: one DGX B200 (10 kW, 10U) "
                                  "does not fit an empty 42U rack capped at 5 kW")
    assert medium.model_dump() == before and len(history.done) == 1


def test_a_selection_of_mixed_types_is_named_by_count(medium, catalog):
    # node-1 (HGX H100) with ib-1 is refused (a node and a switch). node-1 as a DGX H100 (8U,
    # 7 kW): U1-U8 would overlap node-2 (U5-U8); the lowest free 8U is U17 (U5-U16 taken).
    # Then node-1 (DGX H100, U17) and node-2 (HGX H100, U5) as DGX H200 (8U, 7 kW): same power,
    # 4 x 7 = 28 of 30 kW; node-2 first (lower U) cannot keep U5 (U5-U12 overlaps node-3 at
    # U9), takes U1 (U1-U8 free with both lifted); node-1 keeps U17.
    node1, node2, ib1 = (next(p for p in medium.placements if p.label == n) for n in ("node-1", "node-2", "ib-1"))
    history = History(medium, catalog)
    with pytest.raises(CommandError):
        history.apply(ReplaceDevices("dgx-h200", placements=[node1.id, ib1.id]))
    history.apply(ReplaceDevices("dgx-h100", placements=[node1.id]))
    assert node1.u == 17
    command = ReplaceDevices("dgx-h200", placements=[node1.id, node2.id])
    history.apply(command)
    assert history.label == "Replace 2 devices with DGX H200"
    assert medium.rack(node1.rack).name == "GPU-01" and node2.rack == node1.rack
    assert (node1.u, node2.u) == (17, 1)
