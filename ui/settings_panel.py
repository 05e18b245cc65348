"""Settings panels, generated from the pydantic settings sections (no per-field code).

Each field gets a label with its unit, a tooltip naming its default's source, and an
editor from ``ui.binding``; changes go through ``SetSetting`` commands (undoable), and a
refused value shows a message and leaves the model unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QLabel, QMenu, QScrollArea, QTabWidget, QToolButton, QVBoxLayout, QWidget

from planner import vocabulary
from planner.network.technologies import TECHNOLOGIES, offered_switches, speaks
from planner.plan.commands import SetSetting
from planner.settings import Settings, field_meta
from planner.report import palette
from planner.workload.models import shown_values
from ui.binding import FieldEditor, describe_annotation, empty_means, field_label, field_tooltip
from ui.document import Document
from ui.form_grid import FormGrid, wrapping_label

SECTION_TITLES = {"facility": "Facility", "fabric": "Fabric", "workload": "Workload",
                  "storage": "Storage", "costs": "Costs"}

def _choice_label(value: Any) -> str:
    return vocabulary.choice_title(value)


class SectionForm(QWidget):
    """The generated form of one settings section."""

    refused = Signal(str)
    """A value was refused: the message names the field by its title."""

    def __init__(self, doc: Document, section: str, parent=None):
        super().__init__(parent)
        self.doc, self.section = doc, section
        model_cls = type(getattr(doc.plan.settings, section))
        self.editors: dict[str, FieldEditor] = {}
        self.labels: dict[str, QLabel] = {}
        self.titles: dict[str, str] = {}
        outer = QVBoxLayout(self)
        form = FormGrid(label_stretch=3, field_stretch=2)
        outer.addLayout(form)
        self.message = QLabel()
        self.message.setObjectName("FormMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(f"color: {palette.MESSAGE_ERROR};")
        self.message.hide()
        outer.addWidget(self.message)
        outer.addStretch(1)
        if not model_cls.model_fields:
            form.add_row(None, QLabel("No settings in this section yet."))
        for name, info in model_cls.model_fields.items():
            meta = field_meta(model_cls, name)
            self.titles[name] = meta["title"]
            kind, choices, optional = describe_annotation(info.annotation)
            labels = _choice_label
            if kind == "str" and name.endswith("_device"):
                # a catalog device: offer the devices of the same category as the default
                default = doc.catalog.get(info.default) if isinstance(info.default, str) else None
                devices = [d for d in doc.catalog if default is None or d.category == default.category]
                kind, choices = "choice", tuple(d.id for d in devices)
                labels = lambda v: doc.catalog[v].title if v in doc.catalog else str(v)  # noqa: E731
            editor = FieldEditor(kind, choices, optional, meta["title"],
                                 commit=lambda v, n=name: self._commit(n, v),
                                 on_error=self.show_message, choice_labels=labels, unit=meta["unit"],
                                 placeholder=empty_means(meta["source"]))
            label = wrapping_label(field_label(meta["title"], meta["unit"]))
            tip = field_tooltip(meta["title"], meta["unit"], meta["source"], info.default)
            label.setToolTip(tip)
            editor.set_tooltip(tip)
            editor.widget.setObjectName(f"{section}.{name}")
            label.setBuddy(editor.widget)
            form.add_row(label, editor.widget)
            self.editors[name] = editor
            self.labels[name] = label
        self.refresh()

    def _commit(self, name: str, value: Any) -> str | None:
        if self.doc.apply(SetSetting(self.section, name, value)):
            self.message.hide()
            return None
        error = self.doc.last_error or ""
        if error.startswith(f"{name}: "):  # the field as the form names it, not its key
            error = f"{self.titles[name]}: {error[len(name) + 2:]}"
        return error

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()
        self.refused.emit(text)

    def refresh(self) -> None:
        values = getattr(self.doc.plan.settings, self.section)
        unused = values.unused_fields()  # greyed: they reach no figure as the section stands
        shown = shown_values(values)  # what they stand for instead (a model preset's own shape)
        if self.section == "fabric" and "switch_device" in self.editors:
            # the switches that speak the fabric's technology, and the plan's own, marked when it does not
            catalog, tech = self.doc.catalog, values.technology
            offered = offered_switches(catalog, tech, values.switch_device)

            def named(v: Any) -> str:
                title = catalog[v].title if v in catalog else str(v)
                return title if speaks(catalog.get(v), tech) else f"{title} — not for {TECHNOLOGIES[tech].title}"

            self.editors["switch_device"].set_choices(tuple(offered), values.switch_device, named)
        for name, editor in self.editors.items():
            editor.show(shown[name] if name in shown and name in unused else getattr(values, name))
            editor.widget.setEnabled(name not in unused)
            self.labels[name].setEnabled(name not in unused)


class _Forms(Mapping):
    """The section forms by section, each made the first time its tab is shown or it is asked
    for: the window opens without building forms nobody has looked at yet."""

    def __init__(self, panel: SettingsPanel):
        self._panel = panel
        self._built: dict[str, SectionForm] = {}

    def __getitem__(self, section: str) -> SectionForm:
        form = self._built.get(section)
        if form is None:
            if section not in self._panel.sections:
                raise KeyError(section)
            form = self._built[section] = self._panel._build(section)
        return form

    def __iter__(self):
        return iter(self._panel.sections)

    def __len__(self) -> int:
        return len(self._panel.sections)

    def __contains__(self, section: object) -> bool:
        return section in self._panel.sections

    def built(self) -> list[SectionForm]:
        """The forms made so far."""
        return list(self._built.values())

    def made(self, section: str) -> SectionForm | None:
        """The form of ``section`` if it is made (None while its tab has not been shown)."""
        return self._built.get(section)


class SettingsPanel(QTabWidget):
    """One tab per settings section, in the order ``Settings`` declares them; each tab scrolls.
    A tab's form is made when the tab is first shown (``forms`` makes it when asked for, too)."""

    refused = Signal(str)

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.setDocumentMode(True)
        # a narrow dock scrolls the tabs (arrows at the end) rather than cutting "Workload" to "Workloa"
        self.setUsesScrollButtons(True)
        self.setElideMode(Qt.TextElideMode.ElideNone)
        self.sections: list[str] = list(Settings.model_fields)
        self._scrolls: dict[str, QScrollArea] = {}
        for section in self.sections:
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
            self._scrolls[section] = scroll
            self.addTab(scroll, SECTION_TITLES.get(section, section.replace("_", " ").title()))
        # every section one click away, as a browser lists its tabs: the dock's width shows four
        # or five of the nine, the rest behind the scroll arrows
        self.all_sections = QToolButton(self)
        self.all_sections.setText("\u2261")
        self.all_sections.setAutoRaise(True)
        self.all_sections.setToolTip("All settings sections")
        self.all_sections.setAccessibleName("All settings sections")
        self.all_sections.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.all_sections)
        shown = QActionGroup(menu)  # one section shown at a time: radio marks
        for index in range(len(self.sections)):
            action = menu.addAction(self.tabText(index))
            action.setCheckable(True)
            shown.addAction(action)
            action.triggered.connect(lambda _=False, i=index: self.setCurrentIndex(i))
        menu.aboutToShow.connect(self._mark_current)
        self.all_sections.setMenu(menu)
        self.setCornerWidget(self.all_sections, Qt.Corner.TopRightCorner)
        self.forms = _Forms(self)
        self.currentChanged.connect(self._show_tab)
        self._show_tab(self.currentIndex())
        doc.changed.connect(self.on_changed)

    def _build(self, section: str) -> SectionForm:
        form = SectionForm(self.doc, section)
        form.refused.connect(self.refused)
        self._scrolls[section].setWidget(form)
        return form

    def _mark_current(self) -> None:
        for index, action in enumerate(self.all_sections.menu().actions()):
            action.setChecked(index == self.currentIndex())

    def _show_tab(self, index: int) -> None:
        if 0 <= index < len(self.sections):
            _ = self.forms[self.sections[index]]  # made on its first showing

    def on_changed(self, changes, report) -> None:
        sections = self.sections if changes.catalog else changes.settings
        for s in sections:
            form = self.forms.made(s)  # a form not made yet reads the settings when it is
            if form is not None:
                form.refresh()
