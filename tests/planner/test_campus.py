"""The campus: buildings with data halls, racks in halls, and old files as one building of
one hall.

Why it is long: one small two-building plan carries every campus figure worked by hand (per
hall, per building, the totals), the schema's checks and the migration, so the tests share
its fixture and its arithmetic in the comments."""

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
from planner.plan.variants import SwitchVariant, resolve_variant, switch_to
from planner.report.evaluate import Evaluator, evaluate

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
    (lambda: MoveRacksToHall(["r1"], "Z9"),
     "the plan has no hall 'Z9' (halls: Hall A1 (A1), Hall A2 (A2), Hall B1 (B1))"),
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


# -- the figures of each hall and building, worked by hand ------------------------------
#
# Catalog: HGX H100 8-GPU (liquid, 4U): 7.0 kW typical, 10.2 kW nameplate, 80 kg, 80% of
# its heat to the cold plates (the facility settings' capture, the catalog gives none);
# DGX H100 (air, 8U): 7.0 / 10.2 kW; in-rack CDU (4U, 250 kW): 1.5 / 3.0 kW, 90 kg, none of
# its heat to liquid. Settings' defaults: typical basis, PUE 1.56, CDUs by capacity N+1,
# UPS 500 kW modules and 2 MW generator sets sized to the load (units of the load's share
# rounded up to 50 kW), both N+1; water c_p 4.18 kJ/kg K, 0.995 kg/l, delta T 10 K, so
# Q = P / (4.18 x 0.995 x 10) l/s = P x 60 / 41.591 l/min (P in kW); enclosure 160 kg on a
# 0.6 x 1.2 = 0.72 m² footprint.

def _worked() -> Plan:
    from planner.plan.model import Placement
    buildings = [
        Building(id="A", name="Building A", utility_feed_kw=150.0, transformer_kva=100.0,
                 halls=[Hall(id="A1", name="Hall A1", power_limit_kw=25.0),
                        Hall(id="A2", name="Hall A2", y_m=30.0, floor_rating_kg_m2=800.0)]),
        Building(id="B", name="Building B", x_m=200.0, ups_module_kw=40.0, halls=[Hall(id="B1", name="Hall B1")]),
    ]
    liquid = {"cooling": "liquid", "power_cap_kw": 70.0}
    racks = [Rack(id="r1", name="A1-1", **liquid), Rack(id="r2", name="A1-2", hall="A1", **liquid),
             Rack(id="r3", name="A2-1", hall="A2", **liquid), Rack(id="r4", name="B1-1", hall="B1", **liquid),
             Rack(id="r5", name="B1-2", hall="B1")]
    devices = [("r1", "hgx-h100-8", 1), ("r1", "hgx-h100-8", 5), ("r1", "hgx-h100-8", 9), ("r1", "cdu-inrack-250", 20),
               ("r2", "hgx-h100-8", 1)] + [("r3", "hgx-h100-8", 1 + 4 * i) for i in range(6)] + [
               ("r4", "hgx-h100-8", 1), ("r4", "hgx-h100-8", 5), ("r5", "dgx-h100", 1)]
    placements = [Placement(id=f"d{i}", device=d, rack=r, u=u) for i, (r, d, u) in enumerate(devices, 1)]
    return Plan(buildings=buildings, racks=racks, placements=placements)


def _figures(plan: Plan):
    report = evaluate(plan, default_catalog())
    facility = report.sections["facility"]
    return report, {h.id: h for h in facility.halls}, {b.id: b for b in facility.buildings}


