"""The inspector: properties of the selection (a device, a rack, or the plan), editable through commands."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton, QSpinBox, QVBoxLayout, QWidget

from planner.plan.commands import EditDevice, MoveDevice, RenamePlan
from planner import vocabulary
from ui.document import Document
from ui.form_grid import FormGrid


def _value(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class Inspector(QWidget):
    editRackRequested = Signal(str)

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.devices: list[str] = []
        self.rack: str | None = None
        self.heading = QLabel()
        self.heading.setObjectName("InspectorHeading")
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)
        self.form_host = QWidget()
        self.form = FormGrid(self.form_host, label_stretch=2, field_stretch=5)
        self.form.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.form_host)
        layout.addStretch(1)
        self.fields: dict[str, QWidget] = {}
        doc.changed.connect(self._doc_changed)
        self.refresh()

    def _doc_changed(self, changes, report) -> None:
        self.refresh()

    def show_selection(self, devices: list[str], rack: str | None) -> None:
        self.devices, self.rack = devices, rack
        self.refresh()

    def _clear(self) -> None:
        self.form.clear()  # deleteLater: a row's own signal may be what triggered this refresh
        self.fields = {}

    def _row(self, key: str, label: str, widget: QWidget, wide: bool = False) -> None:
        """One row; a *wide* row puts a long text (where a figure comes from) under its label."""
        widget.setObjectName(key)
        self.fields[key] = widget
        self.form.add_row(label or None, widget, wide=wide)

    def refresh(self) -> None:
        plan = self.doc.plan
        self.devices = [d for d in self.devices if plan.placement(d) is not None]
        if self.rack and plan.rack(self.rack) is None:
            self.rack = None
        self._clear()
        if len(self.devices) == 1:
            self._show_device(self.devices[0])
        elif self.devices:
            self.heading.setText(f"{len(self.devices)} devices selected")
        elif self.rack:
            self._show_rack(self.rack)
        else:
            self._show_plan()

    def _show_device(self, pid: str) -> None:
        p = self.doc.plan.placement(pid)
        d = self.doc.catalog.get(p.device)
        rack = self.doc.plan.rack(p.rack)
        self.heading.setText(p.label or p.id)
        self._row("type", "Type", _value(d.title if d else f"unknown type '{p.device}'"))
        label = QLineEdit(p.label)
        label.setPlaceholderText(p.id)
        label.editingFinished.connect(lambda: label.text() != p.label and self.doc.apply(EditDevice(pid, label.text())))
        self._row("label", "Label", label)
        self._row("rack", "Rack", _value(rack.name))
        u = QSpinBox(minimum=1, maximum=rack.height_u, value=p.u)
        u.setKeyboardTracking(False)
        u.valueChanged.connect(lambda value: value != p.u and self.doc.apply(  # spin-box steps: one undo step
            MoveDevice(pid, p.rack, value), merge_key=("inspector-u", pid)))
        self._row("u", "Lowest U", u)
        if d:
            self._row("height", "Height", _value(f"{d.u_height}U (U{p.u}-U{p.u + d.u_height - 1})"))
            self._row("power_typical", "Power, typical", _value(vocabulary.watts(d.power_typical_w)))
            self._row("power_nameplate", "Power, nameplate", _value(vocabulary.watts(d.power_max_w)))
            self._row("weight", "Weight", _value(f"{d.weight_kg:g} kg"))
            if d.gpu:
                self._row("gpus", "GPUs", _value(f"{d.gpu.count} x {d.gpu.model}"))
            self._row("cooling", "Cooling", _value(d.cooling))
            self._row("price", "Price", _value(vocabulary.usd(d.price_usd)))
            if d.price_source:
                self._row("price_source", "Where the price comes from", _value(d.price_source), wide=True)
            self._row("source", "Where the figures come from", _value(d.source), wide=True)

    def _show_rack(self, rid: str) -> None:
        rack = self.doc.plan.rack(rid)
        res = self.doc.report.rack(rid)
        self.heading.setText(f"Rack {rack.name}")
        self._row("power", f"Power ({res.basis})", _value(f"{vocabulary.kw(res.power_kw)} of {rack.power_cap_kw:g} kW cap"))
        self._row("power_both", "Typical / nameplate", _value(f"{vocabulary.kw(res.power_typical_kw)} / "
                                                              f"{vocabulary.kw(res.power_nameplate_kw)}"))
        self._row("space", "Space used", _value(f"{res.used_u} of {rack.height_u} U"))
        self._row("nodes", "Nodes / GPUs", _value(f"{res.nodes} / {res.gpus}"))
        self._row("weight", "Weight", _value(f"{res.weight_kg:,.0f} of {rack.max_weight_kg:g} kg"))
        self._row("cooling", "Cooling", _value(rack.cooling))
        n = len(res.findings)
        self._row("findings", "Findings", _value(f"{n} finding{'s' if n != 1 else ''}" if n else "none"))
        edit = QPushButton("Edit rack…")
        edit.clicked.connect(lambda: self.editRackRequested.emit(rid))
        self._row("edit", "", edit)

    def _show_plan(self) -> None:
        plan = self.doc.plan
        self.heading.setText("Plan")
        name = QLineEdit(plan.name)
        name.editingFinished.connect(lambda: name.text() != plan.name and self.doc.apply(RenamePlan(name.text())))
        self._row("name", "Name", name)
        if plan.description:
            self._row("description", "Description", _value(plan.description))
        self._row("hint", "", _value("Select a rack or device to see its figures. Drag devices from the "
                                     "palette into a rack."))
