"""File ▸ Plan properties: the plan's customer, site, contact, revision and dates, which
the vendor pack's cover shows. OK applies one undoable command; a refused entry (a date
that is not YYYY-MM-DD) keeps the dialog open with the reason and the plan unchanged."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFormLayout, QLabel, QLineEdit

from planner.plan.commands import SetPlanInfo
from ui.document import Document
from ui.rack_dialogs import form_dialog_layout

FIELDS = {"customer": ("Customer", ""), "site": ("Site", "data centre, hall or address"),
          "contact": ("Contact", "name, e-mail, phone"), "revision": ("Revision", "e.g. B"),
          "date": ("Date", "YYYY-MM-DD; empty = the export date"),
          "go_live": ("Requested go-live", "YYYY-MM-DD")}


class PlanPropertiesDialog(QDialog):
    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle("Plan properties")
        self.setMinimumWidth(460)
        self.entries: dict[str, QLineEdit] = {}
        form = QFormLayout()
        info = doc.plan.info
        for name, (title, hint) in FIELDS.items():
            edit = QLineEdit(getattr(info, name))
            edit.setObjectName(name)
            edit.setPlaceholderText(hint)
            form.addRow(title, edit)
            self.entries[name] = edit
        note = QLabel("Shown on the vendor pack's cover.")
        note.setStyleSheet("color: #555;")
        self.message, self.buttons = form_dialog_layout(self, form, note)

    def accept(self) -> None:
        info = self.doc.plan.info
        changes = {k: e.text().strip() for k, e in self.entries.items() if e.text().strip() != getattr(info, k)}
        if changes and not self.doc.apply(SetPlanInfo(**changes)):
            self.message.setText(self.doc.last_error or "the plan cannot take these values")
            self.message.show()
            return
        super().accept()
