"""Ordered migrations of plan files from each older schema_version to the current one.

``MIGRATIONS[n]`` turns a version-n dict into a version-(n+1) dict. Every format change
bumps ``planner.plan.model.SCHEMA_VERSION``, adds one function here and a sample file of the
old version to ``tests/data/`` (``tests/planner/test_migrations.py`` loads each one).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping

from planner.errors import PlannerError
from planner.plan.model import SCHEMA_VERSION
from planner.text import escaped_name

def _v1_to_v2(data: dict) -> dict:
    """Format 2 moved the rack PDU model and the feed redundancy from the cost settings to
    the power settings (A+B feeds became the 2N / N+1 / N choice)."""
    settings = data.get("settings")
    costs = settings.get("costs") if isinstance(settings, dict) else None
    if isinstance(costs, dict):
        power = {}
        if "pdu_device" in costs:
            power["pdu_device"] = costs.pop("pdu_device")
        if "redundant_feeds" in costs:
            power["feed_redundancy"] = "2N" if costs.pop("redundant_feeds") else "N"
        if power:
            settings["power"] = {**power, **settings.get("power", {})}
    return data


# Format 2's flat facility power distribution default, the guide's $50-100K midpoint.
V2_FACILITY_POWER_USD = 75_000.0
# Format 3's rate per kW of IT power: the same guide figure over its 112 kW example.
V3_FACILITY_POWER_USD_PER_KW = 670.0


def _v2_to_v3(data: dict) -> dict:
    """Format 3 prices the facility's power distribution per kW of IT power instead of a
    flat sum. The old default (75,000) becomes the new default rate; 0 (left out) stays
    0; another sum scales the rate by the same ratio to the old default."""
    settings = data.get("settings")
    costs = settings.get("costs") if isinstance(settings, dict) else None
    if isinstance(costs, dict) and "facility_power_usd" in costs:
        flat = costs.pop("facility_power_usd")
        if isinstance(flat, (int, float)) and not isinstance(flat, bool) and flat >= 0:
            costs.setdefault("facility_power_usd_per_kw",
                             round(V3_FACILITY_POWER_USD_PER_KW * flat / V2_FACILITY_POWER_USD, 2))
    return data


def _v3_to_v4(data: dict) -> dict:
    """Format 4 adds the plan's ``info`` (customer, site, contact, revision, dates), empty
    until filled in: nothing to convert."""
    return data


def _v4_to_v5(data: dict) -> dict:
    """Format 5 added variants (``base_variant``, ``variants``, ``active_variant``): a file of
    format 4 is a plan of one variant, its base, unchanged."""
    return data


def _workloads(data: dict) -> list[dict]:
    """The plan's workload settings and each variant's workload overrides (the dicts, to edit)."""
    sections = [data.get("settings")]
    variants = data.get("variants")
    if isinstance(variants, list):
        sections += [v.get("settings") for v in variants if isinstance(v, dict)]
    return [w for w in (x.get("workload") if isinstance(x, dict) else None for x in sections) if isinstance(w, dict)]


# Format 5's kernel efficiency default, fitted to the validation runs of that release.
V5_DEFAULT_MFU = 0.55


def _v5_to_v6(data: dict) -> dict:
    """Format 6 derives the kernel efficiency from the step's shapes when ``workload.mfu`` is
    empty. A stored 0.55 was format 5's default, so it becomes empty (the model-derived
    efficiency); any other stored figure was the user's and stays an override. Variants'
    settings overrides are converted the same way."""
    for workload in _workloads(data):
        if workload.get("mfu") == V5_DEFAULT_MFU:
            workload["mfu"] = None
    return data


def _v6_to_v7(data: dict) -> dict:
    """Format 7 added the campus (``buildings``, each with its halls) and each rack's
    ``hall``: a file of format 6 lists no buildings, which is one building of one hall
    holding every rack (``planner.plan.campus``): nothing to convert."""
    return data


# the name fields' lengths in format 8 (planner.plan.model): an escape is longer than its character
_NAME_LIMITS = {"name": 100, "row": 100, "label": 200, "base_variant": 100, "active_variant": 100}


def _escaped(record: object, *fields: str, limit: int | None = None) -> None:
    if isinstance(record, dict):
        for f in fields:
            text = record.get(f)
            if isinstance(text, str) and escaped_name(text) != text:  # a name without such characters stays as it is
                record[f] = escaped_name(text)[:limit or _NAME_LIMITS[f]]


def _v7_to_v8(data: dict) -> dict:
    """Format 8 refuses control characters and text-direction overrides in names
    (``planner.text.name_problem``): a file of format 7 keeps its names with each such
    character written as its escape ("GPU\\u202e01"), visible, so the plan opens and every
    export shows what is stored."""
    _escaped(data, "name", limit=200)  # the plan's name
    _escaped(data, "base_variant", "active_variant")
    variants = data.get("variants") if isinstance(data.get("variants"), list) else []
    for holder in [data, *variants]:
        if not isinstance(holder, dict):
            continue
        if holder is not data:
            _escaped(holder, "name")  # a variant's
        for key, fields in (("racks", ("name", "row")), ("placements", ("label",))):
            for record in holder.get(key) or [] if isinstance(holder.get(key), list) else []:
                _escaped(record, *fields)
    for building in data.get("buildings") or [] if isinstance(data.get("buildings"), list) else []:
        _escaped(building, "name")
        halls = building.get("halls") if isinstance(building, dict) else None
        for hall in halls if isinstance(halls, list) else []:
            _escaped(hall, "name")
    return data


def _v8_to_v9(data: dict) -> dict:
    """Format 9 added the schedule settings (order date, lead times, install times): a file
    of format 8 has none and takes their defaults: nothing to convert."""
    return data


def _v9_to_v10(data: dict) -> dict:
    """Format 10 added a local-NVMe checkpoint tier (``reliability.nvme_checkpoint``), ramped
    job stops and restarts (``facility.job_ramps``, ``facility.job_ramp_s``) and the racks'
    own energy storage as a power smoothing (``facility.power_smoothing`` = rack_storage) and
    a GPU power limit (``facility.gpu_power_limit_w``, ``gpu_clock_power_exponent``,
    ``gpu_min_power_limit_share``) and the mixture-of-experts shape (``workload.head_size``,
    ``shared_expert_ffn``, ``moe_capacity_factor``): a file of format 9 has none of them and
    takes their defaults (off, no limit, the shape from the hidden size, dropless routing):
    nothing to convert."""
    return data


# Format 10's default overlap: none of the data-parallel traffic hidden, whatever the sharding.
V10_DEFAULT_OVERLAP = 0.0


def _v10_to_v11(data: dict) -> dict:
    """Format 11 hides data-parallel traffic layer by layer, as far as each layer's compute
    lasts (``planner.workload.overlap``), and lets ``workload.overlap`` be empty: what the
    frameworks do by default (ZeRO-3 / FSDP prefetch their gathers, DDP / ZeRO-1 do not
    overlap the gradient reduction). A stored 0.0 was format 10's default, so it becomes
    empty (the same figure for DDP and ZeRO-1, prefetch for ZeRO-3 and FSDP); any other
    stored share was the user's and stays. ``overlap_slowdown`` and ``gathered_layers`` are
    new and take their defaults. Variants' settings overrides are converted the same way."""
    for workload in _workloads(data):
        if workload.get("overlap") == V10_DEFAULT_OVERLAP:
            workload["overlap"] = None
    return data