def test_each_hall_adds_up_its_own_racks():
    _, halls, _ = _figures(_worked())
    a1, a2, b1 = halls["A1"], halls["A2"], halls["B1"]
    # A1 = r1 (3 HGX + CDU) + r2 (1 HGX): typical 3 x 7 + 1.5 + 7 = 29.5 kW; nameplate 3 x 10.2 + 3 + 10.2
    # = 43.8 kW; to liquid 4 x 10.2 x 0.8 = 32.64 kW, to air 43.8 - 32.64 = 11.16 kW;
    # water 32.64 x 60 / 41.591 = 47.087 l/min; CDUs ceil(32.64 / 250) + 1 = 2, one placed
    assert (a1.racks, a1.gpu_racks, a1.nodes, a1.gpus) == (2, 2, 4, 32)
    assert (a1.it_power_typical_kw, a1.it_power_nameplate_kw, a1.it_power_kw) == (29.5, 43.8, 29.5)
    assert (a1.heat_liquid_kw, a1.heat_air_kw) == (32.64, pytest.approx(11.16))
    assert a1.water_l_min == pytest.approx(47.087, abs=1e-3)
    assert (a1.cdus, a1.cdus_placed, a1.floor_area_m2) == (2, 1, 1.44)
    # A2 = r3, 6 HGX: 42 / 61.2 kW, to liquid 48.96 kW, water 48.96 x 60 / 41.591 = 70.631 l/min;
    # 6 x 80 + 160 = 640 kg on 0.72 m² = 889 kg/m²: above the hall's 800, below the plan's 1,224
    assert (a2.it_power_typical_kw, a2.it_power_nameplate_kw, a2.heat_liquid_kw) == (42.0, 61.2, 48.96)
    assert a2.water_l_min == pytest.approx(70.631, abs=1e-3)
    assert (a2.floor_rating_kg_m2, a2.racks_over_floor_rating, a2.cdus, a2.cdus_placed) == (800.0, 1, 2, 0)
    # B1 = r4 (2 HGX, liquid) + r5 (1 DGX, air): 21 / 30.6 kW; to liquid 2 x 10.2 x 0.8 = 16.32 kW (the
    # air DGX none), water 16.32 x 60 / 41.591 = 23.544 l/min; the plan's floor rating
    assert (b1.racks, b1.gpus, b1.it_power_typical_kw, b1.it_power_nameplate_kw) == (2, 24, 21.0, 30.6)
    assert (b1.heat_liquid_kw, b1.heat_air_kw) == (16.32, pytest.approx(14.28))
    assert b1.water_l_min == pytest.approx(23.544, abs=1e-3)
    assert (b1.floor_rating_kg_m2, b1.racks_over_floor_rating, b1.building) == (1224.0, 0, "B")


def test_each_building_sizes_its_own_plant_on_its_own_load():
    _, _, buildings = _figures(_worked())
    a, b = buildings["A"], buildings["B"]
    # A: 29.5 + 42 = 71.5 kW typical, 43.8 + 61.2 = 105 kW nameplate; design load 105 x 1.56 = 163.8 kW.
    # UPS on 105 kW: N = ceil(105 / 500) = 1 unit of ceil(105 / 50) x 50 = 150 kW, N+1 = 2 -> 300 kW.
    # Generators on 163.8 kW: 1 set of 200 kW, N+1 = 2 -> 400 kW.
    # Transformers: 163.8 / 0.9 = 182 kVA on 100 kVA units: N = 2, N+1 = 3 -> 300 kVA.
    assert (a.halls, a.racks, a.gpus, a.it_power_typical_kw, a.it_power_nameplate_kw) == (2, 3, 80, 71.5, 105.0)
    assert a.facility_power_kw == pytest.approx(163.8)
    assert (a.ups_units, a.ups_unit_kw, a.ups_kw) == (2, 150.0, 300.0)
    assert (a.generator_units, a.generator_unit_kw, a.generator_kw) == (2, 200.0, 400.0)
    assert (a.transformer_units, a.transformer_unit_kva, a.transformer_kva) == (3, 100.0, 300.0)
    # water 81.6 kW x 60 / 41.591 = 117.718 l/min; CDUs: its halls' 2 + 2, one placed
    assert a.water_l_min == pytest.approx(117.718, abs=1e-3) and (a.cdus, a.cdus_placed) == (4, 1)
    # B: 30.6 kW nameplate on its own 40 kW modules: N = 1, the load's share rounded up to 50 kW is
    # more than 40, so 40 kW units, N+1 = 2 -> 80 kW. Generators (the settings' 2 MW) on
    # 30.6 x 1.56 = 47.736 kW: 1 set of 50 kW, N+1 = 2 -> 100 kW. No transformer rating: none sized.
    assert (b.ups_units, b.ups_unit_kw, b.ups_kw) == (2, 40.0, 80.0)
    assert b.facility_power_kw == pytest.approx(47.736)
    assert (b.generator_units, b.generator_unit_kw, b.generator_kw) == (2, 50.0, 100.0)
    assert (b.transformer_units, b.transformer_unit_kva, b.utility_feed_kw) == (0, None, None)


