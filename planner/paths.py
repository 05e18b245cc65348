"""Where the built-in resources live: in a source checkout, an installed wheel or a frozen build."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    """The folder holding catalog/, templates/, icons/ and help/."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    here = Path(__file__).resolve().parent
    installed = here / "resources"  # a wheel maps resources/ to planner/resources/
    if (installed / "catalog").is_dir():
        return installed
    return here.parent / "resources"  # a source checkout


def help_dir() -> Path:
    """The folder of the user guide's pages (Markdown), ``index.md`` listing every one."""
    return resources_dir() / "help"
