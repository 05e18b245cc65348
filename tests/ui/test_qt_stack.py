"""The pinned Qt stack (pyproject.toml) works together: guards an upgrade of either.

PySide6-Essentials 6.12.0 dropped a reference to None on every void Qt call under
Python 3.11 (the interpreter aborts after a few thousand calls), and PySide6 6.11/6.12
break pyqtgraph 0.14's SVG exporter. Both tests fail on those combinations.
"""

import subprocess
import sys

from PySide6.QtCore import QRectF


def test_void_qt_calls_leave_none_alone():
    r = QRectF()
    before = sys.getrefcount(None)
    for _ in range(20_000):
        r.setX(1.0)
    assert abs(sys.getrefcount(None) - before) < 100


def test_pyqtgraph_exports_a_plot_to_svg(tmp_path):
    code = (
        "import pyqtgraph as pg\n"
        "from pyqtgraph.exporters import SVGExporter\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "w = pg.PlotWidget(); w.plot([1, 2, 3], [3, 1, 2]); w.resize(300, 200); w.show(); app.processEvents()\n"
        f"SVGExporter(w.plotItem).export({str(tmp_path / 'p.svg')!r})\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-500:]
    assert (tmp_path / "p.svg").read_text().startswith("<?xml")
