"""File > New plan…: the intent's fields, a template as a starting point, and a live preview
of the totals of the plan the design function makes from them.

The cluster's fields on the left; storage targets, site limits and an inference target in
group boxes on the right, each default with its source in the tooltip.

Why it is long: one form over the intent's twenty fields, each built, sourced, filled from a
template and read back; the design's arithmetic stays in the core."""

from __future__ import annotations

import typing

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout)

from planner.design.layout import job_summary
from planner.design.parallelism import describe_layout
from planner.design.templates import design_from, get_template, list_templates
from planner.errors import PlannerError
from planner.network.technologies import TECHNOLOGIES
from planner.report.evaluate import evaluate
from planner.report import palette
from planner.settings import FacilitySettings, FloorSettings, Settings, StorageSettings, WorkloadSettings, field_meta
from planner.settings.fabric import FabricTech
from planner.settings.workload import AttentionKernel, ModelPreset
from planner.vocabulary import choice_title
from planner.workload.models import PRESETS, model_shape
from ui import fmt

BLANK = ""  # the "no template" entry
# Design notes the preview repeats: what was rounded, the spares placed, the replica and GPUs
# sized, the NICs run below their rate on the fabric asked.
NOTES = ("design.gpus.rounded", "design.spares", "design.inference.replica", "design.inference.sized",
         "design.fabric.nic_rate")
PREVIEW_ERRORS = 3  # the errors the preview names; more are counted


def sourced(widget, section, name: str, default=None):
    """Tooltip of a field: its title, default and the default's source (the settings' metadata)."""
    meta = field_meta(section, name)
    value = section.model_fields[name].default if default is None else default
    unit = f" {meta['unit']}" if meta["unit"] else ""
    widget.setToolTip(f"{meta['title']}. Default {value:,g}{unit}: {meta['source']}")
    return widget


