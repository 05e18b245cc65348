"""The one way the planner writes a file: plans, exports and recovery copies, CLI and app.

``write_file`` checks the target (``planner.save_target``), writes into a temporary file in
its folder, checks the result (``planner.output_checks``), fsyncs it, keeps backups if asked
and renames it over the target (``os.replace``, atomic). Any failure raises ``SaveError``
with one line saying why; the previous file is untouched and no temporary file is left.
Temporaries of killed processes (``.~gcp-tmp~HOST~PIDNS~PID~RANDOM~NAME``) are removed by
the next save into that folder on that host; ``write_folder`` does all this for a folder.

Why it is long: one writer for every output, file and folder, with its backups and the
clean-up of killed saves' temporaries; each step's failure is part of the same contract.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import socket
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from planner.output_checks import verify_written
from planner.save_target import SaveError, check_target, folder_failure, kept, save_failure


# -- backups ----------------------------------------------------------------------------

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
        try:
            os.replace(backup_path(path, i), backup_path(path, i + 1))
        except FileNotFoundError:
            pass  # none yet, or another save of the same file has just moved it up
    # the current file, linked under a temporary name and renamed over NAME.1.bak: another save
    # rotating at the same moment can never find the backup half made or missing
    tmp = path.with_name(f"{temporary_prefix()}{os.urandom(4).hex()}~{path.name[:120]}")
    try:
        os.link(path, tmp)
    except FileNotFoundError:
        return  # another save just replaced the file; its backup is being made there
    except OSError:
        write_file(backup_path(path, 1), write=lambda out: shutil.copyfile(path, out), kind="")
        return
    try:
        os.replace(tmp, backup_path(path, 1))
    finally:
        _unlink_quietly(tmp)  # a rename onto another link of the same file leaves both names


@contextmanager
def rotation_lock(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` while one save rotates backups and renames its
    file in: saves of one file from several processes then take turns, so NAME.2.bak is never
    left missing between NAME.1.bak and NAME.3.bak (one save moving .1 up while another moves
    the same .2 on). ``flock`` on the folder itself: nothing extra in the user's folder, and
    the lock goes with a killed process. Where a folder cannot be locked (Windows, some network
    shares) saves go on unlocked, as before."""
    try:
        import fcntl
        fd = os.open(directory, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)  # closing the last descriptor releases the lock


# -- permissions ------------------------------------------------------------------------

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


# -- temporary files --------------------------------------------------------------------

# A temporary file's name says it is the planner's and whose it is, in a form no user file has:
# ".~gcp-tmp~HOST~PIDNS~PID~RANDOM~NAME" (HOST this computer, PIDNS the PID namespace the PID
# counts in). Cleanup removes only such names, only of this host and namespace, only when the
# process is gone; anything else (another program's file, another host's save) is left alone.
TMP_PREFIX = ".~gcp-tmp~"
_TMP = re.compile(rf"^{re.escape(TMP_PREFIX)}([A-Za-z0-9-]+)~([0-9a-z]+)~(\d+)~[a-z0-9_]{{8}}~")


def _token(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9-]", "-", text)[:63] or "host"


def _pid_namespace() -> str:
    """The PID namespace this process's PID counts in (Linux), or "0" where there is none to tell."""
    try:
        return re.sub(r"\D", "", os.readlink("/proc/self/ns/pid")) or "0"
    except OSError:
        return "0"


def owner_tag() -> str:
    """HOST~PIDNS~PID of this process, as temporary file names carry it."""
    return f"{_token(socket.gethostname())}~{_pid_namespace()}~{os.getpid()}"


def temporary_prefix() -> str:
    """The start of a temporary file's name (mkstemp adds the random part and the target's name)."""
    return f"{TMP_PREFIX}{owner_tag()}~"


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def remove_stale_temporaries(directory: Path) -> list[Path]:
    """Remove temporary files killed saves of this host and PID namespace left in ``directory``;
    return what was removed. Only the planner's names; never another host's or namespace's."""
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    host, namespace, _ = owner_tag().split("~")
    for entry in entries:
        match = _TMP.match(entry.name)
        if not match or match.group(1) != host or match.group(2) != namespace:
            continue
        try:
            if _pid_alive(int(match.group(3))):
                continue
            if entry.is_dir(follow_symlinks=False):  # a folder export's staging or set-aside folder
                shutil.rmtree(entry.path)
            elif entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
            else:
                continue
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


