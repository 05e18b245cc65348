"""File > Export > NetBox import files and File > Import device types, driven as a user would:
the menu item, then the file dialogs answered."""

from __future__ import annotations

import csv

from ui import file_dialogs
from PySide6.QtWidgets import QInputDialog, QMessageBox

from tests.planner.test_netbox import GPU_SERVER, NO_HEIGHT


def test_export_menu_writes_netbox_files_into_the_chosen_folder(window, tmp_path, monkeypatch):
    assert window.export_netbox_action in window.export_menu.actions()
    out = tmp_path / "netbox"  # a folder of its own: the window's settings file sits in tmp_path
    out.mkdir()
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(out))
    window.export_netbox_action.trigger()
    with open(out / "07-devices.csv", newline="") as f:
        devices = list(csv.DictReader(f))
    placed = [d for d in devices if d["position"]]  # the rack PDUs are devices too, at the side (no U)
    assert len(placed) == len(window.doc.plan.placements)  # every placed device, one row each
    assert "Exported" in window.statusBar().currentMessage()


def test_import_device_types_adds_them_to_the_palette_and_a_catalog_file(window, tmp_path, monkeypatch):
    (tmp_path / "server.yaml").write_text(GPU_SERVER)
    target = tmp_path / "mine.json"
    monkeypatch.setattr(file_dialogs, "open_file_names", lambda *a, **k: ([str(tmp_path / "server.yaml")], ""))
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: (str(target), ""))
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("H100 SXM 80GB", True))
    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (8, True))
    shown = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: shown.append(a[2]))
    window.import_types_action.trigger()
    d = window.doc.catalog["example-systems-xg-480"]
    assert (d.category, d.gpus, d.u_height, d.power_max_w) == ("gpu_server", 8, 4, 5400)
    assert "example-systems-xg-480" in window.palette_panel.visible_device_ids()
    assert target.exists() and "price" in shown[0]


def test_an_unusable_device_type_file_is_named_and_nothing_changes(window, tmp_path, monkeypatch):
    (tmp_path / "nohu.yaml").write_text(NO_HEIGHT)
    before = len(window.doc.catalog)
    monkeypatch.setattr(file_dialogs, "open_file_names", lambda *a, **k: ([str(tmp_path / "nohu.yaml")], ""))
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: (str(tmp_path / "mine.json"), ""))
    monkeypatch.setattr(QInputDialog, "getItem", lambda *a, **k: ("None: import servers as 'other'", True))
    errors = []
    monkeypatch.setattr(window, "show_error", lambda title, message: errors.append(message))
    window.import_types_action.trigger()
    assert len(window.doc.catalog) == before and not (tmp_path / "mine.json").exists()
    assert "nohu.yaml" in errors[0] and "u_height" in errors[0]
