"""Devices that stand together (a storage leaf-spine, its switch-to-switch runs inside one rack)
go into the first rack with room for all of them, else into a rack of their own; the room a
rack has is counted as auto-place would fill it, worked by hand from the datasheet figures."""

from collections import Counter

from planner.design.templates import build_template
from planner.hardware.catalog import load_catalog
from planner.plan.autoplace import AutoPlace, room_for
from planner.plan.model import Rack
from planner.plan.space import free_slots
from tests.planner.cost_helpers import plan_with

# QM9700: 1U, 1,294 W typical; SN5600 split: 2U, 2,028 W typical, 3,000 W max (their datasheets,
# as the catalog holds them)


def two_racks():
    small = Rack(id="A", name="A", power_cap_kw=10)  # one QM9700: 8.706 kW left
    roomy = Rack(id="B", name="B", power_cap_kw=20)
    return plan_with([(small, [("qm9700", 1)]), (roomy, [])])


def test_free_slots_count_each_gap_in_whole_devices():
    catalog = load_catalog()
    # 1U devices at U1 and U4: U2-U3 holds one 2U device, U5-U42 (38 U) nineteen
    plan = plan_with([(Rack(id="A", name="A"), [("qm9700", 1), ("qm9700", 4)])])
    assert free_slots(plan, catalog, plan.rack("A"), 2) == 1 + 19
    assert free_slots(plan, catalog, plan.rack("A"), 1) == 2 + 38


def test_room_for_is_the_least_of_space_and_power():
    catalog = load_catalog()
    plan = two_racks()
    sn = catalog["sn5600-400"]
    assert room_for(plan, catalog, "A", sn) == 4  # (10 - 1.294) / 2.028 = 4.29; 41 U would take 20
    assert room_for(plan, catalog, "B", sn) == 9  # 20 / 2.028 = 9.86


def test_together_skips_a_rack_that_takes_only_some_of_them():
    catalog = load_catalog()
    plan = two_racks()
    AutoPlace("sn5600-400", 5, racks=["A", "B"], together=True).do(plan, catalog)
    assert Counter(p.rack for p in plan.placements if p.device == "sn5600-400") == {"B": 5}
    spread = two_racks()
    AutoPlace("sn5600-400", 5, racks=["A", "B"]).do(spread, catalog)
    assert Counter(p.rack for p in spread.placements if p.device == "sn5600-400") == {"A": 4, "B": 1}


def test_together_takes_a_new_rack_when_no_rack_has_room_for_all():
    catalog = load_catalog()
    plan = two_racks()
    AutoPlace("sn5600-400", 10, racks=["A", "B"], together=True, new_rack_prefix="S").do(plan, catalog)
    where = Counter(p.rack for p in plan.placements if p.device == "sn5600-400")
    # B takes 9 and A 4: none takes 10, so all 10 go to one new air rack (25 kW air limit: 12 fit)
    assert len(where) == 1 and set(where).isdisjoint({"A", "B"}) and sum(where.values()) == 10


def test_massive_storage_leaf_spine_stands_in_the_network_rack_with_room():
    """massive: 40 QM9700 (16 leaves, 16 spines, 8 cores) at 25 kW air racks: 19 a rack by power
    (19 x 1.294 = 24.6 kW), so the third holds 2 and has 22.4 kW and 40 U left, room for the
    storage leaf-spine's 3 SN5600 (6.1 kW, 6 U) together; the plan needs no rack of its own for it."""
    catalog = load_catalog()
    plan = build_template("massive")
    racks = {r.id: Counter(p.device for p in plan.rack_members(r.id).values()) for r in plan.racks}
    storage = [r for r, c in racks.items() if c["sn5600-400"]]
    assert len(storage) == 1 and racks[storage[0]] == {"qm9700": 2, "sn5600-400": 3}
    assert len(plan.racks) == 18
