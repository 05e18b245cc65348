"""What a save may replace, and why one failed, in words a user acts on: the checks every
writer makes before it writes (``planner.safefile``, the CLI's and the app's exports).

A folder, device, pipe or socket is refused, as is an existing file nobody may write (mode
without any write bit, or not writable by this user) and a target that is the same file as
one of the command's inputs. A symbolic link is followed: the file it points to is replaced
and the link stays a link.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from planner.errors import PlannerError


class SaveError(PlannerError):
    """A save or export that did not happen; the old file is unchanged. One line for the user."""


# -- where a write goes ---------------------------------------------------------------

def resolve_target(path: str | Path) -> Path:
    """Where a save really goes: through symlinks, so a link to a plan stays a link."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_target(path: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    """The file a write to ``path`` replaces, or SaveError saying why it must not be written."""
    if not str(path).strip():
        raise SaveError("cannot save: no file name was given (nothing was written)")
    target = resolve_target(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise save_failure(target, exc) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise SaveError(f"cannot save to {target}: it is a folder; give a file name")
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(f"cannot save to {target}: it is a device, pipe or socket, not a file "
                            "(nothing was written)")
        if st.st_mode & 0o222 == 0 or not os.access(target, os.W_OK):
            raise SaveError(f"cannot save {target.name}: the file is read-only (the previous file is unchanged)")
    for source in inputs:
        if _same_file(target, source):
            raise SaveError(f"cannot save to {target.name}: it is an input of this command "
                            f"({Path(source).name}); choose another file name (nothing was written)")
    return target


def _same_file(a: Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


# -- failures in words ----------------------------------------------------------------

def names_besides(directory: str | Path, ours: Callable[[str], bool]) -> list[str]:
    """The names in a folder an export replaces whole that are not its own (``ours``): what
    replacing it would lose. Empty for a folder that is not there, or cannot be read (the
    export's write says why)."""
    try:
        return sorted(e.name for e in os.scandir(directory) if not ours(e.name))
    except OSError:
        return []


def save_failure(path: Path, exc: OSError) -> SaveError:
    """One line saying why a save failed, in words a user acts on."""
    return SaveError(f"cannot save {path.name}: {_why(path, exc)} ({kept(path)})")


def folder_failure(folder: Path, exc: OSError, made_in: Path | None = None) -> SaveError:
    """One line saying why a folder of files (written beside it, then renamed over it; inside
    it when it is a mount point, ``made_in``) was not written: what stopped it is where the
    files were being made, or the disk, not in one of the files."""
    where = made_in if made_in is not None else folder.parent
    before = "the previous files are unchanged" if _has_files(folder) else "nothing was written"
    return SaveError(f"cannot write the files into {folder}: {_why(where / folder.name, exc)} ({before})")


def _has_files(folder: Path) -> bool:
    try:
        return folder.is_dir() and any(folder.iterdir())
    except OSError:
        return False


def _file_above(path: Path) -> Path | None:
    """The nearest folder above ``path`` that exists as something other than a folder."""
    for above in path.parents:
        if above.exists():
            return None if above.is_dir() else above
    return None


def _why(path: Path, exc: OSError) -> str:
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full"
    elif code in (errno.EACCES, errno.EPERM):
        why = f"no permission to write in {path.parent}"
    elif code == errno.EROFS:
        why = f"{path.parent} is on a read-only disk"
    elif code == errno.ENOENT and path.parent.is_dir():  # a folder no file can be made in: /proc
        why = f"files cannot be created in {path.parent}"
    elif code == errno.ENOENT:
        why = f"the folder {path.parent} does not exist"
    elif code == errno.EFBIG:
        why = "the file is larger than this disk or account allows"
    elif code in (errno.ENOTDIR, errno.EEXIST) and _file_above(path) is not None:
        why = f"{_file_above(path)} is a file, not a folder"
    elif code == errno.ENOTDIR:
        why = f"{path.parent} is not a folder"
    elif code == errno.EISDIR:
        why = f"{path} is a folder"
    else:
        why = exc.strerror or str(exc)
    return why


def kept(path: Path) -> str:
    return "the previous file is unchanged" if path.exists() else "nothing was written"
