"""Reading a user's file without trusting it: regular files only, size-limited."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from planner.errors import PlannerError, quote


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


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {quote(key, 40)} appears twice in one object")
        out[key] = value
    return out


def strict_json(text: str | bytes, what: str = "plan"):
    """``json.loads`` refusing what Python's reader lets through: a key given twice in one
    object (the last would silently win) and NaN/Infinity. ValueError says which."""
    def no_constant(name: str):
        raise ValueError(f"{name} is not a number a {what} may hold")

    return json.loads(text, parse_constant=no_constant, object_pairs_hook=_unique_keys)
