"""File > Export > Acceptance tests…, driven as a user would: the menu item, then the folder
dialog answered."""

from __future__ import annotations

import json

from ui import file_dialogs


def test_export_menu_writes_the_acceptance_pack(window, tmp_path, monkeypatch):
    assert window.export_acceptance_action in window.export_menu.actions()
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(tmp_path / "acceptance"))
    window.export_acceptance_action.trigger()
    tests = json.loads((tmp_path / "acceptance" / "acceptance-tests.json").read_text())["tests"]
    assert any(t["id"] == "nccl.all_reduce.node" for t in tests)
    assert "Acceptance tests" in (tmp_path / "acceptance" / "acceptance-runbook.md").read_text()
    assert "Exported" in window.statusBar().currentMessage()


def test_a_folder_of_other_files_gets_the_pack_in_a_folder_of_its_own(window, tmp_path, monkeypatch):
    # The pack replaces its folder whole; a folder holding other files keeps them and takes the
    # pack in a folder named after the plan, as the NetBox export does (it refused before)
    mine = tmp_path / "mine"  # a folder of its own: the window's settings file sits in tmp_path
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(mine))
    window.export_acceptance_action.trigger()
    assert (mine / "notes.txt").read_text() == "mine"
    inside = mine / "16-node-llm-cluster-128-x-h100-ndr400-acceptance"
    assert sorted(p.name for p in mine.iterdir()) == [inside.name, "notes.txt"]
    assert (inside / "acceptance-tests.json").is_file()
    assert str(inside) in window.statusBar().currentMessage()
    # a second export replaces that folder's pack, and still keeps the notes
    window.export_acceptance_action.trigger()
    assert sorted(p.name for p in mine.iterdir()) == [inside.name, "notes.txt"]
