"""The inspector: properties of the selection (a device, a rack, or the plan), editable through
commands; or the racks and devices of a finding that concerns many (a row of the checks list).

Why it is long: each subject's rows (device, rack, plan, a finding's places) are one form that
updates in place; splitting it would split the one rule for when rows are rebuilt.

Its rows are built when the selection changes and updated in place after an edit, so an
editor keeps its focus and a spin box keeps stepping."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QSpinBox,
                               QVBoxLayout, QWidget)

from planner.design.replace import ReplaceDevices, compatible_types
from planner.goodput.section import recovery_rows
from planner.plan.changes import EVERYTHING, ChangeSet
from planner.plan.commands import EditDevice, MoveDevice, RenamePlan
from planner.report.finding_groups import group_findings
from planner.report.schedule_text import training_run_line
from ui import fmt
from ui.document import Document
from ui.form_grid import FormGrid
from ui.rack_dialogs import type_text


def _value(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _show_text(edit: QLineEdit, text: str) -> None:
    """Set a field's text showing its start (a long plan name reads from its first word)."""
    edit.setText(text)
    edit.setCursorPosition(0)
    edit.setToolTip(text)  # whole, when the field is narrower than the text


def _entered(edit: QLineEdit) -> None:
    """An entry taken into the plan: the field's typing history ends there (setText clears it),
    so Ctrl+Z in it undoes the plan's edit (``ui.field_input``), the cursor where it was."""
    at = edit.cursorPosition()
    edit.setText(edit.text())
    edit.setCursorPosition(at)


def _typing(edit: QLineEdit) -> bool:
    """Whether the user is typing in ``edit`` (focused, changed since it was last set): an
    update leaves it alone; a field merely focused shows the plan's value (an undo's too)."""
    return edit.hasFocus() and edit.isModified()


def _line_edit(text: str) -> QLineEdit:
    edit = QLineEdit()
    _show_text(edit, text)
    return edit


def _distribution(res) -> str:
    """Each feed's PDUs, capacity and load, as the report sized them on the nameplate."""
    if not res.feeds:
        return "no PDU model with a rating in the catalog"
    other = {f.name: g for f in res.feeds for g in res.feeds if g is not f}
    lines = []
    for f in res.feeds:
        line = f"{f.name}: {f.pdus} PDU{'s' if f.pdus != 1 else ''}, {fmt.kw(f.capacity_kw)}, load {fmt.kw(f.load_kw)}"
        if f.name in other:
            line += (f"; {fmt.kw(f.load_on_loss_kw)} if {other[f.name].name} is lost" if f.load_on_loss_kw
                     else f"; cannot carry the rack if {other[f.name].name} is lost")
        lines.append(line)
    return "\n".join(lines)


