"""Random edit sequences: invariants hold, undo returns the original, files round-trip,
and incremental evaluation equals a full one after every step."""

from hypothesis import HealthCheck, given, settings, strategies as st

from planner.hardware.catalog import default_catalog
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import (AddDevice, AddRack, CommandError, EditRack, History, MoveDevice,
                              RemoveDevices, RemoveRack, SetSetting)
from planner.report.evaluate import Evaluator, evaluate
from planner.plan.fileio import plan_from_json, plan_to_json
from planner.plan.space import occupied
from planner.design.templates import build_template
from planner.plan.hall_commands import MoveRacksToHall
from planner.plan.model import Building, Hall

# a campus: building A's halls with limits its racks exceed (a low power limit, a weak floor)
CAMPUS = [Building(id="A", name="A", halls=[Hall(id="A1", name="A1", power_limit_kw=40.0, floor_rating_kg_m2=400.0),
                                            Hall(id="A2", name="A2", y_m=20.0)]),
          Building(id="B", name="B", x_m=100.0, utility_feed_kw=60.0, transformer_kva=50.0,
                   halls=[Hall(id="B1", name="B1")])]

CATALOG = default_catalog()
DEVICES = ["hgx-h100-8", "qm9700", "sn4600c", "pfs-appliance", "cdu-inrack-250", "blank-1u", "h100x2-inference"]

step = st.tuples(
    st.sampled_from(["add", "move", "remove", "add_rack", "edit_rack", "remove_rack", "auto", "setting", "hall"]),
    st.integers(0, 10_000), st.integers(0, 10_000), st.integers(1, 45), st.sampled_from(DEVICES),
)


def make_command(plan, kind, a, b, u, device):
    racks = plan.racks
    placements = plan.placements
    if kind == "add" and racks:
        return AddDevice(device, racks[a % len(racks)].id, u)
    if kind == "move" and racks and placements:
        return MoveDevice(placements[a % len(placements)].id, racks[b % len(racks)].id, u)
    if kind == "remove" and placements:
        return RemoveDevices([placements[a % len(placements)].id, placements[b % len(placements)].id])
    if kind == "add_rack":
        return AddRack(cooling="liquid" if a % 2 else "air", power_cap_kw=10 + a % 40)
    if kind == "edit_rack" and racks:
        return EditRack(racks[a % len(racks)].id, power_cap_kw=5 + b % 50, height_u=30 + u % 20)
    if kind == "remove_rack" and racks:
        return RemoveRack(racks[a % len(racks)].id)
    if kind == "auto":
        return AutoPlace(device, a % 6)
    if kind == "hall" and racks:
        halls = plan.hall_ids()
        return MoveRacksToHall([racks[a % len(racks)].id, racks[b % len(racks)].id], halls[u % len(halls)])
    if kind == "setting":
        # besides the facility's (the grid's limits and smoothing among them), settings that
        # change only the workload's findings or only a price: the network section is computed
        # again to the same figures, and what reads its workload model must still follow
        choices = [("facility", "power_basis", "nameplate"), ("facility", "power_basis", "typical"),
                   ("facility", "pue", 1 + (a % 10) / 10), ("facility", "nodes_per_cdu", 1 + a % 9),
                   ("facility", "cdu_policy", "capacity"), ("workload", "claimed_tokens_per_s", 400_000.0),
                   ("workload", "claimed_tokens_per_s", None), ("costs", "transceiver_usd", 500 + a % 1000),
                   ("facility", "grid_max_swing_mw", 0.01 + (a % 10) / 100),
                   ("facility", "grid_max_ramp_mw_per_s", None),
                   ("facility", "power_smoothing", ("none", "gpu_power_floor", "site_battery")[a % 3])]
        return SetSetting(*choices[b % len(choices)])
    return None


def check_invariants(plan, report):
    for rack in plan.racks:
        spans = occupied(plan.rack_members(rack.id).values(), CATALOG)
        for (lo1, hi1, _), (lo2, _, _) in zip(spans, spans[1:]):
            assert hi1 < lo2, "commands never make overlaps"
        assert all(hi <= rack.height_u for _, hi, _ in spans)
    t = report.totals
    assert t.gpus == sum(r.gpus for r in report.racks)
    assert t.nodes == sum(r.nodes for r in report.racks)
    assert t.typical_milliwatts == sum(r.typical_milliwatts for r in report.racks)
    assert t.nameplate_milliwatts == sum(r.nameplate_milliwatts for r in report.racks)
    assert t.racks == len(plan.racks)
    halls = report.sections["facility"].halls  # every rack in one hall: the halls add up to the totals
    assert (sum(h.racks for h in halls), sum(h.gpus for h in halls), sum(h.nodes for h in halls)) == (
        t.racks, t.gpus, t.nodes)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["medium", "inference", "single-node", "campus"]), st.lists(step, min_size=1, max_size=25))
def test_random_edits_keep_invariants_undo_and_round_trip(template, steps):
    plan = build_template("medium" if template == "campus" else template, catalog=CATALOG)
    if template == "campus":
        plan.buildings = list(CAMPUS)
    original = plan.model_dump()
    history = History(plan, CATALOG)
    ev = Evaluator(plan, CATALOG)
    ev.evaluate()
    for kind, a, b, u, device in steps:
        cmd = make_command(plan, kind, a, b, u, device)
        if cmd is None:
            continue
        before = plan.model_dump()
        try:
            changes = history.apply(cmd)
        except CommandError:
            assert plan.model_dump() == before, "a refused edit leaves the plan unchanged"
            continue
        incremental = ev.evaluate(changes)
        assert incremental.to_json() == evaluate(plan, CATALOG).to_json()
        check_invariants(plan, incremental)
    assert plan_from_json(plan_to_json(plan)).model_dump() == plan.model_dump()
    while history.done:
        history.undo()
    assert plan.model_dump() == original


def test_a_claim_that_leaves_the_networks_figures_equal_still_reaches_the_workloads_findings():
    # the claim changes the workload model the network section carries, not its figures: the
    # sections after it must not keep their results as if nothing had changed
    plan = build_template("medium", catalog=CATALOG)
    history = History(plan, CATALOG)
    ev = Evaluator(plan, CATALOG)
    ev.evaluate()
    for value in (400_000.0, None, 400_000.0):
        incremental = ev.evaluate(history.apply(SetSetting("workload", "claimed_tokens_per_s", value)))
        assert incremental.to_json() == evaluate(plan, CATALOG).to_json()
        assert ("workload.claim.impossible" in [f.code for f in incremental.findings]) == (value is not None)
