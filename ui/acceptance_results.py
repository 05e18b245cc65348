"""File > Import acceptance results…: a folder of measured logs (nccl-tests stdout, fio JSON,
ib_write_bw tables, DCGM diagnostics) judged against the plan's acceptance tests, one row per
result and one per test without (enough) results ("MISSING"), and the measured figures
recorded as the "As built" variant (one undo step).

Reading and judging are the core's (``planner.acceptance.results``, ``.asbuilt``), as for
``cluster-planner acceptance --results``. A 50 MB nccl-tests log with NCCL's INFO lines takes
about 2 s to read, so the folder is read on a worker thread behind a progress dialog that
shows only when the reading lasts.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEventLoop, Qt, QThread, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QProgressDialog, QPushButton,
                               QTableWidget, QVBoxLayout)

from planner.acceptance.asbuilt import AS_BUILT, RecordAsBuilt
from planner.acceptance.criteria import AcceptancePack
from planner.acceptance.results import FolderResults, Verdict, read_results
from planner.errors import PlannerError
from ui.compare_view import _item
from ui.fmt import number

TITLE = "Acceptance results"
HEADS = ("Test", "Where", "Expected (GB/s)", "Measured (GB/s)", "Pass at (GB/s)", "Share of line rate", "Verdict",
         "File")


class _Reader(QThread):
    """``read_results`` off the GUI thread; ``stop()`` ends it before the next file."""

    progressed = Signal(int, int, str)

    def __init__(self, pack: AcceptancePack, folder: Path):
        super().__init__()
        self.pack, self.folder = pack, folder
        self.results: FolderResults | None = None
        self.error: str | None = None
        self._stopped = False

    def stop(self) -> None:
        self._stopped = True

    def _progress(self, done: int, total: int, name: str) -> bool:
        self.progressed.emit(done, total, name)
        return not self._stopped

    def run(self) -> None:
        try:
            self.results = read_results(self.pack, self.folder, self._progress)
        except PlannerError as exc:
            self.error = str(exc)


def read_folder(parent, pack: AcceptancePack, folder: Path) -> FolderResults | None:
    """The folder's results (None if cancelled); PlannerError for a folder that cannot be read."""
    reader = _Reader(pack, folder)
    progress = QProgressDialog("Reading the measured logs…", "Cancel", 0, 0, parent)
    progress.setWindowTitle("Import acceptance results")
    progress.setWindowModality(Qt.WindowModality.WindowModal)
    progress.setMinimumDuration(400)
    progress.setAutoReset(False)

    def step(done: int, total: int, name: str) -> None:
        progress.setMaximum(total)
        progress.setValue(done)
        progress.setLabelText(f"Reading {name} ({done + 1} of {total})…")

    reader.progressed.connect(step)
    progress.canceled.connect(reader.stop)
    loop = QEventLoop()
    reader.finished.connect(loop.quit)
    reader.start()
    loop.exec()
    reader.wait()
    cancelled = progress.wasCanceled()
    progress.close()
    progress.deleteLater()
    if reader.error is not None:
        raise PlannerError(reader.error)
    return None if cancelled else reader.results


def _verdict_word(v: Verdict) -> tuple[str, str | None, str]:
    """(text, fill, tooltip) of the verdict cell: the word says it, the colour repeats it."""
    if v.passed is None:
        return "SKIP", None, "No test of this plan's acceptance pack: nothing to judge it against"
    if v.passed:
        return "PASS", "better", v.reported or "Measured at or above the pass threshold"
    return "FAIL", "worse", v.problem or "Measured below the pass threshold"


def _gbs(value: float | None) -> str:
    return "–" if value is None else number(value, ",.1f")


def summary(results: FolderResults) -> str:
    """One line: how many passed and failed, and the files left out."""
    passed = sum(v.passed is True for v in results.verdicts)
    failed = sum(v.passed is False for v in results.verdicts)
    parts = [f"{passed} passed", f"{failed} failed"]
    skipped = len(results.verdicts) - passed - failed
    if skipped:
        parts.append(f"{skipped} of no test of this plan")
    if results.missing:
        parts.append(f"{len(results.missing)} test(s) missing")
    if results.unrecognised:
        parts.append(f"{len(results.unrecognised)} file(s) not recognised")
    if results.errors:
        parts.append(f"{len(results.errors)} log(s) could not be read")
    return ", ".join(parts)


