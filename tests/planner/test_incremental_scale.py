"""Incremental evaluation equals a full one on large plans, after every step of random
command sequences: a few thousand devices under hypothesis, and frontier-100k itself."""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from planner.plan.commands import CommandError, History, SetSetting
from planner.report.evaluate import Evaluator, evaluate
from planner.design.templates import build_template
from tests.planner.test_properties import CATALOG, DEVICES, check_invariants, make_command

# Settings of the plan-wide sections (not rack-wide): they re-run the network, storage and
# cost sections without re-evaluating any rack, so a stale section would show here; and two
# rack-wide ones (power, floor) that must re-evaluate every rack.
SECTION_SETTINGS = [
    ("fabric", "oversubscription", 2.0), ("fabric", "oversubscription", 1.0), ("fabric", "tiers", "3"),
    ("fabric", "switch_device", "qm9700-ndr200"), ("fabric", "switch_device", "qm9700"),
    ("storage", "checkpoint_interval_min", 10.0), ("workload", "dp", 7), ("costs", "utilisation", 0.8),
    ("costs", "colocation_basis", "nameplate"), ("power", "feed_redundancy", "N+1"),
    ("floor", "enclosure_kg", 900.0), ("reliability", "spare_nodes", 3),
]

step = st.tuples(
    st.sampled_from(["add", "move", "move", "move", "remove", "add_rack", "edit_rack", "remove_rack", "auto",
                     "setting", "section"]),
    st.integers(0, 100_000), st.integers(0, 100_000), st.integers(1, 45), st.sampled_from(DEVICES),
)


def _command(plan, kind, a, b, u, device):
    if kind == "section":
        return SetSetting(*SECTION_SETTINGS[a % len(SECTION_SETTINGS)])
    return make_command(plan, kind, a, b, u, device)


def edits(plan, steps):
    """Apply the steps that make a command the plan accepts, then undo them all (undo is an
    edit too); yields (change set, "edit" or "undo") after each."""
    history = History(plan, CATALOG)
    for kind, a, b, u, device in steps:
        cmd = _command(plan, kind, a, b, u, device)
        if cmd is None:
            continue
        try:
            changes = history.apply(cmd)
        except CommandError:
            continue
        yield changes, "edit"
    while history.done:
        yield history.undo(), "undo"


def _run(plan, steps):
    ev = Evaluator(plan, CATALOG)
    ev.evaluate()
    for changes, kind in edits(plan, steps):
        incremental = ev.evaluate(changes)
        full = evaluate(plan, CATALOG)
        assert incremental.to_json() == full.to_json()
        if kind == "edit":
            assert incremental.counts_by_severity() == full.counts_by_severity()
            check_invariants(plan, incremental)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=30))
def test_incremental_equals_full_on_a_600_node_plan(steps):
    # 600 nodes of 8 GPUs on the massive template: 4,800 GPUs, ~200 racks, a three-tier fabric
    _run(build_template("massive", nodes=600, catalog=CATALOG), steps)


def test_incremental_equals_full_on_frontier_100k():
    plan = build_template("frontier-100k", catalog=CATALOG)
    rng = random.Random(8)
    kinds = ["move"] * 12 + ["add", "remove", "edit_rack", "add_rack", "remove_rack", "auto", "section"]
    steps = [(rng.choice(kinds), rng.randrange(10**6), rng.randrange(10**6), rng.randint(1, 45),
              rng.choice(DEVICES)) for _ in range(25)]
    _run(plan, steps)


def test_racks_of_one_shape_each_name_themselves_in_their_findings():
    """Racks that repeat one shape share their figures in a full evaluation; each rack's
    findings still name that rack, exactly as evaluating it alone does."""
    from planner.facility.power import evaluate_rack

    plan = build_template("medium", catalog=CATALOG)  # four identical GPU racks at 28 of 30 kW, nameplate over the cap
    report = evaluate(plan, CATALOG)
    gpu_racks = [r for r in plan.racks if report.rack_results[r.id].gpus]
    assert len(gpu_racks) >= 2
    for rack in plan.racks:
        alone = evaluate_rack(plan, rack, CATALOG)
        assert report.rack_results[rack.id].to_json() == alone.to_json()
        assert report.rack_results[rack.id].findings == alone.findings
    named = [f.message for r in gpu_racks for f in report.rack_results[r.id].findings
             if f.code == "rack.power.nameplate_over_cap"]
    assert len(named) == len(gpu_racks)
    assert all(f"Rack {r.name} " in m for r, m in zip(gpu_racks, named))


def test_racks_of_one_shape_keep_a_power_shelf_shortfall_each_in_a_full_evaluation():
    """Two identical NVL72 racks whose power shelves cannot carry the system: in a full
    evaluation (where racks of one shape share their figures) each still reports its own
    shortfall, naming its own system, as evaluating it alone does."""
    from planner.facility.power import evaluate_rack
    from planner.hardware.catalog import Catalog, PowerShelves
    from planner.plan.commands import History
    from planner.plan.model import Plan
    from planner.plan.rackscale import PlaceRackScaleSystem

    nvl72 = CATALOG["gb200-nvl72"]
    # 8 x 33 kW shelves with 2 spares carry 198 kW; with 6 spares, 2 x 33 = 66 kW < its 132 kW nameplate
    weak = nvl72.model_copy(update={"power_shelves": PowerShelves(count=8, kw_each=33, spares=6)})
    catalog = Catalog([weak if d.id == nvl72.id else d for d in CATALOG])
    catalog.rack_types, catalog.components = CATALOG.rack_types, CATALOG.components
    plan = Plan()
    history = History(plan, catalog)
    for _ in range(2):
        history.apply(PlaceRackScaleSystem(nvl72.id))
    report = evaluate(plan, catalog)
    for rack in plan.racks:
        shortfall = [f for f in report.rack_results[rack.id].findings if f.code == "rack.power.shelves"]
        label = next(p.label or p.id for p in plan.placements if p.rack == rack.id)
        assert len(shortfall) == 1 and f"({label}) in rack {rack.name}:" in shortfall[0].message
        assert report.rack_results[rack.id].findings == evaluate_rack(plan, rack, catalog).findings
