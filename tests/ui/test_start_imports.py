"""Start-up order: the core the window needs is imported before Qt.

PySide6 inspects every module imported after it (it reads the module's source for its
``__feature__`` switches), so ``cluster-planner`` imports the Qt-free core and numpy first
(``cluster_planner.APP_CORE``). If the window came to need a core module that list does not
bring in, the start would quietly get slower: this test names it.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import importlib, sys
import cluster_planner
for name in cluster_planner.APP_CORE:
    importlib.import_module(name)
qt_before = any(m.startswith("PySide6") for m in sys.modules)
before = set(sys.modules)
import ui.app as app_module
app = app_module.ensure_application()
window = app_module.create_window([])
window.show()
app.processEvents()
late = sorted(m for m in set(sys.modules) - before if m.split(".")[0] in ("planner", "numpy", "pydantic"))
print("qt before the core:", qt_before)
print("late:", " ".join(late) or "-")
window.doc.undo_stack.setClean()
"""


def test_the_first_window_needs_no_core_module_imported_after_qt(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT), CLUSTER_PLANNER_STATE_DIR=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path))  # the window's saved layout: this test's own
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "qt before the core: False" in run.stdout
    assert "late: -" in run.stdout, run.stdout


def test_the_command_line_loads_the_app_core_first(monkeypatch, capsys):
    import types

    import cluster_planner

    order = []

    def start_check():  # the system-library check: started first, answered once the core is in
        order.append("ldd started")
        return lambda: order.append("ldd answered") or "libxcb-cursor0 is missing"

    monkeypatch.setattr("ui.qt_libs.start_check", start_check)
    monkeypatch.setattr(cluster_planner, "importlib", types.SimpleNamespace(import_module=order.append))
    assert cluster_planner.main([]) == 2
    assert tuple(order) == ("ldd started", *cluster_planner.APP_CORE, "ldd answered")
    assert "libxcb-cursor0 is missing" in capsys.readouterr().err
