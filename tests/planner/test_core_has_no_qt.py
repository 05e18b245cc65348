import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_every_planner_module_does_not_load_qt():
    code = (
        "import pkgutil, importlib, sys, planner\n"
        "for m in pkgutil.walk_packages(planner.__path__, 'planner.'):\n"
        "    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
        "from planner.cli import build_parser; build_parser()\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'ui'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
