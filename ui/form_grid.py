"""A two-column form whose word-wrapped labels and values get the height their text needs.

``QFormLayout`` sizes a wrapped label from its preferred width and then lays it out
narrower, so two-line labels ("Leaf oversubscription (:1)") were clipped top and bottom.
``QGridLayout`` asks every item for its height at the width it actually gets, so here each
row is a grid row: label on the left (wrapping), editor on the right; a *wide* row puts a
long value (a source citation) under its label across both columns.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QWidget


def wrapping_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    return label


class FormGrid(QGridLayout):
    """Rows of (label, field); ``label_stretch``:``field_stretch`` share the spare width."""

    def __init__(self, parent: QWidget | None = None, label_stretch: int = 3, field_stretch: int = 2):
        super().__init__(parent)
        self.setColumnStretch(0, label_stretch)
        self.setColumnStretch(1, field_stretch)
        self.setHorizontalSpacing(10)
        self.setVerticalSpacing(6)
        self._rows = 0

    def add_row(self, label: QLabel | str | None, field: QWidget | None, wide: bool = False) -> QLabel | None:
        """Add one row and return its label widget (None for a row without one)."""
        if isinstance(label, str):
            label = wrapping_label(label) if label else None
        row = self._rows
        if wide:
            if label is not None:
                self.addWidget(label, row, 0, 1, 2)
                row += 1
            if field is not None:
                self.addWidget(field, row, 0, 1, 2)
        else:
            if label is not None:
                self.addWidget(label, row, 0)
            if field is not None:
                if label is None:
                    self.addWidget(field, row, 0, 1, 2)
                else:
                    self.addWidget(field, row, 1)
        self._rows = row + 1
        return label

    def clear(self) -> None:
        """Remove every row; the widgets are hidden and deleted later (a row's own signal
        may be what asked for the clear)."""
        while self.count():
            item = self.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self._rows = 0
