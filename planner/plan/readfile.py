"""Reading a user's file without trusting it: regular files only, size-limited."""

from __future__ import annotations

import stat
from pathlib import Path

from planner.errors import PlannerError


def read_limited(path: str | Path, limit: int, what: str = "plan file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, else PlannerError.

    Checks the size before reading (a 100 MB file is refused without being read) and
    reads at most ``limit + 1`` bytes, so a file that grows, or a device such as
    /dev/zero, cannot make the planner read forever.
    """
    path = Path(path)
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise PlannerError(f"{path}: is a folder, not a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise PlannerError(f"{path}: is not a regular file, so not a {what}")
        if st.st_size > limit:
            raise PlannerError(
                f"{path.name}: {st.st_size / 1e6:.0f} MB is larger than a {what} can be ({limit // 2**20} MB)"
            )
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise PlannerError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise PlannerError(f"{path.name}: larger than a {what} can be ({limit // 2**20} MB)")
    return raw
