"""No code-execution paths for file contents: no pickle, eval, exec or unsafe YAML in the product."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = [ROOT / "planner", ROOT / "ui"]
# Builtins that run code from a string; none is sanctioned anywhere in the product.
CODE_RUNNERS = ("eval", "exec", "compile", "__import__")


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
        # The builtins by name, called or not (``run = exec`` too), through ``builtins`` or
        # ``__builtins__``, or imported; a Qt object's .exec() (dialog, menu) runs no code from data.
        if isinstance(node, ast.ImportFrom) and node.module == "builtins":
            found += [f"{a.name}(" for a in node.names if a.name in CODE_RUNNERS]
        elif isinstance(node, ast.Name) and node.id in CODE_RUNNERS + ("__builtins__",):
            found.append(f"{node.id}(" if node.id in CODE_RUNNERS else node.id)
        elif isinstance(node, ast.Attribute) and node.attr in CODE_RUNNERS and isinstance(node.value, ast.Name) \
                and node.value.id == "builtins":
            found.append(f"{node.attr}(")
        elif isinstance(node, ast.Constant) and node.value in CODE_RUNNERS:
            found.append(f"{node.value!r}")  # getattr(builtins, "exec")
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else ""
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
    assert unsafe_uses("run = exec\nrun(code)") == ["exec("]
    assert unsafe_uses("from builtins import eval") == ["eval("]
    assert unsafe_uses("import builtins\ngetattr(builtins, 'exec')(code)") == ["'exec'"]
    assert unsafe_uses("__builtins__['eval']('1')") == ["__builtins__", "'eval'"]
    assert unsafe_uses("code = compile(text, 'f', 'exec')") == ["compile(", "'exec'"]
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
        problems += [f"{path.relative_to(ROOT)}: {use}" for use in uses]
        # Belt and braces against indirect uses the AST check would miss (getattr, strings).
        for line_no, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            if "pickle" in code or "yaml.load(" in code and "SafeLoader" not in code:
                problems.append(f"{path.relative_to(ROOT)}:{line_no}: {code.strip()[:80]}")
    assert problems == []