class AcceptanceResultsDialog(QDialog):
    """The verdicts of one folder, and "Record as As-built variant"."""

    def __init__(self, window, pack: AcceptancePack, folder: Path, results: FolderResults):
        super().__init__(window)
        self.setWindowTitle(TITLE)
        self.setObjectName("AcceptanceResultsDialog")
        self.window_, self.doc, self.pack, self.results = window, window.doc, pack, results
        self.compare_dialog = None
        layout = QVBoxLayout(self)
        head = QLabel(f"Measured logs in {folder} against the acceptance tests of “{pack.plan_name}”: a test passes "
                      f"at {100 * pack.fraction:.0f} % of the planner's expected figure (nccl-tests at the largest "
                      f"message size measured).\n{summary(results)}.")
        head.setWordWrap(True)
        layout.addWidget(head)
        self.table = QTableWidget(len(results.verdicts) + len(results.missing), len(HEADS))
        self.table.setHorizontalHeaderLabels(HEADS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        left = Qt.AlignmentFlag.AlignLeft
        for r, v in enumerate(results.verdicts):
            word, fill, tip = _verdict_word(v)
            share = v.share_of_line_rate
            cells = (_item(v.test_id, align=left), _item(v.title or "–", align=left, tip=v.title),
                     _item(_gbs(v.expected_gbs)), _item(_gbs(v.measured_gbs)), _item(_gbs(v.threshold_gbs)),
                     _item("–" if share is None else f"{number(100 * share, '.0f')} %",
                           tip=f"Measured / line rate ({_gbs(v.line_rate_gbs)} GB/s). The planning guide: below "
                               "about 75 % of the peak, the network is the bottleneck"),
                     _item(word, fill, tip=tip, bold=True, align=Qt.AlignmentFlag.AlignHCenter),
                     _item(v.file, align=left, tip=v.file))
            for c, cell in enumerate(cells):
                self.table.setItem(r, c, cell)
        for r, m in enumerate(results.missing, len(results.verdicts)):
            cells = (_item(m.test_id, align=left), _item(m.title, align=left, tip=m.title),
                     *(_item("–") for _ in range(4)),
                     _item("MISSING", "worse", tip=f"Not accepted: {m.why}", bold=True,
                           align=Qt.AlignmentFlag.AlignHCenter),
                     _item(m.why, align=left, tip=m.why))
            for c, cell in enumerate(cells):
                self.table.setItem(r, c, cell)
        self.table.setWordWrap(False)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)
        self.unrecognised = self._notes("Files not recognised", [f"{n}: {why}" for n, why in results.unrecognised])
        self.errors = self._notes("Logs that could not be read", list(results.errors))
        for label in (self.unrecognised, self.errors):
            layout.addWidget(label)
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout.addWidget(self.note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.record_button = QPushButton("&Record as As-built variant")
        self.record_button.setToolTip(f"A variant “{AS_BUILT}”: the plan with the measured fabric efficiency and "
                                      "storage write rate, so every figure is recomputed for the cluster as built "
                                      "(one undo step; Compare then shows planned vs as built)")
        self.record_button.setEnabled(bool(results.verdicts))
        self.record_button.clicked.connect(self.record)
        buttons.addButton(self.record_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        columns = sum(self.table.columnWidth(c) for c in range(len(HEADS)))
        self.resize(max(900, columns + 60), 520)

    @staticmethod
    def _notes(title: str, lines: list[str]) -> QLabel:
        label = QLabel(f"{title}:\n" + "\n".join(f"• {line}" for line in lines))
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setVisible(bool(lines))
        return label

    def record(self) -> bool:
        """Record the measured figures as the "As built" variant, then compare it with the plan."""
        planned = self.doc.plan.current_variant
        command = RecordAsBuilt(self.pack, list(self.results.verdicts))
        if not self.doc.apply(command):
            self.note.setText(f"Nothing recorded: {self.doc.last_error}.")
            return False
        self.note.setText(f"Recorded as the variant “{AS_BUILT}” (Edit > Undo removes it): "
                          + "; ".join(command.notes) + ".")
        self.window_.statusBar().showMessage(f"Recorded the measured results as the variant “{AS_BUILT}”", 8000)
        self.compare_dialog = self.window_.variant_controls.compare()
        self.compare_dialog.set_checked([planned, AS_BUILT])
        return True
