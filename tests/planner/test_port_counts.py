"""Each port count is one rule: the switches the design adds serve the links the cable
schedule wires, and the CDUs it adds serve the heat the check counts."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from planner.design.grow import PlaceNodes
from planner.design.racks import liquid_load
from planner.facility.power import evaluate_rack
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule
from planner.plan.model import Rack
from tests.planner.cost_helpers import plan_with

CAT = default_catalog()


def _patched_plan():
    """60 patch panels (0 W: no BMC, no management port) in two racks, then two DGX H100
    auto-placed with what they need."""
    panels = [(Rack(id=f"P{i}", name=f"P{i}", row="A"), [("patch-panel", u) for u in range(1, 31)])
              for i in (1, 2)]
    plan = plan_with(panels)
    PlaceNodes("dgx-h100", 2).do(plan, CAT)
    return plan


def test_management_switches_the_design_adds_are_those_the_cable_schedule_fills():
    plan = _patched_plan()
    counts = Counter(p.device for p in plan.placements)
    powered = sum(n for d, n in counts.items() if CAT[d].power_max_w > 0 and d != "mgmt-1g-48")
    sched = build_schedule(plan, CAT)
    management = [link for link in sched.links if link.network == "management"]
    # one 1 GbE port a powered device, the 60 patch panels none: one 48-port switch, not two
    assert counts["patch-panel"] == 60
    assert len(management) == powered < 48
    assert counts["mgmt-1g-48"] == math.ceil(powered / 48) == 1
    assert sched.unrouted["management"] == 0


def test_storage_switches_the_design_adds_hold_the_storage_links():
    plan = _patched_plan()
    counts = Counter(p.device for p in plan.placements)
    sched = build_schedule(plan, CAT)
    storage = [link for link in sched.links if link.network == "storage"]
    # DGX H100: 2 storage NICs each; a PFS appliance: 4 NICs each
    assert len(storage) == 2 * counts["dgx-h100"] + 4 * counts["pfs-appliance"]
    assert sched.unrouted["storage"] == 0


def test_the_liquid_load_the_design_sizes_cdus_on_is_the_checks():
    plan = plan_with([
        (Rack(id="L", name="L", row="A", cooling="liquid", power_cap_kw=40), [("hgx-b300-8", 1), ("hgx-b300-8", 11)]),
        (Rack(id="D", name="D", row="A", rear_door_hx=True, power_cap_kw=40), [("dgx-h100", 1)]),
        (Rack(id="A", name="A", row="A"), [("dgx-h100", 1)]),
    ])
    nodes, kw = liquid_load(plan, CAT)
    racks = [evaluate_rack(plan, r, CAT) for r in plan.racks]
    assert nodes == sum(r.liquid_nodes for r in racks) == 2
    assert kw * 1e6 == sum(r.heat_liquid_milliwatts for r in racks)
    # two cold-plate HGX B300 in the liquid rack: 2 x 14.0 kW nameplate x 0.8 captured = 22.4 kW;
    # the rear door (50 kW) takes all of the DGX H100's 10.2 kW to water; the air rack none
    assert kw == pytest.approx(22.4 + 10.2)
