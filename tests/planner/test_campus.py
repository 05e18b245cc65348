"""The campus: buildings with data halls, racks in halls, and old files as one building of
one hall."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.facility.floor import campus_spots, floor_layout, floor_spots
from planner.hardware.catalog import default_catalog
from planner.plan.campus import campus_of
from planner.plan.commands import AddRack, CommandError, History
from planner.plan.hall_commands import MoveRacksToHall, SetBuildings
from planner.plan.fileio import PlanLoadError, load_plan, plan_from_json, plan_to_json
from planner.plan.model import Building, Hall, Plan, Rack
from planner.plan.variants import resolve_variant, switch_to

DATA = Path(__file__).resolve().parents[1] / "data"


def test_a_format_6_file_opens_as_one_building_of_one_hall_with_every_rack():
    data = json.loads((DATA / "plan_v6.json").read_text())
    assert data["schema_version"] == 6 and "buildings" not in data
    plan = load_plan(DATA / "plan_v6.json")
    campus = campus_of(plan)
    assert [(b.id, b.name, [(h.id, h.name) for h in b.halls]) for b in campus.buildings] == [
        ("building-1", "Building 1", [("hall-1", "Hall 1")])]
    by_hall = campus.racks_by_hall(plan.racks)
    assert list(by_hall) == ["hall-1"] and len(by_hall["hall-1"]) == len(data["racks"]) == 7
    assert all(campus.where(r)[1].name == "Hall 1" for r in plan.racks)
    # its variant too: the campus is shared, the variant's racks stand in the one hall
    switch_to(plan, plan.variant_names[1])
    assert {campus_of(plan).hall_id(r) for r in plan.racks} == {"hall-1"}


def test_the_format_7_sample_keeps_its_buildings_halls_and_each_variants_halls():
    plan = load_plan(DATA / "plan_v7.json")
    campus = campus_of(plan)
    assert [(b.id, [h.id for h in b.halls]) for b in campus.buildings] == [("A", ["A1", "A2"]), ("B", ["B1"])]
    halls = {r.name: campus.hall_id(r) for r in plan.racks}
    # GPU-01 names no hall: it stands in the first hall of the first building
    assert halls == {"GPU-01": "A1", "GPU-02": "A1", "CDU-01": "A1", "GPU-03": "A2", "NET-01": "A2",
                     "GPU-04": "B1", "STOR-01": "B1"}
    assert campus.halls["A2"][1].power_limit_kw == 100.0 and campus.halls["B1"][0].generator_kw == 500.0
    other = resolve_variant(plan, "All in A1")
    assert {campus_of(other).hall_id(r) for r in other.racks} == {"A1"}
    assert other.buildings == plan.buildings
    again = plan_from_json(plan_to_json(plan))
    assert again.buildings == plan.buildings and [r.hall for r in again.racks] == [r.hall for r in plan.racks]


def _plan(**fields) -> dict:
    return {"schema_version": 7, "name": "p",
            "buildings": [{"id": "A", "name": "Building A", "halls": [{"id": "A1", "name": "Hall A1"}]}],
            "racks": [{"id": "r1", "name": "Rack 1", "hall": "A1"}], **fields}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["racks"][0].update(hall="Z9"),
     "rack 'r1' (Rack 1) is in hall 'Z9', which the plan's buildings do not have (halls: A1)"),
    (lambda d: d["buildings"].append({"id": "B", "name": "Building B", "halls": [{"id": "A1", "name": "Again"}]}),
     "hall id 'A1' is used twice"),
    (lambda d: d["buildings"].append({"id": "A", "name": "Again", "halls": [{"id": "A2", "name": "Hall A2"}]}),
     "building id 'A' is used twice"),
    (lambda d: d["buildings"][0].update(halls=[]), "halls"),
    (lambda d: d["buildings"][0]["halls"][0].update(power_limit_kw=-5), "power_limit_kw"),
])
def test_a_campus_that_does_not_hold_together_is_refused_with_its_reason(change, message):
    data = _plan()
    plan_from_json(json.dumps(data))  # as it stands it opens
    change(data)
    with pytest.raises(PlanLoadError) as info:
        plan_from_json(json.dumps(data), "p.json")
    assert message in str(info.value)


def test_without_buildings_only_the_default_hall_may_be_named():
    Plan(racks=[Rack(id="r1", name="R", hall="hall-1")])
    with pytest.raises(ValueError, match="is in hall 'A1'"):
        Plan(racks=[Rack(id="r1", name="R", hall="A1")])


def test_racks_group_by_hall_in_campus_order_with_empty_halls():
    plan = Plan(buildings=[Building(id="A", name="A", halls=[Hall(id="A1", name="A1"), Hall(id="A2", name="A2")]),
                           Building(id="B", name="B", halls=[Hall(id="B1", name="B1")])],
                racks=[Rack(id="r1", name="1", hall="B1"), Rack(id="r2", name="2"), Rack(id="r3", name="3", hall="B1")])
    by_hall = campus_of(plan).racks_by_hall(plan.racks)
    assert {k: [r.id for r in v] for k, v in by_hall.items()} == {"A1": ["r2"], "A2": [], "B1": ["r1", "r3"]}


# -- the floor of each hall and the campus coordinates ---------------------------------

def _two_buildings(**rack_fields) -> Plan:
    """Building A at the campus origin with halls A1 (at A's origin) and A2 (30 m into A);
    building B at (200, 50) with hall B1 at (10, 5) inside it. Racks 600 x 1,200 mm."""
    return Plan(
        buildings=[Building(id="A", name="Building A", halls=[Hall(id="A1", name="Hall A1"),
                                                               Hall(id="A2", name="Hall A2", y_m=30.0)]),
                   Building(id="B", name="Building B", x_m=200.0, y_m=50.0,
                            halls=[Hall(id="B1", name="Hall B1", x_m=10.0, y_m=5.0)])],
        racks=[Rack(id="r1", name="A1-1", row="R1", **rack_fields),
               Rack(id="r2", name="A1-2", row="R1", hall="A1", **rack_fields),
               Rack(id="r3", name="A2-1", row="R1", hall="A2", **rack_fields),
               Rack(id="r4", name="B1-1", row="R1", hall="B1", **rack_fields),
               Rack(id="r5", name="A1-3", row="R2", hall="A1", **rack_fields)])


def test_rows_never_span_halls_and_each_hall_starts_its_own_floor():
    plan = _two_buildings()
    spots = floor_spots(plan, plan.settings.floor)
    # row "R1" of hall A1 holds r1, r2; r3 and r4 stand in rows "R1" of their own halls, first in them
    assert [(spots[i].hall, spots[i].row, spots[i].position) for i in ("r1", "r2", "r3", "r4", "r5")] == [
        ("A1", 0, 0), ("A1", 0, 1), ("A2", 0, 0), ("B1", 0, 0), ("A1", 1, 0)]
    layout = floor_layout(plan, plan.settings.floor, hall="A1")
    assert [row.racks for row in layout.rows] == [("r1", "r2"), ("r5",)] and len(layout.aisles) == 1
    every = floor_layout(plan, plan.settings.floor)
    assert len(every.rows) == 4 and len(every.aisles) == 1  # no aisle from one hall to the next


def test_campus_spots_add_the_hall_and_building_origins():
    plan = _two_buildings()
    s = plan.settings.floor
    spots = campus_spots(plan)
    # along a row: centre of the first 0.6 m rack at 0.3 m, the second at 0.9 m; the first row at y 0
    assert (spots["r1"].x_m, spots["r1"].y_m, spots["r2"].x_m) == (pytest.approx(0.3), 0.0, pytest.approx(0.9))
    # r5 in A1's second row: the pitch is depth + cold aisle = 1.2 m + the cold aisle
    assert spots["r5"].y_m == pytest.approx(1.2 + s.cold_aisle_mm / 1000)
    # A2's origin is 30 m into building A; B1 is building B (200, 50) + its own (10, 5)
    assert (spots["r3"].x_m, spots["r3"].y_m) == (pytest.approx(0.3), pytest.approx(30.0))
    assert (spots["r4"].building, spots["r4"].hall) == ("B", "B1")
    assert (spots["r4"].x_m, spots["r4"].y_m) == (pytest.approx(210.3), pytest.approx(55.0))
    assert (spots["r4"].hall_x_m, spots["r4"].hall_y_m) == (pytest.approx(0.3), 0.0)


# -- the commands ---------------------------------------------------------------------

def test_moving_racks_to_a_hall_is_one_undoable_step_that_relays_the_floor():
    plan = _two_buildings()
    history = History(plan, default_catalog())
    changes = history.apply(MoveRacksToHall(["r1", "r4"], "A2"))
    assert changes.racks == {"r1", "r4"} and changes.structure
    assert [campus_of(plan).hall_id(plan.rack(i)) for i in ("r1", "r3", "r4")] == ["A2", "A2", "A2"]
    assert [floor_spots(plan, plan.settings.floor)[i].position for i in ("r1", "r3", "r4")] == [0, 1, 2]
    history.undo()
    assert [plan.rack(i).hall for i in ("r1", "r4")] == ["", "B1"]


@pytest.mark.parametrize("command, message", [
    (lambda: MoveRacksToHall(["r1"], "Z9"), "the plan has no hall 'Z9' (halls: Hall A1 (A1), Hall A2 (A2), Hall B1 (B1))"),
    (lambda: MoveRacksToHall(["nope"], "A1"), "there is no rack 'nope'"),
    (lambda: SetBuildings([{"id": "A", "name": "A", "halls": [{"id": "A1", "name": "A1"}]}]),
     "rack 'A2-1' (Base) stands in hall 'A2', which the new buildings do not have"),
    (lambda: SetBuildings([{"id": "A", "name": "A", "halls": [{"id": "A1", "name": "A1"}, {"id": "A1", "name": "B"}]}]),
     "hall id 'A1' is used twice"),
    (lambda: AddRack("New", hall="Q"), "is in hall 'Q', which the plan's buildings do not have"),
])
def test_campus_edits_that_cannot_hold_are_refused_and_change_nothing(command, message):
    plan = _two_buildings()
    before = plan.model_dump()
    with pytest.raises(CommandError) as info:
        History(plan, default_catalog()).apply(command())
    assert message in str(info.value)
    assert plan.model_dump() == before


def test_new_buildings_are_a_campus_change_and_undo_brings_the_old_ones_back():
    plan = _two_buildings()
    history = History(plan, default_catalog())
    new = [b.model_dump() for b in plan.buildings]
    new[1]["halls"].append({"id": "B2", "name": "Hall B2", "power_limit_kw": 500.0})
    changes = history.apply(SetBuildings(new))
    assert changes.campus and changes.needs_full
    assert list(campus_of(plan).halls) == ["A1", "A2", "B1", "B2"]
    history.undo()
    assert list(campus_of(plan).halls) == ["A1", "A2", "B1"]
