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
from PySide6.QtWidgets import (QCheckBox, QComboBox, QLabel, QLineEdit, QStyle, QStyleOptionComboBox, QStylePainter,
                               QWidget)

from planner.numbers import format_number, is_fraction, parse_number
from ui.locale import number_format


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
    """A value as an entry field shows it: the locale's decimal separator, no grouping."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return format_number(value, number_format())
    return str(value)


def parse_entry(kind: str, text: str, optional: bool, title: str, unit: str = "") -> Any:
    """A typed value from what the user typed; ValueError with a one-line reason if it is not one.

    Numbers are read in the app's locale (``planner.numbers.parse_number``): "12,5" is 12.5 in
    German and refused as ambiguous in English; a unit may follow ("1.2 MW" in a kW field, "80 %"
    in a fraction field)."""
    if kind == "str":
        return text.strip()  # the model's own constraints judge it
    if text.strip() == "":
        if optional:
            return None
        raise ValueError(f"{title}: enter a value")
    if kind not in ("int", "float"):
        return text.strip()
    try:
        value = parse_number(text, number_format(), unit)
    except ValueError as exc:
        raise ValueError(f"{title}: {exc}") from None
    if kind == "int":
        if not value.is_integer():
            raise ValueError(f"{title}: '{text.strip()}' is not a whole number")
        return int(value)
    return value


def fraction_hint(unit: str, value: Any) -> str:
    """What to type instead, when a fraction field was given a percentage (80 for 80%)."""
    if not is_fraction(unit) or isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 < value <= 100:
        return ""
    percent = format_number(float(f"{value:g}"), number_format())
    return f"it is a {unit}: enter {format_number(value / 100, number_format())} (or {percent} %) for {percent} %"


def empty_means(source: str) -> str:
    """The placeholder of an optional field, from what its source text says an empty entry means.

    "Empty: from the nodes' storage NICs (line rate / 8)." -> "from the nodes' storage NICs";
    any other optional field (a claim to check, an override) is simply "none"."""
    text = source.strip()
    if text.lower().startswith("empty:"):
        meaning = text[len("empty:"):].strip()
        for stop in (" (", ".", ";"):
            meaning = meaning.split(stop)[0]
        return meaning.strip() or "none"
    return "none"


class ElidingComboBox(QComboBox):
    """A combo box that elides its current text ("InfiniBand N…") rather than clipping it,
    and names the whole choice in its tooltip."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.base_tooltip = ""
        self.currentIndexChanged.connect(self._update_tooltip)

    def set_base_tooltip(self, tip: str) -> None:
        self.base_tooltip = tip
        self._update_tooltip()

    def _update_tooltip(self, *_args) -> None:
        current = f"<b>{self.currentText()}</b>" if self.currentText() else ""
        self.setToolTip("<br>".join(t for t in (current, self.base_tooltip) if t))

    def paintEvent(self, event) -> None:
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        opt.currentText = self.fontMetrics().elidedText(opt.currentText, Qt.TextElideMode.ElideRight,
                                                        max(0, field.width() - 4))
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)


class FieldEditor:
    """An editor widget for one typed field; ``commit(value) -> error or None`` applies it."""

    def __init__(self, kind: str, choices: tuple, optional: bool, title: str,
                 commit: Callable[[Any], str | None], on_error: Callable[[str], None],
                 choice_labels: Callable[[Any], str] = str, unit: str = "", placeholder: str = "none"):
        self.kind, self.optional, self.title, self.unit = kind, optional, title, unit
        self.commit, self.on_error = commit, on_error
        self._value: Any = None
        if kind == "choice":
            self.widget: QWidget = ElidingComboBox()
            # long entries (device names) must not widen the panel past its dock: the combo
            # elides, its tooltip and the open list show the whole name
            self.widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.widget.setMinimumContentsLength(12)
            self._choice_labels = choice_labels
            self._fill(choices)
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
                self.widget.setPlaceholderText(placeholder)
            self.widget.editingFinished.connect(self._entry_finished)
        else:
            self.widget = QLabel()
            self.widget.setWordWrap(True)
            self.widget.setToolTip("Edit this value in the plan file")

    def _fill(self, choices: tuple) -> None:
        for c in choices:
            self.widget.addItem(self._choice_labels(c), c)
        view = self.widget.view()
        view.setTextElideMode(Qt.TextElideMode.ElideNone)
        metrics = view.fontMetrics()  # every entry, not only the rows the list has laid out
        longest = max((metrics.horizontalAdvance(self.widget.itemText(i)) for i in range(self.widget.count())),
                      default=0)
        view.setMinimumWidth(max(view.sizeHintForColumn(0), longest) + 24)

    def set_choices(self, choices: tuple, value: Any, labels: Callable[[Any], str] | None = None) -> None:
        """A choice list that depends on another field (the fabric's switches on its
        technology): the entries again (named by ``labels``, else as before), showing
        ``value``, without a commit."""
        w = self.widget
        if labels is not None:
            self._choice_labels = labels
        if (tuple(w.itemData(i) for i in range(w.count())) == tuple(choices)
                and all(w.itemText(i) == self._choice_labels(c) for i, c in enumerate(choices))):
            self.show(value)
            return
        w.blockSignals(True)
        try:
            w.clear()
            self._fill(choices)
        finally:
            w.blockSignals(False)
        self.show(value)

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
        if isinstance(w, ElidingComboBox):
            w._update_tooltip()  # its signal was blocked

    def _entry_finished(self) -> None:
        w: QLineEdit = self.widget  # type: ignore[assignment]
        if w.text().strip() == format_value(self._value):
            return
        try:
            value = parse_entry(self.kind, w.text(), self.optional, self.title, self.unit)
        except ValueError as exc:
            self._refuse(str(exc))
            return
        self._apply(value)

    def _apply(self, value: Any) -> None:
        if value == self._value and type(value) is type(self._value):
            return
        error = self.commit(value)
        if error:
            hint = fraction_hint(self.unit, value)
            self._refuse(f"{error} — {hint}" if hint else error)
        else:
            self._value = value
            if isinstance(self.widget, QLineEdit):
                self.show(value)  # entered: the field's typing history ends, its undo is the plan's

    def set_tooltip(self, tip: str) -> None:
        if isinstance(self.widget, ElidingComboBox):
            self.widget.set_base_tooltip(tip)
        else:
            self.widget.setToolTip(tip)

    def _refuse(self, message: str) -> None:
        # back to the plan's value, which is valid: no error frame on it; the message says what was refused
        self.show(self._value)
        self.on_error(message)


def field_label(title: str, unit: str) -> str:
    """"Rack power cap (kW)"; a counting unit the title already says is not said again
    ("Transformer layers", not "Transformer layers (layers)")."""
    said = unit.isalpha() and unit.lower() in title.lower().replace("-", " ").split()
    return f"{title} ({unit})" if unit and not said and unit not in _UNSAID else title


# Units a label does not say, the tooltip does: a count of values (a model's hidden size) and
# a plain multiplier (a capacity factor) read better without "(values)" or "(x)".
_UNSAID = frozenset({"values", "x"})


def field_tooltip(title: str, unit: str, source: str, default: Any) -> str:
    lines = [f"<b>{title}</b>" + (f" — in {unit}" if unit else "")]
    if default is not None and default is not ...:
        lines.append(f"Default: {format_value(default)}{(' ' + unit) if unit and unit != ':1' else ''}")
    if source:
        lines.append(f"Source of the default: {source}")
    return "<br>".join(lines)
