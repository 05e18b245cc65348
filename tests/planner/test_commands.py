import pytest

from planner.plan.autoplace import AutoPlace
from planner.plan.commands import (AddDevice, AddRack, CommandError, EditRack, History, MoveDevice,
                              RemoveDevices, RemoveRack, SetSetting)
from planner.report.evaluate import Evaluator


def full_rack(report):
    return next(r for r in report.racks if r.nodes == 4)


def test_fifth_node_in_full_rack_is_over_cap_and_undo_restores(catalog, medium):
    before = medium.model_dump()
    ev = Evaluator(medium, catalog)
    report = ev.evaluate()
    full = full_rack(report)
    # a node from another GPU rack moves into the full one: 5 x 7 kW = 35 kW against 30 kW
    other = next(p for p in medium.placements if p.rack != full.id and p.device == "hgx-h100-8")
    history = History(medium, catalog)
    changes = history.apply(MoveDevice(other.id, full.id, 33))
    report = ev.evaluate(changes)
    over = [f for f in report.findings if f.code == "rack.power.over_cap"]
    assert len(over) == 1
    assert over[0].where == full.id
    assert full.name in over[0].message and "35.0 kW" in over[0].message and "30 kW" in over[0].message
    assert over[0].severity == "error"
    report = ev.evaluate(history.undo())
    assert not [f for f in report.findings if f.code == "rack.power.over_cap"]
    assert medium.model_dump() == before


@pytest.mark.parametrize("make, reason", [
    (lambda p, r: AddDevice("hgx-h100-8", r, 1), "overlaps"),
    (lambda p, r: AddDevice("hgx-h100-8", r, 40), "stick out"),
    # its model names its height ("..., 4U)"): said once
    (lambda p, r: AddDevice("hgx-h100-8", r, 40), r"^HGX H100 8-GPU node \(direct liquid cooled, 4U\) at U40 would stick"),
    (lambda p, r: AddDevice("blank-1u", r, 43), r"^Blanking panel 1U at U43 would stick out"),
    (lambda p, r: AddDevice("qm9700", r, 43), r"NDR 400G\) \(1U\) at U43 would stick out"),
    (lambda p, r: AddDevice("no-such-device", r, 40), "no device type"),
    (lambda p, r: AddDevice("blank-1u", "nope", 40), "no rack"),
    (lambda p, r: MoveDevice("nope", r, 40), "no device"),
    (lambda p, r: EditRack(r, power_cap_kw=-5), r"Power cap \(kW\): takes more than 0 \(not -5\)"),
    (lambda p, r: EditRack(r, name=p.racks[1].name), "a rack named .* is already in the plan"),
    (lambda p, r: EditRack(r, rack_type="foo-rack"), r"Rack type: the catalog has no rack type 'foo-rack' \(it has: "),
    (lambda p, r: SetSetting("facility", "pue", 0.5), "PUE is at least 1.0: a facility cannot use less power"),
])
def test_invalid_edits_are_refused_and_change_nothing(catalog, medium, make, reason):
    before = medium.model_dump()
    rack = medium.racks[0].id
    with pytest.raises(CommandError, match=reason):
        make(medium, rack).do(medium, catalog)
    assert medium.model_dump() == before


def test_remove_rack_and_undo_put_everything_back(catalog, medium):
    before = medium.model_dump()
    h = History(medium, catalog)
    rid = medium.racks[1].id
    h.apply(RemoveRack(rid))
    assert medium.rack(rid) is None and not any(p.rack == rid for p in medium.placements)
    h.undo()
    assert medium.model_dump() == before
    h.redo()
    assert medium.rack(rid) is None


def test_auto_place_fills_racks_to_their_cap_and_adds_racks(catalog):
    from planner.plan.model import Plan

    plan = Plan()
    h = History(plan, catalog)
    h.apply(AddRack("A", power_cap_kw=15, cooling="liquid"))
    # 7 nodes of 7 kW: A (15 kW) takes 2 (14 kW), new 30 kW racks take 4 (28 kW) then 1 -> 3 racks
    h.apply(AutoPlace("hgx-h100-8", 7, racks=[plan.racks[0].id], new_rack_prefix="GPU",
                      new_rack_fields={"cooling": "liquid"}))
    assert [len(plan.rack_members(r.id)) for r in plan.racks] == [2, 4, 1]
    assert [r.name for r in plan.racks] == ["A", "GPU-01", "GPU-02"]
    h.undo()
    assert [len(plan.rack_members(r.id)) for r in plan.racks] == [0]


