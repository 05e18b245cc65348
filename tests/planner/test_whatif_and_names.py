"""What a drop would do before it happens, auto-place within the rack's own limits, and label series."""

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import AddDevice, AddRack
from planner.plan.model import Plan
from planner.plan.names import LabelSeries, next_label
from planner.report.whatif import placement_consequence

CAT = default_catalog()


@pytest.fixture
def medium():
    return build_template("medium", catalog=CAT)


def rack(plan, name):
    return next(r for r in plan.racks if r.name == name)


def test_a_node_into_a_full_gpu_rack_can_be_placed_but_would_draw_over_its_cap(medium):
    # GPU-01 holds 4 HGX H100 nodes at 7.0 kW typical = 28.0 kW of 30 kW; a fifth at U33 makes 35.0 kW.
    # The fabric's 10 QM9700 switches are sized for 16 nodes; a 17th node's NICs find no free port.
    c = placement_consequence(medium, CAT, rack(medium, "GPU-01").id, 33, CAT["hgx-h100-8"])
    assert c.state == "warning" and c.problem is None
    assert c.failing[0] == "GPU-01 would draw 35.0 / 30 kW (typical)"
    assert len(c.failing) == 2 and c.failing[1].startswith("no free fabric switch port for its NICs: ")
    assert c.failing[1].endswith(", 640 placed")  # 10 x QM9700 x 64 ports


def test_under_a_gpu_power_limit_the_drop_is_judged_at_the_capped_draw(medium):
    # 350 W a GPU: each HGX H100 node draws 8 x (700 - 350) = 2.8 kW less, 4.2 kW typical and
    # 10.2 - 2.8 = 7.4 kW nameplate; a fifth node in GPU-01 makes 5 x 4.2 = 21.0 kW typical,
    # within the 30 kW cap (not the 35.0 of the GPUs at their TDP), and 5 x 7.4 = 37.0 nameplate
    medium.settings.facility = medium.settings.facility.model_copy(update={"gpu_power_limit_w": 350})
    c = placement_consequence(medium, CAT, rack(medium, "GPU-01").id, 33, CAT["hgx-h100-8"])
    assert not any("would draw" in f for f in c.failing)
    assert "GPU-01's nameplate would be 37.0 / 30 kW" in c.failing


def test_overlap_outside_and_wrong_cooling_cannot_be_placed(medium):
    gpu1, net = rack(medium, "GPU-01").id, rack(medium, "NET-01").id
    node = CAT["hgx-h100-8"]
    assert node.u_height == 4  # nodes at U1, U5, U9, U13
    c = placement_consequence(medium, CAT, gpu1, 11, node)
    assert "overlaps node-3" in c.problem and c.label == "overlaps node-3"  # U11-14 over U9-12
    c = placement_consequence(medium, CAT, gpu1, 40, node)  # U40-43 in 42U
    assert "stick out" in c.problem and c.label == "sticks out of GPU-01"  # the ghost's words, the same reason
    c = placement_consequence(medium, CAT, net, 30, node)
    assert c.state == "blocked" and "NET-01 is an air-cooled rack" in c.problem
    assert c.label == "liquid-cooled: not in an air rack"


