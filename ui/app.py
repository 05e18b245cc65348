"""Start the desktop app: ``run(argv)`` is what ``cluster-planner`` calls without a subcommand."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from planner.hardware.catalog import default_catalog, load_catalog
from planner.errors import PlannerError
from planner.collector import held_off
from planner.plan.fileio import open_plan
from planner.paths import resources_dir
from planner.design.templates import build_template
from planner.report import palette
from ui.document import Document
from ui import field_input
from ui.errors import install_exception_hook
from ui.locale import apply_locale
from ui.main_window import APP_TITLE, MainWindow
from ui.session import log_dir, offer_recovery, recovery_save
from ui.state_dump import install_state_dump

DEFAULT_TEMPLATE = "medium"

STARTUP_HOOKS: list[Callable[[MainWindow], None]] = []
"""Called with the main window once it is shown, autosave started and recovery offered."""

STYLESHEET = f"""
#SummaryStrip {{ background: {palette.PANEL_BACKGROUND}; }}
#SummaryArea {{ background: {palette.PANEL_BACKGROUND}; border: none; border-bottom: 1px solid {palette.PANEL_BORDER}; }}
#SummaryFigure {{ border-right: 1px solid {palette.PANEL_DIVIDER}; }}
#SummaryValue {{ font-size: 16px; font-weight: 600; color: {palette.PANEL_VALUE}; }}
#SummaryCaption {{ font-size: 11px; color: {palette.PANEL_CAPTION}; }}
#InspectorHeading {{ padding: 2px 0 6px 0; }}
#CampusPlace {{ background: {palette.CANVAS}; color: {palette.RACK_TEXT}; border: 1px solid {palette.HALL_LINE};
  border-radius: 3px; padding: 3px 8px; font-weight: 600; }}
QDockWidget::title {{ padding: 4px 6px; background: {palette.DOCK_TITLE}; }}
"""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cluster-planner", add_help=False)
    parser.add_argument("plan", nargs="?")
    parser.add_argument("--catalog", action="append", default=[])
    parser.add_argument("--smoke", action="store_true", help="open, draw, exit 0 (installer smoke test)")
    args, _unknown = parser.parse_known_args(argv)
    return args


def app_icon() -> QIcon:
    path = resources_dir() / "icons" / "app.svg"
    return QIcon(str(path)) if path.exists() else QIcon()


def ensure_application() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "cluster-planner"])
    app.setApplicationName(APP_TITLE)
    app.setOrganizationName(APP_TITLE)
    app.setApplicationDisplayName(APP_TITLE)
    app.setStyle("Fusion")
    app.setStyleSheet(STYLESHEET)
    app.setWindowIcon(app_icon())
    apply_locale()
    field_input.install(app)
    return app


def create_window(argv: list[str]) -> MainWindow:
    """The main window on the plan named in ``argv`` (or the default template); raises PlannerError.

    A plan that cannot be opened is reported (a message box; on stderr with --smoke) and the
    default plan is shown instead."""
    args = parse_args(argv)
    catalog = load_catalog([Path(f) for f in args.catalog]) if args.catalog else default_catalog()
    problem = None
    plan, path = None, None
    # read, then frozen by the document (a big plan) before any collection walks it: the
    # first after the read alone took 0.06-0.12 s on campus-1m
    with held_off():
        if args.plan:
            try:
                plan, path = open_plan(args.plan, catalog), Path(args.plan)
            except PlannerError as exc:
                problem = str(exc)
        if plan is None:
            plan = build_template(DEFAULT_TEMPLATE, catalog=catalog)
        doc = Document(plan, catalog, path)
    window = MainWindow(doc, open_problem=problem)
    if path is not None:
        mode = "edit" if args.smoke else window.claim(path)
        if mode == "cancel":  # in use elsewhere and not wanted here: the default plan instead
            window.doc.replace(build_template(DEFAULT_TEMPLATE, catalog=catalog), None)
            path = None
        window.plan_guard.take(path, read_only=mode == "read_only")
    if path is not None:
        window._remember_recent(path)
    if problem and not args.smoke:
        QTimer.singleShot(0, lambda: window.show_error("Open plan", f"{problem}\nShowing the default plan instead."))
    return window


def _no_display(args: argparse.Namespace) -> str | None:
    """On a Linux machine without a screen, --smoke runs offscreen; anything else gets a
    clear message instead of Qt's abort."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    if args.smoke:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        return None
    return ("no display to open the desktop app on (DISPLAY is not set); the subcommands work without one: "
            "see 'cluster-planner --help'")


def run(argv: list[str]) -> int:
    args = parse_args(argv)
    problem = _no_display(args)
    if problem:
        print(f"cluster-planner: {problem}", file=sys.stderr)
        return 2
    app = ensure_application()
    try:
        window = create_window(argv)
    except PlannerError as exc:
        print(f"cluster-planner: {exc}", file=sys.stderr)
        if not args.smoke:
            QMessageBox.critical(None, APP_TITLE, str(exc))
        return 2
    window.show()
    window.view.zoom_to_rack_height()
    if args.smoke:
        if window.open_problem:
            print(f"cluster-planner: {window.open_problem}", file=sys.stderr)
        app.processEvents()
        image = window.grab()
        ok = not image.isNull() and window.doc.report is not None
        window.doc.undo_stack.setClean()
        window.close()
        status = 0 if ok and not window.open_problem else (2 if window.open_problem else 1)
        _dispose(app, window)
        return status
    window.start_autosave()  # takes this session's lock first, so only other sessions' copies are offered
    hook = install_exception_hook(lambda: window, recovery_save(window), log_dir=log_dir())
    offer_recovery(window)
    for startup_hook in STARTUP_HOOKS:
        startup_hook(window)
    install_state_dump(window)
    try:
        return app.exec()
    finally:
        hook.uninstall()
        _dispose(app, window)


def _dispose(app: QApplication, window: MainWindow) -> None:
    """Destroy the window and its scene while the QApplication still lives: left to the
    interpreter's shutdown, Qt objects can be freed after the application (a crash at exit)."""
    window.deleteLater()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
