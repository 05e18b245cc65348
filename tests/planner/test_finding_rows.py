"""The checks list follows an edit by difference: the rows FindingRows edits, from the change
set alone, are the report's findings after every step of random command sequences (and
their undo), and a drop touches only the rows of the racks it names."""

from hypothesis import HealthCheck, given, settings, strategies as st

from planner.design.templates import build_template
from planner.plan.commands import MoveDevice
from planner.report.evaluate import Evaluator
from planner.report.finding_rows import FindingRows
from tests.planner.test_incremental_scale import edits, step
from tests.planner.test_properties import CATALOG


def _follow(rows: FindingRows, shown: list, report, changes) -> list:
    """What a list widget does with the edits: the same removals and insertions on its rows."""
    edits = rows.update(report, changes)
    if edits is None:
        return list(rows.reset(report))
    for row, removed, inserted in edits:
        del shown[row:row + removed]
        shown[row:row] = inserted
    return shown


def _check(plan, steps):
    ev = Evaluator(plan, CATALOG)
    report = ev.evaluate()
    rows = FindingRows()
    shown = list(rows.reset(report))
    for changes, _kind in edits(plan, steps):
        report = ev.evaluate(changes)
        shown = _follow(rows, shown, report, changes)
        assert shown == rows.rows == report.findings


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=25), st.sampled_from(["medium", "massive", "gb200-nvl72-su"]))
def test_rows_edited_from_the_change_set_are_the_reports_findings(steps, template):
    _check(build_template(template, catalog=CATALOG), steps)


def test_a_move_between_two_racks_edits_only_their_rows():
    """massive at 1,200 nodes: 349 racks and 300-odd findings. Moving a node from a GPU rack
    (at 28 of 30 kW, nameplate over the cap: a warning) into the air-cooled network rack
    NET-01 changes the two racks' rows and nothing else."""
    plan = build_template("massive", nodes=1200, catalog=CATALOG)
    ev = Evaluator(plan, CATALOG)
    report = ev.evaluate()
    rows = FindingRows()
    before = list(rows.reset(report))
    gpu = next(r for r in plan.racks if r.name == "GPU-02")
    node = min(plan.rack_members(gpu.id).values(), key=lambda p: p.u)
    spare = next(r for r in plan.racks if r.name == "GPU-01")
    changes = MoveDevice(node.id, spare.id, 17).do(plan, CATALOG)  # U17-U20 of GPU-01 is free
    report = ev.evaluate(changes)
    edits = rows.update(report, changes)
    assert edits is not None and rows.rows == report.findings
    touched = {f.where for _, _, inserted in edits for f in inserted}
    assert touched <= {gpu.id, spare.id, node.id}
    # every row that is not one of the two racks' findings is the same finding, in the same order
    # (plan-wide sections that read the layout, cost and goodput, make equal findings anew)
    others = [f for f in report.findings if f.where not in (gpu.id, spare.id, node.id)]
    assert others == [f for f in before if f.where not in (gpu.id, spare.id, node.id)]
    assert report.rack(spare.id).findings != [] and edits  # GPU-01 is over its cap now: its rows changed
