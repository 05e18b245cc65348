"""Shared by the app benchmarks: start the app (or a bare window) in this process and time its first paint.

Run as a child process by the benchmark scripts:

    python3 benchmarks/_app_probe.py app [PLAN]      # the app, as ``cluster-planner [PLAN]`` starts it
    python3 benchmarks/_app_probe.py bare            # a bare QMainWindow holding one pyqtgraph PlotWidget

Prints one JSON line: ``first_paint_epoch`` (time.time() when the first paint event of
the view's viewport -- or the plot's -- has been handled), ``imported_epoch``, ``shown_epoch``
and ``maxrss_mb`` (peak resident memory, ru_maxrss). The parent measures from before it
started this process, so interpreter start-up and imports are counted.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _report(**figures) -> None:
    figures["maxrss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(figures), flush=True)


def _first_paint_watch(widget, on_first_paint):
    """Call ``on_first_paint`` once the first Paint event of ``widget`` has been handled."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class Watch(QObject):
        done = False

        def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint and not self.done:
                self.done = True
                # runs after this paint event has been fully handled
                QTimer.singleShot(0, on_first_paint)
            return False

    watch = Watch(widget)
    widget.installEventFilter(watch)
    return watch


def run_app(argv: list[str]) -> int:
    from cluster_planner import load_app

    run = load_app()  # the imports in the order ``cluster-planner`` makes them: the core, then Qt
    from PySide6.QtWidgets import QApplication

    import ui.app as app_module
    imported = time.time()
    marks: dict[str, float] = {}

    def hook(window) -> None:
        marks["shown"] = time.time()

        def painted() -> None:
            stamp = time.time()
            extra = {}
            if os.environ.get("PROBE_FIT"):  # also draw the whole floor zoomed out (memory at full view)
                window.view.zoom_to_fit()
                window.view.viewport().repaint()
                extra["fit_paint_s"] = round(time.time() - stamp, 3)
            _report(first_paint_epoch=stamp, imported_epoch=imported, shown_epoch=marks["shown"],
                    racks=len(window.doc.plan.racks), devices=len(window.doc.plan.placements), **extra)
            window.doc.undo_stack.setClean()
            QApplication.instance().quit()

        window._probe = _first_paint_watch(window.view.viewport(), painted)

    app_module.STARTUP_HOOKS.append(hook)
    return run(argv)


def run_bare() -> int:
    from PySide6.QtWidgets import QApplication, QMainWindow
    import pyqtgraph as pg
    imported = time.time()
    app = QApplication([sys.argv[0]])
    window = QMainWindow()
    plot = pg.PlotWidget()
    plot.plot([0, 1, 2, 3], [1, 3, 2, 4])
    window.setCentralWidget(plot)
    window.resize(1500, 920)

    def painted() -> None:
        _report(first_paint_epoch=time.time(), imported_epoch=imported)
        app.quit()

    window._probe = _first_paint_watch(plot.viewport(), painted)
    window.show()
    return app.exec()


if __name__ == "__main__":
    mode = sys.argv[1]
    sys.exit(run_bare() if mode == "bare" else run_app(sys.argv[2:]))
