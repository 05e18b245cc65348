"""With nothing selected, the inspector shows the training run on the build-out's calendar
and its cost, and follows a change of when training starts; the summary strip's days to train
say the same in their tooltip. The plan is two halls online from months 7 and 9
(``tests/planner/test_schedule_run_cost.py`` works its run out by hand)."""

from __future__ import annotations

from planner.plan.commands import SetSetting
from planner.vocabulary import usd
from tests.planner.test_schedule_run_cost import moved, two_halls
from ui.document import Document
from ui.inspector import Inspector
from ui.summary_strip import SummaryStrip


def test_the_plan_view_and_the_summary_show_the_run_on_the_calendar(qtbot, catalog):
    doc = Document(moved(two_halls(), catalog), catalog)
    inspector = Inspector(doc)
    qtbot.addWidget(inspector)
    strip = SummaryStrip()
    qtbot.addWidget(strip)
    shown = inspector.fields["training_calendar"]
    s = doc.report.sections["schedule"]
    # from energization (month 9): the whole cluster's cost
    assert shown.text().startswith("Training from month 9 (energization) to month ")
    assert f"build {usd(s.training_cost_usd['build'])}" in shown.text()
    doc.apply(SetSetting("schedule", "train_from", "first_phase"))
    s = doc.report.sections["schedule"]
    text = shown.text()
    assert text.startswith(f"Training from month 7 (the first phase) to month {s.training_done_month:g}")
    assert f"build {usd(s.training_cost_usd['build'])}" in text
    assert f"rent spot {usd(s.training_cost_usd['rent_spot'])}" in text
    whole = doc.report.workload.run_cost_usd["build"]
    assert s.training_cost_usd["build"] < whole  # hall A1's months cost less to build
    assert text.endswith(f"(build on the whole cluster from its start: {usd(whole)})")
    strip.show_report(doc.report)
    tip = strip.figures["time_to_train"].toolTip()
    assert f"On the build-out's calendar, nothing failing: {text}" in tip
