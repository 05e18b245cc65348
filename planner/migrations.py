"""Ordered migrations of plan files from each older schema_version to the current one.

``MIGRATIONS[n]`` turns a version-n dict into a version-(n+1) dict. Version 1 is the
first released format, so there is nothing to migrate yet; every future format change
adds one function here and a sample file of the old version to ``tests/data/``.
"""

from __future__ import annotations

from collections.abc import Callable

from planner.errors import PlannerError
from planner.plan import SCHEMA_VERSION

MIGRATIONS: dict[int, Callable[[dict], dict]] = {}


class MigrationError(PlannerError):
    pass


def migrate(data: dict) -> dict:
    """Bring a plan dict up to SCHEMA_VERSION, or refuse it with a message naming both versions."""
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise MigrationError(f"schema_version must be a whole number from 1 to {SCHEMA_VERSION}, not {version!r}")
    if version > SCHEMA_VERSION:
        raise MigrationError(
            f"this plan was saved by a newer GPU Cluster Planner (file format {version}); "
            f"this version reads formats up to {SCHEMA_VERSION}. Update the planner to open it."
        )
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["schema_version"] = version
    return data
