"""File > New plan…: the intent's fields, a template as a starting point, and a live preview
of the totals of the plan the design function makes from them."""

from __future__ import annotations

import typing

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel, QSpinBox,
                               QVBoxLayout)

from planner.design.templates import design_from, get_template, list_templates
from planner.errors import PlannerError
from planner.network.technologies import TECHNOLOGIES
from planner.report.evaluate import evaluate
from planner.report import palette
from planner.settings.fabric import FabricTech
from planner.settings.workload import ModelPreset
from ui import fmt

BLANK = ""  # the "no template" entry


class NewPlanDialog(QDialog):
    """Fields of an intent; ``design`` holds the last design made from them (None if they do not hold)."""

    def __init__(self, catalog, parent=None, template: str = "medium"):
        super().__init__(parent)
        self.catalog = catalog
        self.design = None
        self.setWindowTitle("New plan")
        self.template = QComboBox()
        self.template.addItem("No template: the fields below", BLANK)
        for t in list_templates():
            self.template.addItem(t.title, t.name)
            self.template.setItemData(self.template.count() - 1, t.description, 3)  # tooltip role
        self.system = QComboBox()
        for d in catalog:
            if d.gpu is not None:
                self.system.addItem(f"{d.title} ({d.gpus} GPUs)", d.id)
        self.gpus = QSpinBox(minimum=1, maximum=1_000_000, singleStep=8, value=8)
        self.gpus.setGroupSeparatorShown(True)
        self.rack_kw = QDoubleSpinBox(minimum=1, maximum=1000, decimals=1, suffix=" kW", value=30)
        self.cooling = QComboBox()
        for value, text in (("auto", "What the system needs"), ("air", "Air"), ("liquid", "Liquid")):
            self.cooling.addItem(text, value)
        self.fabric = QComboBox()
        for tech in typing.get_args(FabricTech):
            self.fabric.addItem(TECHNOLOGIES[tech].title, tech)
        self.model = QComboBox()
        for preset in typing.get_args(ModelPreset):
            self.model.addItem(preset, preset)
        self.train_tokens_b = QDoubleSpinBox(minimum=1, maximum=10_000_000, decimals=0, suffix=" B tokens",
                                             value=15_000)
        self.train_tokens_b.setGroupSeparatorShown(True)
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        self.preview.setMinimumHeight(110)
        form = QFormLayout()
        form.addRow("Start from", self.template)
        form.addRow("GPU system", self.system)
        form.addRow("GPUs", self.gpus)
        form.addRow("Rack power cap", self.rack_kw)
        form.addRow("Cooling", self.cooling)
        form.addRow("Compute fabric", self.fabric)
        form.addRow("Model", self.model)
        form.addRow("Tokens to train", self.train_tokens_b)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview)
        layout.addWidget(self.buttons)
        self._timer = QTimer(self, singleShot=True, interval=250)
        self._timer.timeout.connect(self.refresh)
        self._filling = False
        self._touched: set = set()  # fields changed since the template was chosen
        self.template.currentIndexChanged.connect(self._template_chosen)
        for w in (self.system, self.cooling, self.fabric, self.model):
            w.currentIndexChanged.connect(self._changed)
        for w in (self.gpus, self.rack_kw, self.train_tokens_b):
            w.valueChanged.connect(self._changed)
        self.template.setCurrentIndex(max(0, self.template.findData(template)))
        self._template_chosen()

    def _set(self, combo: QComboBox, value) -> None:
        i = combo.findData(value)
        if i >= 0:
            combo.setCurrentIndex(i)

    def _template_chosen(self) -> None:
        """A template fills the fields with its intent; the fields then override it."""
        name = self.template.currentData()
        if name:
            t = get_template(name)
            s = t.settings
            system = self.catalog.get(t.system)
            self._filling = True
            self._set(self.system, t.system)
            self.gpus.setValue(t.nodes * (system.gpus if system else 1))
            self.rack_kw.setValue(t.gpu_rack.power_cap_kw or s.get("facility", {}).get("default_rack_cap_kw", 30.0))
            self._set(self.cooling, "auto")
            self._set(self.fabric, s.get("fabric", {}).get("technology", "ib400"))
            self._set(self.model, s.get("workload", {}).get("model", "custom"))
            self.train_tokens_b.setValue(s.get("workload", {}).get("train_tokens_b", 15_000))
            self._filling = False
            self._touched = set()
        self.refresh()

    def _changed(self) -> None:
        if not self._filling:
            self._touched.add(self.sender())
            self._timer.start()

    def changes(self) -> dict:
        """The intent's fields from the widgets; over a template, only the fields changed since."""
        values = {self.system: ("system", self.system.currentData()), self.gpus: ("gpus", self.gpus.value()),
                  self.rack_kw: ("rack_kw", self.rack_kw.value()), self.cooling: ("cooling", self.cooling.currentData()),
                  self.fabric: ("fabric", self.fabric.currentData()), self.model: ("model", self.model.currentData()),
                  self.train_tokens_b: ("train_tokens_b", self.train_tokens_b.value())}
        if not self.template.currentData():
            return dict(values.values())
        return dict(v for w, v in values.items() if w in self._touched)

    def accept(self) -> None:
        """Create from the fields as they are now (the preview may wait on its timer)."""
        self._timer.stop()
        self.refresh()
        if self.design is not None:
            super().accept()

    def refresh(self) -> None:
        """Design from the fields and show the plan's totals, or what does not hold."""
        template = self.template.currentData() or None
        try:
            self.design = design_from(template, self.catalog, **self.changes())
            report = evaluate(self.design.plan, self.catalog)
        except PlannerError as exc:
            self.design = None
            self.preview.setStyleSheet(f"color: {palette.MESSAGE_ERROR};")
            self.preview.setText(str(exc))
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        t, w = report.totals, report.workload
        cost = report.sections.get("cost") or {}
        errors = sum(f.severity == "error" for f in report.findings)
        warnings = sum(f.severity == "warning" for f in report.findings)
        lines = [f"{fmt.count(t.gpus)} GPUs in {fmt.count(t.nodes)} nodes, {fmt.count(t.racks)} racks",
                 f"IT {fmt.kw(t.it_power_kw)}, facility {fmt.kw(t.facility_power_kw)}",
                 f"Capex {fmt.usd(cost['capex_usd'])}" if cost.get("capex_usd") is not None else "Capex –"]
        if w.tokens_per_s:
            days = f", {fmt.number(w.time_to_train_days)} days to train" if w.time_to_train_days else ""
            lines.append(f"{fmt.count(round(w.tokens_per_s))} tokens/s{days}")
        lines.append(f"{errors} errors, {warnings} warnings")
        self.preview.setStyleSheet("")
        self.preview.setText("\n".join(lines))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)
