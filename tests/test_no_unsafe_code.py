"""No code-execution paths for file contents: no pickle, eval, exec or unsafe YAML in the product."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = [ROOT / "planner", ROOT / "ui"]
# The one sanctioned exec: ``planner.records`` compiles a record class's __init__ and __eq__/__hash__
# from the field names of a class declared in the source (as ``dataclasses`` does), never from
# data; it refuses a field name that is not a plain identifier (tests/planner/test_records.py).
SANCTIONED = {"planner/records.py": ["exec(", "exec("]}


def _sources():
    for folder in PRODUCT:
        if folder.is_dir():
            yield from sorted(folder.rglob("*.py"))


def unsafe_uses(source: str) -> list[str]:
    """Names of unsafe constructs in one Python source text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
            found += [f"import {n}" for n in names if n and n.split(".")[0] in ("pickle", "cPickle", "dill", "marshal", "shelve")]
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            # eval/exec as builtins; a Qt object's .exec() (dialog, menu) runs no code from data.
            builtin = isinstance(f, ast.Name) or (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                                                  and f.value.id == "builtins")
            if builtin and name in ("eval", "exec", "compile", "__import__"):
                found.append(f"{name}(")
            if name in ("load", "load_all", "unsafe_load", "full_load") and isinstance(f, ast.Attribute) \
                    and isinstance(f.value, ast.Name) and f.value.id == "yaml":
                loader = {k.arg: k.value for k in node.keywords}.get("Loader")
                if name != "load" or not (isinstance(loader, ast.Attribute) and loader.attr in ("SafeLoader", "CSafeLoader")):
                    found.append(f"yaml.{name}(")
    return found


def test_the_scanner_catches_each_unsafe_construct():
    assert unsafe_uses("import pickle") == ["import pickle"]
    assert unsafe_uses("from pickle import loads") == ["import pickle"]
    assert unsafe_uses("x = eval('1')") == ["eval("]
    assert unsafe_uses("exec(code)") == ["exec("]
    assert unsafe_uses("import builtins\nbuiltins.exec(code)") == ["exec("]
    assert unsafe_uses("yaml.load(f)") == ["yaml.load("]
    assert unsafe_uses("yaml.unsafe_load(f)") == ["yaml.unsafe_load("]
    assert unsafe_uses("yaml.load(f, Loader=yaml.SafeLoader)") == []
    assert unsafe_uses("yaml.safe_load(f)") == []
    assert unsafe_uses("json.loads(s); model.evaluate(); dialog.exec()") == []  # Qt's modal loop is fine


def test_no_unsafe_code_in_planner_or_ui():
    files = list(_sources())
    assert len(files) > 20  # the scan really covers the product
    problems = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        uses = unsafe_uses(text)
        if uses == SANCTIONED.get(path.relative_to(ROOT).as_posix()):
            uses = []
        problems += [f"{path.relative_to(ROOT)}: {use}" for use in uses]
        # Belt and braces against indirect uses the AST check would miss (getattr, strings).
        for line_no, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            if "pickle" in code or "yaml.load(" in code and "SafeLoader" not in code:
                problems.append(f"{path.relative_to(ROOT)}:{line_no}: {code.strip()[:80]}")
    assert problems == []
