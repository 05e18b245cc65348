"""Work is never lost in the running app: autosave, the crash-recovery offer, the error hook's save.

``ui.app.run`` calls, once the window is shown: ``start_autosave(window)`` (a recovery copy
every N seconds while the plan has unsaved changes, see ``ui.recovery``),
``install_exception_hook(..., recovery_save(window), log_dir())`` (``ui.errors``) and
``offer_recovery(window)`` (after a crash: restore the plan as of its last autosave?).

Where things go, and how to change it (tests use both):

- ``CLUSTER_PLANNER_STATE_DIR``: the folder for recovery copies (``<dir>/recovery``) and
  the error log (``<dir>/logs/errors.log``). Default: the app's local data folder
  (``QStandardPaths.AppLocalDataLocation``, e.g. ``~/.local/share/GPU Cluster Planner``).
- The autosave interval: Edit -> Preferences (QSettings key ``autosave/intervalSeconds``,
  default 60 s); ``CLUSTER_PLANNER_AUTOSAVE_S`` (seconds, may be fractional) overrides it.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox

from planner.errors import PlannerError
from ui.errors import default_log_dir
from ui.recovery import DEFAULT_INTERVAL_S, AutosaveManager, RecoveryCopy, default_recovery_dir, find_recoverable

STATE_DIR_ENV = "CLUSTER_PLANNER_STATE_DIR"
AUTOSAVE_ENV = "CLUSTER_PLANNER_AUTOSAVE_S"
INTERVAL_KEY = "autosave/intervalSeconds"
MIN_INTERVAL_S, MAX_INTERVAL_S = 10, 3600  # what Preferences offers


def _state_dir() -> Path | None:
    value = os.environ.get(STATE_DIR_ENV, "").strip()
    return Path(value).expanduser() if value else None


def recovery_dir() -> Path:
    state = _state_dir()
    return state / "recovery" if state else default_recovery_dir()


def log_dir() -> Path:
    state = _state_dir()
    return state / "logs" if state else default_log_dir()


def interval_override() -> float | None:
    """The interval ``CLUSTER_PLANNER_AUTOSAVE_S`` sets, or None (unset or not a positive number)."""
    try:
        value = float(os.environ.get(AUTOSAVE_ENV, ""))
    except ValueError:
        return None
    return value if 0 < value < 1e6 else None


def autosave_interval_s(settings: QSettings | None = None) -> float:
    """Seconds between recovery copies: the environment override, else the preference, else 60."""
    override = interval_override()
    if override is not None:
        return override
    value = (settings or QSettings()).value(INTERVAL_KEY, DEFAULT_INTERVAL_S)
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return DEFAULT_INTERVAL_S
    return min(max(seconds, MIN_INTERVAL_S), MAX_INTERVAL_S) if seconds == seconds else DEFAULT_INTERVAL_S


def start_autosave(window) -> AutosaveManager:
    """An AutosaveManager for the window's document, started (the window keeps it: ``MainWindow.start_autosave``)."""
    doc = window.doc
    manager = AutosaveManager(doc.plan_json, lambda: doc.is_modified, interval_s=autosave_interval_s(window.settings),
                              folder=recovery_dir(), source_path=lambda: str(doc.path or ""), parent=window)
    doc.undo_stack.cleanChanged.connect(lambda clean: clean and manager.discard())  # saved: copy obsolete
    manager.failed.connect(lambda message: window.statusBar().showMessage(message, 10000))
    manager.start()
    return manager


def recovery_save(window):
    """For the exception hook: write the recovery copy now (False without autosave).

    Saved even when the undo stack is clean: the error may have struck in the middle of an
    edit, before it reached the stack. A copy of an unmodified plan goes at the next tick."""
    def save() -> bool:
        manager = getattr(window, "autosave", None)
        return manager.save_now() if manager is not None else False
    return save


