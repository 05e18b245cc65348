"""Reading and writing plan files: validated loads, atomic saves with backups.

Loading either returns a complete, valid ``Plan`` or raises ``PlanLoadError`` with a
one-line reason; nothing is ever half-read. Saving writes a temporary file beside the
target, fsyncs it and renames it over the target (the pattern of ``QSaveFile`` and of
LibreOffice/KiCad), after keeping the previous version as ``NAME.1.bak`` (the last
``keep`` versions, newest ``.1``). A save that fails (disk full, no permission) leaves the
old file intact and raises ``PlanSaveError`` saying why.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path

from pydantic import ValidationError

from planner.errors import PlannerError, describe_validation_error, quote
from planner.plan.migrations import migrate
from planner.plan.model import Plan
from planner.plan.readfile import read_limited

MAX_PLAN_BYTES = 64 * 1024 * 1024
DEFAULT_BACKUPS = 3


class PlanLoadError(PlannerError):
    """A plan file that cannot be used; the message is one line for the user."""


class PlanSaveError(PlannerError):
    """A save that did not happen; the old file is unchanged. One line for the user."""


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a plan may hold")


def _too_large(origin: str, size: int) -> PlanLoadError:
    return PlanLoadError(
        f"{origin}: {size / 1e6:.0f} MB is larger than a plan file can be ({MAX_PLAN_BYTES // 2**20} MB)"
    )


def plan_from_json(text: str | bytes, origin: str = "plan") -> Plan:
    """Parse, migrate and validate a plan; raise PlanLoadError, never anything else."""
    if len(text) > MAX_PLAN_BYTES:
        raise _too_large(origin, len(text))
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise PlanLoadError(f"{origin}: the JSON is nested too deeply to be a plan") from None
    except UnicodeDecodeError:
        raise PlanLoadError(f"{origin}: not a UTF-8 text file") from None
    except (json.JSONDecodeError, ValueError) as exc:
        raise PlanLoadError(f"{origin}: not a valid plan file (JSON error: {exc})") from None
    if not isinstance(data, dict):
        raise PlanLoadError(f"{origin}: not a plan file (expected a JSON object, found {type(data).__name__})")
    try:
        data = migrate(data)
    except PlannerError as exc:
        raise PlanLoadError(f"{origin}: {exc}") from None
    try:
        return Plan.model_validate(data)
    except ValidationError as exc:
        raise PlanLoadError(f"{origin}: {describe_validation_error(exc, data)}") from None
    except RecursionError:
        raise PlanLoadError(f"{origin}: the JSON is nested too deeply to be a plan") from None


def load_plan(path: str | Path) -> Plan:
    """Read and validate a plan file; raise PlanLoadError with a one-line reason."""
    try:
        raw = read_limited(path, MAX_PLAN_BYTES)
    except PlannerError as exc:
        raise PlanLoadError(str(exc)) from None
    return plan_from_json(raw, Path(path).name)


def plan_to_json(plan: Plan) -> str:
    return plan.model_dump_json(indent=1)


# -- saving ---------------------------------------------------------------------------

def backup_path(path: str | Path, index: int) -> Path:
    """The ``index``-th newest backup of ``path`` (1 = the version before the last save)."""
    path = Path(path)
    return path.with_name(f"{path.name}.{index}.bak")


def backups_of(path: str | Path) -> list[Path]:
    """Existing backups of ``path``, newest first."""
    out, i = [], 1
    while backup_path(path, i).exists():
        out.append(backup_path(path, i))
        i += 1
    return out


def save_failure(path: Path, exc: OSError) -> PlanSaveError:
    """One line saying why a save failed, in words a user acts on."""
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full"
    elif code in (errno.EACCES, errno.EPERM):
        why = f"no permission to write in {path.parent}"
    elif code == errno.EROFS:
        why = f"{path.parent} is on a read-only disk"
    elif code == errno.ENOENT:
        why = f"the folder {path.parent} does not exist"
    elif code == errno.EFBIG:
        why = "the file is larger than this disk or account allows"
    else:
        why = exc.strerror or str(exc)
    keep = "the previous file is unchanged" if path.exists() else "nothing was written"
    return PlanSaveError(f"cannot save {path.name}: {why} ({keep})")


def keep_backups(path: str | Path, keep: int) -> None:
    """Shift NAME.1.bak .. NAME.(keep-1).bak up by one and make NAME.1.bak the current file.

    Called after the new content is safely on disk in a temporary file and before it
    replaces ``path``. The current file is hard-linked (falling back to a copy), so
    ``path`` itself is never absent or partial. The oldest backup beyond ``keep`` drops off.
    """
    path = Path(path)
    if keep <= 0 or not path.is_file():
        return
    for i in range(keep - 1, 0, -1):
        older = backup_path(path, i)
        if older.exists():
            os.replace(older, backup_path(path, i + 1))
    newest = backup_path(path, 1)
    try:
        newest.unlink(missing_ok=True)
        os.link(path, newest)
    except OSError:
        _copy_atomically(path, newest)


def _copy_atomically(src: Path, dst: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    try:
        with os.fdopen(fd, "wb") as out, open(src, "rb") as inp:
            while chunk := inp.read(1 << 20):
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, dst)
    except BaseException:
        _unlink_quietly(tmp)
        raise


def resolve_target(path: str | Path) -> Path:
    """Where a save really goes: through symlinks, so a link to a plan stays a link."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def current_umask() -> int:
    """The process umask, read without changing it where the OS allows (Linux
    /proc/self/status), else by setting and restoring it."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def file_mode_for(path: Path) -> int:
    """Keep an existing file's permissions; a new file gets 0666 less the umask (as any
    program's new document would; a temporary file from mkstemp is 0600, which would
    survive the rename and lock colleagues out of a shared folder)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~current_umask()


def atomic_write_bytes(path: str | Path, data: bytes, *, keep: int = 0) -> None:
    """Write to a temporary file beside the target, fsync, keep backups, then replace.

    The old file stays complete until the rename, which the OS makes atomic; a crash at
    any moment leaves either the complete old file or the complete new one.
    """
    path = resolve_target(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise save_failure(path, exc) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, file_mode_for(path))
            os.fsync(fd)
        finally:
            os.close(fd)
        keep_backups(path, keep)
        os.replace(tmp, path)
    except OSError as exc:
        _unlink_quietly(tmp)
        raise save_failure(path, exc) from None
    except BaseException:
        _unlink_quietly(tmp)
        raise
    fsync_dir(directory)


def _unlink_quietly(name: str | Path) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (POSIX needs the folder fsynced too)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_plan(plan: Plan, path: str | Path, *, keep: int = DEFAULT_BACKUPS) -> None:
    """Save atomically, keeping the previous ``keep`` versions as NAME.1.bak (newest) ..."""
    atomic_write_bytes(path, plan_to_json(plan).encode("utf-8"), keep=keep)


def unknown_device_problem(plan: Plan, catalog) -> str | None:
    """A plan whose devices the catalog does not know cannot be evaluated: say which."""
    for p in plan.placements:
        if p.device not in catalog:
            return f"device '{p.id}' has type {quote(p.device)}, which the catalog does not have"
    return None


def open_plan(path: str | Path, catalog) -> Plan:
    """Load a plan and check that every device type it uses is in the catalog."""
    plan = load_plan(path)
    problem = unknown_device_problem(plan, catalog)
    if problem:
        raise PlanLoadError(f"{Path(path).name}: {problem}")
    return plan
