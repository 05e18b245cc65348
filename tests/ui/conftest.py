import gc
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QEvent, QPoint, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from planner.design.templates import build_template  # noqa: E402
from planner.hardware.catalog import default_catalog  # noqa: E402
from ui import theme  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def one_qapplication(qapp):
    """Every UI test runs in the one QApplication (pytest-qt's), made before the first test: an
    export drawn first would otherwise leave a QGuiApplication behind that widgets cannot use."""
    return qapp


@pytest.fixture(autouse=True)
def isolated_qsettings(tmp_path):
    """Each test gets its own settings file (window layout, recent files)."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))
    yield


@pytest.fixture(autouse=True)
def collections_between_tests():
    """Python's cyclic garbage collector runs between UI tests, not inside one. A collection
    that starts inside a Qt call (a signal's disconnect holds Qt's connection lock) and
    destroys an unreachable widget's menus waits on that same lock for ever (PySide6 6.10:
    a full run once hung in ViewBox.addItem so, in ~QObject under gc_collect_main). Each
    test's garbage is collected once it is done; a test that switches collections itself
    gets them back as they were."""
    enabled = gc.isenabled()
    gc.disable()
    yield
    if enabled:
        gc.enable()
    gc.collect()


@pytest.fixture(scope="session")
def catalog():
    return default_catalog()


def _discard(w) -> None:
    from PySide6.QtWidgets import QMessageBox

    w.ask_unsaved = lambda: QMessageBox.StandardButton.Discard


def open_window(qtbot, plan, catalog, size=(1500, 950), reset_view=False):
    """The app's main window on ``plan``, shown at ``size`` and exposed; closing it discards
    its changes (no unsaved-changes prompt when pytest-qt closes it); ``reset_view``: the
    floor at 1:1, not fitted to the window."""
    from ui.app import ensure_application
    from ui.document import Document
    from ui.main_window import MainWindow

    ensure_application()
    w = MainWindow(Document(plan, catalog))
    qtbot.addWidget(w, before_close_func=_discard)
    w.resize(*size)
    w.show()
    if reset_view:
        w.view.resetTransform()
    qtbot.waitExposed(w)
    return w


def close_window(w) -> None:
    """Delete the window, not just close it: a closed window keeps its ~130 menus and chart
    widgets alive, and every later window's events walk past them (setup grew to 9 s)."""
    w.doc.undo_stack.setClean()
    w.close()
    w.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def window(qtbot, catalog):
    w = open_window(qtbot, build_template("medium", catalog=catalog), catalog, reset_view=True)
    yield w
    close_window(w)


def rack_named(plan, name):
    return next(r for r in plan.racks if r.name == name)


def slot_pos(view, rack_id, u) -> QPoint:
    """Viewport position of the middle of slot ``u`` of a rack (scrolls it into view first)."""
    item = view.racks[rack_id]
    local_y = item.slot_top(u) + theme.U_PX / 2
    local_x = theme.GUTTER_W + theme.RACK_BODY_W / 2
    view.centerOn(item.mapToScene(local_x, local_y))
    QApplication.processEvents()
    return view.mapFromScene(item.mapToScene(local_x, local_y))


def send_drag(view, mime, pos: QPoint, drop: bool = True) -> QDropEvent | None:
    """A drag entering the view's viewport, moving to ``pos`` and (optionally) dropping there,
    with real mime data (QTest mouse events do not start a QDrag; pytest-qt #260)."""
    vp = view.viewport()
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QApplication.sendEvent(vp, QDragEnterEvent(pos, actions, mime, buttons, mods))
    QApplication.sendEvent(vp, QDragMoveEvent(pos, actions, mime, buttons, mods))
    if not drop:
        return None
    event = QDropEvent(pos, actions, mime, buttons, mods)
    QApplication.sendEvent(vp, event)
    return event