def test_air_limit_nameplate_and_weight_figures(medium):
    net = rack(medium, "NET-01")
    # NET-01 (air, 25 kW cap): 10 QM9700 at 1.294 kW + SN5600 2.028 + mgmt 0.08 = 15.048 kW typical.
    # Two DGX B200 (10U, 10 kW typical each) make 15.048 + 20 = 35.048 kW.
    AddDevice("dgx-b200", net.id, 30).do(medium, CAT)
    b200 = CAT["dgx-b200"]
    assert (b200.power_typical_w, b200.u_height) == (10000, 10)
    c = placement_consequence(medium, CAT, net.id, 15, b200)
    assert c.problem is None
    assert CAT["qm9700"].power_typical_w == 1294 and CAT["sn5600-400"].power_typical_w == 2028
    assert "NET-01 would draw 35.0 / 25 kW (typical)" in c.failing
    assert "air-cooled NET-01 would put 35.0 kW into the air, over the 25 kW air-cooling limit" in c.failing
    light = Plan()
    AddRack("R-01", rack_id="r", max_weight_kg=200, power_cap_kw=100).do(light, CAT)
    AddDevice("dgx-h100", "r", 1).do(light, CAT)  # 130.7 kg
    w = CAT["dgx-h100"].weight_kg
    c = placement_consequence(light, CAT, "r", 20, CAT["dgx-h100"])
    assert f"R-01 would carry {2 * w:,.0f} / 200 kg" in c.failing


def test_moving_a_device_counts_it_once(medium):
    gpu1 = rack(medium, "GPU-01")
    node = next(p for p in medium.rack_members(gpu1.id).values() if p.u == 13)
    # moving node-4 from U13 to U33 in its own rack keeps 28.0 kW: nothing fails
    assert placement_consequence(medium, CAT, gpu1.id, 33, CAT["hgx-h100-8"], moving=node.id).state == "ok"


def test_labels_continue_their_series(medium):
    assert next_label(medium, CAT, CAT["hgx-h100-8"]) == "node-17"
    assert next_label(medium, CAT, CAT["dgx-h100"]) == "node-17"  # same category, same series
    assert next_label(medium, CAT, CAT["qm9700"]) == "ib-11"  # 10 fabric switches ib-1..ib-10
    plan = Plan()
    AddRack("R-01", rack_id="r").do(plan, CAT)
    for i in range(1, 9):
        AddDevice("sn4600c", "r", 2 * i - 1, label=f"leaf-{i:02d}").do(plan, CAT)  # 1U or 2U each
    assert next_label(plan, CAT, CAT["sn4600c"]) == "leaf-09"
    series = LabelSeries(plan, "stor-")
    assert [series.next(), series.next()] == ["stor-1", "stor-2"]
    assert next_label(plan, CAT, CAT["pfs-appliance"]) == "stor-1"
    # "leaf-0" is no series of "leaf-01".."leaf-08": their numbers are 01..08 after "leaf-"
    assert LabelSeries(plan, "leaf-0").next() == "leaf-01"
    assert LabelSeries(plan, "leaf").next() == "leaf1"  # "leaf-08" is not "leaf" and a number


def test_a_design_labels_every_device_once(medium):
    # the design keeps one series a prefix across its ~10 auto-places: no label twice, none skipped
    labels = [p.label for p in medium.placements]
    assert len(set(labels)) == len(labels)
    nodes = sorted(int(x[5:]) for x in labels if x.startswith("node-"))
    assert nodes == list(range(1, 17))  # 16 nodes: node-1 .. node-16


def test_auto_place_picks_liquid_racks_for_liquid_nodes_and_air_racks_within_the_air_limit():
    plan = Plan()  # the default facility: 30 kW racks, 25 kW air-cooling limit
    AutoPlace("hgx-h100-8", 5, label_prefix="node-").do(plan, CAT)
    # HGX H100 is liquid-cooled: liquid racks at the 30 kW cap take 4 x 7 kW = 28 kW, then 1
    assert [(r.cooling, r.power_cap_kw) for r in plan.racks] == [("liquid", 30), ("liquid", 30)]
    assert [len(plan.rack_members(r.id)) for r in plan.racks] == [4, 1]
    air = Plan()
    AutoPlace("dgx-h100", 5).do(air, CAT)
    # DGX H100 is air-cooled: 25 kW racks (the air limit) take 3 x 7 kW = 21 kW, then 2
    assert [(r.cooling, r.power_cap_kw) for r in air.racks] == [("air", 25), ("air", 25)]
    assert [len(air.rack_members(r.id)) for r in air.racks] == [3, 2]
