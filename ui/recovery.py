"""Autosave and crash recovery: a recovery copy of the open plan while it has unsaved changes.

Each running session holds a ``QLockFile`` (``session-<id>.lock``) in the recovery folder
and, while the plan has unsaved changes, rewrites ``session-<id>.json`` (the plan) every
``interval_s`` seconds, plus a small ``session-<id>.meta.json`` naming the plan's file.
A normal exit removes both; after a crash (or SIGKILL) they stay behind with a lock whose
process is gone, and the next start's ``find_recoverable()`` returns them. The pattern of
LibreOffice's and KiCad's autosave; ``QLockFile`` decides "still running" by the PID it
wrote, so a second running instance never offers the first one's copy.

Wiring in the main window (``stack`` is its document's ``undo_stack``, ``doc.plan`` its Plan)::

    self.autosave = AutosaveManager(lambda: plan_to_json(doc.plan), lambda: not stack.isClean(),
                                    source_path=lambda: str(doc.path or ""), parent=self)
    self.autosave.start()                      # after offering find_recoverable() copies
    stack.cleanChanged.connect(lambda clean: clean and self.autosave.discard())
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLockFile, QObject, QStandardPaths, QTimer, Signal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from planner.errors import PlannerError, one_line
from planner.plan.fileio import atomic_write_bytes, load_plan, open_plan
from planner.plan.model import Plan
from planner.readfile import read_limited

DEFAULT_INTERVAL_S = 60
log = logging.getLogger(__name__)


def default_recovery_dir() -> Path:
    """``<AppLocalDataLocation>/recovery``, e.g. ~/.local/share/GPU Cluster Planner/recovery."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
    return Path(base) / "recovery"


@dataclass(frozen=True, slots=True)
class RecoveryCopy:
    """A recovery copy left behind by a session that did not exit normally."""

    path: Path
    saved_at: datetime
    source: str  # the plan's file when it crashed, "" for a plan never saved
    name: str  # the plan's name, for the offer dialog

    def load(self, catalog=None) -> Plan:
        """The plan as of the last autosave, validated like any plan file (PlanLoadError if not).

        With a catalog, also refuses a plan using device types the catalog lacks, like
        ``planner.plan.fileio.open_plan``.
        """
        return open_plan(self.path, catalog) if catalog is not None else load_plan(self.path)

    def discard(self) -> None:
        """Remove the copy (after it was restored and saved, or the user declined it)."""
        for p in _session_files(self.path):
            p.unlink(missing_ok=True)


def _session_files(plan_path: Path) -> list[Path]:
    stem = plan_path.name.removesuffix(".json")
    return [plan_path, plan_path.with_name(f"{stem}.meta.json"), plan_path.with_name(f"{stem}.lock")]


def find_recoverable(folder: str | Path | None = None) -> list[RecoveryCopy]:
    """Recovery copies whose session is gone (its lock is missing or held by a dead process).

    Newest first. A copy of a session still running (this one or another instance) is
    never returned.
    """
    folder = Path(folder) if folder else default_recovery_dir()
    found = []
    for plan_path in folder.glob("session-*.json"):
        if plan_path.name.endswith(".meta.json"):
            continue
        lock_path = plan_path.with_name(plan_path.name.removesuffix(".json") + ".lock")
        if lock_path.exists():
            probe = QLockFile(str(lock_path))
            probe.setStaleLockTime(0)  # stale only if its process is gone, however old
            if not probe.tryLock(0):
                continue  # a live session
            probe.unlock()  # removes the stale lock; the copy stays until discarded
        meta = _read_meta(plan_path)
        try:
            saved_at = _moment(meta.get("saved_at", plan_path.stat().st_mtime))
        except (OSError, ValueError) as exc:
            log.warning("recovery copy %s skipped: %s", plan_path.name, exc)
            continue
        found.append(RecoveryCopy(plan_path, saved_at, str(meta.get("source", "")), str(meta.get("name", ""))))
    return sorted(found, key=lambda c: c.saved_at, reverse=True)


def _read_meta(plan_path: Path) -> dict:
    """The copy's metadata, validated like a plan file: anything wrong in it is skipped
    with a log line (the copy is then dated by its file), never a failed start."""
    meta_path = plan_path.with_name(plan_path.name.removesuffix(".json") + ".meta.json")
    if not meta_path.exists():
        return {}
    try:
        raw = read_limited(meta_path, MAX_META_BYTES, "recovery note")
        data = json.loads(raw, parse_constant=_refuse_constant)
        meta = RecoveryMeta.model_validate(data).model_dump(exclude_unset=True)
        if "saved_at" in meta:
            _moment(meta["saved_at"])
        return meta
    except (PlannerError, ValueError, RecursionError, ValidationError) as exc:
        log.warning("recovery note %s ignored: %s", meta_path.name, one_line(str(exc), 200))
        return {}


