"""The app's rename fields refuse control characters and text-direction overrides with the
core's message: the device label and the plan name in the inspector (status bar), the rack
name in the rack editor (the dialog stays open)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

from tests.ui.conftest import rack_named

RLO = "\u202e"
WHY = "may not hold control characters or text-direction overrides"


def test_the_inspector_refuses_such_a_device_label(window):
    doc = window.doc
    stor = rack_named(doc.plan, "STOR-01")
    pfs = next(p for p in doc.plan.rack_members(stor.id).values() if p.u == 13)
    before, steps = pfs.label, doc.undo_stack.count()
    window.view.select(pfs.id)
    label = window.inspector.fields["label"]
    label.setText(f"lustre-{RLO}b")
    label.editingFinished.emit()
    assert doc.plan.placement(pfs.id).label == before and doc.undo_stack.count() == steps
    shown = window.statusBar().currentMessage()
    assert "label: it holds U+202E (right-to-left override) at character 8" in shown and WHY in shown


def test_the_inspector_refuses_such_a_plan_name(window):
    window.view.scene().clearSelection()
    name = window.inspector.findChild(QLineEdit)
    before = window.doc.plan.name
    name.setText("Lab\x00B")
    name.editingFinished.emit()
    assert window.doc.plan.name == before
    assert "plan name: it holds U+0000 (a control character)" in window.statusBar().currentMessage()


def test_the_rack_editor_refuses_such_a_name_and_stays_open(window):
    stor = rack_named(window.doc.plan, "STOR-01")
    dialog = window.edit_rack(stor.id)
    dialog.entries["name"].widget.setText(f"STOR-{RLO}10")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.isVisible() and window.doc.plan.rack(stor.id).name == "STOR-01"
    assert "U+202E (right-to-left override)" in dialog.message.text() and WHY in dialog.message.text()
    dialog.reject()
