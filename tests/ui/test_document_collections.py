"""A big plan's garbage is collected once the user pauses (not in the middle of a drop), and
nothing of it is lost: a cycle dropped during the edits is gone a moment after the last one."""

import gc
import weakref

from planner.design.templates import build_template
from planner.plan.commands import SetSetting
from ui.document import FREEZE_FROM_DEVICES, IDLE_COLLECT_MS, Document


class _Cycle:
    def __init__(self):
        self.me = self


def test_garbage_of_a_big_plans_edits_goes_once_the_edits_pause(qtbot, catalog):
    plan = build_template("frontier-100k", catalog=catalog)
    assert len(plan.placements) >= FREEZE_FROM_DEVICES
    doc = Document(plan, catalog)
    cycle = _Cycle()
    gc.collect(0)  # it survives a young collection, as a view's item made in a drop does
    gone = weakref.ref(cycle)
    del cycle
    assert doc.apply(SetSetting("costs", "utilisation", 0.8))
    assert gone() is not None  # not collected in the middle of the edit
    qtbot.waitUntil(lambda: gone() is None, timeout=IDLE_COLLECT_MS * 5)


def test_a_small_plan_is_collected_as_python_does_by_default(catalog):
    big = Document(build_template("frontier-100k", catalog=catalog), catalog)
    assert gc.get_threshold()[1] > 10**6  # the older generations wait for a pause
    big.replace(build_template("medium", catalog=catalog), None)
    assert gc.get_threshold() == (700, 10, 10)  # Python's own thresholds (gc module documentation)


def test_garbage_from_before_a_big_plan_opened_goes_when_the_document_settles(catalog):
    # opening freezes the plan just read at once, garbage and all; settling (the window does
    # it once its views are built) collects everything once
    plan = build_template("frontier-100k", catalog=catalog)
    gc.disable()  # as while the app reads the plan
    try:
        cycle = _Cycle()
        gone = weakref.ref(cycle)
        del cycle
        doc = Document(plan, catalog)
    finally:
        gc.enable()
    gc.collect()
    assert gone() is not None  # frozen with the plan: a collection does not look at it
    doc.settle()
    assert gone() is None