MAX_META_BYTES = 100_000
EARLIEST = datetime(2000, 1, 1).timestamp()


class RecoveryMeta(BaseModel):
    """``session-*.meta.json``: when the copy was written, the plan's file and its name."""

    model_config = ConfigDict(extra="ignore", strict=True, allow_inf_nan=False)
    saved_at: float = Field(0.0, ge=EARLIEST, le=datetime(9000, 1, 1).timestamp())
    source: str = Field("", max_length=4096)
    name: str = Field("", max_length=200)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a time")


def _moment(timestamp: float) -> datetime:
    """A timestamp as a local time, ValueError if the platform cannot represent it."""
    try:
        return datetime.fromtimestamp(timestamp)
    except (OverflowError, OSError, ValueError) as exc:
        raise ValueError(f"{timestamp!r} is not a representable time ({exc})") from None


class AutosaveManager(QObject):
    """Writes a recovery copy every ``interval_s`` seconds while there are unsaved changes.

    ``plan_json()`` returns the current plan as JSON text (``planner.plan.fileio.plan_to_json``);
    ``is_modified()`` tells whether there are unsaved changes (e.g. ``not undo_stack.isClean()``);
    ``source_path()`` (optional) the plan's file, shown when offering the copy.
    """

    saved = Signal(str)  # path of the recovery copy just written
    failed = Signal(str)  # one-line reason an autosave could not be written

    def __init__(
        self,
        plan_json: Callable[[], str],
        is_modified: Callable[[], bool],
        *,
        interval_s: float = DEFAULT_INTERVAL_S,
        folder: str | Path | None = None,
        source_path: Callable[[], str] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._plan_json, self._is_modified, self._source_path = plan_json, is_modified, source_path
        self.folder = Path(folder) if folder else default_recovery_dir()
        session = f"session-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.copy_path = self.folder / f"{session}.json"
        self.meta_path = self.folder / f"{session}.meta.json"
        self.lock = QLockFile(str(self.folder / f"{session}.lock"))
        self.lock.setStaleLockTime(0)  # held for the whole session, however long
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.tick)
        self.set_interval(interval_s)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)

    def set_interval(self, seconds: float) -> None:
        self._timer.setInterval(max(50, int(seconds * 1000)))

    @property
    def interval_s(self) -> float:
        return self._timer.interval() / 1000

    def start(self) -> None:
        """Take the session lock and start the timer."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if not self.lock.isLocked() and not self.lock.tryLock(0):
            self.failed.emit(f"cannot lock {self.lock.fileName()}: recovery copies are off for this session")
            return
        self._timer.start()

    def tick(self) -> None:
        """One autosave: write the copy if there are unsaved changes, drop it once saved."""
        if self._is_modified():
            self.save_now()
        elif self.copy_path.exists():
            self._remove_copy()

    def save_now(self) -> bool:
        """Write the recovery copy now (also used by the exception hook). Never raises."""
        try:
            text = self._plan_json()
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.copy_path, text.encode("utf-8"))
            meta = {"saved_at": time.time(), "source": self._source_path() if self._source_path else "",
                    "name": _plan_name(text)}
            atomic_write_bytes(self.meta_path, json.dumps(meta).encode("utf-8"))
        except (PlannerError, OSError) as exc:
            self.failed.emit(f"autosave failed: {exc}")
            return False
        self.saved.emit(str(self.copy_path))
        return True

    def discard(self) -> None:
        """The plan was saved or closed: its recovery copy is no longer needed."""
        self._remove_copy()

    def stop(self) -> None:
        """Normal exit: remove the copy and release the lock, so nothing is offered next time."""
        self._timer.stop()
        self._remove_copy()
        if self.lock.isLocked():
            self.lock.unlock()

    def _remove_copy(self) -> None:
        for p in (self.copy_path, self.meta_path):
            p.unlink(missing_ok=True)


_NAME = re.compile(r'"name"\s*:\s*("(?:[^"\\]|\\.)*")')


def _plan_name(text: str) -> str:
    """The plan's name from the head of its JSON (the file format writes it second)."""
    match = _NAME.search(text[:2000])
    try:
        name = json.loads(match.group(1)) if match else ""
    except ValueError:
        return ""
    return name[:200] if isinstance(name, str) else ""
