"""Save and Save As in the main window go through the safe writer with backups; a failed save says why."""

from __future__ import annotations

import json

from ui import file_dialogs

import ui.document
from planner.plan.commands import AddRack
from ui.preferences import PreferencesDialog
from ui.session import AUTOSAVE_ENV, INTERVAL_KEY, STATE_DIR_ENV, autosave_interval_s


def test_save_and_save_as_write_through_qsavefile_and_keep_the_previous_version(window, tmp_path, monkeypatch):
    calls = []
    real = ui.document.save_plan
    monkeypatch.setattr(ui.document, "save_plan", lambda plan, path: (calls.append(path), real(plan, path)))
    target = tmp_path / "cluster.json"
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: (str(tmp_path / "cluster"), ""))
    window.doc.apply(AddRack(name="FIRST"))
    assert window.save_as_action.trigger() is None and window.doc.path == target
    assert not window.doc.is_modified and not window.isWindowModified()
    window.doc.apply(AddRack(name="SECOND"))
    window.save_action.trigger()
    assert calls == [target, target]
    assert "SECOND" in target.read_text()
    backup = tmp_path / "cluster.json.1.bak"  # the version before the last save
    names = [r["name"] for r in json.loads(backup.read_text())["racks"]]
    assert "FIRST" in names and "SECOND" not in names


def test_a_failed_save_says_why_and_keeps_the_changes(window, tmp_path, monkeypatch):
    errors = []
    monkeypatch.setattr(window, "show_error", lambda title, text: errors.append((title, text)))
    window.doc.apply(AddRack(name="UNSAVED"))
    missing = tmp_path / "gone" / "cluster.json"
    window.doc.path = missing
    assert window.save() is False
    (title, text), = errors
    assert title == "Save plan"
    assert text.startswith("The plan was not saved: cannot save cluster.json: the folder")
    assert "does not exist" in text and "Save As" in text and "Traceback" not in text
    assert window.doc.is_modified and not missing.exists()
    assert any(r.name == "UNSAVED" for r in window.doc.plan.racks)


def test_autosave_interval_is_sixty_seconds_by_default_and_set_in_preferences(window, qtbot, tmp_path, monkeypatch):
    monkeypatch.delenv(AUTOSAVE_ENV, raising=False)
    monkeypatch.setenv(STATE_DIR_ENV, str(tmp_path / "state"))
    manager = window.start_autosave()
    try:
        assert manager.interval_s == 60
        assert manager.folder == tmp_path / "state" / "recovery"
        dialog = PreferencesDialog(window)
        assert dialog.interval.value() == 60 and dialog.interval.suffix() == " s"
        dialog.interval.setValue(15)
        dialog.accept()
        assert window.settings.value(INTERVAL_KEY) in (15, "15") and manager.interval_s == 15
        assert autosave_interval_s(window.settings) == 15  # the next start uses it too
        monkeypatch.setenv(AUTOSAVE_ENV, "0.5")  # the override tests use
        assert autosave_interval_s(window.settings) == 0.5
        # while the plan has unsaved changes a copy is written; saving makes it obsolete
        manager.set_interval(0.1)
        window.doc.apply(AddRack(name="AUTOSAVED"))
        qtbot.waitUntil(manager.copy_path.exists, timeout=3000)
        assert "AUTOSAVED" in manager.copy_path.read_text()
        window.doc.save(tmp_path / "saved.json")
        assert not manager.copy_path.exists()
    finally:
        manager.stop()

