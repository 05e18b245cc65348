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
from planner.network.cables import up_to_tray_m
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


# The tolerance, per catalog transceiver: the estimate stacks every end's devices from U1 at
# the hall's switches per switch rack and samples a tier's racks in rows from the switches'
# rack, where the routed schedule takes each device's own U and rack; a run near a medium or
# stock-length boundary (5 m active copper / 7 m multimode) lands on the other side, and each
# length's modules are counted whole. Measured: medium within 3.1 %, massive within 7.2 %,
# gb200-nvl72-su within 6.7 % (its NVL72 trays' runs from the top of their rack, as the
# schedule routes them: 384 single-port node modules estimated, 360 routed), the two-hall
# campus within 10.6 % (its single-mode modules between the buildings, by the campus core
# estimate, planner.costs.campus_tiers: 288 estimated, 322 routed).
@pytest.mark.parametrize("name,tolerance", [("medium", 0.05), ("massive", 0.1), ("gb200-nvl72-su", 0.08),
                                            ("campus", 0.12)])
def test_the_estimate_buys_the_optics_the_routed_schedule_buys(monkeypatch, name, tolerance):
    plan = campus_plan() if name == "campus" else build_template(name, catalog=CAT)
    routed, routed_cables = fabric_bill(plan, monkeypatch, 10**9)
    estimated, estimated_cables = fabric_bill(plan, monkeypatch, 0)
    assert set(estimated) == set(routed)  # the same parts: SR on multimode, DR between buildings
    for part, n in routed.items():
        assert estimated[part] == pytest.approx(n, rel=tolerance), part
    assert sum(estimated_cables.values()) == sum(routed_cables.values())  # one cable a link


def test_nvl72_trays_take_active_copper_to_the_next_rack_as_routed(monkeypatch):
    # gb200-nvl72-su: each NVL72 fills its 48U rack, so every tray's run leaves from the top of
    # the rack (0.3 m up to the tray); to the network rack beside it (0.6 m along the row), to
    # a QM9700 at U1 of a 42U rack (41 x 0.04445 + 0.3 = 2.12 m up) and 1 m slack: 4.02 m,
    # active copper 5 m with no optic; the schedule routes the nearest racks' trays the same
    assert 0.3 + 0.6 + 41 * 0.04445 + 0.3 + 1 == pytest.approx(4.02, abs=0.005)
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 0)
    bom = {line.item: line.quantity for line in evaluate(build_template("gb200-nvl72-su", catalog=CAT),
                                                         CAT).sections["cost"].bom}
    assert bom["Fabric cable, node to leaf, 400G active copper cable, 5 m"] > 0
    # fewer single-port modules at the trays than the 576 runs: the copper runs need none
    assert bom["Transceiver, node to leaf: 400G OSFP SR4 transceiver (single-port)"] < 576


def test_switches_stacked_in_order_share_a_rack_by_hand():
    # 18 leaves then 16 spines, 17 a rack: rack 1 holds leaves 1-17, rack 2 leaf 18 and the 16
    # spines; of the 18 x 16 leaf-spine pairs 1 x 16 stand in one rack
    assert hall_tiers.same_rack_share((0, 18), (18, 16), 17) == pytest.approx(16 / 288)
    assert hall_tiers.same_rack_share((0, 4), (4, 4), 8) == 1.0  # one rack holds them all
    assert hall_tiers.same_rack_share((0, 8), (8, 8), 8) == 0.0  # leaves fill the first rack
    # massive: 16 leaves, then 16 spines, then 8 cores, 19 a rack: spines 4-16 and cores 1-6
    # share the second rack, cores 7-8 the third: 13 x 6 of the 16 x 8 spine-core pairs
    assert hall_tiers.same_rack_share((16, 16), (32, 8), 19) == pytest.approx(78 / 128)


def test_the_estimate_climbs_to_the_tray_as_the_schedule_does():
    # a device topped at U40 of a 42U rack: 2 U x 44.45 mm + a tray 300 mm above = 0.3889 m;
    # one topped at U48 of a 48U NVL72 rack: the tray alone
    assert up_to_tray_m(42, 40, 0.3) == pytest.approx(0.3889)
    assert hall_tiers.stack(48, 1) == hall_tiers.Stack(48, (48,))  # fills its own rack
    # four 4U nodes stacked from U1 in a 42U rack: tops 4, 8, 12, 16
    assert hall_tiers.stack(4, 4) == hall_tiers.Stack(42, (4, 8, 12, 16))


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


def test_a_fabric_switch_moved_between_halls_keeps_the_in_hall_estimate(monkeypatch):
    # the two-hall campus priced per tier: a spine moved from one building's hall to the
    # other's changes both halls' fabric switches (the core's shares are dealt again) but not
    # how many switches stand together in either, to a whole switch (2 with a switch, on
    # average, before and after): the in-hall estimate is read back, not worked out again,
    # and the bill is a full evaluation's
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 0)
    plan = campus_plan()
    calls = []
    estimate = hall_tiers.estimate_in_hall_runs
    monkeypatch.setattr(hall_tiers, "estimate_in_hall_runs", lambda *a: calls.append(1) or estimate(*a))
    ev = Evaluator(plan, CAT)
    ev.evaluate()
    assert len(calls) == 1
    halls = {r.id: r.hall for r in plan.racks}
    switch = next(p for p in reversed(plan.placements) if p.device == "q3200")
    other = next(r for r in plan.racks if r.hall != halls[switch.rack] and r.name.startswith("NET"))
    free_u = 1 + max((p.u + CAT[p.device].u_height - 1 for p in plan.rack_members(other.id).values()), default=0)
    history = History(plan, CAT)
    report = ev.evaluate(history.apply(MoveDevice(switch.id, other.id, free_u)))
    assert len(calls) == 1  # kept
    assert report.to_json() == evaluate(plan, CAT).to_json()
