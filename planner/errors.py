"""Errors the planner reports to a user: one line, no traceback."""

from __future__ import annotations

from pydantic import ValidationError

from planner.text import clean_text


class PlannerError(Exception):
    """Base of every error whose message is meant for the user as it is."""


class ExportCancelled(Exception):
    """Raised by an export's ``progress(done, total, what)`` callback to stop it (the user
    pressed Cancel). The writers stage their output, so nothing new is left behind and an
    earlier export stays as it was.

    Not a PlannerError: a cancel is the user's choice, not a failure, so the handlers that
    show a PlannerError as "the export failed: ..." must not catch it."""


def describe_validation_error(exc: ValidationError, data: object = None) -> str:
    """The first problem of a pydantic error as one readable line: where and what."""
    errors = exc.errors(include_url=False)
    if not errors:
        return "invalid data"
    first = errors[0]
    where = _location(first.get("loc", ()), data)
    msg = first.get("msg", "invalid value")
    msg = msg.removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return one_line(f"{where}: {msg}{more}" if where else f"{msg}{more}")


def _location(loc: tuple, data: object) -> str:
    """Render a pydantic location, naming list items by their id where they have one."""
    parts: list[str] = []
    node = data
    for key in loc:
        if isinstance(key, int):
            label = f"[{key}]"
            if isinstance(node, list) and 0 <= key < len(node):
                node = node[key]
                if isinstance(node, dict) and isinstance(node.get("id"), str):
                    label = f"[{key}] (id {quote(node['id'], 40)})"
            else:
                node = None
            parts.append(label)
        else:
            node = node.get(key) if isinstance(node, dict) else None
            text = one_line(str(key))
            parts.append(("." if parts else "") + (text if len(text) <= 40 else text[:40] + "..."))
    return "".join(parts)


def quote(text: object, limit: int = 60) -> str:
    """User text inside a message: quoted, control characters escaped, cut at ``limit``."""
    s = str(text)
    cut = len(s) > limit
    s = s[:limit].encode("unicode_escape").decode("ascii").replace("'", "\\'")
    return f"'{s}{'...' if cut else ''}'"


def one_line(message: str, limit: int = 500) -> str:
    """A message as a single line: line breaks and control characters escaped, cut at ``limit``."""
    out = clean_text(message, "line")
    return out if len(out) <= limit else out[: limit - 3] + "..."
