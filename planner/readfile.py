"""Reading a user's file without trusting it: regular files only, size-limited, and JSON and
YAML nested at most ``MAX_NESTING`` levels deep (YAML's aliases expanded at most
``MAX_YAML_VALUES`` values)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import yaml

from planner.errors import PlannerError, one_line, quote

# Plans and catalogs are nested 5 levels deep, NetBox device types 4: 32 leaves room and
# keeps every recursive step that follows reading (validation, copying) far from Python's
# recursion limit.
MAX_NESTING = 32
# A 1 MB YAML file holds at most about 500,000 values; aliases may repeat them up to this
# many in all, far beyond a real file, far below a "billion laughs" (9**9 values in 520 bytes).
MAX_YAML_VALUES = 1_000_000


def read_limited(path: str | Path, limit: int, what: str = "plan file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, else PlannerError.

    Checks the size before reading (a 100 MB file is refused without being read) and
    reads at most ``limit + 1`` bytes, so a file that grows, or a device such as
    /dev/zero, cannot make the planner read forever.
    """
    path = Path(path)
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise PlannerError(f"{path}: is a folder, not a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise PlannerError(f"{path}: is not a regular file, so not a {what}")
        if st.st_size > limit:
            raise PlannerError(
                f"{path.name}: {st.st_size / 1e6:.0f} MB is larger than a {what} can be ({limit // 2**20} MB)"
            )
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise PlannerError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise PlannerError(f"{path.name}: larger than a {what} can be ({limit // 2**20} MB)")
    return raw


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {quote(key, 40)} appears twice in one object")
        out[key] = value
    return out


def json_kind(value) -> str:
    """What a parsed JSON value is, in JSON's words ("null", "an array"), for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    kinds = ((list, "an array"), (str, "a string"), (int, "a number"), (float, "a number"), (dict, "an object"))
    return next((word for t, word in kinds if isinstance(value, t)), type(value).__name__)


def strict_json(text: str | bytes, what: str = "plan"):
    """``json.loads`` refusing what Python's reader lets through: a key given twice in one
    object (the last would silently win) and NaN/Infinity. ValueError says which."""
    def no_constant(name: str):
        raise ValueError(f"{name} is not a number a {what} may hold")

    too_deep = ValueError(f"the JSON is nested too deeply (more than {MAX_NESTING} levels)")
    try:
        data = json.loads(text, parse_constant=no_constant, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise too_deep from None
    level, depth = [data] if isinstance(data, (dict, list)) else [], 0
    while level:  # one level at a time: no recursion, and stops at the first level too deep
        depth += 1
        if depth > MAX_NESTING:
            raise too_deep
        below = []
        for node in level:
            below.extend(node.values() if isinstance(node, dict) else node)
        level = [n for n in below if isinstance(n, (dict, list))]
    return data


class YamlLimitError(ValueError):
    """YAML beyond the reader's bounds; the message is one line and quotes no value."""


class _BoundedSafeLoader(yaml.SafeLoader):
    """PyYAML's safe loader (plain data only) that refuses nesting deeper than MAX_NESTING
    while composing (PyYAML composes recursively), then, before anything is built, a value
    that contains itself or whose aliases expand to more than MAX_YAML_VALUES values."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        if self._depth >= MAX_NESTING:
            line = self.peek_event().start_mark.line + 1
            raise YamlLimitError(f"nested more than {MAX_NESTING} levels deep (line {line})")
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self):
        node = super().get_single_node()
        if node is not None:
            _expanded_size(node, {}, set())
        return node


def _expanded_size(node: yaml.Node, seen: dict[int, tuple[int, int]], open_: set[int],
                   level: int = 1) -> tuple[int, int]:
    """(values, levels) of ``node``, ``level`` levels down, with every alias expanded: each
    shared node is measured once, and YamlLimitError is raised as soon as a bound is passed
    (so the recursion stays MAX_NESTING calls deep)."""
    key, line = id(node), node.start_mark.line + 1
    if key in open_:
        raise YamlLimitError(f"a value contains itself through an alias (line {line})")
    if key not in seen:
        if level > MAX_NESTING:
            raise YamlLimitError(f"aliases nest it more than {MAX_NESTING} levels deep (line {line})")
        values = levels = 1
        if not isinstance(node, yaml.ScalarNode):
            open_.add(key)
            children = node.value if isinstance(node, yaml.SequenceNode) else [n for kv in node.value for n in kv]
            for child in children:
                n, d = _expanded_size(child, seen, open_, level + 1)
                values, levels = values + n, max(levels, d + 1)
                if values > MAX_YAML_VALUES:
                    raise YamlLimitError(f"aliases expand it to more than {MAX_YAML_VALUES:,} values (line {line})")
            open_.discard(key)
        seen[key] = values, levels
    values, levels = seen[key]
    if level + levels - 1 > MAX_NESTING:
        raise YamlLimitError(f"aliases nest it more than {MAX_NESTING} levels deep (line {line})")
    return values, levels


def safe_yaml(text: str | bytes):
    """One YAML document as plain data (safe tags only), bounded as ``_BoundedSafeLoader``
    says; yaml.YAMLError for YAML that does not parse, YamlLimitError past a bound."""
    loader = _BoundedSafeLoader(text)
    try:
        return loader.get_single_data()
    except YamlLimitError:
        raise
    except ValueError as exc:  # a value Python will not build: an integer of 5,000 digits, a 13th month
        raise YamlLimitError(f"a value cannot be read: {one_line(str(exc), 120)}") from None
    finally:
        loader.dispose()
