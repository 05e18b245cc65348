"""Reading and writing plan files: validated loads, atomic saves."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from pydantic import ValidationError

from planner.errors import PlannerError, describe_validation_error
from planner.migrations import migrate
from planner.plan import Plan

MAX_PLAN_BYTES = 64 * 1024 * 1024


class PlanLoadError(PlannerError):
    """A plan file that cannot be used; the message is one line for the user."""


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a plan may hold")


def plan_from_json(text: str | bytes, origin: str = "plan") -> Plan:
    """Parse, migrate and validate a plan; raise PlanLoadError, never anything else."""
    if len(text) > MAX_PLAN_BYTES:
        raise PlanLoadError(f"{origin}: {len(text) / 1e6:.0f} MB is larger than a plan file can be ({MAX_PLAN_BYTES // 2**20} MB)")
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
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_PLAN_BYTES:
            raise PlanLoadError(f"{path.name}: {size / 1e6:.0f} MB is larger than a plan file can be ({MAX_PLAN_BYTES // 2**20} MB)")
        raw = path.read_bytes()
    except IsADirectoryError:
        raise PlanLoadError(f"{path}: is a folder, not a plan file") from None
    except OSError as exc:
        raise PlanLoadError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return plan_from_json(raw, path.name)


def plan_to_json(plan: Plan) -> str:
    return plan.model_dump_json(indent=1)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write to a temporary file beside the target, fsync, then replace: never a half-written file."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise PlannerError(f"cannot write to {directory}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise PlannerError(f"cannot save {path.name}: {exc.strerror or exc}") from None
    _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
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


def save_plan(plan: Plan, path: str | Path) -> None:
    atomic_write_bytes(path, plan_to_json(plan).encode("utf-8"))


def unknown_device_problem(plan: Plan, catalog) -> str | None:
    """A plan whose devices the catalog does not know cannot be evaluated: say which."""
    for p in plan.placements:
        if p.device not in catalog:
            return f"device '{p.id}' has type '{p.device}', which the catalog does not have"
    return None


def open_plan(path: str | Path, catalog) -> Plan:
    """Load a plan and check that every device type it uses is in the catalog."""
    plan = load_plan(path)
    problem = unknown_device_problem(plan, catalog)
    if problem:
        raise PlanLoadError(f"{Path(path).name}: {problem}")
    return plan
