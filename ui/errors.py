"""Unexpected exceptions in the app: a dialog, a log file, a recovery save; the app goes on.

``install_exception_hook`` replaces ``sys.excepthook``, which PySide6 calls for an
exception raised in a slot or event handler. The hook writes the traceback to
``<AppLocalDataLocation>/logs/errors.log``, asks for a recovery save (so the work is on
disk even if the app is now in a bad state) and shows a short, non-blocking message box.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

MAX_LOG_BYTES = 1_000_000


def default_log_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
    return Path(base) / "logs"


class ExceptionHook:
    """The installed hook; kept as an object so tests and the window can inspect it."""

    def __init__(self, window_getter: Callable[[], QWidget | None], recovery_save: Callable[[], object],
                 log_dir: Path | None = None) -> None:
        self.window_getter, self.recovery_save = window_getter, recovery_save
        self.log_dir = Path(log_dir) if log_dir else default_log_dir()
        self.log_path = self.log_dir / "errors.log"
        self.previous = sys.excepthook
        self.dialog: QMessageBox | None = None
        self.count = 0
        self._busy = False

    def __call__(self, exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt) or self._busy:
            self.previous(exc_type, exc, tb)
            return
        self._busy = True  # an exception inside the hook must not recurse
        try:
            self.count += 1
            self._log("".join(traceback.format_exception(exc_type, exc, tb)))
            saved = self._recovery_save()
            self._show(exc_type, exc, saved)
        finally:
            self._busy = False

    def _log(self, text: str) -> None:
        try:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            if self.log_path.exists() and self.log_path.stat().st_size > MAX_LOG_BYTES:
                self.log_path.replace(self.log_path.with_suffix(".log.1"))
            with open(self.log_path, "a", encoding="utf-8") as fh:
                fh.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{text}\n")
        except OSError:
            sys.stderr.write(text)

    def _recovery_save(self) -> bool:
        try:
            return self.recovery_save() is not False
        except Exception:  # noqa: BLE001 - the hook must survive a broken save
            self._log("recovery save failed:\n" + traceback.format_exc())
            return False

    def _show(self, exc_type, exc, saved: bool) -> None:
        if QApplication.instance() is None:
            return
        summary = str(exc).splitlines()[0][:200] if str(exc) else exc_type.__name__
        text = (f"Something went wrong: {summary}\n\n"
                + ("Your plan was saved to a recovery copy. " if saved else "")
                + "You can keep working; if the app misbehaves, save and restart it.\n\n"
                + f"Details were written to {self.log_path}")
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.setText(text)  # one dialog at a time, however many errors follow
            return
        try:
            parent = self.window_getter()
        except Exception:  # noqa: BLE001
            parent = None
        box = QMessageBox(QMessageBox.Icon.Critical, "Unexpected error", text, QMessageBox.StandardButton.Ok, parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.destroyed.connect(self._forget_dialog)
        box.open()  # non-blocking: the event loop (and the app) keeps running
        self.dialog = box

    def _forget_dialog(self, *_args) -> None:
        self.dialog = None

    def uninstall(self) -> None:
        if sys.excepthook is self:
            sys.excepthook = self.previous


def install_exception_hook(window_getter: Callable[[], QWidget | None], recovery_save: Callable[[], object],
                           log_dir: Path | None = None) -> ExceptionHook:
    """Install the hook; ``recovery_save`` is typically ``AutosaveManager.save_now``."""
    hook = ExceptionHook(window_getter, recovery_save, log_dir)
    sys.excepthook = hook
    return hook