# -- the offer after a crash ------------------------------------------------------------
def describe_copy(copy: RecoveryCopy, now: datetime | None = None) -> str:
    """'“medium” (/plans/medium.json), autosaved Tuesday 3 June 2025 at 14:05:09 (2 minutes ago)'."""
    now = now or datetime.now()
    minutes = max(0, int((now - copy.saved_at).total_seconds() // 60))
    if minutes < 1:
        ago = "less than a minute ago"
    elif minutes < 120:
        ago = f"{minutes} minute{'s' if minutes != 1 else ''} ago"
    elif minutes < 48 * 60:
        ago = f"{minutes // 60} hours ago"
    else:
        ago = f"{minutes // (24 * 60)} days ago"
    where = copy.source or "never saved to a file"
    when = f"{copy.saved_at:%A} {copy.saved_at.day} {copy.saved_at:%B %Y} at {copy.saved_at:%H:%M:%S}"
    return f"“{copy.name or 'Untitled plan'}” ({where}), autosaved {when} ({ago})"


def recovery_prompt(window, copy: RecoveryCopy) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Question, QApplication.applicationDisplayName() or "Recover plan",
                      "<b>The last session did not close normally.</b>", QMessageBox.StandardButton.NoButton, window)
    box.setObjectName("RecoveryPrompt")
    box.setWindowTitle("Recover unsaved work")
    box.setInformativeText(f"A recovery copy is available:\n{describe_copy(copy)}.\n\n"
                           "Restore it? It opens as an unsaved plan; save it to keep it.")
    box.restore_button = box.addButton("Restore", QMessageBox.ButtonRole.AcceptRole)
    box.discard_button = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    box.later_button = box.addButton("Not now", QMessageBox.ButtonRole.RejectRole)
    box.restore_button.setToolTip("Open the plan as of its last autosave")
    box.discard_button.setToolTip("Delete the recovery copy")
    box.later_button.setToolTip("Keep the recovery copy and offer it again at the next start")
    box.setDefaultButton(box.restore_button)
    box.setEscapeButton(box.later_button)
    return box


def offer_recovery(window, copies: list[RecoveryCopy] | None = None) -> bool:
    """Offer each recovery copy (newest first) until one is restored; True if one was."""
    copies = find_recoverable(recovery_dir()) if copies is None else copies
    for copy in copies:
        box = recovery_prompt(window, copy)
        box.exec()
        clicked = box.clickedButton()
        if clicked is box.restore_button:
            if restore_copy(window, copy):
                return True
        elif clicked is box.discard_button:
            copy.discard()
    return False


def restore_copy(window, copy: RecoveryCopy) -> bool:
    """Open the copy as a modified document (on its original file, if that folder exists).

    The file is claimed as Open claims it (another instance holding it is asked about: read-only,
    anyway or cancel), and a file written after the copy's autosave asks before it is overwritten."""
    try:
        plan = copy.load(window.doc.catalog)
    except PlannerError as exc:
        window.show_error("Recover unsaved work", f"The recovery copy cannot be opened: {exc}\n"
                          f"It stays in {copy.path.parent}.")
        return False
    source = Path(copy.source) if copy.source else None
    path = source if source is not None and source.parent.is_dir() else None
    mode = window.claim(path) if path is not None else "edit"  # another instance may hold it: ask, as Open does
    if mode == "cancel":
        return False
    window.doc.replace(plan, path)
    # the copy is as old as its last autosave: a save over a file written since asks first
    window.plan_guard.take(path, read_only=mode == "read_only", read_at=copy.saved_at.timestamp())
    window.doc.undo_stack.resetClean()  # not saved: the title shows the marker, closing asks
    window.setWindowModified(True)
    window.view.zoom_to_rack_height()
    manager = getattr(window, "autosave", None)
    if manager is not None and manager.save_now():
        copy.discard()  # this session's own copy now holds the plan
    window.statusBar().showMessage(f"Restored the plan as of {copy.saved_at:%H:%M:%S}; save it to keep it.", 10000)
    return True
