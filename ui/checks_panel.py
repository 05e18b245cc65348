"""Every finding of the report with a severity icon; clicking one selects its rack or device."""

from __future__ import annotations

from bisect import bisect_left

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QListView, QListWidget, QListWidgetItem

from planner.findings import Finding
from planner.plan.changes import ChangeSet
from planner.report.finding_rows import FindingRows
from planner.report.model import Report
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


def kept_rows(old: list, new: list) -> list[tuple[int, int]]:
    """Rows that stay when a list changes from ``old`` to ``new``: (old index, new index) pairs
    of equal items, increasing in both, as many as can be kept (the longest increasing run of
    old positions, taken in new order; n log n, so thousands of findings diff within a frame)."""
    by_id = {id(item): i for i, item in enumerate(old)}  # the same objects: most findings after an edit
    where: dict | None = None  # old positions of equal items, for the rest (built only when needed)
    used: set[int] = set()  # old positions already paired
    pairs = []  # (new index, old index) for each new item also in old; an old item once
    for j, item in enumerate(new):
        i = by_id.get(id(item))
        if i is None or i in used:
            if where is None:  # equal items among the old ones that are not carried over as objects
                carried = {id(x) for x in new}
                where = {}
                for k, x in enumerate(old):
                    if id(x) not in carried:
                        where.setdefault(x, []).append(k)
            i = next((k for k in where.get(item, ()) if k not in used), None)
        if i is not None:
            used.add(i)
            pairs.append((j, i))
    if all(a[1] < b[1] for a, b in zip(pairs, pairs[1:])):  # already in order: keep them all
        return [(i, j) for j, i in pairs]
    tails: list[int] = []  # tails[n]: the smallest old index ending an increasing run of n + 1
    ends: list[int] = []  # the pair index of that tail
    before = [-1] * len(pairs)
    for n, (_, i) in enumerate(pairs):
        k = bisect_left(tails, i)
        if k == len(tails):
            tails.append(i)
            ends.append(n)
        else:
            tails[k], ends[k] = i, n
        before[n] = ends[k - 1] if k else -1
    kept = []
    n = ends[-1] if ends else -1
    while n >= 0:
        j, i = pairs[n]
        kept.append((i, j))
        n = before[n]
    return kept[::-1]


class ChecksPanel(QListWidget):
    titleChanged = Signal(str)
    """e.g. 'Checks  ✖ 1  ⚠ 2  ℹ 1', for the tab or dock title."""
    findingActivated = Signal(object)
    """The ``where`` (rack or device id) of a clicked finding."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setIconSize(QSize(16, 16))
        self.setWordWrap(True)
        # Wrapped rows are measured a batch at a time between events, so a report of
        # thousands of findings does not hold up the next frame after an edit.
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(40)
        self.setAlternatingRowColors(True)
        self._icons = {s: severity_icon(s) for s in ("error", "warning", "info")}
        self.itemClicked.connect(lambda item: self.findingActivated.emit(item.data(WHERE_ROLE)))
        self.itemActivated.connect(lambda item: self.findingActivated.emit(item.data(WHERE_ROLE)))
        self.title = "Checks"
        self._shown: list[Finding | None] = []  # what the rows show, in order
        self._rows = FindingRows()  # the same rows as segments, to follow an edit by its change set

    def show_report(self, report: Report, changes: ChangeSet | None = None) -> None:
        """Bring the list to the report's findings by difference: rows of findings that stay are
        kept (with their selection and the scroll position); only the others are removed or added.
        After an edit the change set says which racks' rows can have changed (``FindingRows``);
        otherwise the whole list is compared."""
        if self._shown and self._shown[0] is not NO_FINDINGS:
            edits = self._rows.update(report, changes)
            if edits is not None:
                self._apply(edits)
                self._set_title(report)
                return
        new = list(report.findings) or [NO_FINDINGS]
        if new == self._shown:
            self._rows.reset(report)
            self._set_title(report)
            return
        kept = kept_rows(self._shown, new)
        kept_old = {i for i, _ in kept}
        kept_new = {j for _, j in kept}
        self.setUpdatesEnabled(False)
        for row in range(len(self._shown) - 1, -1, -1):  # from the end, so earlier row numbers stay valid
            if row not in kept_old:
                self.takeItem(row)  # the item is Python's now and goes with it
        for j, f in enumerate(new):  # the rows left are the kept ones, in order: insert the others
            if j not in kept_new:
                self.insertItem(j, self._item(f))
        self.setUpdatesEnabled(True)
        self._shown = new
        self._rows.reset(report)
        self._set_title(report)

    def _apply(self, edits) -> None:
        if not edits:
            return
        self.setUpdatesEnabled(False)
        for row, removed, inserted in edits:
            for _ in range(removed):
                self.takeItem(row)
            for k, f in enumerate(inserted):
                self.insertItem(row + k, self._item(f))
        if not self._rows.rows:  # nothing left: the list says so in a row of its own
            self.insertItem(0, self._item(NO_FINDINGS))
            self._shown = [NO_FINDINGS]
        else:
            self._shown = self._rows.rows
        self.setUpdatesEnabled(True)

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
