"""Replacing device types in the app: the inspector's type choice and Replace all … with ….

Figures (medium template, worked in tests/planner/test_replace_devices.py): 16 HGX H100 (7 kW
typical) stand 4 to a 30 kW liquid rack; a DGX B200 draws 10 kW, so 3 stay in each of the 4
GPU racks and 4 move to 2 new air racks (25 kW air limit, 2 each). One B200 for node-1 alone:
10 + 3 x 7 = 31 kW > 30, so it moves to a new rack.
"""

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QDialogButtonBox, QMenu

from ui.replace_dialog import ReplaceDialog

H100 = "HGX H100 8-GPU node (direct liquid cooled, 4U)"


def _node(plan, label):
    return next(p for p in plan.placements if p.label == label)


def _choose_in_popup(qtbot, combo: QComboBox, device_id: str) -> None:
    """Open the choice's list, move to the item and press Enter, as the keyboard does."""
    combo.setFocus()
    combo.showPopup()
    qtbot.waitUntil(combo.view().isVisible)
    view = combo.view()
    view.setCurrentIndex(combo.model().index(combo.findData(device_id), 0))
    QTest.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible())


def test_the_inspector_type_choice_replaces_the_device_as_one_undo_step(window, qtbot):
    doc, plan = window.doc, window.doc.plan
    before = plan.model_dump()
    node1 = _node(plan, "node-1")
    window.view.select(node1.id)
    choice = window.inspector.fields["type"]
    assert isinstance(choice, QComboBox) and choice.currentData() == "hgx-h100-8"
    ids = [choice.itemData(i) for i in range(choice.count())]
    assert "dgx-b200" in ids and "qm9700" not in ids and "gb200-nvl72" not in ids
    steps = doc.undo_stack.count()
    _choose_in_popup(qtbot, choice, "dgx-b200")
    assert node1.device == "dgx-b200"
    assert plan.rack(node1.rack).name == "GPU-05" and node1.u == 1  # 31 kW would be over the 30 kW cap
    assert window.view.selected_devices() == [node1.id]  # still selected where it went
    assert window.inspector.heading.text() == "node-1" and window.inspector.fields["type"].currentData() == "dgx-b200"
    assert doc.undo_stack.count() == steps + 1
    assert doc.undo_stack.undoText() == f"Replace {H100} with DGX B200"
    window.undo_action.trigger()
    assert plan.model_dump() == before


def test_a_refused_type_change_keeps_the_choice_on_the_type(window, qtbot, monkeypatch):
    doc, plan = window.doc, window.doc.plan
    node1 = _node(plan, "node-1")
    window.view.select(node1.id)
    monkeypatch.setattr(plan.settings.facility, "default_rack_cap_kw", 5.0)  # no new rack takes a 10 kW node
    choice = window.inspector.fields["type"]
    _choose_in_popup(qtbot, choice, "dgx-b200")
    assert node1.device == "hgx-h100-8" and choice.currentData() == "hgx-h100-8"
    assert doc.last_error == ("1 node no longer fits its rack and cannot be moved: one DGX B200 (10 kW, 10U) does "
                              "not fit an empty 42U rack capped at 5 kW")


def test_replace_all_dialog_previews_and_applies_one_undo_step(window, qtbot):
    doc, plan = window.doc, window.doc.plan
    before = plan.model_dump()
    window.view.select(_node(plan, "node-1").id)
    dialog = window.replace_devices()
    qtbot.waitExposed(dialog)
    assert dialog.from_type.currentData() == "hgx-h100-8"  # the selected device's type
    dialog.to_type.setCurrentIndex(dialog.to_type.findData("dgx-b200"))
    assert dialog.preview.text() == "16 nodes; 4 racks re-fitted; 4 moved to other racks; 2 new racks"
    dialog.in_selection.click()
    assert dialog.preview.text() == "1 node; 1 rack re-fitted; 1 moved to other racks; 1 new rack"
    dialog.whole_plan.click()
    assert plan.model_dump() == before  # the preview changed nothing
    steps = doc.undo_stack.count()
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    assert doc.undo_stack.count() == steps + 1
    assert doc.undo_stack.undoText() == f"Replace 16 x {H100} with DGX B200"
    assert sum(p.device == "dgx-b200" for p in plan.placements) == 16
    assert [r.name for r in plan.racks][-2:] == ["GPU-05", "GPU-06"]
    window.undo_action.trigger()
    assert plan.model_dump() == before


def test_escape_cancels_the_dialog_and_changes_nothing(window, qtbot):
    before = window.doc.plan.model_dump()
    steps = window.doc.undo_stack.count()
    dialog = window.replace_devices()
    qtbot.waitExposed(dialog)
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert window.doc.plan.model_dump() == before and window.doc.undo_stack.count() == steps


def test_the_dialog_is_reached_by_keys_and_from_a_device_context_menu(window, qtbot):
    assert window.replace_action.shortcut().toString() == "Ctrl+H"
    assert window.replace_action in window.menuBar().actions()[1].menu().actions()  # Edit
    plan = window.doc.plan
    node = _node(plan, "ib-1")
    window.view.select(node.id)
    item = window.view.racks[node.rack].devices[node.id]
    shown: list[str] = []

    def pick() -> None:  # in the menu's own event loop: choose the entry with the keyboard
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(50, pick)
            return
        shown.extend(a.text() for a in menu.actions())
        menu.setActiveAction(next(a for a in menu.actions() if a.text() == "Replace all … with …"))
        QTest.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(50, pick)
    pos = window.view.mapFromScene(item.sceneBoundingRect().center())
    window.view.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos,
                                                   window.view.viewport().mapToGlobal(pos)))
    assert "Replace all … with …" in shown
    dialog = window.findChild(ReplaceDialog)
    assert dialog is not None and dialog.from_type.currentData() == "qm9700"
    targets = [dialog.to_type.itemData(i) for i in range(dialog.to_type.count())]
    assert "sn5600" in targets and "dgx-b200" not in targets and "qm9700" not in targets
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
