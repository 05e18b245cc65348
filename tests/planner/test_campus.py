"""The campus: buildings with data halls, racks in halls, and old files as one building of
one hall."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.plan.campus import campus_of
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
