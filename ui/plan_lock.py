"""A plan open in one window is marked as in use, and its file watched for changes by others.

``PlanGuard`` holds a ``QLockFile`` beside the open plan (``.~lock.NAME#``, the name
LibreOffice uses), so a second app instance opening the same file learns that, and by
whom, and can offer to open it read-only. Qt decides "still in use" by the process id it
wrote: a lock left by a crashed instance is taken over silently.

It also remembers the file's identity (modification time, size, inode) as it was read or
last saved, so a save can ask before overwriting a file another program changed since.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QLockFile


def lock_path(plan_path: Path) -> Path:
    return plan_path.with_name(f".~lock.{plan_path.name}#")


# The stamp of a file known to have been written since the plan shown was read: no file has it.
CHANGED_SINCE = (-1, -1, -1)


def disk_stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when anyone writes the file: mtime (ns), size and inode (a rename)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def _same_file(a: Path, b: Path) -> bool:
    """Whether two names are one file (relative or absolute, through links)."""
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


class PlanGuard:
    """The lock on, and the remembered state of, the one plan file a window has open."""

    def __init__(self) -> None:
        self._lock: QLockFile | None = None
        self.path: Path | None = None
        self.stamp: tuple[int, int, int] | None = None
        self.read_only = False

    def holder(self, path: Path) -> str | None:
        """Who else has ``path`` open ("process 123 on host"), or None when nobody does (this
        window's own lock on it is no one else's)."""
        if self._lock is not None and self.path is not None and _same_file(Path(path), self.path):
            return None  # also named another way: "p.json" from the command line, its full path in a recovery copy
        probe = QLockFile(str(lock_path(path)))
        probe.setStaleLockTime(0)  # stale only when its process is gone
        if probe.tryLock(0):
            probe.unlock()
            return None
        if probe.error() != QLockFile.LockError.LockFailedError:
            return None  # the folder cannot hold a lock (read-only): nobody to ask about
        info = probe.getLockInfo()  # PySide6: (pid, hostname, appname), empty when unreadable
        if not info or not info[0]:
            return "another program"
        return f"process {info[0]} on {info[1] or 'this computer'}"

    def take(self, path: Path | None, *, read_only: bool = False, read_at: float | None = None) -> None:
        """Mark ``path`` as open here: lock it unless read-only, remember its state.

        ``read_at`` (seconds since the epoch): when the plan shown was taken from the file, if not
        now (a restored recovery copy); a file written after it counts as changed on disk."""
        self.release()
        self.path = Path(path) if path else None
        self.read_only = read_only
        if self.path is None:
            return
        self.stamp = disk_stamp(self.path)
        if read_at is not None and self.stamp is not None and self.stamp[0] > read_at * 1e9:
            self.stamp = CHANGED_SINCE
        if not read_only:
            lock = QLockFile(str(lock_path(self.path)))
            lock.setStaleLockTime(0)
            if lock.tryLock(0):
                self._lock = lock

    def saved(self, path: Path) -> None:
        """This window just wrote ``path``: it is now the state to compare against."""
        if self.path is None or Path(path) != self.path:
            self.take(path)
        else:
            self.stamp = disk_stamp(self.path)

    def changed_on_disk(self) -> bool:
        """True when the file was written by someone else since it was read or saved here."""
        return self.path is not None and self.stamp is not None and disk_stamp(self.path) != self.stamp

    def release(self) -> None:
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None
