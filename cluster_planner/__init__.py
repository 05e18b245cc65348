"""The program: ``cluster-planner`` dispatches to the command line or starts the desktop app.

This small module is the only place where the Qt-free core (``planner``) and the desktop
app (``ui``) meet: the core's command line gets the app and the drawing exports (PDF, SVG,
PNG, drawn with Qt) from here, and imports neither itself.
"""

from __future__ import annotations

import sys

from planner.cli import Frontends
from planner.cli import main as cli_main


def _open_app(argv: list[str]) -> int:
    try:
        from ui.qt_libs import problem

        libs = problem()  # before Qt loads: Qt aborts without them
        if libs:
            print(f"cluster-planner: {libs}", file=sys.stderr)
            return 2
        from ui.app import run
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
