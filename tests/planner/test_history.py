"""The one undo model: the core's History, which the app's undo stack adapts (tests/ui/test_views_react.py
presses the same steps through the inspector)."""

from __future__ import annotations

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import CommandError, History, MoveDevice, SetSetting

CAT = default_catalog()


@pytest.fixture
def one_node():
    """The single-node template: its 4U node 'd2' at U1 of a 42U rack, nothing else."""
    plan = build_template("single-node", catalog=CAT)
    node = plan.placements[0]
    assert (node.u, plan.rack(node.rack).height_u, CAT.get(node.device).u_height) == (1, 42, 4)
    return plan, node.id, node.rack


def test_three_steps_with_one_merge_key_are_one_undo_step(one_node):
    plan, pid, rack = one_node
    h = History(plan, CAT)
    for u in (2, 3, 4):
        h.apply(MoveDevice(pid, rack, u), merge_key=("u", pid))
    assert plan.placement(pid).u == 4 and len(h.done) == 1 and h.merged
    assert h.label == "Move Generic 4 x H100 NVLink workstation node"  # vendor and model
    h.undo()
    assert plan.placement(pid).u == 1 and h.done == []
    h.redo()
    assert plan.placement(pid).u == 4


def test_without_a_key_or_after_an_undo_each_edit_is_its_own_step(one_node):
    plan, pid, rack = one_node
    h = History(plan, CAT)
    h.apply(MoveDevice(pid, rack, 2))
    h.apply(MoveDevice(pid, rack, 3))
    assert len(h.done) == 2 and not h.merged
    h.undo()
    assert plan.placement(pid).u == 2
    h.apply(MoveDevice(pid, rack, 5), merge_key=("u", pid))
    h.apply(MoveDevice(pid, rack, 6), merge_key=("u", pid))
    assert len(h.done) == 2 and h.undone == []  # the second keyed move joined the first, the undone one is gone
    h.undo()
    assert plan.placement(pid).u == 2


def test_a_sealed_run_and_another_key_start_new_steps(one_node):
    plan, pid, rack = one_node
    h = History(plan, CAT)
    h.apply(MoveDevice(pid, rack, 2), merge_key="k")
    h.seal()  # as at a save: undo leads back to the saved plan
    h.apply(MoveDevice(pid, rack, 3), merge_key="k")
    h.apply(SetSetting("facility", "pue", 1.3), merge_key="other")
    assert len(h.done) == 3
    h.undo()
    h.undo()
    assert plan.placement(pid).u == 2 and plan.settings.facility.pue != 1.3


def test_a_refused_edit_changes_neither_the_plan_nor_the_history(one_node):
    plan, pid, rack = one_node
    h = History(plan, CAT)
    h.apply(MoveDevice(pid, rack, 2), merge_key="k")
    with pytest.raises(CommandError):
        h.apply(MoveDevice(pid, rack, 40), merge_key="k")  # a 4U node at U40 of 42 sticks out of the top
    assert plan.placement(pid).u == 2 and len(h.done) == 1
    h.apply(MoveDevice(pid, rack, 3), merge_key="k")  # the run goes on
    assert len(h.done) == 1
    h.undo()
    assert plan.placement(pid).u == 1


def test_the_history_keeps_its_newest_steps_up_to_its_depth(one_node):
    plan, pid, rack = one_node
    h = History(plan, CAT, max_steps=3)
    for u in (2, 3, 4, 5, 6):  # five steps: the first two (to U2, U3) drop off
        h.apply(MoveDevice(pid, rack, u))
    assert len(h.done) == 3
    for _ in range(3):
        h.undo()
    assert plan.placement(pid).u == 3 and h.done == []  # back as far as the oldest step kept
    for _ in range(3):
        h.redo()
    assert plan.placement(pid).u == 6


def test_a_long_session_keeps_a_few_hundred_steps():
    from planner.plan.commands import UNDO_STEPS

    plan = build_template("single-node", catalog=CAT)
    node = plan.placements[0]
    h = History(plan, CAT)
    for i in range(UNDO_STEPS + 50):
        h.apply(MoveDevice(node.id, node.rack, 2 + i % 2))
    assert len(h.done) == UNDO_STEPS and 100 <= UNDO_STEPS <= 1000


def test_the_history_knows_the_saved_step(one_node):
    # opened = saved; an edit leaves it, its undo comes back, its redo leaves again
    plan, pid, rack = one_node
    h = History(plan, CAT)
    assert h.is_saved
    h.apply(MoveDevice(pid, rack, 2))
    assert not h.is_saved
    h.undo()
    assert h.is_saved
    h.redo()
    h.apply(MoveDevice(pid, rack, 3))
    h.mark_saved()  # saved with the node at U3, two steps in
    h.undo()
    assert plan.placement(pid).u == 2 and not h.is_saved
    # a new edit from U2 discards the saved step: two steps in again, but the node is at U7, not U3
    h.apply(MoveDevice(pid, rack, 7))
    assert len(h.done) == 2 and not h.is_saved
    h.undo()
    h.undo()
    assert not h.is_saved  # no undo or redo leads to the saved plan any more


def test_nothing_merges_into_the_saved_step(one_node):
    # a spin box's arrow steps after a save: the first is a step of its own, so undo leads back to the save
    plan, pid, rack = one_node
    h = History(plan, CAT)
    h.apply(MoveDevice(pid, rack, 2), merge_key=("u", pid))
    h.mark_saved()
    h.apply(MoveDevice(pid, rack, 3), merge_key=("u", pid))
    h.apply(MoveDevice(pid, rack, 4), merge_key=("u", pid))
    assert len(h.done) == 2 and h.merged  # U3 and U4 are one step, after the saved one
    h.undo()
    assert plan.placement(pid).u == 2 and h.is_saved


def test_the_saved_step_stays_reachable_until_its_own_step_drops(one_node):
    # depth 2: saved after the move to U2 (step 1); the moves to U3 and U4 drop the move to U2,
    # but undoing both still leads to the plan as saved (U2); one more move drops that too
    plan, pid, rack = one_node
    h = History(plan, CAT, max_steps=2)
    h.apply(MoveDevice(pid, rack, 2))
    h.mark_saved()
    h.apply(MoveDevice(pid, rack, 3))
    h.apply(MoveDevice(pid, rack, 4))
    h.undo()
    h.undo()
    assert plan.placement(pid).u == 2 and h.done == [] and h.is_saved
    h.redo()
    h.redo()
    h.apply(MoveDevice(pid, rack, 5))  # drops the move to U3: undo now stops at U3
    h.undo()
    h.undo()
    assert plan.placement(pid).u == 3 and h.done == [] and not h.is_saved
