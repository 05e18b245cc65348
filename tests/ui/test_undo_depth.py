"""The app's Undo steps through the core's history, capped at the same depth: past it, the
oldest step drops from both, so Ctrl+Z leads back as far as the history goes."""

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
