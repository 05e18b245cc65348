"""Run the real app (``ui.app.run``) inside a test, answering its recovery prompt."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from ui import app as ui_app


def run_app(monkeypatch, argv, on_window, on_prompt=None, close: bool = True):
    """``ui.app.run(argv)`` in this process. ``on_prompt(box)`` answers each recovery prompt
    (default: "Not now"); ``on_window(window)`` runs once the app has started (autosave on,
    recovery offered). With ``close`` the window is then closed, a normal exit; otherwise
    ``on_window`` must close it. Returns the prompts shown."""
    prompts = []

    def watch():
        for w in QApplication.topLevelWidgets():
            if w.objectName() == "RecoveryPrompt" and w.isVisible() and w not in prompts:
                prompts.append(w)
                on_prompt(w) if on_prompt else w.later_button.click()

    watcher = QTimer()
    watcher.timeout.connect(watch)
    watcher.start(30)
    guard = QTimer()  # a hang fails the test instead of blocking the run
    guard.setSingleShot(True)
    guard.timeout.connect(QApplication.instance().quit)
    guard.start(30_000)

    def started(window):
        on_window(window)
        if close:
            window.doc.undo_stack.setClean()
            QTimer.singleShot(0, window.close)

    monkeypatch.setattr(ui_app, "STARTUP_HOOKS", [started])
    try:
        assert ui_app.run(argv) == 0
    finally:
        watcher.stop()
        guard.stop()
    return prompts
