"""Properties of fix-all over random edits of the medium template: it never lowers the GPU
count, a second run changes nothing, each fix is undone exactly by one undo, and what is
left is no error or warning of the codes it mends (network.ports.short, cooling.cdu.short,
workload.parallelism.mismatch, workload.batch.*, the rack splits, PDUs and liquid moves, the
pipeline bubble) and no error that has a remedy."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import EditRack, History, RemoveDevices, SetSetting
from planner.plan.fileio import plan_to_json
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate

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
