"""The shape of a JSON document: its key paths and the JSON types found at each.

``check --json`` and ``fabrics --json`` are a contract with scripts: keys may be added,
never renamed or dropped, and a key keeps its type. tests/data/check_baseline/ holds, for
each built-in template, the shape of both outputs, one line per path::

    racks[].power_kw: number
    findings[].where: null|string
    cables.by_part{}: number

Paths and types:

- ``a.b`` is key ``b`` of object ``a``; ``a[]`` stands for every item of list ``a`` (the
  items are described once, whatever their number); ``a{}`` for every value of the object
  ``a`` whose keys are data rather than names (the part names, tiers and media the cables
  are counted by: ``MAPS``), so a plan that buys another cable length changes no path.
- The types are JSON's: object, array, string, number (integer or not), boolean, null.
  A path may carry several, joined by ``|``; a value must have one of them.
- Optional fields: null is allowed at a path when some template's output has null there
  (a break-even that never comes, an inference block on a training plan); the baseline
  then says ``number|null`` (or ``object|null``) for every template that has the path. A
  path first seen as only a number and later null is a changed type: the test fails.
- A path that is null in every template's output is recorded as ``null`` alone: it must be
  there, with any type (the script adds the type once a template shows a value).
- A path below an empty list, an empty map or a null is not required: nothing is there to
  carry it (a plan without findings has no ``findings[].code``).
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections import defaultdict
from pathlib import Path

BASELINE = Path(__file__).resolve().parents[1] / "data" / "check_baseline"
COMMANDS = ("check", "fabrics")
# Objects keyed by data (part names, cable media, tiers, networks), described as maps.
MAPS = frozenset({
    "check:cables.by_part", "check:cables.transceivers", "check:cables.by_medium", "check:cables.by_tier",
    "check:cables.by_network", "check:cables.unrouted", "check:cost.parts.transceivers", "check:cost.parts.cables",
    "check:cost.parts.nics", "check:cost.parts.pdus", "check:cost.parts.cdus",
})
_SPECIAL = (".", "[", "]", "{", "}", ": ", "|")

Shape = dict[str, set[str]]


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def shape(document, command: str = "check") -> Shape:
    """Every path of ``document`` with the set of types found there (lists and maps collapsed)."""
    out: Shape = defaultdict(set)
    stack = [("", document)]
    while stack:
        path, value = stack.pop()
        if path:
            out[path].add(json_type(value))
        if isinstance(value, dict):
            if f"{command}:{path}" in MAPS:
                stack.extend((f"{path}{{}}", v) for v in value.values())
            else:
                stack.extend((f"{path}.{k}" if path else k, v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{path}[]", v) for v in value)
    return dict(out)


def _containers(path: str):
    """The paths above ``path``: for ``racks[].feeds[].load_kw``: racks, racks[], racks[].feeds, racks[].feeds[]."""
    for i, ch in enumerate(path):
        if ch == "." or path.startswith(("[]", "{}"), i):
            yield path[:i]
        if path.startswith(("[]", "{}"), i) and i + 2 < len(path):
            yield path[:i + 2]


def problems(baseline: Shape, now: Shape) -> list[str]:
    """Where ``now`` breaks ``baseline``: a path dropped or a type it did not allow; added paths are fine."""
    out = []
    for path, allowed in sorted(baseline.items()):
        if path in now:
            extra = now[path] - allowed
            if extra and allowed != {"null"}:  # null alone: no template has shown a value there yet
                out.append(f"{path}: was {'|'.join(sorted(allowed))}, now {'|'.join(sorted(now[path]))}")
            continue
        vacuous = any(now.get(up) == {"null"} or (up.endswith(("[]", "{}")) and up[:-2] in now and up not in now)
                      for up in (*_containers(path), path))
        if not vacuous:
            out.append(f"{path}: dropped")
    return out


def check_keys(document, command: str, where: str = "") -> None:
    """Refuse a key that would make a path ambiguous (a map whose keys are data belongs in MAPS)."""
    if isinstance(document, dict):
        if f"{command}:{where}" in MAPS:
            for v in document.values():
                check_keys(v, command, f"{where}{{}}")
            return
        for k, v in document.items():
            if any(s in k for s in _SPECIAL):
                raise ValueError(f"{command} --json: the key {k!r} at {where or '$'} cannot be written as a path; "
                                 "if its keys are data, add the object to json_shape.MAPS")
            check_keys(v, command, f"{where}.{k}" if where else k)
    elif isinstance(document, list):
        for v in document:
            check_keys(v, command, f"{where}[]")


def format_shape(s: Shape) -> str:
    return "".join(f"{path}: {'|'.join(sorted(types))}\n" for path, types in sorted(s.items()))


def parse_shape(text: str) -> Shape:
    out: Shape = {}
    for line in text.splitlines():
        if line.strip():
            path, types = line.rsplit(": ", 1)
            out[path] = set(types.split("|"))
    return out


def baseline_file(template: str, command: str) -> Path:
    return BASELINE / f"{template}.{command}.txt"


def read_baseline(template: str, command: str) -> Shape:
    return parse_shape(baseline_file(template, command).read_text())


def cli_json(*argv: str):
    """Run a subcommand of the real entry point in-process and parse what it prints."""
    from planner.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(list(argv))
    assert code in (0, 1), f"{' '.join(argv)} exited {code}"  # 1: the plan has error findings
    return json.loads(buf.getvalue())


def outputs(template: str) -> dict[str, object]:
    """``check --json`` and ``fabrics --json`` of the template built by ``new``."""
    from planner.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / f"{template}.json")
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["new", "--template", template, "-o", path]) == 0
        return {command: cli_json(command, path, "--json") for command in COMMANDS}
