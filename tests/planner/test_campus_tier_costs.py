"""A campus too large to route every run prices its core runs by the distances between its
halls: spine-to-core links spread over the halls by their fabric switches, each pair of
halls' runs at the longest run between them, with the cable and the optics that length needs;
a one-hall plan keeps today's per-tier lines."""

from __future__ import annotations

import pytest

import planner.costs.section as cost_section
from planner.design.build import design
from planner.design.templates import build_template
from planner.design.intent import CampusSpec, Intent
from planner.hardware.catalog import default_catalog, load_catalog
from planner.plan.commands import History, MoveDevice
from planner.plan.hall_commands import MoveRacksToHall
from planner.report.evaluate import Evaluator, evaluate

CAT = default_catalog()
# up from the bottom of a 48U rack to the tray 0.3 m above it; the floor's slack per link, loop
# at each hall's distribution area, each building's entrance (the floor settings' defaults)
UP = 48 * 0.04445 + 0.3  # 2.4336 m
SLACK, LOOPS, ENTRANCES = 1.0, 2 * 3.0, 2 * 20.0
# a hall of n racks of 600 x 1,200 mm, each with half of the 1,200 mm cold and 900 mm hot
# aisles across its 600 mm: n x (0.72 + 0.63) m^2 as a square; its far corner 2 sides away
CORNER_44 = 2 * (44 * 1.35) ** 0.5  # 15.414 m
CORNER_45 = 2 * (45 * 1.35) ** 0.5  # 15.588 m


def intent(**campus) -> Intent:
    # 72 DGX B300 (8 x 800G) on 36-port Q3200 in three tiers: 32 leaves x 18 uplinks = 576
    # spine-to-core links; network racks capped at 4 kW hold two 2 kW switches each
    return Intent(system="dgx-b300", nodes=72, spare_nodes=0, fabric="ib800", switch="q3200", tiers="3",
                  infra_rack={"prefix": "NET", "power_cap_kw": 4},
                  campus=CampusSpec(**campus) if campus else None)


@pytest.fixture
def per_tier(monkeypatch):
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)  # priced per fabric tier


def two_buildings(x_m: float | None = None, y_m: float | None = None):
    """Building 1's one hall of 44 racks at the origin, building 2's of 45 racks (the design
    puts it 57.5 m across), or building 2 moved to (x_m, y_m); each hall with 16 leaves, one
    pod's 18 spines and 8 cores: 42 fabric switches (and a storage leaf-spine of 4 switches,
    each in a 4 kW network rack of its own)."""
    plan = design(intent(buildings=2, halls_per_building=1), CAT).plan
    assert [sum(1 for r in plan.racks if r.hall == h) for h in ("b1-hall-1", "b2-hall-1")] == [44, 45]
    if x_m is not None:
        plan.buildings[1].x_m, plan.buildings[1].y_m = x_m, y_m
    return plan


def core_lines(report) -> dict[str, tuple[str, int]]:
    return {line.item: (line.part_id, line.quantity) for line in report.sections["cost"].bom
            if "spine to core" in line.item}


