"""Where the built-in resources live: in a source checkout, an installed wheel or a frozen build."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    """The folder holding catalog/, templates/ and icons."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    source_tree = Path(__file__).resolve().parent.parent / "resources"
    if (source_tree / "catalog").is_dir():
        return source_tree
    from importlib.resources import files

    return Path(str(files("planner.resources")))
