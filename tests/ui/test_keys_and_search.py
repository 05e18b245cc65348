"""Keys a person presses (undo, both redo keys, F1's list) and the palette's search words."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from planner.hardware.search import matches
from ui import file_dialogs


def _press(widget, key, mods=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(widget, key, mods)
    QApplication.processEvents()


def test_undo_and_both_redo_keys_work_without_an_ambiguous_shortcut(window, qtbot, qtlog):
    window.activateWindow()
    qtbot.waitActive(window)
    window.view.setFocus()
    racks = len(window.doc.plan.racks)  # the medium template: 7 racks
    window.add_rack_action.trigger()
    assert len(window.doc.plan.racks) == racks + 1
    ctrl, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
    _press(window.view, Qt.Key.Key_Z, ctrl)
    assert len(window.doc.plan.racks) == racks
    _press(window.view, Qt.Key.Key_Z, ctrl | shift)
    assert len(window.doc.plan.racks) == racks + 1
    _press(window.view, Qt.Key.Key_Z, ctrl)
    assert len(window.doc.plan.racks) == racks
    _press(window.view, Qt.Key.Key_Y, ctrl)
    assert len(window.doc.plan.racks) == racks + 1
    for key in (Qt.Key.Key_0, Qt.Key.Key_9, Qt.Key.Key_Plus, Qt.Key.Key_Minus):  # the zoom keys
        _press(window.view, key, ctrl)
    messages = [r.message for r in qtlog.records]
    assert not [m for m in messages if "mbiguous" in m], messages


def test_no_two_actions_share_a_key(window):
    seen: dict[str, str] = {}
    for action in window.findChildren(QAction):
        if action.shortcutContext() != Qt.ShortcutContext.WindowShortcut:
            continue
        for seq in action.shortcuts():
            key = seq.toString()
            assert key not in seen or seen[key] == action.text(), (key, seen.get(key), action.text())
            seen[key] = action.text()
    assert seen["Ctrl+Y"] == seen["Ctrl+Shift+Z"] == window.redo_action.text()


def test_f1_lists_every_key_with_readable_names(window, qtbot):
    from planner.plan.commands import SetSetting

    # with a step to undo and one to redo, the actions' texts name them ("Redo Set PUE"); the
    # list names what the keys do
    window.doc.apply(SetSetting("facility", "pue", 1.4))
    window.doc.apply(SetSetting("facility", "pue", 1.5))
    window.undo_action.trigger()
    assert window.undo_action.text() != "&Undo" and window.redo_action.text() != "&Redo"
    window.activateWindow()
    qtbot.waitActive(window)
    _press(window.view, Qt.Key.Key_F1)
    from ui.help_dialogs import ShortcutsDialog

    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None and dialog.isVisible()
    rows = {dialog.table.item(i, 1).text(): dialog.table.item(i, 0).text() for i in range(dialog.table.rowCount())}
    assert rows["Save"] == "Ctrl + S"
    assert rows["Zoom in"] == "Ctrl + Plus"
    assert rows["Redo"] == "Ctrl + Shift + Z, Ctrl + Y"
    assert rows["Undo"] == "Ctrl + Z"
    assert rows["Remove the selection"] == "Delete, Backspace"
    assert rows["Preferences"] == "Ctrl + Comma"
    assert rows["Move the selected device one U up / down"] == "Up / Down"
    assert rows["Select the rack to the left / right, or in the row above / below"] == "Left / Right / Up / Down"
    assert rows["Zoom the rack view in"] == "Plus / Equal" and rows["Zoom the rack view out"] == "Minus"
    assert rows["Show the whole floor"] == "Home"
    assert rows["Zoom into the selected rack"] == "Enter"
    assert rows["Cancel a drag; otherwise clear the selection"] == "Esc"
    assert rows["Zoom the rack view"] == "Ctrl + mouse wheel"
    # the variants, the workbook and the Checks list's fixes have keys too
    assert rows["Compare"] == "Ctrl + Shift + C" and rows["Design sweep"] == "Ctrl + Shift + D"
    assert rows["New variant from current"] == "Ctrl + Shift + N" and rows["Excel workbook"] == "Ctrl + Shift + E"
    assert rows["Fix the selected finding"].startswith("Ctrl + ") and rows["Fix all findings"].startswith("Ctrl + Shift")
    assert not [k for k in rows.values() if "++" in k]
    dialog.reject()


def test_view_keys_listed_in_f1_do_what_they_say(window, qtbot):
    view = window.view
    view.setFocus()
    gpu1 = next(r for r in window.doc.plan.racks if r.name == "GPU-01")
    view.select(gpu1.id)
    zoom = view.zoom_level()
    _press(view, Qt.Key.Key_Plus)
    assert abs(view.zoom_level() - zoom * 1.25) < 1e-6
    _press(view, Qt.Key.Key_Minus)
    assert abs(view.zoom_level() - zoom) < 1e-6
    _press(view, Qt.Key.Key_Right)
    assert window.doc.plan.rack(view.selected_rack()).name == "GPU-02"
    _press(view, Qt.Key.Key_Escape)
    assert view.selected_rack() is None and view.selected_devices() == []


def test_palette_search_by_technology_words_and_no_match(window, catalog):
    palette = window.palette_panel
    palette.search.setText("switch")
    ids = palette.visible_device_ids()
    # every entry of the Switches category, and the two of category Other with "switch" in their model
    assert sorted(ids) == sorted([d.id for d in catalog.by_category("switch")] + ["mgmt-1g-48", "nvlink-switch-tray"])
    palette.search.setText("infiniband")
    ids = palette.visible_device_ids()
    assert {"qm9700", "qm9700-ndr200", "q3400"} <= set(ids)  # InfiniBand switches
    assert "hgx-h100-8" in ids  # its compute NICs are NDR InfiniBand
    assert "sn5600" not in ids and "cdu-inrack-250" not in ids
    palette.search.setText("liquid")
    assert set(palette.visible_device_ids()) == {d.id for d in catalog if d.cooling == "liquid" or d.cdu_capacity_kw}
    assert "hgx-h100-8" in palette.visible_device_ids() and "dgx-h100" not in palette.visible_device_ids()
    palette.search.setText("400G switch")
    assert set(palette.visible_device_ids()) == {"qm9700", "sn5600-400", "q3400-400"}  # 400G ports
    # each group counts what it shows of what it holds
    root = palette.proxy.index(0, 0).parent()
    groups = [palette.proxy.index(g, 0, root).data() for g in range(palette.proxy.rowCount(root))]
    switches = len(catalog.by_category("switch"))
    assert groups == [f"Switches  (3 of {switches})"]
    palette.search.setText("H100")
    assert "dgx-h100" in palette.visible_device_ids() and "dgx-b200" not in palette.visible_device_ids()
    assert palette.no_match.isHidden()
    palette.search.setText("tpu")
    assert palette.visible_device_ids() == []
    assert not palette.no_match.isHidden()
    assert palette.no_match.text().startswith("No devices match “tpu”")
    palette.search.clear()
    assert palette.no_match.isHidden() and len(palette.visible_device_ids()) == len(catalog)
    assert palette.proxy.index(0, 0).data() == f"GPU servers  ({len(catalog.by_category('gpu_server'))})"


def test_search_words_are_the_cores(catalog):
    assert matches(catalog["sn5600"], "ethernet 800gbe")
    assert matches(catalog["qm9700"], "NVIDIA infiniband")
    assert not matches(catalog["qm9700"], "ethernet")


def _over_cap_row_selected(window, rack) -> None:
    """A fifth 7 kW node in the rack (35 kW on its 30 kW cap), its finding selected in Checks."""
    from planner.plan.commands import AddDevice

    window.doc.apply(AddDevice("hgx-h100-8", rack.id, 33))
    QApplication.processEvents()
    checks = window.checks
    model = checks.model()
    row = next(model.index(i) for i in range(model.rowCount()) if "draws 35.0 kW" in model.index(i).data())
    checks.setCurrentIndex(row)
    QApplication.processEvents()
    assert window.fix_action.isEnabled() and window.fix_all_action.isEnabled()


def test_the_fix_keys_follow_the_fix_buttons(window):
    # medium has nothing to fix: the keys do nothing, as the greyed buttons; an over-cap rack
    # selected in Checks makes both run
    assert not window.fix_action.isEnabled() and not window.fix_all_action.isEnabled()
    gpu1 = next(r for r in window.doc.plan.racks if r.name == "GPU-01")
    _over_cap_row_selected(window, gpu1)
    window.fix_action.trigger()
    QApplication.processEvents()
    assert not [f for f in window.doc.report.findings if f.code == "rack.power.over_cap"]


def test_every_key_listed_in_f1_runs_its_action(window, qtbot, monkeypatch):
    """Each action's keys, pressed in the rack view, run that action (F1 lists exactly these
    actions). Dialogs the actions open are answered with Cancel, so the presses go on."""
    from PySide6.QtWidgets import QDialog, QInputDialog, QMessageBox

    monkeypatch.setattr(QDialog, "exec", lambda self: QDialog.DialogCode.Rejected)
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("", False)))  # a new variant's name
    monkeypatch.setattr(file_dialogs, "open_file_name", lambda *a, **k: ("", ""))
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: ("", ""))
    for name in ("question", "warning", "information"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))
    actions = sorted({a for a in window.findChildren(QAction) if a.shortcuts()}, key=lambda a: a.text())
    listed = {a.text().replace("&", "").rstrip("…") for a in actions}
    assert {"Undo", "Redo", "Save", "Open", "Keyboard shortcuts", "Quit", "Remove", "Zoom in"} <= listed
    hits: list[str] = []
    for action in actions:
        action.triggered.connect(lambda _checked=False, a=action: hits.append(a.text()))
    view, plan = window.view, window.doc.plan
    gpu1 = next(r for r in plan.racks if r.name == "GPU-01")
    pressed: list[str] = []
    for action in actions:
        if action is window.quit_action:
            continue  # last: it closes the window
        for sequence in action.shortcuts():
            combo = sequence[0]
            window.activateWindow()
            qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
            QApplication.processEvents()
            view.setFocus()
            device = next(p for p in plan.placements if p.rack == gpu1.id)
            view.select(device.id if action.text() == "Remove" else gpu1.id)
            if action is window.redo_action:  # something to redo
                window.add_rack_action.trigger()
                window.undo_action.trigger()
                hits.clear()
            if action in (window.fix_action, window.fix_all_action):  # something to fix, selected in Checks
                _over_cap_row_selected(window, gpu1)
                hits.clear()
            before = len(hits)
            QTest.keyClick(view, combo.key(), combo.keyboardModifiers())
            QApplication.processEvents()
            assert hits[before:] == [action.text()], (sequence.toString(), action.text(), hits[before:])
            pressed.append(sequence.toString())
            for w in QApplication.topLevelWidgets():  # close what the action opened without a modal loop
                if isinstance(w, QDialog) and w.isVisible():
                    w.done(QDialog.DialogCode.Rejected)
            QApplication.processEvents()
    assert {"Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y", "F1", "Del", "Backspace"} <= set(pressed)
    window.doc.undo_stack.setClean()
    window.activateWindow()
    qtbot.waitActive(window)
    QTest.keyClick(view, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert hits[-1] == window.quit_action.text() and not window.isVisible()
