"""Help > Guide: the user guide's pages (``planner.paths.help_dir()``, Markdown) in a
QTextBrowser, with a search field that finds the next match across the page, links between
pages, and ``show_finding(code)`` opening a finding's section of the findings page."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QKeySequence, QShortcut, QTextDocument
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QTextBrowser, QVBoxLayout

from planner.paths import help_dir

FINDINGS_PAGE = "findings.md"


class GuideDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("GuideDialog")
        self.setWindowTitle("Guide")
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(True)
        self.browser.setSearchPaths([str(help_dir())])
        self.search = QLineEdit()
        self.search.setPlaceholderText("Find in this page (Enter for the next match)")
        self.search.returnPressed.connect(self.find_next)
        self.not_found = QLabel()
        home = QPushButton("Contents")
        home.clicked.connect(lambda: self.open_page("index.md"))
        top = QHBoxLayout()
        top.addWidget(home)
        top.addWidget(self.search, 1)
        top.addWidget(self.not_found)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.browser, 1)
        self.resize(820, 640)
        # Esc closes it as any dialog; Ctrl+W too, as a window of pages does
        for keys in QKeySequence.keyBindings(QKeySequence.StandardKey.Close):  # Ctrl+W, Ctrl+F4
            QShortcut(keys, self, self.close)
        self.open_page("index.md")

    def open_page(self, name: str) -> None:
        self.browser.setSource(QUrl.fromLocalFile(str(help_dir() / name)), QTextDocument.ResourceType.MarkdownResource)

    @property
    def page(self) -> str:
        return self.browser.source().fileName()

    def find_next(self) -> bool:
        """The next match of the search text (from the top again after the last); False if none."""
        text = self.search.text().strip()
        found = bool(text) and (self.browser.find(text) or self._from_top(text))
        self.not_found.setText("" if found or not text else "Not on this page")
        return found

    def _from_top(self, text: str) -> bool:
        cursor = self.browser.textCursor()
        cursor.movePosition(cursor.MoveOperation.Start)
        self.browser.setTextCursor(cursor)
        return self.browser.find(text)

    def show_finding(self, code: str) -> bool:
        """The findings page at ``code``'s section (its heading is the code)."""
        self.open_page(FINDINGS_PAGE)
        self.search.setText(code)
        return self._from_top(code)


def open_guide(parent, code: str | None = None) -> GuideDialog:
    dialog = GuideDialog(parent)
    if code:
        dialog.show_finding(code)
    dialog.show()
    return dialog
