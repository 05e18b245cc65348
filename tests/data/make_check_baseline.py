"""Add the paths of today's ``check --json`` and ``fabrics --json`` to tests/data/check_baseline/.

    PYTHONPATH=. python tests/data/make_check_baseline.py

Builds every built-in template with ``new``, runs both commands and adds each path they
print that the baseline lacks (a new key, a new template). It never drops a path or
changes a type: if today's output lacks a path of the baseline or shows a type it does not
allow, it prints where, writes nothing and exits 1. That is a broken contract: mend the
code. (A break that is meant and announced to the scripts' users is made by editing the
baseline's line by hand, in the same commit, saying why.) The format and the rules for
lists, maps and null are in tests/planner/json_shape.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.planner.json_shape import (  # noqa: E402 - after the path is set
    BASELINE, COMMANDS, baseline_file, check_keys, format_shape, outputs, problems, read_baseline, shape,
)

MAX_BYTES = 200_000


def main() -> int:
    from planner.design.templates import template_names

    now, before = {}, {}
    for template in template_names():
        for command, document in outputs(template).items():
            check_keys(document, command)
            now[template, command] = shape(document, command)
            if baseline_file(template, command).exists():
                before[template, command] = read_baseline(template, command)
        print(f"read {template}")
    broken = [f"{t} {c} --json: {p}" for (t, c), old in before.items() for p in problems(old, now[t, c])]
    if broken:
        print("the baseline is not a subset of today's output; nothing written:\n  " + "\n  ".join(broken))
        return 1
    # null anywhere at a path makes it optional at that path for every template, with the
    # types any template shows there (json_shape)
    seen: dict[tuple[str, str], set[str]] = {}
    for (_, c), s in (*now.items(), *before.items()):
        for path, types in s.items():
            seen.setdefault((c, path), set()).update(types)
    nullable = {key: types for key, types in seen.items() if "null" in types}
    BASELINE.mkdir(exist_ok=True)
    size = 0
    for (template, command), s in now.items():
        merged = {path: set(types) for path, types in before.get((template, command), {}).items()}
        for path, types in s.items():
            merged.setdefault(path, set()).update(types)
        for path, types in merged.items():
            types.update(nullable.get((command, path), ()))
        text = format_shape(merged)
        size += len(text.encode())
        added = len(merged) - len(before.get((template, command), {}))
        baseline_file(template, command).write_text(text)
        print(f"{baseline_file(template, command).name}: {len(merged)} paths ({added} added)")
    stale = sorted({p.name for p in BASELINE.glob("*.txt")} - {baseline_file(t, c).name for t, c in now})
    if stale:
        print("baselines of templates that are no longer built in (left alone): " + ", ".join(stale))
    if size > MAX_BYTES:
        print(f"the baseline is {size:,} bytes, more than {MAX_BYTES:,}: a map keyed by data belongs in json_shape.MAPS")
        return 1
    print(f"{size:,} bytes in {len(now)} files ({', '.join(COMMANDS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
