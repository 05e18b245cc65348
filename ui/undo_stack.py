"""The Qt face of the document's undo history: QUndoStack's signals, actions and queries, read
from the core's ``History`` (``planner.plan.commands``), which is the one record of the steps
and of which step is saved. Nothing here keeps a step, a label or a clean index of its own.

The names are QUndoStack's (``count``, ``undoText``, ``cleanChanged`` ...), so the window,
the session and the tests use it as they would Qt's stack.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction


class UndoStack(QObject):
    """Undo and redo of ``doc.history``, told by ``doc`` after each of its edits (``refresh``)."""

    indexChanged = Signal(int)
    cleanChanged = Signal(bool)
    canUndoChanged = Signal(bool)
    canRedoChanged = Signal(bool)
    undoTextChanged = Signal(str)
    redoTextChanged = Signal(str)
    stepped = Signal(str)  # what an undo or redo did, for the status bar ("Undone: Move ...")

    def __init__(self, doc) -> None:
        super().__init__(doc)
        self._doc = doc
        self._shown = self._state()  # what the signals last said

    @property
    def _history(self):
        return self._doc.history

    def _state(self) -> tuple[int, bool, bool, bool, str, str]:
        h = self._history
        return (h.step, h.is_saved, bool(h.done), bool(h.undone), h.label, h.redo_label)

    def refresh(self) -> None:
        """Emit a signal for each figure that changed since the last refresh, in QUndoStack's order."""
        now, before = self._state(), self._shown
        self._shown = now
        for signal, i in ((self.indexChanged, 0), (self.canUndoChanged, 2), (self.undoTextChanged, 4),
                          (self.canRedoChanged, 3), (self.redoTextChanged, 5), (self.cleanChanged, 1)):
            if now[i] != before[i]:
                signal.emit(now[i])

    # -- queries --------------------------------------------------------------------------
    def count(self) -> int:
        return len(self._history.done) + len(self._history.undone)

    def index(self) -> int:
        return len(self._history.done)

    def canUndo(self) -> bool:  # noqa: N802 (QUndoStack's names)
        return bool(self._history.done)

    def canRedo(self) -> bool:  # noqa: N802
        return bool(self._history.undone)

    def undoText(self) -> str:  # noqa: N802
        return self._history.label

    def redoText(self) -> str:  # noqa: N802
        return self._history.redo_label

    def isClean(self) -> bool:  # noqa: N802
        return self._history.is_saved

    # -- steps and the saved mark ----------------------------------------------------------
    def undo(self) -> None:
        if self.canUndo():
            label = self.undoText()
            self._doc.undo()
            self.stepped.emit(f"Undone: {label}")

    def redo(self) -> None:
        if self.canRedo():
            label = self.redoText()
            self._doc.redo()
            self.stepped.emit(f"Redone: {label}")

    def setClean(self) -> None:  # noqa: N802
        self._history.mark_saved()
        self.refresh()

    def resetClean(self) -> None:  # noqa: N802
        self._history.forget_saved()
        self.refresh()

    # -- actions --------------------------------------------------------------------------
    def createUndoAction(self, parent: QObject, prefix: str) -> QAction:  # noqa: N802
        """"&Undo Move DGX H100 to U13", disabled with nothing to undo (QUndoStack's action)."""
        return self._action(parent, prefix, self.canUndo, self.undoText, self.canUndoChanged, self.undoTextChanged,
                            self.undo)

    def createRedoAction(self, parent: QObject, prefix: str) -> QAction:  # noqa: N802
        return self._action(parent, prefix, self.canRedo, self.redoText, self.canRedoChanged, self.redoTextChanged,
                            self.redo)

    @staticmethod
    def _action(parent, prefix, can, text, can_changed, text_changed, step) -> QAction:
        action = _StepAction(parent, prefix)
        action.setEnabled(can())
        action.name(text())
        can_changed.connect(action.setEnabled)
        text_changed.connect(action.name)
        action.triggered.connect(step)
        return action


class _StepAction(QAction):
    """Undo or Redo named after its step: "&Undo" alone when there is none."""

    def __init__(self, parent: QObject, prefix: str) -> None:
        super().__init__(parent)
        self._prefix = prefix

    def name(self, label: str) -> None:
        self.setText(f"{self._prefix} {label}" if label else self._prefix)
