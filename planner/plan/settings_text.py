"""The plan's settings as a block of text another tool keeps for it (a NetBox site's comments).

NetBox holds racks, devices, feeds and cables, but nothing of the floor's rating, the aisle
share, the power basis or the workload: a plan read back from NetBox without them is
checked against the defaults and finds what the original did not (a GB200 rack over a floor
rated for its footprint alone). The export writes the settings as one fenced JSON block
under a heading, with the plan file's format version; the import reads the block back,
migrated like a plan file, and says so when it cannot.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from planner.errors import PlannerError, describe_validation_error
from planner.plan.migrations import migrate
from planner.plan.model import SCHEMA_VERSION
from planner.readfile import strict_json
from planner.settings import Settings

HEADING = "GPU Cluster Planner settings"
MAX_BLOCK_CHARS = 256 * 1024  # the settings are about 4 kB
_BLOCK = re.compile(re.escape(HEADING) + r"[^\n]*\n+```json\n(.*?)\n```", re.S)


def settings_block(settings: Settings) -> str:
    """The settings as Markdown: a heading line, then a fenced JSON block with the format version."""
    data = {"schema_version": SCHEMA_VERSION, "settings": settings.model_dump(mode="json")}
    return f"{HEADING} (import-netbox reads them back):\n\n```json\n{json.dumps(data, indent=1)}\n```\n"


def read_settings_block(text: str) -> tuple[Settings | None, str]:
    """The settings in ``text`` and "" ; (None, "") when it holds no block; (None, why) when the
    block cannot be read (a clear reason, never an exception)."""
    m = _BLOCK.search(text)
    if m is None:
        return None, ""
    body = m.group(1)
    if len(body) > MAX_BLOCK_CHARS:
        return None, f"the block is {len(body):,} characters, more than settings take ({MAX_BLOCK_CHARS:,})"
    try:
        data = strict_json(body, "settings block")
    except ValueError as exc:
        return None, f"not valid JSON ({exc})"
    if not isinstance(data, dict) or not isinstance(data.get("settings"), dict):
        return None, "not an object with schema_version and settings"
    try:
        plan = migrate({"schema_version": data.get("schema_version"), "name": "settings",
                        "settings": data["settings"]})
    except PlannerError as exc:
        return None, str(exc)
    try:
        return Settings.model_validate(plan["settings"]), ""
    except ValidationError as exc:
        return None, describe_validation_error(exc, plan["settings"])
