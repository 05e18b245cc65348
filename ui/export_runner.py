"""An export off the GUI thread, behind a progress dialog with a Cancel button.

``run_export(window, title, write)`` runs ``write(progress)`` on a worker thread and waits for
it in a local event loop, so the window keeps painting while a big plan's NetBox files (about
9 minutes for campus-1m) or workbook are written; it returns when the export has ended, as the
synchronous export did. The writers tell ``progress(done, total, what)`` how far they are
(``total`` 0: not known, a busy bar and the count so far); Cancel makes the next call raise
``ExportCancelled``, and the writers stage their output, so nothing new is left behind.

The dialog is application-modal, not only window-modal: the Compare, Sweep and Acceptance
results windows can edit the plan too (create or record a variant), and the worker reads the
plan while it writes (copying campus-1m first, ``model_copy(deep=True)``, takes 2.6 s in the
GUI thread). What still runs meanwhile only reads the plan (autosave's ``plan_to_json``, the
views' repaints). An export shorter than ``SHOW_AFTER_MS`` shows no dialog at all.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import SIGNAL, SLOT, QEventLoop, QObject, Qt, QThread, Signal
from PySide6.QtWidgets import QProgressDialog, QPushButton

from planner.errors import ExportCancelled

SHOW_AFTER_MS = 500
Progress = Callable[[int, int, str], None]


class _Worker(QThread):
    """``write(progress)`` on its own thread; ``stop()`` makes the next ``progress`` call raise."""

    progressed = Signal(int, int, str)

    def __init__(self, write: Callable[[Progress], object]):
        super().__init__()
        self.write = write
        self.raised: BaseException | None = None  # raised again in the GUI thread
        self.cancelled = False
        self._stopped = False

    def stop(self) -> None:
        self._stopped = True

    @property
    def stopping(self) -> bool:
        return self._stopped

    def _progress(self, done: int, total: int, what: str) -> None:
        if self._stopped:
            raise ExportCancelled(what)
        self.progressed.emit(done, total, what)

    def run(self) -> None:
        try:
            self.write(self._progress)
        except ExportCancelled:
            self.cancelled = True
        except BaseException as exc:  # noqa: BLE001 - handed to the GUI thread, which raises it
            self.raised = exc


class _ProgressDialog(QProgressDialog):
    """Stays open until the export has ended: Cancel, Escape and the window's close button
    ask the worker to stop (``canceled``), and the dialog shows "Cancelling…" meanwhile (Qt's
    own would hide at once, lifting the modality while the worker still reads the plan)."""

    def __init__(self, title: str, parent) -> None:
        super().__init__(f"{title}…", "Cancel", 0, 0, parent)  # its own button: Escape is its shortcut
        QObject.disconnect(self, SIGNAL("canceled()"), self, SLOT("cancel()"))

    def reject(self) -> None:  # Escape once the Cancel button is removed
        self.canceled.emit()

    def closeEvent(self, event) -> None:
        event.ignore()
        self.canceled.emit()


def describe(done: int, total: int, what: str) -> str:
    """The dialog's text: "NetBox files: 1,205,000 rows written…", "NetBox files: the cable schedule…",
    "Excel workbook: Racks sheet (step 5 of 12)…"."""
    if total:
        return f"{what} (step {done + 1} of {total})…"
    return f"{what}: {done:,} rows written…" if done else f"{what}…"


def run_export(parent, title: str, write: Callable[[Progress], object], cancellable: bool = True) -> bool:
    """Run ``write(progress)`` behind a progress dialog: True when it wrote, False when the
    user cancelled it; what it raised (PlannerError, OSError ...) is raised here.

    ``cancellable`` False: the writer never calls ``progress`` (the drawings), so the dialog
    shows a busy bar and no Cancel button, which could not stop it."""
    worker = _Worker(write)
    dialog = _ProgressDialog(title, parent)
    dialog.setObjectName("ExportProgress")
    dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.ApplicationModal)
    dialog.setMinimumDuration(SHOW_AFTER_MS)
    dialog.setMinimumWidth(420)
    dialog.setAutoReset(False)
    dialog.setAutoClose(False)
    if not cancellable:
        dialog.setCancelButton(None)  # deletes it

    def step(done: int, total: int, what: str) -> None:
        if worker.stopping:
            return  # "Cancelling…" stays
        dialog.setLabelText(describe(done, total, what))
        dialog.setMaximum(total)
        dialog.setValue(done if total else 0)  # last: a modal dialog's setValue handles the next report already

    worker.progressed.connect(step)
    if cancellable:
        dialog.canceled.connect(worker.stop)
        dialog.canceled.connect(lambda: dialog.setLabelText("Cancelling…"))
        dialog.canceled.connect(lambda: dialog.findChild(QPushButton).setEnabled(False))
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    worker.start()
    dialog.setValue(0)  # starts the minimum-duration clock
    loop.exec()
    worker.wait()
    dialog.reset()  # stops its show timer: a short export never flashes it later
    dialog.hide()
    dialog.deleteLater()
    if worker.raised is not None:
        raise worker.raised
    return not worker.cancelled
