"""Dialogs for racks: the rack editor (name, height, power cap, cooling, weight limit) and auto-place."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox,
                               QVBoxLayout)

from planner.design.grow import PlaceNodes
from planner.design.layout import plan_system
from planner.plan.names import series_prefix
from planner.plan.commands import RACK_FIELDS, RACK_TITLES, RACK_UNITS, EditRack
from planner.plan.model import Rack
from planner.report import palette
from ui.binding import FieldEditor, describe_annotation, field_label, parse_entry
from ui import fmt
from ui.document import Document



def type_text(d) -> str:
    """How a device type reads in a choice: its name, height and typical power."""
    return f"{d.title} — {d.u_height}U, {fmt.watts(d.power_typical_w)} typical"


def form_dialog_layout(dialog: QDialog, form, intro: QLabel | None = None) -> tuple[QLabel, QDialogButtonBox]:
    """Lay ``dialog`` out as an optional intro, ``form``, a hidden red line for a refused
    entry and OK / Cancel (wired to accept / reject); returns the line and the buttons."""
    message = QLabel()
    message.setWordWrap(True)
    message.setStyleSheet(f"color: {palette.MESSAGE_ERROR};")
    message.hide()
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    if intro is not None:
        layout.addWidget(intro)
    layout.addLayout(form)
    layout.addWidget(message)
    layout.addWidget(buttons)
    return message, buttons


class RackEditor(QDialog):
    """Edit a rack's fields; OK applies one EditRack command. A refused entry keeps the dialog open
    with the reason and the rack unchanged."""

    def __init__(self, doc: Document, rack_id: str, parent=None):
        super().__init__(parent)
        self.doc, self.rack_id = doc, rack_id
        rack = doc.plan.rack(rack_id)
        self.setWindowTitle(f"Rack {rack.name}")
        self.entries: dict[str, FieldEditor] = {}
        form = QFormLayout()
        for name in RACK_FIELDS:
            kind, choices, optional = describe_annotation(Rack.model_fields[name].annotation)
            # The dialog collects entries and applies them together on OK: commits here are no-ops.
            # an entry that is not a value goes back to the rack's and the message says why
            editor = FieldEditor(kind, choices, optional, RACK_TITLES[name], commit=lambda v: None,
                                 on_error=lambda m: self._refuse(m), unit=RACK_UNITS.get(name, ""))
            editor.show(getattr(rack, name))
            editor.widget.setObjectName(name)
            form.addRow(field_label(RACK_TITLES[name], RACK_UNITS.get(name, "")), editor.widget)
            self.entries[name] = editor
        self.message, self.buttons = form_dialog_layout(self, form)

    def values(self) -> dict[str, Any]:
        """The entries as typed values; ValueError names the first bad one."""
        out: dict[str, Any] = {}
        for name, editor in self.entries.items():
            w = editor.widget
            if isinstance(w, QComboBox):
                out[name] = w.currentData()
            elif isinstance(w, QCheckBox):
                out[name] = w.isChecked()
            else:
                out[name] = parse_entry(editor.kind, w.text(), editor.optional, editor.title, editor.unit)
        return out

    def accept(self) -> None:
        try:
            values = self.values()
        except ValueError as exc:
            self._refuse(str(exc))
            return
        rack = self.doc.plan.rack(self.rack_id)
        changes = {k: v for k, v in values.items() if getattr(rack, k) != v}
        if changes and not self.doc.apply(EditRack(self.rack_id, **changes)):
            self._refuse(self.doc.last_error or "the rack cannot take these values")
            return
        super().accept()

    def _refuse(self, message: str) -> None:
        self.message.setText(message)
        self.message.show()
        self.adjustSize()  # grow for the wrapped message rather than squeeze the fields


class AutoPlaceDialog(QDialog):
    """Place N nodes of a chosen type: into the given racks first, then new racks as needed,
    with the switches, storage and CDUs they need and the parallelism re-picked (one undo step)."""

    def __init__(self, doc: Document, racks: list[str] | None, parent=None):
        super().__init__(parent)
        self.doc, self.racks = doc, racks
        self.setWindowTitle("Auto-place nodes")
        self.device = QComboBox()
        for d in doc.catalog.by_category("gpu_server"):
            self.device.addItem(type_text(d), d.id)
        held = plan_system(doc.plan, doc.catalog)  # more of what the plan holds, not the catalog's first
        if held is not None and self.device.findData(held) >= 0:
            self.device.setCurrentIndex(self.device.findData(held))
        self.count = QSpinBox(minimum=1, maximum=100_000, value=4)
        names = ", ".join(doc.plan.rack(r).name for r in racks or [] if doc.plan.rack(r))
        where = QLabel(f"Fills {names} first, then adds racks as needed, up to each rack's power cap."
                       if names else "Adds racks as needed, filling each to its power cap.")
        where.setWordWrap(True)
        self.message = QLabel()
        self.message.setStyleSheet(f"color: {palette.MESSAGE_ERROR};")
        self.message.setWordWrap(True)
        self.message.hide()
        form = QFormLayout()
        form.addRow("Node type", self.device)
        form.addRow("Nodes", self.count)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(where)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def accept(self) -> None:
        device = self.doc.catalog[self.device.currentData()]
        labels = series_prefix(self.doc.plan, self.doc.catalog, device)  # continue node-N
        if self.doc.apply(PlaceNodes(device.id, self.count.value(), racks=self.racks, label_prefix=labels)):
            super().accept()
        else:
            self.message.setText(self.doc.last_error or "")
            self.message.show()
            self.adjustSize()  # grow for the wrapped message rather than squeeze the fields
