"""A layout that reads: no source file over 300 lines without saying why in its opening
docstring ("Why it is long: ..."), and no module named utils, helpers or misc."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("planner", "ui", "cluster_planner", "benchmarks", "tests", "installer")
LIMIT = 300
REASON = "Why it is long:"


def sources() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def test_a_file_over_300_lines_says_why_in_its_opening_docstring():
    unexplained = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > LIMIT and REASON not in (ast.get_docstring(ast.parse(text)) or ""):
            unexplained.append(str(path.relative_to(ROOT)))
    assert unexplained == []


def test_no_module_or_package_is_named_utils_helpers_or_misc():
    vague = {"utils", "util", "helpers", "helper", "misc"}
    named = [str(p.relative_to(ROOT)) for p in sources() if vague & {p.stem, *p.relative_to(ROOT).parent.parts}]
    assert named == []