def test_the_campus_totals_stay_the_sums_of_the_halls():
    report, halls, buildings = _figures(_worked())
    f, t = report.sections["facility"], report.totals
    assert sum(h.racks for h in halls.values()) == t.racks == 5
    assert sum(h.gpus for h in halls.values()) == t.gpus == 32 + 48 + 24
    # nameplate 43.8 + 61.2 + 30.6 = 135.6 kW = the UPS load; to liquid 32.64 + 48.96 + 16.32 = 97.92 kW
    assert sum(b.it_power_nameplate_kw for b in buildings.values()) == pytest.approx(f.ups_load_kw) == 135.6
    assert sum(h.heat_liquid_kw for h in halls.values()) == pytest.approx(f.heat_liquid_kw) == 97.92
    assert sum(h.water_l_min for h in halls.values()) == pytest.approx(f.water_l_min, abs=2e-3)
    # the campus plant keeps its meaning: sized on the whole load, 135.6 kW -> 2 x 150 kW UPS,
    # 135.6 x 1.56 = 211.5 kW -> 2 x 250 kW generator sets
    assert (f.ups_units, f.ups_kw, f.generator_units, f.generator_kw) == (2, 300.0, 2, 500.0)


def test_limits_exceeded_are_findings_that_name_the_hall_or_building():
    report, _, _ = _figures(_worked())
    messages = {f.code: f.message for f in report.findings if f.code.startswith("facility.")}
    assert messages == {
        "facility.hall.power_limit": "Hall A1 (Building A) draws 29.5 kW of IT power (typical), above its limit "
                                     "of 25.0 kW: move racks to another hall or raise the hall's limit",
        "facility.hall.floor_rating": "Hall A2 (Building A): 1 rack loads the floor above the hall's rating of "
                                      "800 kg/m²: spread the load or move it to a hall with a stronger floor",
        "facility.building.utility_feed": "Building A needs 163.8 kW at design load (IT nameplate 105.0 kW "
                                          "x PUE 1.56), more than its utility feed of 150.0 kW",
        # A2 and B1 have no CDU of their own (A1's is in r1): A1 needs 2 and has 1, so all three warn
        "facility.hall.cdu_short": "Hall B1 (Building B) needs 2 CDUs for its 16.3 kW of design heat to liquid; "
                                   "0 placed in it: a CDU's loop serves its own hall",
    }
    assert sum(f.code == "facility.hall.cdu_short" for f in report.findings) == 3


def test_moving_a_rack_to_another_hall_moves_its_figures_and_incremental_equals_full():
    plan = _worked()
    catalog = default_catalog()
    ev = Evaluator(plan, catalog)
    ev.evaluate()
    history = History(plan, catalog)
    report = ev.evaluate(history.apply(MoveRacksToHall(["r3"], "B1")))
    assert report.to_json() == evaluate(plan, catalog).to_json()
    halls = {h.id: h for h in report.sections["facility"].halls}
    # A2 is empty now; B1 holds r3's 6 HGX too: 21 + 42 = 63 kW typical
    assert (halls["A2"].racks, halls["A2"].it_power_typical_kw, halls["A2"].racks_over_floor_rating) == (0, 0.0, 0)
    assert (halls["B1"].racks, halls["B1"].it_power_typical_kw) == (3, 63.0)
    assert "facility.hall.floor_rating" not in {f.code for f in report.findings}
    report = ev.evaluate(history.undo())
    assert report.to_json() == evaluate(plan, catalog).to_json()
    assert {h.id: h.racks for h in report.sections["facility"].halls} == {"A1": 2, "A2": 1, "B1": 2}


def test_a_plan_of_one_hall_has_that_hall_as_its_totals_and_no_hall_findings():
    plan = load_plan(DATA / "plan_v6.json")
    report = evaluate(plan, default_catalog())
    f, t = report.sections["facility"], report.totals
    (hall,), (building,) = f.halls, f.buildings
    assert (hall.id, hall.racks, hall.gpus, hall.it_power_nameplate_kw) == ("hall-1", t.racks, t.gpus, f.ups_load_kw)
    assert (hall.cdus, hall.water_l_min) == (t.cdus, f.water_l_min)
    # one building: its plant is the campus's
    assert (building.ups_units, building.ups_kw, building.generator_units, building.generator_kw) == (
        f.ups_units, f.ups_kw, f.generator_units, f.generator_kw)
    assert not [x for x in report.findings if x.code.startswith(("facility.hall", "facility.building"))]


def test_buildings_are_not_replaced_while_another_variant_has_racks_in_a_dropped_hall():
    plan = load_plan(DATA / "plan_v7.json")
    history = History(plan, default_catalog())
    history.apply(SwitchVariant("All in A1"))  # every rack of this variant in A1; the base's GPU-04 is in B1
    only_a = [b.model_dump() for b in plan.buildings[:1]]
    with pytest.raises(CommandError, match="rack 'GPU-04' \\(Base\\) stands in hall 'B1'"):
        history.apply(SetBuildings(only_a))
    assert [b.id for b in plan.buildings] == ["A", "B"]
