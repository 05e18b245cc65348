"""Never a traceback in front of the user: an exception in a slot of the real app shows a
dialog, is written to the log, the unsaved plan goes to a recovery copy, and the app keeps running."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QTimer

from tests.ui.app_runner import run_app
from ui.errors import ExceptionHook
from ui.session import STATE_DIR_ENV


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_shows_a_dialog_logs_saves_and_the_app_runs_on(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv(STATE_DIR_ENV, str(tmp_path / "state"))
    seen = {}

    def on_window(window):
        hook = sys.excepthook
        seen["hook"] = hook
        original = window.summary.show_report
        calls = {"n": 0}

        def broken_show_report(report):
            calls["n"] += 1
            if calls["n"] == 1:
                raise ZeroDivisionError("summary: division by zero")
            original(report)

        window.summary.show_report = broken_show_report
        racks_before = len(window.doc.plan.racks)
        QTimer.singleShot(0, window.add_rack_action.trigger)  # the real action, from the event loop

        def after_error():
            box = hook.dialog
            seen["dialog"] = box is not None and box.isVisible() and box.parent() is window
            seen["text"] = box.text() if box else ""
            seen["copy"] = window.autosave.copy_path.exists()
            # the app keeps running: the next edit goes through and the summary follows it
            window.add_rack_action.trigger()
            seen["racks"] = len(window.doc.plan.racks) - racks_before
            seen["summary"] = window.summary.text("racks")
            if box:
                box.accept()
            window.doc.undo_stack.setClean()
            QTimer.singleShot(0, window.close)

        def wait_for_dialog(tries=[0]):  # noqa: B006
            tries[0] += 1
            if (hook.dialog is not None and hook.dialog.isVisible()) or tries[0] > 200:
                after_error()
            else:
                QTimer.singleShot(20, wait_for_dialog)

        QTimer.singleShot(20, wait_for_dialog)

    run_app(monkeypatch, [], on_window, close=False)
    assert isinstance(seen["hook"], ExceptionHook)
    assert sys.excepthook is not seen["hook"]  # uninstalled when the app exits
    assert seen["dialog"], "no error dialog"
    assert "division by zero" in seen["text"] and "Traceback" not in seen["text"]
    assert "recovery copy" in seen["text"] and seen["copy"]  # the error struck mid-edit: the plan is on disk
    log = (tmp_path / "state" / "logs" / "errors.log").read_text()
    assert "Traceback" in log and "ZeroDivisionError: summary: division by zero" in log
    # medium has 7 racks; two added, one before and one after the error
    assert seen["racks"] == 2 and seen["summary"] == "9"
