"""Run a function as an unprivileged user in a forked child, so permission tests also run
as root (as CI does): root may write anywhere, the user ``nobody`` may not.

The child is forked, not executed: the Python it runs and the modules it uses are the
parent's, already loaded, so it needs no permission to read the interpreter's files.
"""

from __future__ import annotations

import os
import pwd


def _nobody() -> tuple[int, int]:
    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def as_unprivileged(fn, *args) -> str:
    """``repr`` of what ``fn(*args)`` returned, or ``"ExceptionName: message"``, run in a child
    process that, when this process is root, first becomes ``nobody``."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop privileges, run, report, exit without cleanup
        try:
            os.close(read_end)
            if os.geteuid() == 0:
                uid, gid = _nobody()
                os.setgroups([])
                os.setgid(gid)
                os.setuid(uid)
            try:
                out = repr(fn(*args))
            except BaseException as exc:  # noqa: BLE001 - reported to the parent as text
                out = f"{type(exc).__name__}: {exc}"
            os.write(write_end, out.encode("utf-8", "replace"))
        finally:
            os._exit(0)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8")


def shared_folder(name: str, mode: int = 0o755):
    """A folder the unprivileged user can reach (pytest's own tmp folders are root-only)."""
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix=f"planner-{name}-", dir="/tmp"))
    os.chmod(folder, mode)
    return folder
