"""Shared base for settings sections: strict, with unit and source metadata per field."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from planner.bounds import physical_number

# The planning guide the defaults grew from, named as a reader can look it up.
GUIDE = 'N. Dixit, "The GPU Cluster That Actually Works for Deep Learning in 2026", SIVARO'


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, validate_assignment=True, strict=True)

    _physical = field_validator("*")(physical_number)

    def unused_fields(self) -> frozenset[str]:
        """The fields that reach no figure as the section stands (a form greys them)."""
        return frozenset()


def setting(default: Any, *, title: str, unit: str = "", source: str, why_low: str = "", why_high: str = "",
            **constraints: Any) -> Any:
    """A settings field whose unit and source the app shows in its tooltip and the workbook lists.

    ``why_low`` / ``why_high``: why a value under / over its bound is refused, when the general
    reason (``planner.settings.refusal``) does not say it."""
    extra = {"unit": unit, "source": source}
    extra.update({k: v for k, v in (("why_low", why_low), ("why_high", why_high)) if v})
    return Field(default, title=title, json_schema_extra=extra, **constraints)


def field_meta(section: type[BaseModel], name: str) -> dict[str, str]:
    """Title, unit and source of one field, for tooltips and the Assumptions sheet."""
    info = section.model_fields[name]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    return {
        "title": info.title or name,
        "unit": str(extra.get("unit", "")),
        "source": str(extra.get("source", "")),
        "why_low": str(extra.get("why_low", "")),
        "why_high": str(extra.get("why_high", "")),
    }