def _v11_to_v12(data: dict) -> dict:
    """Format 12 makes the facility plant the schedule waits for automatic (``schedule.plant``
    "auto": in place in colocation, new when the facility is owned). Before it, a plan that
    stored none had a new plant: it keeps "new" (a variant's overrides follow the base)."""
    settings = data.setdefault("settings", {})
    if isinstance(settings, dict):
        schedule = settings.setdefault("schedule", {})
        if isinstance(schedule, dict):
            schedule.setdefault("plant", "new")
    return data


def _v12_to_v13(data: dict) -> dict:
    """Format 13 lets a variant hold its own layout (``own_layout``: a sweep's point, an
    as-built import), which the base's rack and device edits do not reach. A variant saved
    before holds overrides of the base, as it did: nothing to convert."""
    return data


MIGRATIONS: dict[int, Callable[[dict], dict]] = {
    1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5, 5: _v5_to_v6, 6: _v6_to_v7, 7: _v7_to_v8, 8: _v8_to_v9,
    9: _v9_to_v10, 10: _v10_to_v11, 11: _v11_to_v12, 12: _v12_to_v13,
}


class MigrationError(PlannerError):
    pass


def migrate(
    data: dict,
    migrations: Mapping[int, Callable[[dict], dict]] | None = None,
    current: int = SCHEMA_VERSION,
) -> dict:
    """Bring a plan dict up to ``current``, or refuse it with a message naming both versions.

    Steps run in order (1 -> 2 -> ... -> current) on a deep copy, so the caller's dict is
    never left half-migrated; a step that fails on unexpected data is a MigrationError.
    """
    steps = MIGRATIONS if migrations is None else migrations
    version = data.get("schema_version")
    if "schema_version" not in data:
        raise MigrationError(f"the file has no schema_version (a plan file carries its format, 1 to {current}): "
                             "it is not a plan saved by GPU Cluster Planner")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        shown = repr(version)[:40]
        raise MigrationError(f"schema_version must be a whole number from 1 to {current}, not {shown}")
    if version > current:
        raise MigrationError(
            f"this plan was saved by a newer GPU Cluster Planner (file format {version}); "
            f"this version reads formats up to {current}. Update the planner to open it."
        )
    if version == current:
        return data
    try:
        # a JSON round trip copies as deep as the JSON reader read (deepcopy recurses twice per level)
        data = json.loads(json.dumps(data))
    except (TypeError, ValueError):
        data = copy.deepcopy(data)
    except RecursionError:
        raise MigrationError("the plan's JSON is nested too deeply to be a plan") from None
    while version < current:
        step = steps.get(version)
        if step is None:
            raise MigrationError(f"no conversion from file format {version} to {version + 1}")
        try:
            data = step(data)
        except PlannerError:
            raise
        except Exception as exc:  # a malformed old file: say so, never a traceback
            raise MigrationError(
                f"cannot convert file format {version} to {version + 1}: "
                f"{type(exc).__name__} {str(exc)[:80]}"
            ) from None
        if not isinstance(data, dict):
            raise MigrationError(f"conversion from file format {version} did not give a plan")
        version += 1
        data["schema_version"] = version
    return data