def test_auto_place_refuses_a_device_no_rack_can_hold(catalog):
    from planner.plan.model import Plan

    plan = Plan()
    plan.settings.facility = plan.settings.facility.model_copy(update={"default_rack_cap_kw": 5})
    # the node's model names its height ("..., 4U)"): the refusal does not say it again
    with pytest.raises(CommandError, match=r"one HGX H100 8-GPU node \(direct liquid cooled, 4U\) \(7 kW\) does not fit"):
        AutoPlace("hgx-h100-8", 1).do(plan, catalog)
    assert plan.racks == [] and plan.placements == []
    assert catalog["hgx-h100-8"].height_named and not catalog["dgx-h100"].height_named


def test_remove_devices_restores_order_on_undo(catalog, medium):
    before = medium.model_dump()
    ids = [medium.placements[3].id, medium.placements[0].id]
    h = History(medium, catalog)
    h.apply(RemoveDevices(ids))
    h.undo()
    assert medium.model_dump() == before


def test_moves_of_one_device_merge_into_one_step(catalog, medium):
    # A liquid-cooled GPU node cannot move into the air-cooled storage rack: move an appliance.
    p = next(q for q in medium.placements if q.device == "pfs-appliance")
    home = (p.rack, p.u)
    rack = next(r for r in medium.racks if r.name == "STOR-01")
    first = MoveDevice(p.id, rack.id, 20)  # STOR-01 holds 7 x 2U appliances at U1-U14
    first.do(medium, catalog)
    second = MoveDevice(p.id, rack.id, 30)
    second.do(medium, catalog)
    assert first.merge(second)
    first.undo(medium, catalog)
    assert (p.rack, p.u) == home


def test_undo_texts_name_devices_by_their_model(catalog, medium):
    # The catalog's builtin entries: dgx-h100 is "NVIDIA DGX H100" (vendor NVIDIA, model DGX H100),
    # hgx-h100-8 is "Generic HGX H100 8-GPU node (direct liquid cooled)".
    rack = AddRack()
    history = History(medium, catalog)
    history.apply(rack)
    add = AddDevice("dgx-h100", rack.rack_id, 1)
    assert add.label == "Add dgx-h100"  # before it is done, no catalog at hand: the id
    history.apply(add)
    assert add.label == "Add NVIDIA DGX H100"
    move = MoveDevice(add.placement_id, rack.rack_id, 20)
    history.apply(move)
    assert move.label == "Move NVIDIA DGX H100"
    remove = RemoveDevices([add.placement_id])
    history.apply(remove)
    assert remove.label == "Remove NVIDIA DGX H100"
    node = next(p for p in medium.placements if p.device == "hgx-h100-8")
    other = next(p for p in medium.placements if p.device != "hgx-h100-8")
    two = RemoveDevices([node.id, other.id])
    history.apply(two)
    assert two.label == "Remove 2 devices"
    place = AutoPlace("dgx-h100", 2)
    history.apply(place)
    assert place.label == "Auto-place 2 x NVIDIA DGX H100"


def test_joined_steps_are_undone_and_redone_as_one_and_keep_the_saved_plan(catalog, medium):
    """A Fix that mends three findings one by one is one undo step: joined after the fact."""
    h = History(medium, catalog)
    saved = medium.model_dump()
    h.mark_saved()
    racks = [r.id for r in medium.racks[:3]]
    for rid in racks:
        h.apply(EditRack(rid, power_cap_kw=45))
    h.join(3, "Raise three caps")
    assert len(h.done) == 1 and h.label == "Raise three caps" and not h.is_saved
    h.undo()
    assert medium.model_dump() == saved and h.is_saved  # the saved plan, one undo away
    h.redo()
    assert [medium.rack(r).power_cap_kw for r in racks] == [45, 45, 45]
    h.join(1, "nothing to join")  # one step is left as it is
    assert h.label == "Raise three caps"


def test_a_saved_plan_inside_joined_steps_is_no_longer_saved(catalog, medium):
    h = History(medium, catalog)
    a, b = medium.racks[0].id, medium.racks[1].id
    h.apply(EditRack(a, power_cap_kw=45))
    h.mark_saved()  # saved between the two steps that are joined: undo cannot lead there any more
    h.apply(EditRack(b, power_cap_kw=45))
    h.join(2, "both")
    assert h._saved_step is None and not h.is_saved
    h.undo()
    assert not h.is_saved


def test_a_step_taken_back_before_a_join_is_not_left_to_redo(catalog, medium):
    """A Fix of a row applies, takes back what did not mend (refused), applies the next, then
    joins: the refused one must not come back on Redo."""
    h = History(medium, catalog)
    a, b, c = (r.id for r in medium.racks[:3])
    h.apply(EditRack(a, power_cap_kw=45))
    h.apply(EditRack(b, power_cap_kw=45))
    h.undo()  # refused: taken back
    h.apply(EditRack(c, power_cap_kw=45))
    h.join(2, "two")
    assert not h.undone and h.redo_label == ""
    h.apply(EditRack(a, power_cap_kw=46))
    h.undo()
    h.join(1, "one")  # nothing joined, and still nothing to redo
    assert not h.undone