def optional_spin(suffix: str, maximum: float, decimals: int = 0) -> QDoubleSpinBox:
    """A spin box whose lowest value, 0, reads "Auto" (the intent leaves the field empty)."""
    box = QDoubleSpinBox(minimum=0, maximum=maximum, decimals=decimals, suffix=suffix, value=0)
    box.setSpecialValueText("Auto")
    box.setGroupSeparatorShown(True)
    return box


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
            if d.is_gpu_system:  # not a rack-scale system's tray
                self.system.addItem(f"{d.title} ({d.gpus} GPUs)", d.id)
        self.gpus = QSpinBox(minimum=1, maximum=1_000_000, singleStep=8, value=8)  # 0 only for a service
        self.gpus.setGroupSeparatorShown(True)
        self.rack_kw = QDoubleSpinBox(minimum=1, maximum=1000, decimals=1, suffix=" kW", value=30)
        self.cooling = QComboBox()
        for value, text in (("auto", "What the system needs"), ("air", "Air"), ("liquid", "Liquid")):
            self.cooling.addItem(text, value)
        self.system.setToolTip("The GPU server or rack-scale system the plan is built of, from the catalog: its "
                               "power, weight, NICs and cooling are its datasheet's (Catalog > the device's "
                               "source). File > Import device types… adds others.")
        self.gpus.setToolTip("GPUs for the job, rounded up to whole systems; the hot spares the goodput model "
                             "asks for (Settings > Reliability) are placed beside them. For an inference service "
                             "with a requests target, 0 (Sized for the requests) lets the design size them.")
        sourced(self.rack_kw, FacilitySettings, "default_rack_cap_kw")
        self.cooling.setToolTip("What the system needs: liquid for a system the catalog lists as liquid-cooled "
                                "(such as GB200 and GB300 NVL72), else air, with a rear-door heat exchanger on a rack over "
                                "the air-cooling limit. Air or Liquid: every GPU rack so.")
        self.fabric = QComboBox()
        self.fabric.addItem("What the NICs speak", "auto")
        self.fabric.setToolTip("Auto: the fabric the GPU system's compute NICs speak at their rate, with a catalog "
                               "switch for it (InfiniBand NICs: InfiniBand; Ethernet NICs: RoCE)")
        for tech in typing.get_args(FabricTech):
            self.fabric.addItem(TECHNOLOGIES[tech].title, tech)
        self.model = QComboBox()
        for preset in typing.get_args(ModelPreset):
            self.model.addItem("Custom: the size below" if preset == "custom" else choice_title(preset), preset)
        self.params_b = sourced(QDoubleSpinBox(minimum=0.1, maximum=100_000, decimals=1, suffix=" B parameters",
                                               value=WorkloadSettings().model_params_b),
                                WorkloadSettings, "model_params_b")
        self.params_b.setGroupSeparatorShown(True)
        self.train_tokens_b = QDoubleSpinBox(minimum=1, maximum=10_000_000, decimals=0, suffix=" B tokens",
                                             value=15_000)
        self.train_tokens_b.setGroupSeparatorShown(True)
        self._more_fields()
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        self.preview.setMinimumHeight(160)
        form = QFormLayout()
        form.addRow("Start from", self.template)
        form.addRow("GPU system", self.system)
        form.addRow("GPUs", self.gpus)
        form.addRow("Rack power cap", self.rack_kw)
        form.addRow("Cooling", self.cooling)
        form.addRow("Compute fabric", self.fabric)
        form.addRow("Model", self.model)
        form.addRow("Model size", self.params_b)
        form.addRow("Tokens to train", self.train_tokens_b)
        form.addRow("Sequence length", self.seq_len)
        form.addRow("Global batch", self.batch_tokens)
        form.addRow("Attention kernel", self.attention_kernel)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        cluster = QGroupBox("Cluster")
        cluster.setLayout(form)
        columns = QHBoxLayout()
        columns.addWidget(cluster, 1)
        columns.addLayout(self._more_groups(), 1)
        layout = QVBoxLayout(self)
        layout.addLayout(columns)
        layout.addWidget(self.preview)
        layout.addWidget(self.buttons)
        self._timer = QTimer(self, singleShot=True, interval=250)
        self._timer.timeout.connect(self.refresh)
        self._filling = False
        self._touched: set = set()  # fields changed since the template was chosen
        self._custom_params_b: float | None = None  # a custom model's size, kept while a preset is shown
        self.template.currentIndexChanged.connect(self._template_chosen)
        for w in (self.system, self.cooling, self.fabric, self.model, self.attention_kernel):
            w.currentIndexChanged.connect(self._changed)
        for w in (self.gpus, self.rack_kw, self.params_b, self.train_tokens_b, self.seq_len, self.batch_tokens, self.write_s, self.capacity_tb, self.floor_rating,
                  self.air_limit, self.requests_per_s, self.prompt_tokens, self.output_tokens, self.latency_ms):
            w.valueChanged.connect(self._changed)
        self.inference.toggled.connect(self._changed)
        self.model.currentIndexChanged.connect(self._enable_model_size)
        self.inference.toggled.connect(self._sized_for_requests)
        self.requests_per_s.valueChanged.connect(self._sized_for_requests)
        self.template.setCurrentIndex(max(0, self.template.findData(template)))
        self._template_chosen()

    def _more_fields(self) -> None:
        """Storage targets, site limits and an inference target (empty: the settings' defaults)."""
        self.write_s = optional_spin(" s", 100_000, 1)
        self.write_s.setToolTip(
            "Checkpoint write time: a full checkpoint written within this time. Auto: storage sized to "
            f"{StorageSettings().min_write_gbs_per_node:g} GB/s per node, a rack-scale system's node being each "
            f"compute tray ({field_meta(StorageSettings, 'min_write_gbs_per_node')['source']}) and the checkpoint stall limit")
        self.capacity_tb = optional_spin(" TB", 10_000_000)
        self.capacity_tb.setToolTip("Storage capacity, at least. Auto: the appliances the write target needs, "
                                    "with their capacity (the appliance's datasheet)")
        self.floor_rating = sourced(QDoubleSpinBox(minimum=1, maximum=100_000, decimals=0, suffix=" kg/m²",
                                                   value=FloorSettings().floor_rating_kg_m2),
                                    FloorSettings, "floor_rating_kg_m2")
        self.floor_rating.setGroupSeparatorShown(True)
        self.air_limit = sourced(QDoubleSpinBox(minimum=1, maximum=200, decimals=1, suffix=" kW",
                                                value=FacilitySettings().air_cooling_limit_kw),
                                 FacilitySettings, "air_cooling_limit_kw")
        defaults = WorkloadSettings()
        self.seq_len = sourced(QSpinBox(minimum=1, maximum=10_000_000, suffix=" tokens", value=defaults.seq_len),
                               WorkloadSettings, "seq_len")
        self.batch_tokens = sourced(QDoubleSpinBox(minimum=1, maximum=1e12, decimals=0, suffix=" tokens",
                                                   value=defaults.global_batch_tokens),
                                    WorkloadSettings, "global_batch_tokens")
        self.batch_tokens.setToolTip(self.batch_tokens.toolTip() + " The design keeps it and searches the "
                                     "layouts (TP, CP, PP, DP, the schedule, the micro-batch) that split it evenly.")
        for w in (self.seq_len, self.batch_tokens):
            w.setGroupSeparatorShown(True)
        self.attention_kernel = QComboBox()
        for kernel in typing.get_args(AttentionKernel):
            self.attention_kernel.addItem("Automatic: the GPU's first measured kernel" if kernel == "auto"
                                          else choice_title(kernel), kernel)
        self.attention_kernel.setToolTip(field_meta(WorkloadSettings, "attention_kernel")["source"])
        self.inference = QCheckBox("Size an inference service, not training")
        self.inference.setToolTip(field_meta(WorkloadSettings, "inference")["source"])
        self.requests_per_s = optional_spin(" requests/s", 10**9, 1)
        self.requests_per_s.setSpecialValueText("No target")
        self.requests_per_s.setToolTip("Target requests per second. No target: the report gives the requests the "
                                       "GPUs serve, with none to meet")
        self.prompt_tokens = sourced(QSpinBox(minimum=1, maximum=10_000_000, suffix=" tokens",
                                              value=WorkloadSettings().prompt_tokens), WorkloadSettings, "prompt_tokens")
        self.output_tokens = sourced(QSpinBox(minimum=1, maximum=10_000_000, suffix=" tokens",
                                              value=WorkloadSettings().output_tokens), WorkloadSettings, "output_tokens")
        self.latency_ms = sourced(QDoubleSpinBox(minimum=0.1, maximum=100_000, decimals=1, suffix=" ms/token",
                                                 value=WorkloadSettings().latency_ms_per_token),
                                  WorkloadSettings, "latency_ms_per_token")
        self.prompt_tokens.setGroupSeparatorShown(True)
        self.output_tokens.setGroupSeparatorShown(True)
        self._serving = (self.requests_per_s, self.prompt_tokens, self.output_tokens, self.latency_ms)
        self.inference.toggled.connect(self._enable_serving)
        self._enable_serving(False)

    def _enable_serving(self, on: bool) -> None:
        """The serving figures count only for an inference service, the training ones only
        for training."""
        for w in self._serving:
            w.setEnabled(on)
        for w in (self.train_tokens_b, self.seq_len, self.batch_tokens):  # the attention kernel serves prefill too
            w.setEnabled(not on)

    def _enable_model_size(self) -> None:
        """A model's size is asked only of a custom model; under a preset the greyed field shows
        the preset's published size (not the custom size left from before), and the custom size
        comes back when custom is chosen again."""
        preset = PRESETS.get(self.model.currentData())
        was_custom = self.params_b.isEnabled()
        filling, self._filling = self._filling, True  # shown, not typed: no field touched
        if preset is not None:
            if was_custom:
                self._custom_params_b = self.params_b.value()
            self.params_b.setValue(preset.params / 1e9)
        elif not was_custom and self._custom_params_b is not None:
            self.params_b.setValue(self._custom_params_b)
        self._filling = filling
        self.params_b.setEnabled(preset is None)

    def _sized_for_requests(self) -> None:
        """An inference service with a requests target, whose GPU count the user has not typed,
        is sized by the design (GPUs 0: "Sized for the requests"); without one, a count again."""
        if self._filling:
            return
        serving = self.inference.isChecked() and self.requests_per_s.value() > 0
        self._filling = True
        if not serving and self.gpus.value() == 0:
            self.gpus.setValue(self._template_gpus())
        # "Sized for the requests" (0) only where there are some (Qt shows the text at the minimum)
        self.gpus.setMinimum(0 if serving else 1)
        self.gpus.setSpecialValueText("Sized for the requests" if serving else "")
        if serving and self.gpus not in self._touched:
            self.gpus.setValue(0)
        self._filling = False

    def _template_gpus(self) -> int:
        name = self.template.currentData()
        if not name:
            return 8
        t = get_template(name)
        system = self.catalog.get(t.system)
        return t.nodes * (system.gpus if system else 1)

    def _more_groups(self) -> QVBoxLayout:
        column = QVBoxLayout()
        for title, rows in (("Storage targets", (("Checkpoint write time", self.write_s),
                                                 ("Capacity", self.capacity_tb))),
                            ("Site limits", (("Floor rating", self.floor_rating),
                                             ("Air-cooling limit", self.air_limit))),
                            ("Inference target", ((None, self.inference), ("Requests", self.requests_per_s),
                                                  ("Prompt", self.prompt_tokens), ("Output", self.output_tokens),
                                                  ("Latency", self.latency_ms)))):
            form = QFormLayout()
            for label, widget in rows:
                form.addRow(label, widget) if label else form.addRow(widget)
            group = QGroupBox(title)
            group.setLayout(form)
            column.addWidget(group)
        column.addStretch(1)
        return column

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
            self._filling = True
            self._set(self.system, t.system)
            self.gpus.setValue(self._template_gpus())
            defaults = Settings()  # a template's unstated value is the settings' default (its source in its tooltip)
            self.rack_kw.setValue(t.gpu_rack.power_cap_kw or s.get("facility", {}).get(
                "default_rack_cap_kw", defaults.facility.default_rack_cap_kw))
            self._set(self.cooling, "auto")
            self._set(self.fabric, t.fabric or s.get("fabric", {}).get("technology", "auto"))
            self._set(self.model, s.get("workload", {}).get("model", "custom"))
            self.train_tokens_b.setValue(s.get("workload", {}).get("train_tokens_b", defaults.workload.train_tokens_b))
            self._fill_more(t)
            self._filling = False
            self._touched = set()
            self._sized_for_requests()
        self._enable_model_size()
        self.refresh()

    def _fill_more(self, t) -> None:
        s = t.settings
        wl, defaults = s.get("workload", {}), WorkloadSettings()
        self.params_b.setValue(t.params_b or wl.get("model_params_b", defaults.model_params_b))
        self.seq_len.setValue(t.seq_len or wl.get("seq_len", defaults.seq_len))
        self.batch_tokens.setValue(t.batch_tokens or wl.get("global_batch_tokens", defaults.global_batch_tokens))
        self._set(self.attention_kernel, t.attention_kernel or wl.get("attention_kernel", defaults.attention_kernel))
        self.write_s.setValue(t.checkpoint_write_s or 0)
        self.capacity_tb.setValue(t.storage_capacity_tb or 0)
        self.floor_rating.setValue(t.floor_rating_kg_m2 or s.get("floor", {}).get(
            "floor_rating_kg_m2", FloorSettings().floor_rating_kg_m2))
        self.air_limit.setValue(t.air_cooling_limit_kw or s.get("facility", {}).get(
            "air_cooling_limit_kw", FacilitySettings().air_cooling_limit_kw))
        self.inference.setChecked(bool(t.inference or wl.get("inference")))
        self.requests_per_s.setValue(t.requests_per_s or wl.get("requests_per_s") or 0)
        self.prompt_tokens.setValue(t.prompt_tokens or wl.get("prompt_tokens", defaults.prompt_tokens))
        self.output_tokens.setValue(t.output_tokens or wl.get("output_tokens", defaults.output_tokens))
        self.latency_ms.setValue(t.latency_ms_per_token or wl.get("latency_ms_per_token",
                                                                  defaults.latency_ms_per_token))

    def _changed(self) -> None:
        if not self._filling:
            self._touched.add(self.sender())
            self._timer.start()
            # the figures shown are the last design's until the new one is made: greyed meanwhile
            self.preview.setStyleSheet(f"color: {palette.INK_MUTED};")
            self.preview.setToolTip("Updating: these figures are the previous fields' until the design is made")

    def changes(self) -> dict:
        """The intent's fields from the widgets; over a template, only the fields changed since."""
        values = self._values()
        if not self.template.currentData():
            return dict(values.values())
        out = dict(v for w, v in values.items() if w in self._touched)
        if self.gpus.value() == 0 and "requests_per_s" not in out and self.requests_per_s.value():
            out["requests_per_s"] = self.requests_per_s.value()  # the target the GPUs are sized for
        return out

    def label_of(self, field: str) -> str | None:
        """The form label of the widget that gives an intent field ('Rack power cap' for rack_kw)."""
        widget = next((w for w, (name, _) in self._values().items() if name == field), None)
        for form in self.findChildren(QFormLayout):
            label = form.labelForField(widget) if widget is not None else None
            if label is not None:
                return label.text()
        return None

    def _values(self) -> dict:
        """Each widget's intent field and its value now."""
        return {self.system: ("system", self.system.currentData()), self.gpus: ("gpus", self.gpus.value() or None),
                  self.params_b: ("params_b", self.params_b.value() if self.model.currentData() == "custom" else None),
                  self.rack_kw: ("rack_kw", self.rack_kw.value()), self.cooling: ("cooling", self.cooling.currentData()),
                  self.fabric: ("fabric", None if self.fabric.currentData() == "auto" else self.fabric.currentData()),
                  self.model: ("model", self.model.currentData()),
                  self.train_tokens_b: ("train_tokens_b", self.train_tokens_b.value()),
                  self.seq_len: ("seq_len", self.seq_len.value()),
                  self.batch_tokens: ("batch_tokens", round(self.batch_tokens.value())),
                  self.attention_kernel: ("attention_kernel", self.attention_kernel.currentData()),
                  self.write_s: ("checkpoint_write_s", self.write_s.value() or None),
                  self.capacity_tb: ("storage_capacity_tb", self.capacity_tb.value() or None),
                  self.floor_rating: ("floor_rating_kg_m2", self.floor_rating.value()),
                  self.air_limit: ("air_cooling_limit_kw", self.air_limit.value()),
                  self.inference: ("inference", self.inference.isChecked()),
                  self.requests_per_s: ("requests_per_s", self.requests_per_s.value() or None),
                  self.prompt_tokens: ("prompt_tokens", self.prompt_tokens.value()),
                  self.output_tokens: ("output_tokens", self.output_tokens.value()),
                  self.latency_ms: ("latency_ms_per_token", self.latency_ms.value())}

    def accept(self) -> None:
        """Create from the fields as they are now (the preview may wait on its timer)."""
        self._timer.stop()
        self.refresh()
        if self.design is not None:
            super().accept()

    def refresh(self) -> None:
        """Design from the fields and show the plan's totals, or what does not hold (a large
        design takes seconds: the wait cursor says so meanwhile)."""
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self._refresh()
        finally:
            QApplication.restoreOverrideCursor()
            self.preview.setToolTip("")

    def _refresh(self) -> None:
        template = self.template.currentData() or None
        try:
            self.design = design_from(template, self.catalog, **self.changes())
            report = evaluate(self.design.plan, self.catalog)
        except PlannerError as exc:
            self.design = None
            self.preview.setStyleSheet(f"color: {palette.MESSAGE_ERROR};")
            field, sep, rest = str(exc).partition(": ")
            label = self.label_of(field) if sep else None  # the field named as the form names it
            self.preview.setText(f"{label}: {rest}" if label else str(exc))
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return
        t, w = report.totals, report.workload
        cost = report.sections.get("cost") or {}
        errors = sum(f.severity == "error" for f in report.findings)
        warnings = sum(f.severity == "warning" for f in report.findings)
        goodput = report.sections.get("goodput") or {}
        spares, stocked = goodput.get("spare_nodes") or 0, goodput.get("spares_stocked") or 0
        unit = goodput.get("spare_unit") or "node"
        held = ([f"{fmt.counted(spares, 'hot spare')}"] if spares else []) + (
            [f"{fmt.counted(stocked, unit)} stocked"] if stocked else [])
        kept = f" ({', '.join(held)})" if held else ""
        lines = [f"{fmt.counted(t.gpus, 'GPU')} in {fmt.counted(t.nodes, 'node')}{kept}, {fmt.counted(t.racks, 'rack')}",
                 f"IT {fmt.kw(t.it_power_kw)}, facility {fmt.kw(t.facility_power_kw)}",
                 f"Capex {fmt.usd(cost['capex_usd'])}" if cost.get("capex_usd") is not None else "Capex –"]
        if w.tokens_per_s:
            failing = goodput.get("time_to_train_days")  # the days the toolbar shows: with failures
            days = (f", {fmt.number(failing)} days to train with failures ({fmt.number(w.time_to_train_days)} "
                    f"if nothing failed)" if failing and w.time_to_train_days else
                    f", {fmt.number(w.time_to_train_days)} days to train" if w.time_to_train_days else "")
            lines.append(f"{fmt.count(round(w.tokens_per_s))} tokens/s{days}")
        lines.append(f"{fmt.count(errors)} error{'s' if errors != 1 else ''}, "
                     f"{fmt.count(warnings)} warning{'s' if warnings != 1 else ''}")
        # the errors by name, first: what the plan would open with (the warnings follow below)
        shown = [f for f in report.findings if f.severity == "error"][:PREVIEW_ERRORS]
        lines += [f"Error: {f.message}" for f in shown]
        if errors > len(shown):
            lines.append(f"and {fmt.counted(errors - len(shown), 'more error')}")
        model = model_shape(self.design.plan.settings.workload)
        lines += [f"{'Layout' if i == 0 else 'Runner-up'}: {describe_layout(c, model)}"
                  for i, c in enumerate(self.design.layouts)]
        lines += [f.message for f in self.design.findings if f.code in NOTES or f.severity == "warning"]
        self.preview.setStyleSheet("")
        self.preview.setText("\n".join(lines))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)
        self._show_designed()

    def _show_designed(self) -> None:
        """Over a template, the GPU count and rack cap the user has not changed show what the
        design made of them (medium's 16 nodes as GB200 NVL72: 1,152 GPUs in 140 kW racks, not
        the 128 and 30 kW of its DGX H100), so the fields on screen are the plan's."""
        if not self.template.currentData() or self.design is None:
            return
        plan = self.design.plan
        self._filling = True
        if self.gpus not in self._touched and self.gpus.value() != 0:  # 0: sized for the requests
            gpus = job_summary(plan, self.catalog).gpus
            if gpus:
                self.gpus.setValue(gpus)
        if self.rack_kw not in self._touched:
            gpu_racks = {p.rack for p in plan.placements if (d := self.catalog.get(p.device)) and d.gpu}
            caps = [r.power_cap_kw for r in plan.racks if r.id in gpu_racks]
            if caps:
                self.rack_kw.setValue(max(caps))
        self._filling = False
