"""The open plan as a Qt object: every edit goes through here.

An edit is a core command: it is done, the plan is re-evaluated for what the change set
names, a thin QUndoCommand is pushed so Ctrl+Z undoes it, and then ``changed(ChangeSet,
Report)`` is emitted; views redraw only what the change set touched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from planner.hardware.catalog import Catalog
from planner.plan.changes import EVERYTHING, ChangeSet
from planner.plan.commands import Command, CommandError
from planner.report.evaluate import Evaluator
from planner.plan.fileio import plan_to_json, save_plan
from planner.plan.model import Plan
from planner.report.model import Report

_MERGEABLE_ID = 1


class _UndoEntry(QUndoCommand):
    """A core command on the QUndoStack. It was already done when pushed, so the first redo is skipped."""

    def __init__(self, doc: Document, command: Command, merge_key: Any = None):
        super().__init__(command.label)
        self.doc, self.command, self.merge_key = doc, command, merge_key
        self._pushed = False

    def id(self) -> int:  # noqa: A003 - Qt's name
        return _MERGEABLE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _UndoEntry) or other.merge_key != self.merge_key:
            return False
        if self.command.merge(other.command):
            self.setText(self.command.label)
            return True
        return False

    def redo(self) -> None:
        if not self._pushed:
            self._pushed = True
            return
        self.doc._replay(self.command.do(self.doc.plan, self.doc.catalog))

    def undo(self) -> None:
        self.doc._replay(self.command.undo(self.doc.plan, self.doc.catalog))


class Document(QObject):
    changed = Signal(object, object)
    """(ChangeSet, Report) after every edit, undo, redo or a new plan."""
    error = Signal(str)
    """A refused edit, as one line for the user."""
    pathChanged = Signal(object)

    def __init__(self, plan: Plan, catalog: Catalog, path: Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.catalog = catalog
        self.undo_stack = QUndoStack(self)
        self.plan = plan
        self.path: Path | None = Path(path) if path else None
        self.evaluator = Evaluator(plan, catalog)
        self.report: Report = self.evaluator.evaluate()
        self.last_error: str | None = None

    # -- editing ------------------------------------------------------------------------
    def apply(self, command: Command, merge_key: Any = None) -> bool:
        """Do ``command``; on CommandError emit ``error`` and leave plan and stack untouched.

        Commands pushed with the same non-None ``merge_key`` back to back merge into one
        undo step (the core command decides whether they can)."""
        try:
            changes = command.do(self.plan, self.catalog)
        except CommandError as exc:
            self.last_error = str(exc)
            self.error.emit(self.last_error)
            return False
        self.last_error = None
        self.report = self.evaluator.evaluate(changes)
        # push, then tell the views: a view reacting to the change sees the undo step it belongs to
        self.undo_stack.push(_UndoEntry(self, command, merge_key))
        self.changed.emit(changes, self.report)
        return True

    def _replay(self, changes: ChangeSet) -> None:
        self.report = self.evaluator.evaluate(changes)
        self.changed.emit(changes, self.report)

    # -- whole documents ----------------------------------------------------------------
    def replace(self, plan: Plan, path: Path | None) -> None:
        """Show another plan (new or opened): fresh evaluation, empty undo history."""
        self.plan = plan
        self.evaluator = Evaluator(plan, self.catalog)
        self.report = self.evaluator.evaluate()
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self._set_path(path)
        self.changed.emit(EVERYTHING, self.report)

    def save(self, path: Path | None = None) -> None:
        """Save through the core's safe writer (``planner.safefile``), keeping backups, and mark the stack clean.

        Raises PlanSaveError (a PlannerError) with a one-line reason; the old file is then intact."""
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("no file name to save to")
        save_plan(self.plan, target)
        self.undo_stack.setClean()
        self._set_path(target)

    def plan_json(self) -> str:
        """The current plan as its file text (for autosave and crash recovery)."""
        return plan_to_json(self.plan)

    def _set_path(self, path: Path | None) -> None:
        self.path = Path(path) if path else None
        self.pathChanged.emit(self.path)

    @property
    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()
