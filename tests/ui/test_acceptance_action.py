"""File > Export > Acceptance tests…, driven as a user would: the menu item, then the folder
dialog answered."""

from __future__ import annotations

import json

from ui import file_dialogs
from PySide6.QtWidgets import QMessageBox


def test_export_menu_writes_the_acceptance_pack(window, tmp_path, monkeypatch):
    assert window.export_acceptance_action in window.export_menu.actions()
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(tmp_path / "acceptance"))
    window.export_acceptance_action.trigger()
    tests = json.loads((tmp_path / "acceptance" / "acceptance-tests.json").read_text())["tests"]
    assert any(t["id"] == "nccl.all_reduce.node" for t in tests)
    assert "Acceptance tests" in (tmp_path / "acceptance" / "acceptance-runbook.md").read_text()
    assert "Exported" in window.statusBar().currentMessage()


def test_a_folder_of_other_files_is_refused_and_kept(window, tmp_path, monkeypatch):
    mine = tmp_path / "mine"  # a folder of its own: the window's settings file sits in tmp_path
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(mine))
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    window.export_acceptance_action.trigger()
    assert (mine / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    assert "holds other files (notes.txt)" in shown[0]
