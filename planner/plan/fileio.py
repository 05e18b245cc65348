"""Reading and writing plan files: validated loads, atomic saves with backups.

Loading either returns a complete, valid ``Plan`` or raises ``PlanLoadError`` with a
one-line reason; nothing is ever half-read. Saving writes a temporary file beside the
target, fsyncs it and renames it over the target (the pattern of ``QSaveFile`` and of
LibreOffice/KiCad), after keeping the previous version as ``NAME.1.bak`` (the last
``keep`` versions, newest ``.1``). A save that fails (disk full, no permission) leaves the
old file intact and raises ``PlanSaveError`` saying why.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from planner.collector import held_off
from planner.errors import PlannerError, describe_validation_error, quote
from planner.plan.migrations import migrate
from planner.plan.model import Plan, size_problem
from planner.plan.variants import VariantError, file_dict, plan_from_file_dict
from planner.readfile import json_kind, read_limited, strict_json
from planner.safefile import backup_path, backups_of, write_file  # noqa: F401 - a plan's backups, for its callers
from planner.save_target import SaveError

MAX_PLAN_BYTES = 64 * 1024 * 1024
DEFAULT_BACKUPS = 3


class PlanLoadError(PlannerError):
    """A plan file that cannot be used; the message is one line for the user."""


PlanSaveError = SaveError  # a save that did not happen; the old file is unchanged
# The suffixes of what is exported from a plan: a plan saved under one would be neither.
EXPORT_SUFFIXES = (".xlsx", ".pdf", ".svg", ".png", ".csv")


def _too_large(origin: str, size: int) -> PlanLoadError:
    return PlanLoadError(
        f"{origin}: {size / 1e6:.0f} MB is larger than a plan file can be ({MAX_PLAN_BYTES // 2**20} MB)"
    )


def plan_from_json(text: str | bytes, origin: str = "plan") -> Plan:
    """Parse, migrate and validate a plan; raise PlanLoadError, never anything else."""
    with held_off():  # (``planner.collector``)
        return _plan_from_json(text, origin)


def _plan_from_json(text: str | bytes, origin: str) -> Plan:
    if len(text) > MAX_PLAN_BYTES:
        raise _too_large(origin, len(text))
    if not text.strip():  # a save that never happened, or a file made empty: said so, not a JSON parser's words
        raise PlanLoadError(f"{origin}: the file is empty, not a plan (a backup beside it, NAME.1.bak, may hold one)")
    try:
        data = strict_json(text)
    except RecursionError:
        raise PlanLoadError(f"{origin}: the JSON is nested too deeply to be a plan") from None
    except UnicodeDecodeError:
        raise PlanLoadError(f"{origin}: not a UTF-8 text file") from None
    except (json.JSONDecodeError, ValueError) as exc:
        raise PlanLoadError(f"{origin}: not a valid plan file (JSON error: {exc})") from None
    if not isinstance(data, dict):
        raise PlanLoadError(f"{origin}: not a plan file (expected a JSON object, found {json_kind(data)})")
    too_big = size_problem(*(len(v) if isinstance(v, list) else 0 for v in (data.get("racks"), data.get("placements"))))
    if too_big:  # before any validation or evaluation
        raise PlanLoadError(f"{origin}: {too_big}")
    try:
        data = migrate(data)
    except PlannerError as exc:
        raise PlanLoadError(f"{origin}: {exc}") from None
    try:
        return plan_from_file_dict(data)
    except VariantError as exc:
        raise PlanLoadError(f"{origin}: {exc}") from None
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
    """The file's text: the base variant in full, the other variants as their overrides."""
    if plan.active_variant:
        return Plan.model_validate(file_dict(plan)).model_dump_json(indent=1)
    return plan.model_dump_json(indent=1)


# -- saving (through the one safe writer, ``planner.safefile``) ---------------------------

def atomic_write_bytes(path: str | Path, data: bytes, *, keep: int = 0) -> None:
    """Write ``data`` to ``path`` through the safe writer (checked, fsynced, renamed)."""
    write_file(path, data, keep=keep, kind="")

def save_plan(plan: Plan, path: str | Path, *, keep: int = DEFAULT_BACKUPS, inputs=()) -> None:
    """Save atomically, keeping the previous ``keep`` versions as NAME.1.bak (newest) ...
    A plan over the size limits is refused: it could not be opened again."""
    name = Path(path).name
    if Path(path).suffix.lower() in EXPORT_SUFFIXES:  # a plan written under a workbook's or drawing's name
        save_plan_refusal(path)
    too_big = size_problem(len(plan.racks), len(plan.placements))
    if too_big:
        raise PlanSaveError(f"cannot save {name}: {too_big}")
    write_file(path, plan_to_json(plan).encode("utf-8"), keep=keep, inputs=inputs)


def save_plan_refusal(path: str | Path) -> None:
    """Refuse a plan file named as an export (.xlsx, .pdf ...): it would be neither."""
    name = Path(path).name
    raise PlanSaveError(f"cannot save {name}: a plan is saved as a .json file; the workbook, vendor pack and "
                        f"drawings are exports of it ('cluster-planner export PLAN.json -o {name}')")


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
