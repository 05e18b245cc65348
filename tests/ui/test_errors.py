"""Unexpected exceptions: dialog, log file, recovery save, and the app keeps running."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox

from ui.errors import install_exception_hook


@pytest.mark.qt_no_exception_capture
def test_exception_in_a_slot_is_logged_saved_shown_and_survived(qtbot, tmp_path):
    window = QMainWindow()
    qtbot.addWidget(window)
    saves = []
    hook = install_exception_hook(lambda: window, lambda: saves.append("saved"), log_dir=tmp_path / "logs")
    try:
        def broken_slot():
            raise ZeroDivisionError("rack power per node: division by zero")

        QTimer.singleShot(0, broken_slot)
        qtbot.waitUntil(lambda: hook.dialog is not None, timeout=3000)
        box = hook.dialog
        assert isinstance(box, QMessageBox) and box.isVisible() and box.parent() is window
        assert "division by zero" in box.text() and "recovery copy" in box.text()
        assert str(tmp_path / "logs" / "errors.log") in box.text()
        assert saves == ["saved"]
        log = (tmp_path / "logs" / "errors.log").read_text()
        assert "Traceback" in log and "ZeroDivisionError" in log and "broken_slot" in log

        # The event loop still runs: a later timer fires and a second error reuses the open dialog.
        fired = []
        QTimer.singleShot(0, lambda: fired.append(True))
        QTimer.singleShot(10, broken_slot)
        qtbot.waitUntil(lambda: bool(fired) and hook.count == 2, timeout=3000)
        assert hook.dialog is box and saves == ["saved", "saved"]
        assert (tmp_path / "logs" / "errors.log").read_text().count("ZeroDivisionError") >= 4  # 2 tracebacks
        box.accept()
    finally:
        hook.uninstall()
    assert sys.excepthook is not hook


@pytest.mark.qt_no_exception_capture
def test_a_failing_recovery_save_does_not_break_the_hook(qtbot, tmp_path):
    def bad_save():
        raise OSError("disk gone")

    hook = install_exception_hook(lambda: None, bad_save, log_dir=tmp_path)
    try:
        QTimer.singleShot(0, lambda: 1 / 0)
        qtbot.waitUntil(lambda: hook.dialog is not None, timeout=3000)
        assert "recovery copy" not in hook.dialog.text()
        assert "recovery save failed" in (tmp_path / "errors.log").read_text()
        hook.dialog.accept()
    finally:
        hook.uninstall()
