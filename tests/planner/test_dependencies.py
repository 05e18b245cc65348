"""Dependencies declared as used: every third-party package the program imports (anywhere,
function bodies too) is a dependency in pyproject.toml, and every dependency is imported."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN = {"planner", "ui", "cluster_planner"}
# import name -> the distribution that provides it (where the two differ, by its PyPI page)
DISTRIBUTION = {"PySide6": "pyside6-essentials", "shiboken6": "pyside6-essentials", "yaml": "pyyaml",
                "numpy_financial": "numpy-financial"}


def imported_top_level() -> dict[str, str]:
    """Top-level module -> a file importing it, over the program's packages."""
    found: dict[str, str] = {}
    for package in OWN:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return found


def test_every_imported_package_is_declared_and_every_declared_one_imported():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # the program's dependencies, and the optional extras it imports only when asked (Ray: cluster)
    declared = {re.split(r"[<>=!~ \[;]", d, maxsplit=1)[0].lower()
                for d in project["dependencies"] + project["optional-dependencies"]["cluster"]}
    third_party = {m: f for m, f in imported_top_level().items()
                   if m not in OWN and m not in sys.stdlib_module_names and m != "__future__"}
    used = {DISTRIBUTION.get(m, m).lower() for m in third_party}
    undeclared = {m: f for m, f in third_party.items() if DISTRIBUTION.get(m, m).lower() not in declared}
    assert undeclared == {}, "imported but not declared in pyproject.toml"
    assert declared - used == set(), "declared in pyproject.toml but imported nowhere"
    assert {"numpy", "pyqtgraph", "pyside6-essentials", "openpyxl", "pydantic", "pyyaml"} <= used
