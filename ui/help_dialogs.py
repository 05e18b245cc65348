"""Help menu: the About box (version, what the app is) and the keyboard shortcuts list."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QMessageBox, QTableWidget, QTableWidgetItem, QVBoxLayout

import planner
from ui.file_actions import APP_TITLE

# Mouse gestures of the rack view (its keys come from ``VIEW_KEYS``).
VIEW_GESTURES = [
    ("Ctrl + mouse wheel", "Zoom the rack view"),
    ("Drag the background", "Pan the rack view"),
    ("Drag a device", "Move it to another U or rack"),
    ("Drag a rack's block (whole floor)", "Move its selected device, or the one at that height, to another rack"),
]

_KEY_NAMES = {"+": "Plus", "-": "Minus", "=": "Equal", ",": "Comma", ".": "Period", "Del": "Delete",
              "Return": "Enter", "Ins": "Insert", "PgUp": "Page Up", "PgDown": "Page Down"}
_MODIFIERS = ((Qt.KeyboardModifier.ControlModifier, "Ctrl"), (Qt.KeyboardModifier.AltModifier, "Alt"),
              (Qt.KeyboardModifier.ShiftModifier, "Shift"), (Qt.KeyboardModifier.MetaModifier, "Meta"))


def key_name(key: Qt.Key) -> str:
    """A key as a person reads it: "Plus", "Delete", "Up", "F1"."""
    text = QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText)
    return _KEY_NAMES.get(text, text)


def readable_keys(sequence: QKeySequence) -> str:
    """"Ctrl + Plus", "Ctrl + Shift + Z": modifiers and key spelled out, joined by " + "."""
    chords = []
    for i in range(sequence.count()):
        combo = sequence[i]
        mods = combo.keyboardModifiers()
        parts = [name for flag, name in _MODIFIERS if mods & flag]
        chords.append(" + ".join(parts + [key_name(combo.key())]))
    return ", ".join(chords)


def shortcut_text(action: QAction) -> str:
    keys = (s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts() if not s.isEmpty())
    return ", ".join(dict.fromkeys(keys))  # Redo is Ctrl+Shift+Z twice on some platforms


def view_key_rows(view_keys) -> list[tuple[str, str]]:
    """(keys, what) for the rack view's key table: "Up / Down", "Plus / Equal"."""
    rows = []
    for vk in view_keys:
        names = dict.fromkeys(key_name(k) for k in vk.keys)  # Return and Enter are both "Enter"
        rows.append((" / ".join(names), vk.what))
    return rows


def shortcut_rows(actions: list[QAction], view_keys=()) -> list[tuple[str, str]]:
    """(keys, what it does) for every action with a shortcut, the view's own keys, then its gestures."""
    rows = []
    for action in actions:
        keys = ", ".join(dict.fromkeys(readable_keys(s) for s in action.shortcuts() if not s.isEmpty()))
        if keys:
            what = action.property("shortcut_name") or action.text().replace("&", "").rstrip("…").strip()
            rows.append((keys, "Remove the selection" if what == "Remove" else what))
    return rows + view_key_rows(view_keys) + VIEW_GESTURES


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
            for col, text in ((0, keys), (1, what)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)  # whole, should a narrow dialog elide it
                self.table.setItem(i, col, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        metrics = self.table.fontMetrics()
        widest = [max((metrics.horizontalAdvance(r[c]) for r in rows), default=0) for c in (0, 1)]
        # wide enough for the longest action ("Move the selected device one U up ..."), within a laptop screen
        self.resize(min(1100, max(460, sum(widest) + 90)), min(720, 90 + (metrics.height() + 8) * len(rows)))


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
