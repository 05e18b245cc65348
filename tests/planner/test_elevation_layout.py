"""One elevation layout: a rack's boxes and words, worked out by hand from the datasheets."""

from __future__ import annotations

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.model import Placement
from planner.report.elevation import device_box, device_boxes, rack_heading, short_model
from planner.report.evaluate import evaluate
from planner.report.palette import CATEGORY_COLORS

CAT = default_catalog()


def test_a_dgx_h100_spans_eight_units_in_gpu_blue_with_its_power_on_each_basis():
    p = Placement(id="p1", device="dgx-h100", rack="r1", u=10, label="GPU-NODE-01")
    box = device_box(p, CAT.get("dgx-h100"), "typical")
    # DGX H100: 8U, 7.0 kW typical and 10.2 kW maximum (NVIDIA's datasheet)
    assert (box.u, box.height_u, box.top_u) == (10, 8, 17)
    assert box.fill == CATEGORY_COLORS["gpu_server"] == "#2F6FDF"
    assert box.ink == "#FFFFFF"  # white reads on the blue
    assert (box.name, box.model, box.power) == ("GPU-NODE-01", "DGX H100", "7 kW")
    assert box.details == ("NVIDIA · 8 GPUs · air-cooled", "NVIDIA · 8 GPUs")
    assert device_box(p, CAT.get("dgx-h100"), "nameplate").power == "10.2 kW"


def test_a_switch_is_violet_its_long_model_shortens_and_an_unknown_type_says_so():
    sw = device_box(Placement(id="sw", device="qm9700", rack="r1", u=40), CAT.get("qm9700"), "typical")
    assert sw.fill == CATEGORY_COLORS["switch"] and sw.name == "sw"
    assert sw.power == "1.29 kW"  # 1,294 W typical, three significant figures
    assert sw.short_model == short_model("Quantum-2 QM9700 (64 x NDR 400G)") == "Quantum-2 QM9700"
    assert sw.details == ("NVIDIA",)
    odd = device_box(Placement(id="x", device="no-such", rack="r1", u=3), None, "typical")
    assert (odd.height_u, odd.known, odd.model, odd.power) == (1, False, "unknown type 'no-such'", "")
    assert odd.fill == CATEGORY_COLORS["other"]


def test_the_heading_of_a_medium_rack_reads_its_power_against_its_cap():
    plan = build_template("medium", catalog=CAT)
    report = evaluate(plan, CAT)
    rack = next(r for r in plan.racks if report.rack(r.id).gpus)
    res = report.rack(rack.id)
    members = [p for p in plan.placements if p.rack == rack.id]
    # the rack's power on the plan's basis is the sum of its devices' (no PDU or other losses in a rack)
    basis = report.power_basis
    watts = sum(CAT.get(p.device).power_w(basis) for p in members)
    assert res.power_kw == watts / 1000
    heading = rack_heading(rack, res, plan.settings.facility.air_cooling_limit_kw)
    assert heading.power == f"{watts / 1000:,.1f} / {rack.power_cap_kw:g} kW"
    assert heading.load == watts / 1000 / rack.power_cap_kw
    assert heading.space.startswith(f"{sum(CAT.get(p.device).u_height for p in members)}/{rack.height_u} U used")
    assert heading.cooling_tag == rack.cooling.upper()
    boxes = device_boxes(members, CAT, basis)
    assert sorted(b.placement_id for b in boxes) == sorted(p.id for p in members)


def test_a_rear_door_shows_in_the_racks_heading():
    """An air rack with a rear-door heat exchanger (RDHX) holds more than the air limit (its
    heat leaves by the door's water): its heading says so, as the inspector does."""
    from planner.plan.model import Rack

    door = rack_heading(Rack(id="r", name="GPU-01", cooling="air", rear_door_hx=True), None)
    plain = rack_heading(Rack(id="s", name="GPU-02", cooling="air"), None)
    assert (door.height_tag, door.cooling_tag) == ("42U · RDHX", "RDHX")
    assert (plain.height_tag, plain.cooling_tag) == ("42U · air", "AIR")
    hybrid = rack_heading(Rack(id="h", name="GPU-03", cooling="hybrid", rear_door_hx=True), None)
    assert hybrid.height_tag == "42U · hybrid + RDHX"  # its liquid share and the door both said


def test_a_rear_door_racks_cooling_line_gives_what_goes_into_the_room():
    # 4 DGX B200 (air-cooled, 10 kW typical each) in a 40 kW air rack with a rear door: 40 kW
    # of heat, of which the 50 kW door takes all (at typical draw): 0.0 kW into the room,
    # judged against the 25 kW air limit (it read "Air-cooled: 40.0 kW (limit 25)")
    from planner.design.build import design
    from planner.design.intent import Intent

    plan = design(Intent(system="dgx-b200", gpus=64, rack_kw=40), CAT).plan
    report = evaluate(plan, CAT)
    rack = next(r for r in plan.racks if r.rear_door_hx and len(plan.rack_members(r.id)) == 4)
    heading = rack_heading(rack, report.rack(rack.id), plan.settings.facility.air_cooling_limit_kw)
    assert heading.cooling == "Rear door: 0.0 kW to air (limit 25)"
    plain = build_template("medium", catalog=CAT)
    net = next(r for r in plain.racks if r.name == "NET-01")
    assert rack_heading(net, evaluate(plain, CAT).rack(net.id), 25).cooling.startswith("Air-cooled: ")
