"""The app's Undo steps through the core's history, the one record of the steps and of the
saved one: capped at its depth, Ctrl+Z leads back as far as the history goes, and the Edit
menu and the modified mark read it."""

import ui.document
from planner.design.templates import build_template
from planner.plan.commands import MoveDevice
from ui.document import Document


def test_undo_in_the_app_stops_at_the_historys_depth(qtbot, catalog, monkeypatch):
    monkeypatch.setattr(ui.document, "UNDO_STEPS", 3)
    plan = build_template("single-node", catalog=catalog)  # its 4U node at U1 of a 42U rack
    node = plan.placements[0]
    doc = Document(plan, catalog)
    for u in (2, 3, 4, 5, 6):  # five steps: the moves to U2 and U3 drop off
        assert doc.apply(MoveDevice(node.id, node.rack, u))
    assert doc.undo_stack.count() == len(doc.history.done) == 3
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.plan.placement(node.id).u == 3 and doc.history.done == []
    doc.undo_stack.redo()
    assert doc.plan.placement(node.id).u == 4 and doc.undo_stack.undoText() == doc.history.label


def test_the_edit_menu_and_the_modified_mark_read_the_history(window, tmp_path):
    # medium template; a save, then an undo and another edit: the saved plan is no longer a
    # step away, so the window stays modified though it has as many steps as when saved
    from PySide6.QtGui import QUndoStack

    doc = window.doc
    node = next(p for p in doc.plan.placements if p.label == "node-1")
    assert not window.undo_action.isEnabled() and window.undo_action.text() == "&Undo"
    assert doc.apply(MoveDevice(node.id, node.rack, 20))
    assert window.undo_action.text() == "&Undo " + doc.history.label and window.undo_action.isEnabled()
    assert window._save_to(tmp_path / "moved.json")
    assert not window.isWindowModified()
    window.undo_action.trigger()
    assert window.isWindowModified() and window.redo_action.text() == "&Redo " + doc.history.redo_label
    assert doc.apply(MoveDevice(node.id, node.rack, 24))
    assert doc.undo_stack.count() == 1 and window.isWindowModified()
    window.undo_action.trigger()
    assert window.isWindowModified()  # the unmoved plan is not the one saved (U20)
    assert doc.findChildren(QUndoStack) == []  # no second record of the steps
