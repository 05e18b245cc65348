"""The program: ``cluster-planner`` dispatches to the command line or starts the desktop app.

This small module is the only place where the Qt-free core (``planner``) and the desktop
app (``ui``) meet: the core's command line gets the app and the drawing exports (PDF, SVG,
PNG, drawn with Qt) from here, and imports neither itself.
"""

from __future__ import annotations

import importlib
import sys

from planner.cli import Frontends
from planner.cli import main as cli_main


#: The Qt-free modules the desktop app runs on, imported before Qt. Once PySide6 is loaded it
#: inspects every module imported after it (reading the module's source, for its
#: ``__feature__`` switches); the core and numpy imported first skip that, which is about a
#: tenth of a second of the app's start. ``tests/ui/test_start_imports.py`` checks that the
#: window's first paint needs no core module beyond these and what they import.
APP_CORE = ("numpy", "planner.report.evaluate", "planner.report.elevation", "planner.report.finding_rows",
            "planner.report.whatif", "planner.plan.fileio", "planner.design.templates", "planner.plan.rackscale",
            "planner.hardware.catalog", "planner.hardware.search", "planner.export", "planner.numbers",
            "planner.design.grow", "planner.design.replace", "planner.remedies.fix", "planner.plan.hall_commands",
            "planner.report.schedule_text")


class MissingLibraries(RuntimeError):
    """This machine lacks system libraries Qt's platform plugin needs (the message names them)."""


def load_app():
    """The app's ``run``, the core imported first; raises MissingLibraries (before Qt loads:
    Qt would abort without them) or ImportError when the desktop app cannot be loaded."""
    from ui.qt_libs import start_check  # Qt-free

    libraries = start_check()  # ldd runs in its own process while the core is imported
    try:
        for name in APP_CORE:
            importlib.import_module(name)
    finally:
        libs = libraries()  # before Qt loads: Qt aborts without them (and ldd is waited for either way)
    if libs:
        raise MissingLibraries(libs)
    from ui.app import run

    return run


def _open_app(argv: list[str]) -> int:
    try:
        run = load_app()
    except MissingLibraries as exc:
        print(f"cluster-planner: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"cluster-planner: the desktop app is not available ({exc}); try 'cluster-planner --help'",
              file=sys.stderr)
        return 2
    return int(run(argv) or 0)


def _export_drawing(plan, catalog, path, report, **options):
    from ui.export.files import export_drawing

    return export_drawing(plan, catalog, path, report, **options)


FRONTENDS = Frontends(open_app=_open_app, export_drawing=_export_drawing)


def main(argv: list[str] | None = None) -> int:
    return cli_main(argv, frontends=FRONTENDS)
