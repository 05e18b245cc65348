"""What the mouse wheel and the undo keys do over the app's entry fields.

- The wheel scrolls the panel under it; it changes a value only in the field being edited.
  Qt gives a spin box or a combo box the wheel whenever the pointer is over it, so scrolling
  down the Settings or Inspector panel changed whichever field passed under the pointer (a
  device's lowest U; the power basis, typical to nameplate: IT power 15.1 -> 23.3 kW) with
  nothing to say so. Such a wheel goes to the scroll area the field sits in (or nowhere)
  unless the field has the keyboard focus, which a click or Tab gives it, not the wheel.
- Ctrl+Z and Ctrl+Shift+Z reach the plan's undo from a text field with nothing of its own to
  undo. A QLineEdit claims the undo keys whether or not it has any typing to take back, so
  after "1.3" and Enter in the PUE field, Ctrl+Z did nothing while the Edit menu offered
  "Undo Set PUE". Typing not yet entered is still the field's to undo.

One application-wide filter (``install``) does both.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QLineEdit, QWidget

WHEEL_EDITORS = (QAbstractSpinBox, QComboBox)


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    return parent


def _leaves_undo_to_the_plan(edit: QLineEdit, event) -> bool:
    """Whether an undo or redo key pressed in ``edit`` is the plan's: the field has no typing
    of its own to take back (or bring back)."""
    if event.matches(QKeySequence.StandardKey.Undo):
        return not edit.isUndoAvailable()
    if event.matches(QKeySequence.StandardKey.Redo):
        return not edit.isRedoAvailable()
    return False


class FieldInput(QObject):
    """Installed on the application (``install``); see the module docstring."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride:
            # not accepted here, the key goes on to the shortcuts (the Edit menu's Undo, Redo)
            return isinstance(watched, QLineEdit) and _leaves_undo_to_the_plan(watched, event)
        if kind not in (QEvent.Type.Wheel, QEvent.Type.Polish) or not isinstance(watched, WHEEL_EDITORS):
            return False
        if kind == QEvent.Type.Polish:
            # Qt focuses a WheelFocus widget on a wheel before any filter sees it: click and Tab only
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            return False
        if watched.hasFocus():
            return False
        area = _scroll_area(watched)
        if area is not None:
            QCoreApplication.sendEvent(area.verticalScrollBar(), event)
        return True


def install(app: QCoreApplication) -> FieldInput:
    """The filter on ``app``, once."""
    found = app.findChild(FieldInput)
    if found is None:
        found = FieldInput(app)
        app.installEventFilter(found)
    return found
