"""A campus design keeps each scalable unit and pod with its hall: the fabric's leaves stand
with the nodes wired to them, a pod's spines with most of its leaves, the cores dealt over
the halls, so only the core tier runs between buildings."""

from __future__ import annotations

from collections import Counter

import pytest

from planner.design.build import design
from planner.design.intent import CampusSpec, Intent
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule

CAT = default_catalog()


@pytest.fixture(scope="module")
def plan():
    # 72 DGX B300 (8 x 800G NICs) on 36-port Q3200 switches in three tiers, two buildings of
    # one hall each; network racks capped at 4 kW hold two 2 kW switches each
    intent = Intent(system="dgx-b300", nodes=72, spare_nodes=0, fabric="ib800", switch="q3200", tiers="3",
                    infra_rack={"prefix": "NET", "power_cap_kw": 4},
                    campus=CampusSpec(buildings=2, halls_per_building=1))
    return design(intent, CAT).plan


def routes(plan):
    sched = build_schedule(plan, CAT)
    out: dict[str, Counter] = {}
    for (k, route), n in sched.routes_by_kind().items():
        out.setdefault(sched.kinds[k].tier, Counter())[route] += n
    return sched, out


def test_node_to_leaf_links_stay_in_their_hall(plan):
    # d = 36 / 2 = 18 nodes a scalable unit, 8 leaves each (one a rail): 72 nodes, 4 units,
    # 32 leaves. 36 GPU racks of 2 nodes, 18 to a hall: units 0-1 in building 1, 2-3 in building 2
    sched, by_tier = routes(plan)
    assert sched.totals()["by_tier"]["node-leaf"] == 72 * 8 and not sched.unrouted
    assert set(by_tier["node-leaf"]) <= {"in-rack", "in-row", "in-hall"}
    hall_of = {r.name: r.hall for r in plan.racks}
    leaf_halls = Counter(hall_of[link.b.rack] for link in sched.links if link.tier == "node-leaf")
    assert leaf_halls == {"b1-hall-1": 36 * 8, "b2-hall-1": 36 * 8}


def test_only_the_minority_of_a_pod_and_the_cores_cross_buildings(plan):
    _, by_tier = routes(plan)
    # pods of 36 / 2 = 18 leaves, 18 spines each; pod 0 = leaves 0-17: 16 in building 1 and
    # leaves 16-17 (unit 2's first two rails) in building 2, so its spines stand in building 1
    # and those two leaves' 18 uplinks each cross: 36 links. Pod 1 (leaves 18-31) is in building 2.
    assert by_tier["leaf-spine"]["inter-building"] == 36
    assert sum(by_tier["leaf-spine"].values()) == 32 * 18
    # spine-core: pod 0's spines have 18 uplinks each (uplinks g = 0..323 in spine order),
    # pod 1's 14 (one per leaf of its 14: g = 324..575); uplink g goes to core g mod 16, the 16
    # cores dealt 8 to a hall in order. Pod 0 (building 1) to cores 8-15: g mod 16 >= 8 for
    # g < 324 = 20 x 16 + 4: 20 x 8 = 160. Pod 1 (building 2) to cores 0-7: g = 324..335 gives
    # g mod 16 = 4..15, four of them below 8; g = 336..575 is 15 x 16: 15 x 8 = 120. 160 + 4 + 120.
    assert by_tier["spine-core"]["inter-building"] == 160 + 4 + 120
    assert sum(by_tier["spine-core"].values()) == 576
    assert "inter-hall" not in by_tier["spine-core"]  # one hall a building


def test_plan_order_keeps_the_roles(plan):
    # leaves, then spines, then cores in plan order: the network racks holding the fabric's
    # switches, in plan order, go building 1 (leaves of units 0-1), building 2 (units 2-3),
    # building 1 (pod 0's spines), building 2 (pod 1's), then the cores: 8 to each building
    q3200 = [r for r in plan.racks if any(p.device == "q3200" for p in plan.rack_members(r.id).values())]
    halls = [r.hall[:2] for r in q3200]
    assert halls == ["b1"] * 8 + ["b2"] * 8 + ["b1"] * 9 + ["b2"] * 9 + ["b1"] * 4 + ["b2"] * 4
