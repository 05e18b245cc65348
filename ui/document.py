"""The open plan as a Qt object: every edit goes through here.

An edit is a core command applied to the core's ``History`` (which also decides whether
it merges with the step before, and knows which step is saved); the plan is re-evaluated for
what the change set names, the undo actions are told (``ui.undo_stack``, which reads the
history and keeps no steps), and then ``changed(ChangeSet, Report)`` is emitted; views redraw
only what the change set touched.

How views hear about changes (one way, for every view): each view has a slot connected to
``changed`` that takes ``(changes, report)`` and reacts only to the flags of the change set
it cares about (the Anki ``OpChanges`` way) -- the rack view to ``racks``/``structure``, the
settings panel to ``settings``, the variant menu to ``plan``. A view that holds the document
connects itself; the views that show a report and no document (summary strip, checks list,
charts: tests feed them a bare report) are connected by the main window that places them.
Nothing pushes to a view. Signals are direct, so every view has followed an edit before
``apply`` returns, in the order the views were connected; the undo actions hear first.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from planner.hardware.catalog import Catalog
from planner.plan.changes import EVERYTHING, ChangeSet
from planner.plan.commands import UNDO_STEPS, Command, CommandError, History
from planner.report.evaluate import Evaluator
from planner.plan.fileio import plan_to_json, save_plan
from planner.plan.model import Plan
from planner.report.model import Report
from ui.undo_stack import UndoStack


FREEZE_FROM_DEVICES = 10_000
"""Plans this big are kept out of Python's full garbage collections (``gc.freeze``): each
would walk the whole plan (100-230 ms on campus-400k) in the middle of some later edit.
So are the views' items built for them (``Document.settle``): campus-400k's rack, floor
and list items made the collections during 200 drops take 650 ms, 170-230 ms each full one
(2026-12-01, shared 2-core machine), against the drop's 16 ms frame."""


IDLE_COLLECT_MS = 1000
"""With a plan that big, Python's automatic collections stop at the youngest generation
(under a millisecond) and the older ones are collected once no edit has come for this long:
the views' items that an edit adds (a rack's devices drawn for the first time) made a
collection of the older generations come every dozen drops at campus-400k, 4-20 ms each
and 120-230 ms when it was a full one (2026-12-01, shared 2-core machine): the drops that
missed the 16 ms frame."""
_THRESHOLDS = gc.get_threshold()


def _freeze_big(plan: Plan, collect: bool = True) -> bool:
    """Freeze what there is when ``plan`` is big, after collecting the garbage (what is frozen
    is never collected) unless ``collect`` is False: then ``Document.settle`` collects later."""
    if len(plan.placements) < FREEZE_FROM_DEVICES:
        gc.set_threshold(*_THRESHOLDS)
        return False
    if collect:
        gc.collect()
    gc.freeze()
    gc.set_threshold(_THRESHOLDS[0], 2**30)  # no older generation collected but by ``_collect_when_idle``
    return True


def _restore_collections() -> None:
    gc.set_threshold(*_THRESHOLDS)


class Document(QObject):
    changed = Signal(object, object)
    """(ChangeSet, Report) after every edit, undo, redo or a new plan."""
    error = Signal(str)
    """A refused edit, as one line for the user."""
    pathChanged = Signal(object)

    def __init__(self, plan: Plan, catalog: Catalog, path: Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.catalog = catalog
        self.plan = plan
        self.history = History(plan, catalog, UNDO_STEPS)
        self.undo_stack = UndoStack(self)  # Qt's undo signals and actions, read from the history
        self.path: Path | None = Path(path) if path else None
        self._unsaved_work = False  # ``replace``
        # A big plan just read is frozen at once, garbage and all, so that neither its first
        # evaluation nor the views built next set off collections that walk it: on campus-1m
        # these and the collection before freezing took 0.45 s of the 2.5-3 s to the first
        # paint. ``settle`` collects once the views are built (the window calls it); a
        # document without a window keeps what was garbage before it until it is replaced.
        self._frozen = _freeze_big(plan, collect=False)
        self.evaluator = Evaluator(plan, catalog)
        self.report: Report = self.evaluator.evaluate()
        self.last_error: str | None = None
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setInterval(IDLE_COLLECT_MS)
        self._idle.timeout.connect(gc.collect)
        self.destroyed.connect(_restore_collections)

    # -- editing ------------------------------------------------------------------------
    def apply(self, command: Command, merge_key: Any = None) -> bool:
        """Do ``command``; on CommandError emit ``error`` and leave plan and stack untouched.

        Commands pushed with the same non-None ``merge_key`` back to back merge into one
        undo step (the core command decides whether they can)."""
        try:
            changes = self.history.apply(command, merge_key)
        except CommandError as exc:
            self.last_error = str(exc)
            self.error.emit(self.last_error)
            return False
        self.last_error = None
        self.report = self.evaluator.evaluate(changes)
        # the undo actions, then the views: a view reacting to the change sees the undo step it belongs to
        self.undo_stack.refresh()
        self.changed.emit(changes, self.report)
        self._collect_when_idle()
        return True

    def join_steps(self, count: int, label: str) -> None:
        """Make the last ``count`` steps one undo step named ``label`` (``History.join``)."""
        self.history.join(count, label)
        self.undo_stack.refresh()

    def undo(self) -> None:
        """Undo the history's last step (Ctrl+Z goes through ``undo_stack.undo``, which asks first)."""
        self._replay(self.history.undo())

    def redo(self) -> None:
        self._replay(self.history.redo())

    def _replay(self, changes: ChangeSet) -> None:
        self.report = self.evaluator.evaluate(changes)
        self.undo_stack.refresh()
        self.changed.emit(changes, self.report)
        self._collect_when_idle()

    def _collect_when_idle(self) -> None:
        if self._frozen:
            self._idle.start()  # again: from this edit on (``IDLE_COLLECT_MS``)

    # -- whole documents ----------------------------------------------------------------
    def replace(self, plan: Plan, path: Path | None, *, unsaved_work: bool = False) -> None:
        """Show another plan (new or opened): fresh evaluation, empty undo history.
        ``unsaved_work``: a plan the user made (designed, imported) that is on no disk yet, so
        it counts as modified until saved, and closing it asks first."""
        self._unsaved_work = unsaved_work
        if self._frozen:
            gc.unfreeze()  # the plan shown so far may go
        self.plan = plan
        self.history = History(plan, self.catalog, UNDO_STEPS)
        self._frozen = _freeze_big(plan, collect=False)  # as on opening; ``settle`` below collects
        self.evaluator = Evaluator(plan, self.catalog)
        self.report = self.evaluator.evaluate()
        self.undo_stack.refresh()  # a new history: nothing to undo, at its saved step
        self._set_path(path)
        self.changed.emit(EVERYTHING, self.report)
        self.settle()

    def settle(self) -> None:
        """Once the views have been built for a big plan: what they made for it is kept out of
        full garbage collections too (``FREEZE_FROM_DEVICES``)."""
        if self._frozen:
            gc.unfreeze()  # and what was frozen unlooked-at on opening: one full collection
            self._frozen = _freeze_big(self.plan)

    def save(self, path: Path | None = None) -> None:
        """Save through the core's safe writer (``planner.safefile``), keeping backups, and mark the stack clean.

        Raises PlanSaveError (a PlannerError) with a one-line reason; the old file is then intact."""
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("no file name to save to")
        save_plan(self.plan, target)
        self._unsaved_work = False
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
        return self._unsaved_work or not self.undo_stack.isClean()
