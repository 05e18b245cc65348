"""An export runs off the GUI thread behind a progress dialog: shown only when it lasts, with
the rows written so far and a Cancel button that stops it with nothing written; a failure
still ends in the usual message box.

The NetBox writer is slowed here (and told to report every 100 rows instead of 5,000) so that
the medium template's 2,643 rows take a few seconds, as campus-1m's millions do."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from ui import file_dialogs
from PySide6.QtWidgets import QProgressDialog, QPushButton

import planner.export.netbox_files as netbox_files


@pytest.fixture
def slow_netbox(monkeypatch):
    add = netbox_files.StreamedExport.add

    def slow_add(self, file, /, **row):
        time.sleep(0.002)
        add(self, file, **row)

    monkeypatch.setattr(netbox_files.StreamedExport, "add", slow_add)
    monkeypatch.setattr(netbox_files, "PROGRESS_ROWS", 100)


def _watch(window, act):
    """Every 50 ms: ``act(dialog)`` once the export's progress dialog is on screen; what it saw."""
    seen: list[str] = []

    def look():
        dialog = window.findChild(QProgressDialog, "ExportProgress")
        if dialog is not None and dialog.isVisible() and "rows written" in dialog.labelText():
            seen.append(dialog.labelText())
            act(dialog)
            timer.stop()
    timer = QTimer(window, interval=50)
    timer.timeout.connect(look)
    timer.start()
    return seen


CANCEL = {"button": lambda dialog: dialog.findChild(QPushButton).click(),
          "Escape": lambda dialog: QTest.keyClick(dialog, Qt.Key.Key_Escape)}


@pytest.mark.parametrize("how", CANCEL)
def test_cancel_stops_a_slow_netbox_export_and_writes_nothing(window, slow_netbox, tmp_path, monkeypatch, how):
    out = tmp_path / "out"  # a folder of its own: the window's settings file sits in tmp_path
    out.mkdir()
    target = out / "netbox"
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(target))
    seen = _watch(window, CANCEL[how])
    window.export_netbox_action.trigger()  # returns once the export has ended
    assert seen and seen[0].startswith("NetBox files: ") and seen[0].endswith(" rows written…")
    rows = int(seen[0].removeprefix("NetBox files: ").split()[0].replace(",", ""))
    assert rows % 100 == 0 and 0 < rows < 2_643  # cancelled part way through the medium plan's rows
    assert list(out.iterdir()) == []  # no folder, no hidden staging folder
    assert window.statusBar().currentMessage().startswith("Export cancelled: nothing was written")
    dialog = window.findChild(QProgressDialog, "ExportProgress")
    assert dialog is None or not dialog.isVisible()


def test_a_slow_export_left_to_run_writes_every_file(window, slow_netbox, tmp_path, monkeypatch):
    target = tmp_path / "netbox"
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(target))
    seen = _watch(window, lambda dialog: None)
    window.export_netbox_action.trigger()
    assert seen  # the dialog was shown while it ran
    assert (target / "07-devices.csv").exists()
    assert window.statusBar().currentMessage() == f"Exported {target}"


def test_a_quick_export_shows_no_dialog(window, tmp_path, monkeypatch):
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(tmp_path / "netbox"))
    shown = []
    monkeypatch.setattr(QProgressDialog, "showEvent", lambda self, event: shown.append(self.labelText()))
    window.export_netbox_action.trigger()
    assert (tmp_path / "netbox" / "07-devices.csv").exists()
    assert shown == []


def test_a_folder_of_other_files_gets_the_export_in_a_folder_of_its_own(window, tmp_path, monkeypatch):
    # the export replaces its folder whole: chosen where the workbook and the vendor pack are, it
    # goes into a new folder there named after the plan, and the other files stay
    (tmp_path / "plan.xlsx").write_text("book")
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(tmp_path))
    window.export_netbox_action.trigger()
    inner = tmp_path / "16-node-llm-cluster-128-x-h100-ndr400-netbox"
    assert (inner / "07-devices.csv").exists() and (tmp_path / "plan.xlsx").read_text() == "book"
    assert window.statusBar().currentMessage() == f"Exported {inner}"


def test_a_folder_that_cannot_be_written_ends_in_the_message_box(window, tmp_path, monkeypatch):
    (tmp_path / "plan.json").write_text("{}")
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: str(tmp_path / "plan.json"))
    errors = []
    monkeypatch.setattr(window, "show_error", lambda title, message: errors.append((title, message)))
    window.export_netbox_action.trigger()
    assert errors == [("Export", f"cannot export to {tmp_path / 'plan.json'}: it is a file; NetBox import files "
                                 "go into a folder")]
    assert (tmp_path / "plan.json").read_text() == "{}"


def test_escape_does_not_hide_an_export_that_cannot_be_stopped(window):
    """The drawings have no progress hook: no Cancel button, and Escape leaves the dialog (and
    its modality) up until the drawing is done."""
    from ui.export_runner import run_export

    release = threading.Event()
    looked: list[bool] = []

    def press_escape(dialog):
        QTest.keyClick(dialog, Qt.Key.Key_Escape)
        QTimer.singleShot(300, lambda: (looked.append(dialog.isVisible()), release.set()))

    timer = QTimer(window, interval=50)

    def look():
        dialog = window.findChild(QProgressDialog, "ExportProgress")
        if dialog is not None and dialog.isVisible():
            timer.stop()
            looked.append(dialog.findChild(QPushButton) is None)
            press_escape(dialog)
    timer.timeout.connect(look)
    timer.start()
    assert run_export(window, "Exporting the drawing", lambda progress: release.wait(20), cancellable=False)
    assert looked == [True, True]  # no Cancel button; still shown after Escape