def test_core_runs_by_hall_pair_with_the_optics_each_length_needs(per_tier):
    # 42 fabric switches in each hall: each pair of halls gets 576 x 42 x 42 / 84^2 = 144 links
    # (in-hall 2 x 144, inter-building 2 x 144). In a hall, corner to corner: up, 15.4 or 15.6 m,
    # down, slack: 21.3 and 21.5 m -> multimode, 30 m stock, SR twin-port optics
    assert 2 * UP + CORNER_44 + SLACK == pytest.approx(21.28, abs=0.01)
    assert 2 * UP + CORNER_45 + SLACK == pytest.approx(21.46, abs=0.01)
    ends = UP + CORNER_44 + UP + CORNER_45 + SLACK + LOOPS + ENTRANCES  # the halls at their buildings' origins
    # between the buildings 57.5 m apart: 140.4 m -> single-mode, 150 m stock, DR (500 m)
    assert ends + 57.5 == pytest.approx(140.37, abs=0.01)
    report = evaluate(two_buildings(), CAT)
    lines = core_lines(report)
    # twin-port cages: one module per two links at each end, 2 x 288 / 2 = 288 a bucket
    assert lines == {
        "Fabric cable, spine to core, multimode fibre (OM4), 30 m": ("fiber-mpo-30m", 288),
        "Transceiver, spine to core: 1.6T twin-port OSFP transceiver (2 x 800G SR4)": ("xcvr-1p6t-osfp-2xsr4", 288),
        "Fabric cable, spine to core, single-mode fibre (OS2), 150 m": ("fiber-os2-mpo-300m", 288),
        "Transceiver, spine to core: 1.6T twin-port OSFP transceiver (2 x 800G DR4)": ("xcvr-1p6t-osfp-2xdr4", 288)}
    source = {line.item: line.source for line in report.sections["cost"].bom}
    assert "(288 inter-building)" in source["Fabric cable, spine to core, single-mode fibre (OS2), 150 m"]
    assert "(288 in-hall)" in source["Fabric cable, spine to core, multimode fibre (OM4), 30 m"]
    assert "in proportion to the fabric switches" in source["Fabric cable, spine to core, multimode fibre (OM4), 30 m"]

    # building 2 at (300, 400): 140.4 - 57.5 + 700 = 782.9 m -> 1,000 m stock, FR (2 km), the
    # 2 km catalog fibre; at (3,000, 2,000): 5,082.9 m, cut to 5,083 m, LR (10 km), the 10 km fibre
    far = core_lines(evaluate(two_buildings(300, 400), CAT))
    assert far["Fabric cable, spine to core, single-mode fibre (OS2), LC duplex, 1000 m"] == ("fiber-os2-lc-2km", 288)
    assert far["Transceiver, spine to core: 1.6T twin-port OSFP transceiver (2 x 800G FR4)"] == (
        "xcvr-1p6t-osfp-2xfr4", 288)
    farther = core_lines(evaluate(two_buildings(3000, 2000), CAT))
    assert farther["Fabric cable, spine to core, single-mode fibre (OS2), LC duplex, 5083 m"] == ("fiber-os2-lc-10km", 288)
    assert farther["Transceiver, spine to core: 1.6T twin-port OSFP transceiver (2 x 800G LR4)"] == (
        "xcvr-1p6t-osfp-2xlr4", 288)
    assert not report.has_errors and not evaluate(two_buildings(3000, 2000), CAT).has_errors


def test_a_core_run_beyond_every_reach_is_the_routed_schedules_error(per_tier):
    # building 2 at (9,000, 3,000): 140.4 - 57.5 + 12,000 = 12,083 m, past the 10 km of the
    # catalog's longest 800G optic (LR4)
    report = evaluate(two_buildings(9000, 3000), CAT)
    found = [f for f in report.findings if f.code == "network.cable.beyond_reach"]
    assert len(found) == 1 and found[0].severity == "error" and report.has_errors
    message = found[0].message
    assert "288 spine-core links at 800G run up to 12,083 m (Hall 1 of Building 1 to Hall 1 of Building 2" in message
    assert "10,000 m" in message
    assert core_lines(report)["Fabric cable, spine to core, single-mode fibre (OS2), 12083 m"] == (None, 288)