class Inspector(QWidget):
    editRackRequested = Signal(str)
    selectRequested = Signal(str)
    """Select this device again (a replaced device may have moved to another rack)."""

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.devices: list[str] = []
        self.rack: str | None = None
        self.listed: tuple[str, str, tuple[str, ...]] | None = None  # (code, text, places) of a finding listed
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
        self._updates: list[Callable[[], object]] = []  # refresh the shown rows' texts and values
        self._shown: tuple | None = None
        doc.changed.connect(self._doc_changed)
        self.refresh()

    def _doc_changed(self, changes, report) -> None:
        if changes is EVERYTHING:  # another plan (opened, new, restored): nothing of the last one listed
            self.listed = None
        elif self.listed is not None:  # a listed check follows the edit: its mended places leave the list
            self.listed = self._still_listed(report.findings)
        self.refresh(changes)

    def _still_listed(self, findings) -> tuple[str, str, tuple[str, ...]] | None:
        """The listed check's line as the report has it now: the group of its code that still
        holds some of its places, with its own message (its count) and places; None when
        none of them has it any more (a fix mended them all)."""
        code, _, places = self.listed
        for group in group_findings(f for f in findings if f.code == code):
            if set(group.places) & set(places):
                return group.code, group.message, group.places
        return None

    def show_selection(self, devices: list[str], rack: str | None) -> None:
        self.devices, self.rack = devices, rack
        # a place of the list selected keeps the list (and so does no selection: selecting one
        # clears the selection first); another selection shows itself
        if self.listed is not None and (devices or rack is not None):
            places = self.listed[2]
            if not (set(devices) <= set(places) if devices else rack in places):
                self.listed = None
        self.refresh()

    def show_places(self, row) -> None:
        """List the places of a finding that concerns many (a ``FindingGroup``; None: no
        longer); a click on one selects it."""
        self.listed = (row.code, row.message, row.places) if row is not None else None
        self.refresh()

    def rebuild(self) -> None:
        """Build the rows again (the number notation changed: every figure is written anew)."""
        self._shown = None
        self.refresh()

    def _clear(self) -> None:
        self.form.clear()  # deleteLater: a row's own signal may be what triggered this refresh
        self.fields = {}
        self._updates: list = []

    def _row(self, key: str, label: str, widget: QWidget, wide: bool = False) -> None:
        """One row; a *wide* row puts a long text (where a figure comes from) under its label."""
        widget.setObjectName(key)
        self.fields[key] = widget
        self.form.add_row(label or None, widget, wide=wide)

    def _text(self, key: str, label: str, text: Callable[[], str], wide: bool = False) -> None:
        """A read-only row whose text ``text()`` gives again after every edit."""
        widget = _value(text())
        self._row(key, label, widget, wide)
        self._updates.append(lambda: widget.setText(text()))

    def _subject(self) -> tuple:
        """What the inspector shows: the rows are built once per subject and updated in place."""
        plan = self.doc.plan
        if self.listed is not None:
            return ("places", self.listed)
        if len(self.devices) == 1:
            return ("device", self.devices[0], plan.placement(self.devices[0]).device)
        if self.devices:
            return ("devices", len(self.devices))
        if self.rack:  # the rows a rack shows depend on its row name and on a rated PDU model
            res = self.doc.report.rack(self.rack)
            return ("rack", self.rack, plan.settings.facility.power_basis, bool(plan.rack(self.rack).row),
                    bool(res.feeds) if res is not None else None)
        goodput = self.doc.report.sections.get("goodput")
        return ("plan", bool(plan.description), bool(goodput is not None and goodput.recovery))

    def refresh(self, changes: ChangeSet | None = None) -> None:
        plan = self.doc.plan
        self.devices = [d for d in self.devices if plan.placement(d) is not None]
        if self.rack and plan.rack(self.rack) is None:
            self.rack = None
        subject = self._subject()
        if subject == self._shown:
            if changes is None or self._concerns(subject, changes):
                for update in self._updates:  # the editors stay: focus, selection and stepping survive
                    update()
            return
        self._clear()
        self._shown = subject
        if subject[0] == "device":
            self._show_device(subject[1])
        elif subject[0] == "devices":
            self.heading.setText(f"{len(self.devices)} devices selected")
        elif subject[0] == "rack":
            self._show_rack(subject[1])
        elif subject[0] == "places":
            self._show_places(*subject[1])
        else:
            self._show_plan()

    def _concerns(self, subject: tuple, changes: ChangeSet) -> bool:
        """Whether an edit can change what the inspector shows (others cost it nothing)."""
        if changes.catalog or changes.needs_full:
            return True
        kind, key = subject[:2]
        if kind == "device":
            return key in changes.devices or self.doc.plan.placement(key).rack in changes.racks
        if kind == "rack":
            return key in changes.racks
        return True  # the plan's recovery figures follow any edit (a few texts)

    def _show_device(self, pid: str) -> None:
        doc = self.doc

        def p():
            return doc.plan.placement(pid)

        d = doc.catalog.get(p().device)
        self.heading.setText(p().label or p().id)
        self._updates.append(lambda: self.heading.setText(p().label or p().id))
        if d is None:
            self._text("type", "Type", lambda: f"unknown type '{p().device}'")
        else:
            self._row("type", "Type", self._type_choice(pid, d.id))
        label = _line_edit(p().label)
        label.setPlaceholderText(pid)
        def relabel() -> None:
            if label.text() == p().label:
                return
            if doc.apply(EditDevice(pid, label.text())):
                _entered(label)
            else:
                _show_text(label, p().label)  # refused (the status bar says why): the name it keeps

        label.editingFinished.connect(relabel)
        self._row("label", "Label", label)
        self._updates.append(lambda: _typing(label) or _show_text(label, p().label))
        self._text("rack", "Rack", lambda: doc.plan.rack(p().rack).name)
        u = QSpinBox(minimum=1, maximum=doc.plan.rack(p().rack).height_u, value=p().u)
        u.setKeyboardTracking(False)
        self._row("u", "Lowest U", u)

        def update_u() -> None:
            blocked = u.blockSignals(True)
            u.setMaximum(doc.plan.rack(p().rack).height_u)
            u.setValue(p().u)
            u.blockSignals(blocked)

        def move(value: int) -> None:  # spin-box steps: one undo step; refused: the U it keeps
            if value != p().u and not doc.apply(MoveDevice(pid, p().rack, value), merge_key=("inspector-u", pid)):
                update_u()

        u.valueChanged.connect(move)

        self._updates.append(update_u)
        if d:
            self._text("height", "Height", lambda: f"{d.u_height}U (U{p().u}-U{p().u + d.u_height - 1})")
            self._row("power_typical", "Power, typical", _value(fmt.watts(d.power_typical_w)))
            self._row("power_nameplate", "Power, nameplate", _value(fmt.watts(d.power_max_w)))
            self._row("weight", "Weight", _value(f"{fmt.number(d.weight_kg, 'g')} kg"))
            if d.gpu:
                self._row("gpus", "GPUs", _value(f"{d.gpu.count} x {d.gpu.model}"))
            self._row("cooling", "Cooling", _value(d.cooling))
            self._row("price", "Price", _value(fmt.usd(d.price_usd)))
            if d.price_source:
                self._row("price_source", "Where the price comes from", _value(d.price_source), wide=True)
            self._row("source", "Where the figures come from", _value(d.source), wide=True)

    def _type_choice(self, pid: str, device_id: str) -> QComboBox:
        """The device's type among the catalog types of its kind: choosing another replaces it
        (the rack re-fitted; the device moves when it no longer fits there), one undo step."""
        doc = self.doc
        choice = QComboBox()
        for t in compatible_types(doc.catalog, device_id):
            choice.addItem(t.title, t.id)
            choice.setItemData(choice.count() - 1, type_text(t), Qt.ItemDataRole.ToolTipRole)
        choice.setCurrentIndex(choice.findData(device_id))
        # as wide as the inspector, not as its longest type name; the tooltip has the name whole
        choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        choice.setMinimumContentsLength(12)
        choice.setToolTip(f"{choice.currentText()}\n\nChoose another type of the same kind to replace this device "
                          "with it; the rack is re-fitted by power, cooling and height (Edit > Replace all … with … "
                          "for many)")

        def chosen(index: int) -> None:
            target = choice.itemData(index)
            if target == device_id:
                return
            if doc.apply(ReplaceDevices(target, placements=[pid])):
                self.selectRequested.emit(pid)
                return
            blocked = choice.blockSignals(True)  # refused: the device keeps its type
            choice.setCurrentIndex(choice.findData(device_id))
            choice.blockSignals(blocked)

        choice.activated.connect(chosen)
        return choice

    def _show_rack(self, rid: str) -> None:
        doc = self.doc

        def rack():
            return doc.plan.rack(rid)

        def res():
            return doc.report.rack(rid)

        def findings() -> str:
            n = len(res().findings)
            return f"{n} finding{'s' if n != 1 else ''}" if n else "none"

        def floor() -> str:
            r, rating = res(), doc.plan.settings.floor.floor_rating_kg_m2
            return (f"{fmt.number(r.floor_load_kg_m2, ',.0f')} of {fmt.number(rating, ',.0f')} kg/m² "
                    f"({fmt.number(r.total_weight_kg, ',.0f')} kg with the enclosure on "
                    f"{rack().width_mm} x {rack().depth_mm} mm)")

        self.heading.setText(f"Rack {rack().name}")
        self._updates.append(lambda: self.heading.setText(f"Rack {rack().name}"))
        self._text("power", f"Power ({res().basis})",
                   lambda: f"{fmt.kw(res().power_kw)} of {fmt.number(rack().power_cap_kw, 'g')} kW cap")
        self._text("power_both", "Typical / nameplate",
                   lambda: f"{fmt.kw(res().power_typical_kw)} / {fmt.kw(res().power_nameplate_kw)}")
        self._text("space", "Space used", lambda: f"{res().used_u} of {rack().height_u} U")
        self._text("nodes", "Nodes / GPUs", lambda: f"{res().nodes} / {res().gpus}")
        self._text("weight", "Weight", lambda: f"{fmt.number(res().weight_kg, ',.0f')} of "
                                               f"{fmt.number(rack().max_weight_kg, 'g')} kg")
        self._text("cooling", "Cooling",
                   lambda: rack().cooling + (", rear-door heat exchanger" if rack().rear_door_hx else ""))
        self._text("feeds", "Feeds", lambda: _distribution(res()))
        if res().feeds:
            self._text("pdus", "PDUs", lambda: f"{res().pdus} x {res().pdu_model} ({res().pdus} circuits)")
        self._text("heat", "Heat (nameplate)",
                   lambda: f"{fmt.kw(res().heat_liquid_kw)} to liquid, {fmt.kw(res().heat_air_kw)} to air")
        self._text("water", "Water flow",
                   lambda: f"{fmt.number(res().water_l_min, ',.1f')} l/min" if res().water_l_min else "none")
        self._text("floor", "Floor load", floor)
        if rack().row:
            self._text("row", "Row", lambda: rack().row)
        self._text("findings", "Findings", findings)
        edit = QPushButton("Edit rack…")
        edit.clicked.connect(lambda: self.editRackRequested.emit(rid))
        self._row("edit", "", edit)

    def _show_places(self, code: str, message: str, places: tuple[str, ...]) -> None:
        plan = self.doc.plan

        def name(where: str) -> str:
            rack = plan.rack(where)
            if rack is not None:
                return rack.name
            p = plan.placement(where)
            return f"{p.label or p.id} in {plan.rack(p.rack).name}" if p is not None else where

        shown = [w for w in places if plan.rack(w) is not None or plan.placement(w) is not None]
        racks = sum(1 for w in shown if plan.rack(w) is not None)
        one = len(shown) == 1
        noun = ("rack" if one else "racks") if racks == len(shown) else (
            ("device" if one else "devices") if not racks else "racks and devices")
        self.heading.setText(f"{len(shown):,} {noun} of one check")
        self._row("finding", "", _value(message), wide=True)
        # the code names the check's section in Help > Findings
        self._row("code", "Check", _value(code))
        listing = QListWidget()
        listing.setUniformItemSizes(True)
        for where in shown:
            item = QListWidgetItem(name(where))
            item.setData(Qt.ItemDataRole.UserRole, where)
            listing.addItem(item)
        listing.setMinimumHeight(240)
        listing.itemClicked.connect(lambda item: self.selectRequested.emit(item.data(Qt.ItemDataRole.UserRole)))
        self._row("places", "", listing, wide=True)

    def _show_plan(self) -> None:
        doc = self.doc
        self.heading.setText("Plan")
        name = _line_edit(doc.plan.name)
        name.editingFinished.connect(lambda: name.text() != doc.plan.name and doc.apply(RenamePlan(name.text()))
                                     and _entered(name))
        self._row("name", "Name", name)
        self._updates.append(lambda: _typing(name) or _show_text(name, doc.plan.name))
        if doc.plan.description:
            self._text("description", "Description", lambda: doc.plan.description)
        if training_run_line(doc.report):
            self._text("training_calendar", "Training on the calendar",
                       lambda: training_run_line(doc.report) or "No training run on the calendar", wide=True)
        for i, (label, _) in enumerate(recovery_rows(doc.report.sections.get("goodput"))):
            self._text(f"recovery{i}", label, lambda i=i: recovery_rows(doc.report.sections.get("goodput"))[i][1],
                       wide=True)
        self._row("hint", "", _value("Select a rack or device to see its figures. Drag devices from the "
                                     "palette into a rack."))
