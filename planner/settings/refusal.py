"""A refused setting in the product's words: what range is allowed and why.

``describe_refusal(section, field, exc)`` turns pydantic's "Input should be greater than or
equal to 1" into "PUE is at least 1.0: a facility cannot use less power than its IT load
(allowed: 1.0 to 3.0)". The why is the field's own (``setting(..., why_low=...)``) where one
is written, else the reason every bound of that kind shares."""

from __future__ import annotations

from pydantic import BaseModel, ValidationError

from planner.settings._base import field_meta

_LOW = {"greater_than_equal": ("ge", "at least"), "greater_than": ("gt", "more than")}
_HIGH = {"less_than_equal": ("le", "at most"), "less_than": ("lt", "less than")}


def _number(value: object) -> str:
    if value == 0:
        return "0"
    if isinstance(value, float):
        return f"{value:,.1f}" if value == int(value) else f"{value:,g}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _allowed(section: type[BaseModel], field: str, unit: str) -> str:
    """The whole range as a reader says it: "1.0 to 3.0", "more than 0 kW, at most 200 kW"."""
    lo = hi = None
    for m in section.model_fields[field].metadata:
        for key, words in (("ge", ""), ("gt", "more than ")):
            if getattr(m, key, None) is not None:
                lo = (words, getattr(m, key))
        for key, words in (("le", ""), ("lt", "less than ")):
            if getattr(m, key, None) is not None:
                hi = (words, getattr(m, key))
    if lo is None or hi is None:
        return ""
    if not lo[0] and not hi[0]:
        return f"{_number(lo[1])} to {_number(hi[1])}{unit}"
    return f"{lo[0] or 'at least '}{_number(lo[1])}{unit}, {hi[0] or 'at most '}{_number(hi[1])}{unit}"


def _general_why(kind: str, bound: object, unit: str) -> str:
    """The reason every bound of its kind shares (a field may give its own)."""
    if kind in _HIGH:
        if bound == 1 and "fraction" in unit:
            return "a fraction runs from 0 to 1 (0.8 is 80 %)"
        return "a larger figure is taken for a typing slip: no real design needs it"
    if bound == 0:
        return "zero would leave nothing to size" if kind == "greater_than" else "it cannot be negative"
    return "a smaller figure has no physical meaning here"


def describe_refusal(section: type[BaseModel], field: str, exc: ValidationError) -> str | None:
    """The first error of ``exc`` on ``section.field`` as a sentence, or None when it is not a range."""
    for error in exc.errors(include_url=False):
        if tuple(error.get("loc", ())) == (field,):
            return describe_error(section, field, error)
    return None


def describe_error(section: type[BaseModel], field: str, error: dict) -> str | None:
    """One error of ``ValidationError.errors()`` on ``section.field`` as a sentence, or None
    when it is not a range."""
    kind = error.get("type", "")
    if kind not in _LOW and kind not in _HIGH:
        return None
    key, words = (_LOW | _HIGH)[kind]
    bound = (error.get("ctx") or {}).get(key)
    meta = field_meta(section, field)
    unit = meta["unit"]
    shown_unit = f" {unit}" if unit and "fraction" not in unit and unit != ":1" else ""
    why = meta.get(f"why_{'high' if kind in _HIGH else 'low'}") or _general_why(kind, bound, unit)
    allowed = _allowed(section, field, shown_unit)
    return f"{meta['title']} is {words} {_number(bound)}{shown_unit}: {why}" + (
        f" (allowed: {allowed})" if allowed else "")


def bound_text(error: dict) -> str | None:
    """A range error of a plain field (an intent's, without a setting's title and why) in
    words: "takes at most 1,000 (not 1e+06)"; None when it is not a range."""
    kind = error.get("type", "")
    if kind not in _LOW and kind not in _HIGH:
        return None
    key, words = (_LOW | _HIGH)[kind]
    value = error.get("input")
    given = f" (not {_plain(value)})" if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
    return f"takes {words} {_plain((error.get('ctx') or {}).get(key))}{given}"


def _plain(value: object) -> str:
    """A bound or a value typed: whole numbers grouped ("1,000"), others as short as they go ("0.5", "1e+06")."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:g}" if isinstance(value, float) else str(value)
