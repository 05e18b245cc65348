"""A plan too large to route prices its in-hall fabric runs (node to leaf, leaf to spine, a
single hall's spine to core) by the lengths its halls give them, with the medium and optic
each length needs, and on plans small enough to route that estimate is close to the routed
schedule's bill: both paths forced on the same plans."""

from __future__ import annotations

from collections import Counter

import pytest

import planner.costs.hall_tiers as hall_tiers
import planner.costs.section as cost_section
from planner.design.build import design
from planner.design.intent import CampusSpec, Intent
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, MoveDevice
from planner.report.evaluate import Evaluator, evaluate

CAT = default_catalog()


def fabric_bill(plan, monkeypatch, limit: int) -> tuple[Counter, Counter]:
    """(fabric transceivers by catalog part, fabric cables by medium class) of the cost
    section's bill with the routing limit at ``limit``."""
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", limit)
    optics, cables = Counter(), Counter()
    for line in evaluate(plan, CAT).sections["cost"].bom:
        if line.counts_as == "transceiver":
            optics[line.part_id] += line.quantity
        elif line.counts_as == "cable":
            cables["copper" if "copper" in line.part or "DAC" in line.item else "fibre"] += line.quantity
    return optics, cables


def campus_plan():
    # 72 DGX B300 on 36-port Q3200 in three tiers over two buildings of one hall each
    return design(Intent(system="dgx-b300", nodes=72, spare_nodes=0, fabric="ib800", switch="q3200", tiers="3",
                         infra_rack={"prefix": "NET", "power_cap_kw": 4},
                         campus=CampusSpec(buildings=2, halls_per_building=1)), CAT).plan


# The tolerance, per catalog transceiver: the estimate places every end at mid-height of a
# 48U rack and spreads a tier's runs over a square of racks, where the routed schedule takes
# each device's own U and rack; a run near a stock-length or medium boundary (5 m active
# copper / 7 m multimode, 10 / 15 m) lands on the other side, and each length's modules are
# counted whole. Measured: medium within 3 %, massive within 12 %, the two-hall campus within
# 11 %. gb200-nvl72-su is the known outlier: its node-to-leaf runs to the adjacent network
# racks are 4-5 m active copper in the schedule, fibre in the estimate (its single-port node
# optics 576 against 360), so there only the switches' twin-port optics are held to it.
@pytest.mark.parametrize("name,tolerance", [("medium", 0.05), ("massive", 0.15), ("campus", 0.15)])
def test_the_estimate_buys_the_optics_the_routed_schedule_buys(monkeypatch, name, tolerance):
    plan = campus_plan() if name == "campus" else build_template(name, catalog=CAT)
    routed, routed_cables = fabric_bill(plan, monkeypatch, 10**9)
    estimated, estimated_cables = fabric_bill(plan, monkeypatch, 0)
    assert set(estimated) == set(routed)  # the same parts: SR on multimode, DR between buildings
    for part, n in routed.items():
        assert estimated[part] == pytest.approx(n, rel=tolerance), part
    assert sum(estimated_cables.values()) == sum(routed_cables.values())  # one cable a link


def test_gb200_su_switch_optics_agree_and_its_node_optics_are_the_known_outlier(monkeypatch):
    plan = build_template("gb200-nvl72-su", catalog=CAT)
    routed, _ = fabric_bill(plan, monkeypatch, 10**9)
    estimated, _ = fabric_bill(plan, monkeypatch, 0)
    assert estimated["xcvr-2x400g-osfp-sr8"] == pytest.approx(routed["xcvr-2x400g-osfp-sr8"], rel=0.05)
    assert routed["xcvr-400g-osfp-sr4"] < estimated["xcvr-400g-osfp-sr4"] <= 1.6 * routed["xcvr-400g-osfp-sr4"]


def test_medium_by_hand(monkeypatch):
    # medium: 16 HGX H100 (8 x 400G rails) in 4 GPU racks, one QM9700 unit of d = 32 nodes:
    # the unit spans its 4 node racks and the leaves' rack, 5 racks of 1.35 m^2 (600 x 1,200 mm
    # and half the 1,200 and 900 mm aisles), a square of 2.598 m sampled 2 x 2 at 0.65 and
    # 1.95 m from the switches' corner; each end up from mid-height of a 48U rack to the tray
    # 0.3 m above, 1.367 m, and 1 m slack: 5.03, 6.33 (twice), 7.63 m -> multimode, 7 m stock
    # for three quarters and 10 m for one; the catalog's shortest OM4 trunk above 7 m is 10 m
    side = (5 * 1.35) ** 0.5
    up = 24 * 0.04445 + 0.3
    runs = sorted(2 * up + 1 + (x + y) * side / 4 for x in (1, 3) for y in (1, 3))
    assert runs == pytest.approx([5.03, 6.33, 6.33, 7.63], abs=0.01)
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 0)
    bom = {line.item: line for line in evaluate(build_template("medium", catalog=CAT), CAT).sections["cost"].bom}
    assert bom["Fabric cable, node to leaf, multimode fibre (OM4), 7 m"].quantity == 96  # 3/4 of 128
    assert bom["Fabric cable, node to leaf, multimode fibre (OM4), 10 m"].quantity == 32
    # leaf to spine: 10 QM9700 in the one network rack: inside it, a third of 48U + 1 m slack
    # = 1.71 m, 400G passive copper, 2 m stock, no optics
    assert bom["Fabric cable, leaf to spine, 400G passive copper DAC, 2 m"].quantity == 128
    assert not any(item.startswith("Transceiver, leaf to spine") for item in bom)


def test_a_move_inside_a_hall_keeps_the_run_mixes(monkeypatch):
    # the run mixes are kept by the hall's racks, their footprint and the tier's span: a
    # fabric switch moved within its rack changes none, and the cost section is kept
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 0)
    calls = []
    mix = hall_tiers.run_mix
    monkeypatch.setattr(hall_tiers, "run_mix", lambda *a: calls.append(a) or mix(*a))
    plan = build_template("massive", catalog=CAT)
    ev = Evaluator(plan, CAT)
    before = ev.evaluate().sections["cost"]
    worked = len(calls)
    assert worked >= 2  # node to leaf, and the switch tiers
    switch = next(p for p in plan.placements if p.device == "qm9700")
    free_u = 1 + max(p.u + CAT[p.device].u_height - 1 for p in plan.rack_members(switch.rack).values())
    report = ev.evaluate(History(plan, CAT).apply(MoveDevice(switch.id, switch.rack, free_u)))
    assert report.sections["cost"] is before and len(calls) == worked
    assert report.to_json() == evaluate(plan, CAT).to_json()
