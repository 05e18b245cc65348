"""Rack-scale systems and rack types: an NVL72 is dropped onto the floor as a rack of its own
type, refused by an air-cooled rack with the reason, and over a conventional rack's 30 kW
cap an error that names both figures."""

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.commands import AddDevice, AddRack, CommandError, History
from planner.plan.model import Plan
from planner.plan.rackscale import PlaceRackScaleSystem, add_rack_of_type
from planner.plan.space import cooling_problem
from planner.report.evaluate import evaluate

CAT = default_catalog()


def power_errors(report, rack_id):
    return [f for f in report.rack_results[rack_id].findings if f.code.startswith("rack.power")]


def test_an_nvl72_in_an_air_rack_is_refused_with_the_reason():
    plan = Plan()
    h = History(plan, CAT)
    h.apply(AddRack("AIR-01"))  # the default conventional rack: air-cooled
    rack = plan.racks[0]
    with pytest.raises(CommandError) as refused:
        h.apply(AddDevice("gb200-nvl72", rack.id, 1))
    assert "liquid-cooled" in str(refused.value) and "AIR-01 is an air-cooled rack" in str(refused.value)
    assert plan.placements == []
    # the same reason is what the drag ghost shows: the core function the view calls
    assert cooling_problem(rack, CAT["gb300-nvl72"]) == cooling_problem(rack, CAT["gb200-nvl72"]).replace(
        CAT["gb200-nvl72"].model, CAT["gb300-nvl72"].model)
    hybrid = AddRack("HYB-01", cooling="hybrid")
    h.apply(hybrid)
    assert cooling_problem(plan.rack(hybrid.rack_id), CAT["gb200-nvl72"]) is None


def test_an_nvl72_dropped_on_the_floor_makes_its_own_rack_with_no_power_error():
    plan = Plan()
    h = History(plan, CAT)
    h.apply(PlaceRackScaleSystem("gb200-nvl72"))
    assert len(plan.racks) == 1 and len(plan.placements) == 1
    rack = plan.racks[0]
    # the MGX rack type: 48U, liquid, its own 140 kW cap (not the plan's 30 kW default)
    assert (rack.rack_type, rack.height_u, rack.cooling, rack.power_cap_kw) == ("nvl72-mgx-48u", 48, "liquid", 140)
    report = evaluate(plan, CAT)
    assert report.totals.gpus == 72
    assert power_errors(report, rack.id) == []
    # the only error is the floor's: 1.36 t on 0.72 m2 is more than a raised floor's rating (a slab
    # carries it); the floor check is the facility's, not the rack type's
    assert [f.code for f in report.rack_results[rack.id].findings if f.severity == "error"] in (
        [], ["rack.floor.over_rating"])
    # 120 kW typical of a 140 kW cap; on nameplate 132 kW still fits
    assert report.rack_results[rack.id].power_kw == pytest.approx(120.0)
    assert report.rack_results[rack.id].power_nameplate_kw == pytest.approx(132.0)
    h.undo()
    assert plan.racks == [] and plan.placements == []


def test_an_nvl72_in_a_conventional_30_kw_rack_is_an_error_naming_both_figures():
    plan = Plan()
    h = History(plan, CAT)
    # a conventional rack at the plan's default 30 kW cap, liquid-cooled and tall enough
    add = AddRack("CONV-01", cooling="liquid", height_u=48)
    h.apply(add)
    assert plan.rack(add.rack_id).power_cap_kw == 30
    h.apply(AddDevice("gb200-nvl72", add.rack_id, 1))
    errors = [f for f in power_errors(evaluate(plan, CAT), add.rack_id) if f.severity == "error"]
    assert len(errors) == 1
    # GB200 NVL72 typical load 120 kW (the plan's typical basis) against 30 kW: 90 kW over
    assert "120.0 kW" in errors[0].message and "30 kW cap" in errors[0].message
    assert "90.0 kW over" in errors[0].message


def test_assembled_tray_by_tray_in_its_rack_type():
    plan = Plan()
    h = History(plan, CAT)
    add = add_rack_of_type(plan, CAT, "nvl72-mgx-48u", "NVL-01")
    h.apply(add)
    u = 1
    for device, n in (("nvl72-power-shelf", 8), ("gb200-compute-tray", 18), ("nvlink-switch-tray", 9)):
        for _ in range(n):
            h.apply(AddDevice(device, add.rack_id, u))
            u += 1
    report = evaluate(plan, CAT)
    # 18 trays x 4 GPUs = 72 GPUs in one NVLink domain of 72
    assert report.totals.gpus == 72 and CAT["gb200-compute-tray"].gpu.domain_gpus == 72
    # 18 x 6.47 + 9 x 0.4 + 8 x 0.1 = 120.86 kW typical, under the rack type's 140 kW
    assert report.rack_results[add.rack_id].power_kw == pytest.approx(120.86)
    assert power_errors(report, add.rack_id) == []


def test_over_the_weight_rating_is_an_error_naming_both_figures():
    plan = Plan()
    h = History(plan, CAT)
    add = AddRack("LIGHT", cooling="liquid", height_u=48, power_cap_kw=200, max_weight_kg=1000)
    h.apply(add)
    h.apply(AddDevice("gb200-nvl72", add.rack_id, 1))
    weight = [f for f in evaluate(plan, CAT).rack_results[add.rack_id].findings if f.code == "rack.weight.over_limit"]
    assert weight[0].severity == "error" and "1360 kg" in weight[0].message and "1000 kg" in weight[0].message


def test_only_rack_scale_systems_make_their_own_rack():
    with pytest.raises(CommandError, match="not a rack-scale system"):
        PlaceRackScaleSystem("dgx-h100").do(Plan(), CAT)