def test_one_hall_prices_its_core_runs_by_length_and_a_campus_keeps_the_lines_below(per_tier):
    plan = design(intent(), CAT).plan
    one = evaluate(plan, CAT)
    # one hall: its 576 spine-to-core runs take the media their lengths need (the switches
    # stacked in network racks, the runs between racks of a row), not one reach for the tier
    # (tests/planner/test_hall_tier_costs.py holds the estimate to the routed schedule);
    # fibre runs take SR twin-port optics, one module per two links at each end, each
    # length's counted whole
    lines = core_lines(one)
    cables = {item: n for item, (_, n) in lines.items() if item.startswith("Fabric cable")}
    assert sum(cables.values()) == 576 and len(cables) > 1
    fibre = [n for item, n in cables.items() if "fibre" in item]
    assert fibre and lines["Transceiver, spine to core: 1.6T twin-port OSFP transceiver (2 x 800G SR4)"][1] == sum(
        2 * -(-n // 2) for n in fibre)
    cable = next(line for line in one.sections["cost"].bom if line.item.endswith("10 m") and "to core" in line.item)
    assert "by the lengths its halls give" in cable.source and "spread over the halls" not in cable.source
    below = {line.item: line.quantity for line in one.sections["cost"].bom if "to spine" in line.item
             or "to leaf" in line.item}
    campus = evaluate(two_buildings(), CAT)
    assert {line.item: line.quantity for line in campus.sections["cost"].bom
            if "to spine" in line.item or "to leaf" in line.item} == below


def test_a_move_inside_a_hall_keeps_the_cost_and_a_move_between_halls_reprices(per_tier):
    plan = two_buildings()
    ev = Evaluator(plan, CAT)
    before = ev.evaluate().sections["cost"]
    history = History(plan, CAT)
    switch = next(p for p in plan.placements if p.device == "q3200")
    free_u = 1 + max(p.u for p in plan.placements if p.rack == switch.rack)
    report = ev.evaluate(history.apply(MoveDevice(switch.id, switch.rack, free_u)))
    assert report.sections["cost"] is before  # the halls' sums did not change: the estimate is kept
    # the last network rack of Q3400 switches holds two of building 2's cores: moved to
    # building 1, the halls hold 44 and 40 fabric switches: 576 x (44^2 + 40^2) / 84^2 = 288.65
    # links in the halls, 576 x 2 x 44 x 40 / 84^2 = 287.35 between them: 289 and 287 whole
    last = [r for r in plan.racks if any(p.device == "q3200" for p in plan.rack_members(r.id).values())][-1]
    assert last.hall == "b2-hall-1"
    report = ev.evaluate(history.apply(MoveRacksToHall([last.id], "b1-hall-1")))
    assert report.to_json() == evaluate(plan, CAT).to_json()
    # b1-hall-1 has 45 racks now and b2-hall-1 44: in-hall runs 21.5 and 21.3 m, both 30 m stock
    lines = core_lines(report)
    assert lines["Fabric cable, spine to core, multimode fibre (OM4), 30 m"][1] == 289
    assert lines["Fabric cable, spine to core, single-mode fibre (OS2), 150 m"][1] == 287


def test_the_hall_geometry_is_worked_out_again_only_when_a_halls_racks_change(per_tier, monkeypatch):
    # a fabric switch moved to a rack of the other building deals the core links anew over the
    # same hall pairs; a rack moved to another hall changes the halls' floors, and so the runs
    plan = two_buildings()  # the design evaluates its plan once: counted from here on
    calls = []
    geometry = cost_section.core_geometry
    monkeypatch.setattr(cost_section, "core_geometry", lambda *a: calls.append(1) or geometry(*a))
    ev = Evaluator(plan, CAT)
    before = ev.evaluate().sections["cost"]
    assert len(calls) == 1
    history = History(plan, CAT)
    switch = next(p for p in plan.placements if p.device == "q3200" and plan.rack(p.rack).hall == "b1-hall-1")
    target = next(r for r in plan.racks if r.hall == "b2-hall-1" and r.name.startswith("NET")
                  and sum(1 for p in plan.rack_members(r.id).values() if p.device == "q3200") < 2)
    top = max((p.u + CAT[p.device].u_height for p in plan.rack_members(target.id).values()), default=1)
    report = ev.evaluate(history.apply(MoveDevice(switch.id, target.id, top)))
    assert report.sections["cost"] is not before and len(calls) == 1  # repriced, the same geometry
    assert report.to_json() == evaluate(plan, CAT).to_json()
    calls.clear()  # (the full evaluation just now worked it out for itself)
    last = [r for r in plan.racks if r.hall == "b2-hall-1"][-1]
    report = ev.evaluate(history.apply(MoveRacksToHall([last.id], "b1-hall-1")))
    assert len(calls) == 1
    assert report.to_json() == evaluate(plan, CAT).to_json()


def test_random_moves_over_four_halls_evaluate_as_a_full_evaluation_does(per_tier):
    # devices moved to the lowest free slot of a random rack, as the benchmark and a user's
    # drops do: about one in five a fabric switch, which deals the core links anew over the
    # halls; each incremental evaluation's report is the full one's, figure for figure
    import random

    from planner.plan.space import fit_problem, lowest_free_u

    plan = design(intent(buildings=2, halls_per_building=2), CAT).plan
    ev = Evaluator(plan, CAT)
    ev.evaluate()
    rng = random.Random(5)
    switches = [p.id for p in plan.placements if p.device == "q3200"]
    others = [p.id for p in plan.placements if p.device != "q3200"]
    moved = 0
    while moved < 40:
        p = plan.placement(rng.choice(switches if moved % 5 == 0 else others))
        rack = rng.choice(plan.racks)
        d = CAT[p.device]
        u = lowest_free_u(plan, CAT, rack, d.u_height)
        if u is None or fit_problem(plan, CAT, rack.id, u, d, frozenset({p.id})):
            continue
        report = ev.evaluate(MoveDevice(p.id, rack.id, u).do(plan, CAT))
        assert report.to_json() == evaluate(plan, CAT).to_json()
        moved += 1


def test_fabric_switches_moved_to_another_hall_reprice_the_optics_and_keep_the_goodput_curve(per_tier):
    # the core links dealt anew re-count the spine-to-core optics; the job, its links and its
    # step stay, so the goodput curve (the failures of the same job) is the one kept
    from planner.plan.space import fit_problem, lowest_free_u

    plan = two_buildings()
    ev = Evaluator(plan, CAT)
    before = ev.evaluate()
    curve, history = before.sections["goodput"].curve, History(plan, CAT)
    moving = [p for p in plan.placements if p.device == "q3200" and plan.rack(p.rack).hall == "b1-hall-1"][:2]
    for p in moving:
        target, u = next((r, u) for r in plan.racks if r.hall == "b2-hall-1"
                         and (u := lowest_free_u(plan, CAT, r, 1)) is not None
                         and not fit_problem(plan, CAT, r.id, u, CAT["q3200"], frozenset({p.id})))
        report = ev.evaluate(history.apply(MoveDevice(p.id, target.id, u)))
    # 40 and 44 fabric switches: 576 x (40^2 + 44^2) / 84^2 = 288.65 links in the halls, 287.35
    # between them: 289 and 287 whole; twin-port modules at both ends, 2 x 145 + 2 x 144 = 578
    # spine-to-core modules against 2 x 144 + 2 x 144 = 576
    spine_core = report.sections["network"].transceivers_per_tier["spine-core"]
    assert (before.sections["network"].transceivers_per_tier["spine-core"], spine_core) == (576, 578)
    assert report.sections["goodput"].curve is curve
    assert report.sections["goodput"].optical_links == before.sections["goodput"].optical_links
    assert report.to_json() == evaluate(plan, CAT).to_json()


@pytest.mark.parametrize("routed", [True, False])
def test_a_fibre_run_takes_the_cable_its_optics_plug_into(routed, monkeypatch):
    # the 139.7 m runs between the buildings (150 m stock, single-mode): with DR4 optics
    # (parallel fibre, MPO-12) a 300 m MPO trunk, though a 300 m LC duplex cord is cheaper;
    # with the DR optics gone from the catalog, the FR4 modules (duplex, LC) take the LC cord;
    # the same on the routed schedule and priced per tier
    if not routed:
        monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)
    no_dr = load_catalog()
    for module in ("xcvr-800g-osfp-dr8", "xcvr-1p6t-osfp-2xdr4"):
        del no_dr.components[module]
    assert no_dr.components["fiber-os2-lc-300m"].price_usd < no_dr.components["fiber-os2-mpo-300m"].price_usd
    for catalog, module, cable in ((CAT, "xcvr-1p6t-osfp-2xdr4", "fiber-os2-mpo-300m"),
                                   (no_dr, "xcvr-1p6t-osfp-2xfr4", "fiber-os2-lc-300m")):
        bom = evaluate(two_buildings(), catalog).sections["cost"].bom
        single_mode = {line.part_id for line in bom if "single-mode" in line.item}
        optics = {line.part_id for line in bom if line.part_id and line.part_id.startswith("xcvr")}
        assert single_mode == {cable}
        assert module in optics and not ({"xcvr-1p6t-osfp-2xdr4", "xcvr-1p6t-osfp-2xfr4"} - {module}) & optics


def test_lc_cords_and_mpo_trunks_of_one_length_are_two_named_lines():
    # frontier-100k's storage network: its 200G storage appliances' FR4 modules (duplex, LC)
    # and the GPU nodes' 400G DR4 ones (parallel, MPO) run the same lengths; a line's name is
    # its identity (a price override finds its line by name), so the two cables are two names
    bom = evaluate(build_template("frontier-100k", catalog=CAT), CAT).sections["cost"].bom
    names = [line.item for line in bom]
    assert len(names) == len(set(names))
    single_mode = {line.item: line.part_id for line in bom if "single-mode" in line.item}
    assert single_mode["Storage cable, single-mode fibre (OS2), LC duplex, 100 m"] == "fiber-os2-lc-100m"
    assert single_mode["Storage cable, single-mode fibre (OS2), 100 m"] == "fiber-mpo-100m"
    assert all(("LC duplex" in item) == part.startswith("fiber-os2-lc") for item, part in single_mode.items())
