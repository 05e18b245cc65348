"""Properties of fix-all over random edits of the medium template: it never lowers the GPU
count, a second run changes nothing, each fix is undone exactly by one undo, and what is
left is no error or warning of the codes it mends (network.ports.short, cooling.cdu.short,
workload.parallelism.mismatch, workload.batch.*, the rack splits, PDUs and liquid moves, the
pipeline bubble) and no error that has a remedy. And fix converges, within its bound, on
every template and resize, every intent `new` designs and every plan auto-place makes."""

import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.design.grow import PlaceNodes
from planner.design.templates import TemplateError, build_template, design_from, design_template, template_names
from planner.errors import PlannerError
from planner.hardware.catalog import default_catalog
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import CommandError, EditRack, History, RemoveDevices, SetSetting
from planner.plan.fileio import plan_to_json
from planner.plan.model import Plan
from planner.remedies.fix import fix_all, fix_bound
from planner.report.evaluate import evaluate
from planner.settings.fabric import FabricTech

CATALOG = default_catalog()
MENDED = {"network.ports.short", "cooling.cdu.short", "workload.parallelism.mismatch", "workload.batch.uneven",
          "workload.batch.fractional_sequences", "rack.power.over_cap", "rack.weight.over_limit",
          "rack.floor.over_rating", "rack.power.pdu_positions", "rack.power.feed_loss",
          "rack.cooling.liquid_device_in_air_rack", "workload.pipeline.bubble"}

edits = st.lists(st.one_of(
    st.tuples(st.just("remove"), st.sampled_from(["qm9700", "cdu-inrack-250", "hgx-h100-8"]), st.integers(1, 4)),
    st.tuples(st.just("dp"), st.sampled_from([1, 2, 4, 8, 16, 32])),
    st.tuples(st.just("pp"), st.sampled_from([1, 2, 4, 8])),
    st.tuples(st.just("batch"), st.integers(1, 8192), st.sampled_from([0, 1, 2047])),
    st.tuples(st.just("to_air"), st.integers(0, 3)),  # a GPU rack of liquid-cooled nodes set to air
    st.tuples(st.just("cap"), st.integers(0, 3), st.sampled_from([14.0, 20.0, 25.0])),
    st.tuples(st.just("weight"), st.integers(0, 3), st.sampled_from([200.0, 300.0])),
    st.tuples(st.just("power"), st.sampled_from([("pdu_device", "pdu-415v-3ph-32a"), ("feed_redundancy", "N+1")])),
), max_size=5)


def _edited(steps) -> History:
    history = History(build_template("medium"), CATALOG)
    plan = history.plan
    for step in steps:
        if step[0] == "remove":
            ids = [p.id for p in plan.placements if p.device == step[1]][:step[2]]
            if ids:
                history.apply(RemoveDevices(ids))
        elif step[0] == "to_air":
            history.apply(EditRack(plan.racks[step[1]].id, cooling="air"))
        elif step[0] in ("cap", "weight"):
            rack = plan.racks[step[1]]  # a GPU rack
            history.apply(EditRack(rack.id, **{"power_cap_kw" if step[0] == "cap" else "max_weight_kg": step[2]}))
        elif step[0] == "power":
            history.apply(SetSetting("power", *step[1]))
        elif step[0] == "batch":  # sequences and a few stray tokens
            history.apply(SetSetting("workload", "global_batch_tokens", step[1] * 4096 + step[2]))
        else:
            history.apply(SetSetting("workload", step[0], step[1]))
    return history


def _gpus(plan) -> int:
    return evaluate(plan, CATALOG).totals.gpus


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits)
def test_fix_all_mends_what_it_covers_keeps_gpus_and_is_idempotent(steps):
    history = _edited(steps)
    plan = history.plan
    gpus = _gpus(plan)
    fix_all(history)
    assert _gpus(plan) == gpus
    left = evaluate(plan, CATALOG).findings
    assert [f.code for f in left if f.code in MENDED and f.severity != "info"] == []
    assert all(f.remedy is None for f in left if f.severity == "error")
    once = plan_to_json(plan)
    again = fix_all(history)
    assert again.applied == [] and plan_to_json(plan) == once


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits)
def test_each_fix_is_undone_exactly_by_one_undo(steps):
    history = _edited(steps)
    plan = history.plan
    for _ in range(20):  # one fix at a time, as the app's Fix does
        before = plan_to_json(plan)
        if not fix_all(history, limit=1).applied:
            break
        after = plan_to_json(plan)
        assert after != before
        history.undo()
        assert plan_to_json(plan) == before
        history.redo()
        assert plan_to_json(plan) == after


