"""Replace all … with …: every placed device of one type (in the plan or in the selection)
becomes another catalog type of the same kind, as one undo step. A line under the choices
says what the replacement would do (the core works it out on a copy of the plan)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtWidgets import QButtonGroup, QComboBox, QDialog, QFormLayout, QHBoxLayout, QLabel, QRadioButton

from planner.design.replace import ReplaceDevices, compatible_types
from planner.plan.commands import CommandError
from ui.document import Document
from ui.rack_dialogs import form_dialog_layout, type_text


class ReplaceDialog(QDialog):
    """From-type (the selected device's by default), to-type (the compatible catalog types),
    scope (whole plan or the selection) and a preview; OK applies one ReplaceDevices."""

    def __init__(self, doc: Document, selection: list[str], parent=None):
        super().__init__(parent)
        self.doc = doc
        self.selection = [i for i in selection if doc.plan.placement(i) is not None]
        self.setWindowTitle("Replace devices")
        placed = Counter(p.device for p in doc.plan.placements)
        self.from_type = QComboBox()
        self.from_type.setToolTip("The device type to replace: the types placed in the plan")
        for d in doc.catalog:
            if placed[d.id]:
                self.from_type.addItem(f"{type_text(d)} ({placed[d.id]:,} placed)", d.id)
        first = doc.plan.placement(self.selection[0]).device if self.selection else None
        if first is not None and self.from_type.findData(first) >= 0:
            self.from_type.setCurrentIndex(self.from_type.findData(first))
        self.to_type = QComboBox()
        self.to_type.setToolTip("The catalog type they become: types of the same kind only (a node for a node, "
                                "a switch for a switch, storage for storage, a CDU for a CDU)")
        self.whole_plan = QRadioButton("Whole &plan")
        self.whole_plan.setToolTip("Every device of the type in the plan")
        self.in_selection = QRadioButton("&Selection")
        self.in_selection.setToolTip("Only the selected devices of the type")
        self.scope = QButtonGroup(self)
        self.scope.addButton(self.whole_plan)
        self.scope.addButton(self.in_selection)
        self.whole_plan.setChecked(True)
        scope_row = QHBoxLayout()
        scope_row.addWidget(self.whole_plan)
        scope_row.addWidget(self.in_selection)
        scope_row.addStretch(1)
        self.preview = QLabel()
        self.preview.setObjectName("ReplacePreview")
        self.preview.setWordWrap(True)
        self.preview.setToolTip("What the replacement would do: devices replaced, racks re-fitted by power, "
                                "cooling and height, devices moved and racks added")
        form = QFormLayout()
        for text, widget in (("&Replace", self.from_type), ("&With", self.to_type)):
            label = QLabel(text)
            label.setBuddy(widget)
            form.addRow(label, widget)
        form.addRow("Where", scope_row)
        form.addRow("Result", self.preview)
        self.message, self.buttons = form_dialog_layout(self, form)
        self.from_type.currentIndexChanged.connect(self._fill_targets)
        self.to_type.currentIndexChanged.connect(self._update_preview)
        self.scope.buttonToggled.connect(lambda *_: self._update_preview())
        self._fill_targets()

    def _fill_targets(self) -> None:
        source = self.from_type.currentData()
        blocked = self.to_type.blockSignals(True)
        self.to_type.clear()
        for d in compatible_types(self.doc.catalog, source) if source else []:
            if d.id != source:
                self.to_type.addItem(type_text(d), d.id)
        self.to_type.blockSignals(blocked)
        chosen = sum(1 for i in self.selection if self.doc.plan.placement(i).device == source)
        self.in_selection.setText(f"&Selection ({chosen:,} of them)")
        self.in_selection.setEnabled(chosen > 0)
        if not chosen:
            self.whole_plan.setChecked(True)
        self._update_preview()

    def command(self) -> ReplaceDevices | None:
        source, target = self.from_type.currentData(), self.to_type.currentData()
        if source is None or target is None:
            return None
        placements = self.selection if self.in_selection.isChecked() else None
        return ReplaceDevices(target, placements=placements, from_device=source)

    def _update_preview(self) -> None:
        command = self.command()
        ok = self.buttons.button(self.buttons.StandardButton.Ok)
        if command is None:
            self.preview.setText("No other catalog type of this kind" if self.from_type.count() else
                                 "The plan has no devices to replace")
            ok.setEnabled(False)
            return
        try:
            self.preview.setText(command.preview(self.doc.plan, self.doc.catalog).text())
            ok.setEnabled(True)
        except CommandError as exc:
            self.preview.setText(f"Refused: {exc}")
            ok.setEnabled(False)

    def accept(self) -> None:
        command = self.command()
        if command is not None and self.doc.apply(command):
            super().accept()
            return
        self.message.setText(self.doc.last_error or "choose a type to replace and a type to replace it with")
        self.message.show()
