"""File > Plan properties: the dialog edits the plan's customer, site, contact, revision and
dates as one undoable edit; a bad date keeps the dialog open with the reason."""

from ui.plan_properties import PlanPropertiesDialog


def test_plan_properties_dialog_sets_the_cover_fields_and_undo_restores_them(window, qtbot):
    file_menu = next(m for m in window.menuBar().findChildren(type(window.recent_menu)) if m.title() == "&File")
    assert window.plan_properties_action in file_menu.actions()
    dialog = window.edit_plan_properties()
    assert isinstance(dialog, PlanPropertiesDialog)
    values = {"customer": "Acme AI Labs", "site": "DC-3 Hall B", "contact": "J. Doe", "revision": "C",
              "date": "2026-11-30", "go_live": "2027-03-01"}
    for name, value in values.items():
        dialog.entries[name].setText(value)
    dialog.entries["go_live"].setText("March 2027")  # not a date: refused, nothing changes
    dialog.accept()
    assert dialog.isVisible() and dialog.message.isVisible() and "go_live" in dialog.message.text()
    assert window.doc.plan.info.customer == ""
    dialog.entries["go_live"].setText("2027-03-01")
    dialog.accept()
    assert not dialog.isVisible()
    assert window.doc.plan.info.model_dump() == values
    assert window.doc.is_modified
    window.doc.undo_stack.undo()
    assert window.doc.plan.info.customer == "" and window.doc.plan.info.go_live == ""
