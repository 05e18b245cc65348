"""Help menu: the About box (version, what the app is) and the keyboard shortcuts list."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QMessageBox, QTableWidget, QTableWidgetItem, QVBoxLayout

import planner
from ui.file_actions import APP_TITLE

# Shortcuts handled by the views themselves rather than by an action.
VIEW_SHORTCUTS = [
    ("Ctrl + mouse wheel", "Zoom the rack view"),
    ("Drag the background", "Pan the rack view"),
]


def shortcut_text(action: QAction) -> str:
    keys = (s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts() if not s.isEmpty())
    return ", ".join(dict.fromkeys(keys))  # Redo is Ctrl+Shift+Z twice on some platforms


def shortcut_rows(actions: list[QAction]) -> list[tuple[str, str]]:
    """(keys, what it does) for every action with a shortcut, then the view's own gestures."""
    rows = []
    for action in actions:
        keys = shortcut_text(action)
        if keys:
            what = action.text().replace("&", "").rstrip("…").strip()
            rows.append((keys, "Remove the selection" if what == "Remove" else what))
    return rows + VIEW_SHORTCUTS


class ShortcutsDialog(QDialog):
    def __init__(self, rows: list[tuple[str, str]], parent=None):
        super().__init__(parent)
        self.setObjectName("ShortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels(["Keys", "Action"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for i, (keys, what) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(keys))
            self.table.setItem(i, 1, QTableWidgetItem(what))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.resize(460, min(720, 90 + (self.table.fontMetrics().height() + 8) * len(rows)))


def about_text() -> str:
    return (f"<h3>{APP_TITLE} {html.escape(planner.__version__)}</h3>"
            "<p>Plan GPU clusters rack by rack: power and cooling, the network fabric, storage, "
            "training throughput and costs, checked live as you edit.</p>"
            "<p>Every default figure names its source (hover a setting). "
            "Help → Keyboard shortcuts lists the keys.</p>")


def show_about(parent) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.NoIcon, f"About {APP_TITLE}", about_text(), QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("AboutBox")
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setIconPixmap(parent.windowIcon().pixmap(64, 64) if parent is not None else box.iconPixmap())
    box.open()
    return box
