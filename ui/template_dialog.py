"""File > New from template: the built-in templates with their one-line descriptions."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout

from planner.design.templates import list_templates

NAME_ROLE = Qt.ItemDataRole.UserRole + 1


def one_line(text: str) -> str:
    first = text.split(". ")[0].strip()
    return first if first.endswith(".") else first + "."


class TemplateDialog(QDialog):
    def __init__(self, parent=None, selected: str = "medium"):
        super().__init__(parent)
        self.setWindowTitle("New plan from template")
        self.resize(620, 380)
        self.list = QListWidget()
        self.list.setSpacing(3)
        self.list.setWordWrap(True)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for t in list_templates():
            item = QListWidgetItem(f"{t.title}\n{one_line(t.description)}")
            item.setData(NAME_ROLE, t.name)
            item.setToolTip(t.description)
            self.list.addItem(item)
            if t.name == selected:
                self.list.setCurrentItem(item)
        self.list.itemDoubleClicked.connect(lambda _: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Start from a reference design (its tooltip names its sources):"))
        layout.addWidget(self.list)
        layout.addWidget(buttons)

    def template_name(self) -> str | None:
        item = self.list.currentItem()
        return item.data(NAME_ROLE) if item else None
