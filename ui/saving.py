"""Saving a plan from the app: QSaveFile (atomic), with the same backups as the core.

Order as in ``planner.plan.fileio.atomic_write_bytes``: the new content is written to
QSaveFile's temporary file first; only once that succeeded are the backups rotated
(``NAME.1.bak`` = the previous version, keep the last ``keep``) and the temporary file
renamed over the plan by ``commit()``. A failure at any step leaves the old file intact
and raises ``PlanSaveError`` with a one-line reason for the dialog.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from PySide6.QtCore import QFileDevice, QIODevice, QSaveFile

from planner.plan.fileio import DEFAULT_BACKUPS, PlanSaveError, keep_backups, plan_to_json, resolve_target, save_failure
from planner.plan.model import Plan

# QFileDevice errors -> errno, so the app says the same words as the core and the CLI.
_ERRNO = {
    QFileDevice.FileError.PermissionsError: errno.EACCES,
    QFileDevice.FileError.ResourceError: errno.ENOSPC,
}


def save_plan_qt(plan: Plan, path: str | Path, *, keep: int = DEFAULT_BACKUPS) -> None:
    """Save ``plan`` to ``path`` atomically via QSaveFile, keeping ``keep`` backups."""
    save_bytes_qt(plan_to_json(plan).encode("utf-8"), path, keep=keep)


def save_bytes_qt(data: bytes, path: str | Path, *, keep: int = DEFAULT_BACKUPS) -> None:
    target = resolve_target(path)
    if not target.parent.is_dir():
        raise save_failure(target, OSError(errno.ENOENT, "No such file or directory"))
    out = QSaveFile(str(target))
    if not out.open(QIODevice.OpenModeFlag.WriteOnly):
        raise _failure(target, out)
    written = out.write(data)
    if written != len(data) or out.error() != QFileDevice.FileError.NoError or not out.flush():
        out.cancelWriting()
        raise _failure(target, out, default=errno.ENOSPC)
    try:
        keep_backups(target, keep)
    except OSError as exc:
        out.cancelWriting()
        out.commit()  # with writing cancelled, commit only discards the temporary file
        raise save_failure(target, exc) from None
    if not out.commit():
        raise _failure(target, out)


def _failure(target: Path, out: QSaveFile, default: int = errno.EIO) -> PlanSaveError:
    code = _ERRNO.get(out.error(), default)
    return save_failure(target, OSError(code, out.errorString() or os.strerror(code)))
