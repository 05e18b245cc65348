"""File > Import > From NetBox…, driven as a user would: the menu item, the folder dialog
answered; the site opens as a new unsaved plan and the report of what was not mapped is shown."""

from __future__ import annotations

import shutil

from ui import file_dialogs
from PySide6.QtWidgets import QMessageBox

from planner.design.templates import build_template
from tests.planner.test_import_netbox import MEDIUM, positions_of


def _answer(monkeypatch, folder, save_as=None):
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(folder))
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: (str(save_as or ""), ""))
    shown = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: shown.append(a[2]))
    return shown


def test_import_menu_opens_the_site_as_a_new_unsaved_plan(window, monkeypatch, tmp_path):
    shown = _answer(monkeypatch, MEDIUM)
    assert window.import_netbox_action in window.import_menu.actions()
    window.import_netbox_action.trigger()
    plan = window.doc.plan
    assert window.doc.path is None  # not saved yet: Save asks for a file
    assert positions_of(plan) == positions_of(build_template("medium"))
    assert "7 racks, 37 devices" in shown[0] and "not saved yet" in shown[0]
    assert window.doc.report.totals.gpus == 128


def test_unmapped_devices_are_reported_and_a_bad_folder_is_named(window, monkeypatch, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(MEDIUM, site)
    for f in site.iterdir():
        f.chmod(0o644)
    yaml_path = site / "device-types.yaml"
    yaml_path.write_text("\n---\n".join(d for d in yaml_path.read_text().split("\n---\n") if "slug: mgmt-1g-48" not in d))
    shown = _answer(monkeypatch, site)
    window.import_netbox_action.trigger()
    assert "device 'mgmt-1' not imported: its device type 'Generic 48 x 1GbE management switch' is not in " \
           "device-types.yaml" in shown[0]
    assert all(p.device != "mgmt-1g-48" for p in window.doc.plan.placements)

    (site / "racks.csv").unlink()
    before = window.doc.plan
    # the import is unsaved work: another import that fails asks nothing, and the plan stays
    asked = []
    monkeypatch.setattr(window, "ask_unsaved", lambda: asked.append(1) or QMessageBox.StandardButton.Cancel)
    errors = []
    monkeypatch.setattr(window, "show_error", lambda title, message: errors.append(message))
    window.import_netbox_action.trigger()
    assert asked == [] and "racks.csv: missing" in errors[0]
    assert window.doc.plan is before  # the open plan stays
    # one that succeeds asks once it is ready; Cancel keeps the unsaved import
    shutil.copy(MEDIUM / "racks.csv", site / "racks.csv")
    assert window.import_from_netbox_folder(site) == "cancelled: the plan's unsaved changes kept"
    assert asked == [1] and window.doc.plan is before


def test_an_unknown_type_is_saved_as_a_catalog_file_and_added_to_the_palette(window, monkeypatch, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(MEDIUM, site)
    for f in site.iterdir():
        f.chmod(0o644)
    for name, old, new in (("device-types.yaml", "slug: mgmt-1g-48", "slug: site-mgmt"),
                           ("device-types.yaml", "model: 48 x 1GbE management switch", "model: Site OOB switch"),
                           ("devices.csv", "48 x 1GbE management switch", "Site OOB switch")):
        (site / name).write_text((site / name).read_text().replace(old, new))
    target = tmp_path / "site.types.json"
    catalog = window.doc.catalog  # the session's: the imported type is taken out again after the test
    monkeypatch.setattr(catalog, "_devices", dict(catalog._devices))
    monkeypatch.setattr(catalog, "origins", dict(catalog.origins))
    shown = _answer(monkeypatch, site, save_as=target)
    window.import_netbox_action.trigger()
    assert target.exists() and "site.types.json" in shown[0]
    assert "site-mgmt" in window.palette_panel.visible_device_ids()
    assert any(p.device == "site-mgmt" for p in window.doc.plan.placements)
