"""The core's module graph: no cycles (a module never needs itself to be imported first)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(path: Path, known: set[str]) -> set[str]:
    """The planner modules ``path`` imports (anywhere in it, but not for type checking only)."""
    tree = ast.parse(path.read_text(), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if _type_checking_only(node, parents):
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != me:
                out.add(name)
    return out


def graph() -> dict[str, set[str]]:
    files = sorted((ROOT / "planner").rglob("*.py"))
    known = {module_name(p) for p in files}
    return {module_name(p): imports(p, known) for p in files}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_core_has_no_import_cycles():
    edges = graph()
    assert "planner.report.sections" in edges["planner.report.evaluate"]  # the scan sees imports
    assert cycles(edges) == []


GUI = ("ui", "PySide6", "shiboken6", "pyqtgraph", "cluster_planner")


def gui_imports(source: str) -> list[str]:
    """Every import of the app, Qt or the entry point in ``source``: statements anywhere (function
    bodies too) and ``import_module``/``__import__`` calls with a literal name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) \
                and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in ("import_module", "__import__"):
            names = [node.args[0].value]
        found += [n for n in names if n.split(".")[0] in GUI]
    return found


def test_the_scan_sees_imports_inside_functions_and_by_name():
    source = ("def f():\n    from ui.app import run\n"
              "def g():\n    import importlib\n    return importlib.import_module('PySide6.QtCore')\n"
              "import pyqtgraph as pg\nfrom planner.plan import model\n")
    assert sorted(gui_imports(source)) == ["PySide6.QtCore", "pyqtgraph", "ui.app"]


def test_the_core_never_imports_the_app_or_qt_not_even_in_a_function():
    offenders = {str(p.relative_to(ROOT)): found for p in sorted((ROOT / "planner").rglob("*.py"))
                 if (found := gui_imports(p.read_text()))}
    assert offenders == {}


def test_the_import_linter_contracts_hold():
    """The layers of pyproject.toml's [tool.importlinter]: entry point > app > core, no Qt in the
    core, and the core's own layers (cli > export, sweep > report, design > ... > errors > text)."""
    import shutil
    import subprocess
    import sys

    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "import-linter is not installed (pip install -e '.[test]')"
    done = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "The core's layers KEPT" in done.stdout
    assert "Contracts: 3 kept, 0 broken." in done.stdout


def two_way_pairs(imports: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Pairs of the core's subpackages (or top-level modules) that import each other, from
    (importer, imported) module names."""
    def unit(name: str) -> str:
        return ".".join(name.split(".")[:2])

    edges = {(unit(a), unit(b)) for a, b in imports if unit(a) != unit(b) and "planner" not in (unit(a), unit(b))}
    return sorted((a, b) for a, b in edges if (b, a) in edges and a < b)


def test_the_pair_finder_finds_a_two_way_pair():
    assert two_way_pairs({("planner.plan.templates", "planner.network.fabric"),
                          ("planner.network.cables", "planner.plan.model"),
                          ("planner.report.model", "planner.costs.section")}) == [("planner.network", "planner.plan")]


def test_no_two_parts_of_the_core_import_each_other():
    """Counting imports for type checking and inside functions too (grimp reads them all)."""
    import grimp

    graph = grimp.build_graph("planner")
    imports = {(m, i) for m in graph.modules for i in graph.find_modules_directly_imported_by(m)}
    assert ("planner.report.model", "planner.findings") in imports
    assert two_way_pairs(imports) == []


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