# -- the writer -------------------------------------------------------------------------

def write_file(path: str | Path, data: bytes | None = None, *, write: Callable[[str], None] | None = None,
               kind: str | None = None, keep: int = 0, inputs: Iterable[str | Path] = ()) -> Path:
    """Write ``data`` (or let ``write(temporary_name)`` write the file) to ``path`` safely.

    ``kind`` is the suffix whose check the result must pass (default: the target's
    suffix). ``keep`` backups are rotated (``NAME.1.bak`` newest) just before the rename.
    Returns the file written (the link's target for a symbolic link).
    """
    if (data is None) == (write is None):
        raise TypeError("give either data or write")
    target = check_target(path, inputs)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise save_failure(target, OSError(errno.ENOENT, "No such file or directory"))
    remove_stale_temporaries(directory)
    try:
        fd, tmp = tempfile.mkstemp(prefix=temporary_prefix(), suffix=f"~{target.name[:120]}", dir=directory)
    except OSError as exc:
        raise save_failure(target, exc) from None
    try:
        try:
            if data is not None:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        if write is not None:
            write(tmp)
        verify_written(tmp, kind or target.suffix)
        with open(tmp, "rb+") as fh:
            os.fchmod(fh.fileno(), file_mode_for(target))
            os.fsync(fh.fileno())
        if keep > 0:
            with rotation_lock(directory):
                keep_backups(target, keep)
                os.replace(tmp, target)
        else:
            os.replace(tmp, target)
    except OSError as exc:
        _unlink_quietly(tmp)
        raise save_failure(target, exc) from None
    except SaveError as exc:
        _unlink_quietly(tmp)
        message = str(exc)
        if not message.startswith("cannot save"):
            message = f"cannot save {target.name}: {message} ({kept(target)})"
        raise SaveError(message) from None
    except BaseException:
        _unlink_quietly(tmp)
        raise
    fsync_dir(directory)
    return target


def _unlink_quietly(name: str | Path) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


# -- folders --------------------------------------------------------------------------

def write_folder(directory: str | Path, fill: Callable[[Path], None]) -> Path:
    """Write a folder of files: ``fill(staging)`` writes them into a hidden sibling folder,
    which is then renamed over ``directory`` (created if missing, else replaced whole), so the
    folder holds either the previous export or this one, never a mix. SaveError if not
    (``folder_failure``: what stopped it); the caller checks what ``directory`` may replace."""
    target = Path(os.path.realpath(directory))
    # a mount point (a share's root) cannot be renamed: its files are staged inside it and
    # swapped in one by one
    inside = os.path.ismount(target)
    where = target if inside else target.parent
    try:
        where.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(where)
        staging = Path(tempfile.mkdtemp(prefix=temporary_prefix(), suffix=f"~{target.name[:120]}", dir=where))
    except OSError as exc:
        raise folder_failure(target, exc, where) from None
    try:
        fill(staging)
        fsync_dir(staging)
        if inside:
            _swap_files_in(staging, target)
        else:
            os.chmod(staging, _folder_mode(target))
            _swap_in(staging, target)
    except OSError as exc:
        raise folder_failure(target, exc, where) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _swap_files_in(staging: Path, target: Path) -> None:
    """Into a folder that cannot itself be replaced (a mount point): the previous export's
    entries are removed, then each staged one is renamed in (each rename atomic, the folder as
    a whole not; what ``directory`` may hold is the caller's check, as for a replaced folder)."""
    for old in os.scandir(target):
        if old.path == str(staging) or old.name.startswith(TMP_PREFIX):
            continue
        if old.is_dir(follow_symlinks=False):
            shutil.rmtree(old.path)
        else:
            os.unlink(old.path)
    for new in os.scandir(staging):
        os.rename(new.path, target / new.name)
    fsync_dir(target)


def _folder_mode(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return 0o777 & ~current_umask()


def _swap_in(staging: Path, target: Path) -> None:
    """Rename ``staging`` to ``target``; an earlier export is moved aside first and removed after
    (put back if the rename fails)."""
    if not target.exists():
        os.rename(staging, target)
    else:
        aside = target.with_name(f"{temporary_prefix()}{os.urandom(4).hex()}~{target.name[:120]}")
        os.rename(target, aside)
        try:
            os.rename(staging, target)
        except OSError:
            os.rename(aside, target)
            raise
        shutil.rmtree(aside, ignore_errors=True)
    fsync_dir(target.parent)
