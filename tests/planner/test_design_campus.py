"""A design stood in buildings and halls (``Intent.campus``): each kind of rack spread evenly
over the halls (the fabric's racks with the nodes they serve), each hall's own storage and
management switches, rows named by hall, halls side by side in a building, buildings apart."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from planner.design.build import design
from planner.design.intent import CampusSpec, Intent
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule
from planner.plan.campus import campus_of
from planner.plan.fileio import plan_from_json, plan_to_json

CAT = default_catalog()


@pytest.fixture(scope="module")
def plan():
    # 20 DGX H100 (10.2 kW each, 3 to a rack under the default cap): 7 GPU racks, one network
    # rack and one storage rack, in 2 buildings of 2 halls
    intent = Intent(system="dgx-h100", nodes=20, spare_nodes=0, campus=CampusSpec(buildings=2, halls_per_building=2))
    return design(intent, CAT).plan


def test_every_kind_of_rack_is_spread_evenly_over_the_halls(plan):
    gpu = Counter(r.hall for r in plan.racks if r.name.startswith("GPU"))
    # 7 GPU racks over 4 halls: hall i takes racks floor(7i / 4) to floor(7(i + 1) / 4): 1, 2, 2, 2
    assert [gpu[h] for h in ("b1-hall-1", "b1-hall-2", "b2-hall-1", "b2-hall-2")] == [1, 2, 2, 2]
    # the one storage rack: floor(3 / 4) = 0 to floor(4 / 4) = 1, the last hall
    assert {r.hall for r in plan.racks if r.name.startswith("STOR")} == {"b2-hall-2"}
    # the fabric's one network rack holds its leaves, which serve all 20 nodes (3 a rack, the
    # last rack 2): 3 in b1-hall-1, 6 in b1-hall-2, 6 in b2-hall-1, 5 in b2-hall-2; of the
    # halls with the most, the first
    assert {r.hall for r in plan.racks if has(plan, r, "qm9700")} == {"b1-hall-2"}


def test_each_hall_has_its_own_storage_and_management_switch_and_wires_within_it(plan):
    # a hall's storage ports (6 DGX H100 x 2 at most, + b2-hall-2's 8 appliances x 4) and its
    # devices are fewer than one SN5600's 128 ports and one management switch's 48: one of each
    # in every hall, in the leaves' network rack in b1-hall-2 and a network rack of their own
    # in the other three
    for device in ("sn5600-400", "mgmt-1g-48"):
        assert Counter(plan.rack(p.rack).hall for p in plan.placements if p.device == device) == {
            h: 1 for h in ("b1-hall-1", "b1-hall-2", "b2-hall-1", "b2-hall-2")}
    assert Counter(r.hall for r in plan.racks if r.name.startswith("NET")) == {
        "b1-hall-1": 1, "b1-hall-2": 1, "b2-hall-1": 1, "b2-hall-2": 1}
    links = [lk for lk in build_schedule(plan, CAT).links if lk.network in ("storage", "management")]
    # 20 x 2 + 8 x 4 = 72 storage links; a management port for each of 20 nodes, 11 leaves,
    # 4 storage switches and 8 appliances = 43
    assert len(links) == 72 + 43
    assert {lk.route for lk in links} <= {"in-rack", "in-row", "in-hall"}


def has(plan, rack, device: str) -> bool:
    return any(p.device == device for p in plan.rack_members(rack.id).values())


def test_the_campus_has_its_buildings_and_halls_and_rows_never_shared(plan):
    campus = campus_of(plan)
    assert [(b.name, [h.name for h in b.halls]) for b in campus.buildings] == [
        ("Building 1", ["Hall 1", "Hall 2"]), ("Building 2", ["Hall 1", "Hall 2"])]
    assert {r.row for r in plan.racks if r.hall == "b1-hall-2"} == {"B1H2-A"}
    assert len({(r.row) for r in plan.racks}) == len({(r.hall, r.row) for r in plan.racks}) == 4


def test_halls_stand_apart_by_the_largest_halls_floor_and_the_gaps(plan):
    b1, b2 = plan.buildings
    # the widest hall (b2-hall-2: 2 GPU racks, the storage rack and a network rack) has 4
    # racks of 600 mm in its row: 2.4 m, + the 10 m corridor
    assert [h.x_m for h in b1.halls] == [0.0, pytest.approx(12.4)]
    # one row of 1,200 mm deep racks: 1.2 m / 2 from the row's centre line to its back = 0.6 m
    # (the hall's y is from its first row's centre line), + 50 m between buildings
    assert (b1.y_m, b2.y_m) == (0.0, pytest.approx(50.6))


def test_the_plan_saves_and_opens_with_its_halls(plan):
    again = plan_from_json(plan_to_json(plan))
    assert [r.hall for r in again.racks] == [r.hall for r in plan.racks]
    assert again.hall_ids() == ["b1-hall-1", "b1-hall-2", "b2-hall-1", "b2-hall-2"]


def test_a_campus_of_no_building_is_refused_by_name():
    with pytest.raises(ValidationError, match="buildings"):
        Intent(system="dgx-h100", nodes=1, campus={"buildings": 0})
