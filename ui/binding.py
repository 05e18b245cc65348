"""One helper that binds a pydantic field to an editor widget (napari ``connect_setattr`` style).

model -> widget: ``FieldEditor.show(value)`` with the widget's signals blocked.
widget -> model: the editor parses the entry and calls ``commit(value)``, which applies a
core command; when the commit is refused the widget goes back to the model's value.
The settings panels and the rack editor are both built from this.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from typing import Any, Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QWidget


def describe_annotation(annotation: Any) -> tuple[str, tuple, bool]:
    """(kind, choices, optional) for a field's type: kind is choice, bool, int, float, str or other."""
    optional = False
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) != len(typing.get_args(annotation))
        if len(args) == 1:
            annotation, origin = args[0], typing.get_origin(args[0])
        else:
            return "other", (), optional
    if origin is Literal:
        return "choice", typing.get_args(annotation), optional
    if annotation is bool:
        return "bool", (), optional
    if annotation is int:
        return "int", (), optional
    if annotation is float:
        return "float", (), optional
    if annotation is str:
        return "str", (), optional
    return "other", (), optional


def format_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)


def parse_entry(kind: str, text: str, optional: bool, title: str) -> Any:
    """A typed value from what the user typed; ValueError with a one-line reason if it is not one."""
    if kind == "str":
        return text.strip()  # the model's own constraints judge it
    text = text.strip().replace(",", "")
    if text == "":
        if optional:
            return None
        raise ValueError(f"{title}: enter a value")
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{title}: '{text}' is not a whole number") from None
    if kind == "float":
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{title}: '{text}' is not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{title}: '{text}' is not a finite number")
        return value
    return text


class FieldEditor:
    """An editor widget for one typed field; ``commit(value) -> error or None`` applies it."""

    def __init__(self, kind: str, choices: tuple, optional: bool, title: str,
                 commit: Callable[[Any], str | None], on_error: Callable[[str], None],
                 choice_labels: Callable[[Any], str] = str):
        self.kind, self.optional, self.title = kind, optional, title
        self.commit, self.on_error = commit, on_error
        self._value: Any = None
        if kind == "choice":
            self.widget: QWidget = QComboBox()
            # long entries (device names) must not widen the panel past its dock
            self.widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.widget.setMinimumContentsLength(8)
            for c in choices:
                self.widget.addItem(choice_labels(c), c)
            self.widget.currentIndexChanged.connect(lambda _: self._apply(self.widget.currentData()))
        elif kind == "bool":
            self.widget = QCheckBox()
            self.widget.toggled.connect(self._apply)
        elif kind in ("int", "float", "str"):
            self.widget = QLineEdit()
            self.widget.setMinimumWidth(60)
            if kind != "str":
                self.widget.setAlignment(Qt.AlignmentFlag.AlignRight)
            if optional:
                self.widget.setPlaceholderText("automatic")
            self.widget.editingFinished.connect(self._entry_finished)
        else:
            self.widget = QLabel()
            self.widget.setWordWrap(True)
            self.widget.setToolTip("Edit this value in the plan file")

    def show(self, value: Any) -> None:
        """model -> widget, without triggering a commit."""
        self._value = value
        w = self.widget
        w.blockSignals(True)
        try:
            if isinstance(w, QComboBox):
                i = w.findData(value)
                if i < 0:
                    w.addItem(str(value), value)
                    i = w.count() - 1
                w.setCurrentIndex(i)
            elif isinstance(w, QCheckBox):
                w.setChecked(bool(value))
            elif isinstance(w, QLineEdit):
                w.setText(format_value(value))
                w.setStyleSheet("")
            else:
                w.setText(json.dumps(value, default=str) if not isinstance(value, str) else value)
        finally:
            w.blockSignals(False)

    def _entry_finished(self) -> None:
        w: QLineEdit = self.widget  # type: ignore[assignment]
        if w.text().strip() == format_value(self._value):
            return
        try:
            value = parse_entry(self.kind, w.text(), self.optional, self.title)
        except ValueError as exc:
            self._refuse(str(exc))
            return
        self._apply(value)

    def _apply(self, value: Any) -> None:
        if value == self._value and type(value) is type(self._value):
            return
        error = self.commit(value)
        if error:
            self._refuse(error)
        else:
            self._value = value

    def _refuse(self, message: str) -> None:
        self.show(self._value)
        if isinstance(self.widget, QLineEdit):
            self.widget.setStyleSheet("QLineEdit { border: 1px solid #dc3232; }")
        self.on_error(message)


def field_label(title: str, unit: str) -> str:
    return f"{title} ({unit})" if unit else title


def field_tooltip(title: str, unit: str, source: str, default: Any) -> str:
    lines = [f"<b>{title}</b>" + (f" — in {unit}" if unit else "")]
    if default is not None and default is not ...:
        lines.append(f"Default: {format_value(default)}{(' ' + unit) if unit and unit != ':1' else ''}")
    if source:
        lines.append(f"Source of the default: {source}")
    return "<br>".join(lines)
