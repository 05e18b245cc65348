"""The import rules of the program, as import-linter contracts (pyproject.toml
[tool.importlinter]): the layers, no Qt in the core, no import cycle inside the core; and what
import-linter cannot see (imports by name, attributes set on the main window from outside)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_linter_contracts_hold():
    """The contracts of pyproject.toml's [tool.importlinter]: entry point > app > core, no Qt in
    the core (imports in functions too), the core's own layers (cli > export, sweep > report,
    design > ... > errors > text) and no import cycle inside the core at any depth."""
    import shutil
    import subprocess
    import sys

    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "import-linter is not installed (pip install -e '.[test]')"
    done = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    for name in ("Entry point over the desktop app over the core", "The core imports no Qt", "The core's layers",
                 "The core has no import cycles"):
        assert f"{name} KEPT" in done.stdout
    assert "Contracts: 4 kept, 0 broken." in done.stdout


GUI = ("ui", "PySide6", "shiboken6", "pyqtgraph", "cluster_planner")


def gui_imports(source: str) -> list[str]:
    """Every import by name of the app, Qt or the entry point in ``source``: ``import_module`` /
    ``__import__`` calls with a literal name, which import-linter (reading import statements,
    in function bodies too: the "The core imports no Qt" contract) does not see."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) \
                and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in ("import_module", "__import__"):
            names = [node.args[0].value]
        found += [n for n in names if n.split(".")[0] in GUI]
    return found


def test_the_scan_sees_imports_by_name():
    source = ("def g():\n    import importlib\n    return importlib.import_module('PySide6.QtCore')\n"
              "def h():\n    return __import__('ui.app')\nfrom planner.plan import model\n")
    assert sorted(gui_imports(source)) == ["PySide6.QtCore", "ui.app"]


def test_the_core_never_imports_the_app_or_qt_by_name():
    offenders = {str(p.relative_to(ROOT)): found for p in sorted((ROOT / "planner").rglob("*.py"))
                 if (found := gui_imports(p.read_text()))}
    assert offenders == {}


def test_nothing_attaches_attributes_to_the_main_window_from_outside():
    """The window's attributes are its own (set in ``ui/main_window.py`` and its mixin)."""
    own = {"main_window.py", "file_actions.py"}
    attached = []
    for path in sorted((ROOT / "ui").rglob("*.py")):
        if path.name in own:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "window":
                    attached.append(f"{path.relative_to(ROOT)}:{node.lineno} window.{t.attr}")
    assert attached == []
