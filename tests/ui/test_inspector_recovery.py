"""The inspector, with nothing selected, shows how the plan recovers from an interruption:
its restart path and what each path gives, the interruptions a day by part, the time lost
per interruption by step and the checkpoint tiers; a change of path shows at once."""

from __future__ import annotations

from planner.plan.commands import SetSetting


def test_the_plan_view_shows_the_recovery_and_follows_a_change_of_path(window):
    window.view.scene().clearSelection()
    window.inspector.show_selection([], None)
    fields = window.inspector.fields
    g = window.doc.report.sections["goodput"]
    path = fields["recovery0"].text()
    # medium recovers cold: its ETTR and each path's, as the report gives them
    assert path.startswith(f"cold: ETTR {g.ettr:.1%}")
    for p, ettr in g.recovery["ettr_by_path"].items():
        assert f"{p} {ettr:.1%}" in path
    assert f"{g.interruptions_per_day:,.2f}" in fields["recovery1"].text()
    assert "restart 10.0 min" in fields["recovery2"].text()  # the 10-minute cold restart
    assert fields["recovery3"].text().startswith("file system: every ")
    window.doc.apply(SetSetting("reliability", "restart_path", "replica"))
    g = window.doc.report.sections["goodput"]
    assert fields["recovery0"].text().startswith(f"replica: ETTR {g.ettr:.1%}")
    assert "for 1 of" in fields["recovery2"].text() and "data-parallel replicas" in fields["recovery2"].text()