# fix converges on what the product makes: every plan `new` (an intent, or a template resized
# with --nodes) and auto-place can make ends with no error or warning that carries a remedy,
# within fix's bound (one remedy per rack and per device placed, plus one per remedy kind).

# campus-scale templates (thousands of racks; 25 s for the three at their own size): -m slow
CAMPUS = {"campus-400k", "campus-1m", "frontier-100k"}
SIZES = [None, 1, 3, 17, 130]  # None: the template's own size; the rest: new --template X --nodes N


def _converges(plan) -> None:
    history = History(plan, CATALOG)
    bound = fix_bound(plan)
    result = fix_all(history)
    assert not result.stopped and len(result.applied) + len(result.refused) < bound
    left = evaluate(plan, CATALOG).findings
    assert [(f.code, f.message) for f in left if f.remedy is not None and f.severity != "info"] == []


CASES = [pytest.param(name, None, marks=pytest.mark.slow) if name in CAMPUS else (name, nodes)
         for name in template_names() for nodes in ([None] if name in CAMPUS else SIZES)]


@pytest.mark.parametrize(("template", "nodes"), CASES)
def test_fix_converges_on_every_template_and_resize(template, nodes):
    try:
        made = design_template(template, nodes=nodes, catalog=CATALOG)
    except TemplateError as exc:  # no plan made: the workstation has no compute NIC to train over nodes
        assert template == "single-node" and nodes > 1 and "no compute NIC" in str(exc)
        return
    _converges(made.plan)


GPU_SYSTEMS = [d.id for d in CATALOG if d.gpu is not None and (d.is_rack_scale or d.rack_type is None)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GPU_SYSTEMS), st.sampled_from([8, 64, 520, 1024]),
       st.sampled_from([None, *typing.get_args(FabricTech)]), st.sampled_from([None, 15.0, 40.0, 140.0]),
       st.sampled_from([None, 0, 2]))
def test_fix_converges_on_every_intent_new_designs(system, gpus, fabric, rack_kw, spares):
    try:
        made = design_from(None, CATALOG, system=system, gpus=gpus, fabric=fabric, rack_kw=rack_kw,
                           spare_nodes=spares)
    except PlannerError:
        return  # refused with a reason (a system over the rack cap): no plan to fix
    _converges(made.plan)


# the plans auto-place starts from: a blank plan, templates, and a design with hot spares
BASES = {"blank": lambda: Plan(name="blank"), "spares": lambda: design_from(
    None, CATALOG, system="dgx-h100", gpus=64, spare_nodes=2).plan,
         **{name: (lambda name=name: build_template(name, catalog=CATALOG))
            for name in ("medium", "single-node", "gb200-nvl72-su")}}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(BASES)),
       st.lists(st.tuples(st.sampled_from(GPU_SYSTEMS), st.integers(1, 40), st.booleans()), min_size=1, max_size=2))
def test_fix_converges_on_every_plan_auto_place_makes(base, steps):
    # auto-place as the app's Racks > Auto-place nodes does it (the nodes with what they
    # need) or as auto-place alone (the nodes only: fix adds the rest)
    plan = BASES[base]()
    history = History(plan, CATALOG)
    for system, count, whole in steps:
        command = PlaceNodes(system, count) if whole else AutoPlace(system, count, new_rack_prefix="GPU",
                                                                     label_prefix="node-")
        try:
            history.apply(command)
        except CommandError:
            pass  # refused (an NVL72 into a plan whose racks cannot hold it): the plan is as it was
    _converges(plan)
