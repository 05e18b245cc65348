"""Every finding of the report with a severity icon; clicking one selects its rack or device."""

from __future__ import annotations

from difflib import SequenceMatcher

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from planner.report.model import Finding, Report
from ui import theme

WHERE_ROLE = Qt.ItemDataRole.UserRole + 1
SEVERITY_ROLE = Qt.ItemDataRole.UserRole + 2
NO_FINDINGS = None  # the row that says there is nothing to show


def severity_icon(severity: str) -> QIcon:
    pix = QPixmap(16, 16)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(theme.SEVERITY_COLOURS[severity]))
    if severity == "warning":
        from PySide6.QtCore import QPointF
        from PySide6.QtGui import QPolygonF

        p.drawPolygon(QPolygonF([QPointF(8, 1), QPointF(15, 14), QPointF(1, 14)]))
        mark = "!"
    else:
        p.drawEllipse(1, 1, 14, 14)
        mark = "×" if severity == "error" else "i"
    p.setPen(Qt.GlobalColor.white)
    font = p.font()
    font.setPixelSize(11)
    font.setBold(True)
    p.setFont(font)
    p.drawText(pix.rect().adjusted(0, 2 if severity == "warning" else 0, 0, 0), Qt.AlignmentFlag.AlignCenter, mark)
    p.end()
    return QIcon(pix)


class ChecksPanel(QListWidget):
    titleChanged = Signal(str)
    """e.g. 'Checks  ✖ 1  ⚠ 2  ℹ 1', for the tab or dock title."""
    findingActivated = Signal(object)
    """The ``where`` (rack or device id) of a clicked finding."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setIconSize(QSize(16, 16))
        self.setWordWrap(True)
        self.setAlternatingRowColors(True)
        self._icons = {s: severity_icon(s) for s in ("error", "warning", "info")}
        self.itemClicked.connect(lambda item: self.findingActivated.emit(item.data(WHERE_ROLE)))
        self.itemActivated.connect(lambda item: self.findingActivated.emit(item.data(WHERE_ROLE)))
        self.title = "Checks"
        self._shown: list[Finding | None] = []  # what the rows show, in order

    def show_report(self, report: Report) -> None:
        """Bring the list to the report's findings by difference: rows of findings that stay are
        kept (with their selection and the scroll position); only the others are removed or added."""
        new = list(report.findings) or [NO_FINDINGS]
        if new == self._shown:
            self._set_title(report)
            return
        ops = SequenceMatcher(None, self._shown, new, autojunk=False).get_opcodes()
        self.setUpdatesEnabled(False)
        for tag, i1, i2, j1, j2 in reversed(ops):  # from the end, so earlier row numbers stay valid
            if tag == "equal":
                continue
            for row in range(i2 - 1, i1 - 1, -1):
                self.takeItem(row)  # the item is Python's now and goes with it
            for k, f in enumerate(new[j1:j2]):
                self.insertItem(i1 + k, self._item(f))
        self.setUpdatesEnabled(True)
        self._shown = new
        self._set_title(report)

    def _item(self, f: Finding | None) -> QListWidgetItem:
        if f is NO_FINDINGS:
            item = QListWidgetItem("No findings: the plan passes every check.")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            return item
        item = QListWidgetItem(self._icons[f.severity], f.message)
        item.setData(WHERE_ROLE, f.where)
        item.setData(SEVERITY_ROLE, f.severity)
        item.setToolTip(f"{f.severity}: {f.code}" + (f"\nClick to select {f.where}" if f.where else ""))
        return item

    def _set_title(self, report: Report) -> None:
        counts = report.counts_by_severity()
        self.title = (f"Checks ({counts['error']} error{'s' if counts['error'] != 1 else ''}, "
                      f"{counts['warning']} warning{'s' if counts['warning'] != 1 else ''}, {counts['info']} info)")
        self.titleChanged.emit(self.title)

    def messages(self, severity: str | None = None) -> list[str]:
        return [self.item(i).text() for i in range(self.count())
                if self.item(i).data(SEVERITY_ROLE) and (severity is None or self.item(i).data(SEVERITY_ROLE) == severity)]
