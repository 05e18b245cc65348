"""Every finding of the report with a severity icon; clicking one selects its rack or device.

Findings of one cause and one remedy are one row that says how many racks (or devices) they
concern (``planner.report.finding_groups``): clicking it selects the first and lists them all
in the inspector (``placesListed``), so the list stays a few dozen rows at any scale.

The list is a ``QListView`` over ``FindingsModel``: the view draws only the rows on
screen, each one line high (a long text ends in an ellipsis; its tooltip has it whole).
After an edit the model removes the rows of the findings that went and inserts the new
ones (``beginRemoveRows``/``beginInsertRows``), so the rows of the findings that stay keep
their selection and the list its scroll position. After a drop the change set says which
rows can have changed (``planner.report.finding_rows``); otherwise the model compares the
report's findings with its rows.

Why it is long: the model, its one-line row delegate and the list with its Fix / Fix all
bar and context menu are one view of the findings; the remedies themselves are the core's.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QIcon, QPainter, QPixmap, QPolygonF
from PySide6.QtWidgets import QHBoxLayout, QListView, QMenu, QPushButton, QStyledItemDelegate, QWidget

from planner.findings import Finding
from planner.plan.changes import ChangeSet
from planner.remedies.commands import remedy_command
from planner.remedies.fix import fix_bound, fix_each, fixable, mend, no_fix_reason
from planner.report.finding_groups import FindingGroup, group_findings, group_key
from planner.report.finding_rows import FindingRows
from planner.report.model import Report
from ui import fmt, theme

WHERE_ROLE = Qt.ItemDataRole.UserRole + 1
SEVERITY_ROLE = Qt.ItemDataRole.UserRole + 2
DISPLAY, DECORATION, TOOLTIP = (int(r) for r in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.DecorationRole,
                                                 Qt.ItemDataRole.ToolTipRole))
CODE_ROLE = Qt.ItemDataRole.UserRole + 3
FINDING_ROLE = Qt.ItemDataRole.UserRole + 4
_ROLES_SHOWN = frozenset({DISPLAY, DECORATION, TOOLTIP, WHERE_ROLE, SEVERITY_ROLE, CODE_ROLE, FINDING_ROLE})
NO_FINDINGS = None  # the row that says there is nothing to show
NO_FINDINGS_TEXT = "No findings: the plan passes every check."


def severity_icon(severity: str) -> QIcon:
    pix = QPixmap(16, 16)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(theme.SEVERITY_COLOURS[severity]))
    if severity == "warning":
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


def _rows_that_stay(old: list, new: list) -> tuple[list[bool], list[bool]] | None:
    """Which rows of ``old`` stay and which rows of ``new`` were there already; None when the
    findings that stay are not in the same order in both (the racks were reordered).

    After an edit most findings are the same objects; a finding made again with the same
    text (a re-evaluated rack's unchanged warning) keeps its row too."""
    in_new = {id(f) for f in new}
    in_old = {id(f) for f in old}
    old_stays = [id(f) in in_new for f in old]
    new_stays = [id(f) in in_old for f in new]
    made_again: dict = {}
    for i in (i for i, stays in enumerate(old_stays) if not stays):
        made_again.setdefault(old[i], []).append(i)
    if made_again:
        for j in (j for j, stays in enumerate(new_stays) if not stays):
            rows = made_again.get(new[j])
            if rows:
                old_stays[rows.pop(0)] = new_stays[j] = True
    if [f for f, s in zip(old, old_stays) if s] != [f for f, s in zip(new, new_stays) if s]:
        return None
    return old_stays, new_stays


def remedies(row: FindingGroup) -> list[Finding]:
    """The members of a row that carry a remedy (errors and warnings)."""
    return fixable(list(row.members))


def fix_text(row: FindingGroup) -> str:
    """What Fix does to a row: its remedy, or each member's."""
    return row.remedy.label if row.remedy is not None else f"mend the {len(remedies(row)):,} one by one"


class FindingsModel(QAbstractListModel):
    """The report's findings grouped (``FindingGroup``), in ``Report.findings`` order, or one
    row saying there are none."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[FindingGroup | None] = [NO_FINDINGS]
        self.place_name = lambda where: where  # a finding's place as the plan names it (the panel sets it)
        self._icons = {s: severity_icon(s) for s in ("error", "warning", "info")}

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 (Qt API)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: QModelIndex, role: int = DISPLAY):
        if role not in _ROLES_SHOWN:  # asked for every role of every row as the view lays them out
            return None
        f = self._rows[index.row()]
        if role == DISPLAY:
            return NO_FINDINGS_TEXT if f is NO_FINDINGS else f.message
        if f is NO_FINDINGS:
            return None
        if role == DECORATION:
            return self._icons[f.severity]
        if role == TOOLTIP:
            where = (f"\nClick to select the first and list all {f.count:,} in the inspector"
                     f"\n\nThe first: {f.members[0].message}" if f.count > 1
                     else f"\nClick to select {self.place_name(f.where)}" if f.where else "")
            return (f"{f.message}\n\n{f.severity}: {f.code}" + where
                    + (f"\nFix (right-click): {fix_text(f)}" if remedies(f)
                       else f"\n{no_fix_reason(f.members[0])}" if f.severity != "info" else "")
                    + "\nRight-click: what this check means (Help > Guide)")
        if role == CODE_ROLE:
            return f.code
        if role == FINDING_ROLE:
            return f
        return f.where if role == WHERE_ROLE else f.severity

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if index.isValid() and self._rows[index.row()] is NO_FINDINGS:
            return Qt.ItemFlag.NoItemFlags
        return super().flags(index)

    def set_findings(self, findings: list[FindingGroup]) -> None:
        """Show ``findings``: the rows of the findings that went are removed and the new ones
        inserted; only when the findings that stay changed order is the model reset."""
        new = list(findings) or [NO_FINDINGS]
        stays = _rows_that_stay(self._rows, new)
        if stays is None:
            self.beginResetModel()
            self._rows = new
            self.endResetModel()
            return
        old_stays, new_stays = stays
        # one pass from the top: at each place the new rows are inserted before the old ones
        # there are removed, as a drop's edit replaces a row (removing the rows above a list
        # scrolled down first would move its place)
        root, rows = QModelIndex(), self._rows
        i = j = row = 0  # the next row of the old list, of the new, and of the model
        while i < len(old_stays) or j < len(new_stays):
            if i < len(old_stays) and j < len(new_stays) and old_stays[i] and new_stays[j]:
                i, j, row = i + 1, j + 1, row + 1
                continue
            k = j
            while k < len(new_stays) and not new_stays[k]:
                k += 1
            if k > j:
                self.beginInsertRows(root, row, row + k - j - 1)
                rows[row:row] = new[j:k]
                self.endInsertRows()
                row, j = row + k - j, k
            k = i
            while k < len(old_stays) and not old_stays[k]:
                k += 1
            if k > i:
                self.beginRemoveRows(root, row, row + k - i - 1)
                del rows[row:row + k - i]
                self.endRemoveRows()
                i = k
        self._rows = new  # equal rows, and a finding made again is now the report's own


class _OneLineRows(QStyledItemDelegate):
    """Rows one line high and as wide as the list, so a long text ends in an ellipsis."""

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 (Qt API)
        return QSize(self.parent().viewport().width(), super().sizeHint(option, index).height())


class ChecksPanel(QListView):
    titleChanged = Signal(str)
    """e.g. 'Checks (1 error, 2 warnings, 1 info)', for the dock title."""
    findingActivated = Signal(object)
    """The ``where`` (rack or device id) of a clicked finding (of a group: its first member's)."""
    placesListed = Signal(object)
    """A clicked row of several findings (a ``FindingGroup``): list its places."""
    helpRequested = Signal(str)
    """A finding's code: the user asked what it means (its section of the guide)."""
    fixable = Signal(bool, bool)
    """Whether Fix (the selected finding) and Fix all can run: the window's Ctrl+. keys follow."""
    fixed = Signal(str)
    """What a Fix or Fix all did, in a line for the status bar ("Fixed: Split rack GPU-01 ...")."""

    def __init__(self, doc=None, parent=None):
        super().__init__(parent)
        self.doc = doc  # the document a Fix edits; None: the list only shows
        self.findings = FindingsModel(self)
        if doc is not None:
            self.findings.place_name = self._place_name
        self.setModel(self.findings)
        self.setIconSize(QSize(16, 16))
        # Rows of one height, measured once: wrapped rows were each measured again after
        # every edit, 20 ms for 360 findings at frontier-100k (2026-12-01), whose drop target
        # is 16 ms. Of one height, all 240 rows of frontier-100k are laid out in about 1 ms,
        # in one pass: a batched layout shows no row at all until its last batch is done
        # (a one-column list has its extent only then), so after 65 of 100 drops the list
        # was blank for a moment and a list scrolled down lost its place.
        self.setUniformItemSizes(True)
        self.setItemDelegate(_OneLineRows(self))
        self.setResizeMode(QListView.ResizeMode.Adjust)  # rows follow the list's width
        self.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.setAlternatingRowColors(True)
        self.clicked.connect(self._activated)
        self.activated.connect(self._activated)
        self.title = "Checks"
        self._rows = FindingRows()  # the report's findings as segments, to follow a drop by its change set
        self._build_fix_bar()


    def _place_name(self, where: str) -> str:
        """A rack by its name, a device by its label and rack ("node-3 in GPU-02"), not by ids."""
        plan = self.doc.plan
        rack = plan.rack(where)
        if rack is not None:
            return rack.name
        p = plan.placement(where)
        return f"{p.label or p.id} in {plan.rack(p.rack).name}" if p is not None else where
    def _build_fix_bar(self) -> None:
        """Fix (the selected finding) and Fix all, in a bar above the rows (in the view's
        top margin, so the list stays the dock's widget)."""
        self.fix_bar = QWidget(self)
        bar = QHBoxLayout(self.fix_bar)
        bar.setContentsMargins(4, 2, 4, 2)
        self.fix_button = QPushButton("Fix", self.fix_bar)
        self.fix_all_button = QPushButton("Fix all", self.fix_bar)
        self.fix_button.setToolTip("Apply the selected finding's remedy (one undo step)")
        self.fix_all_button.setToolTip("Apply every remedy the findings carry, one undo step each")
        bar.addWidget(self.fix_button)
        bar.addWidget(self.fix_all_button)
        bar.addStretch(1)
        self.fix_button.clicked.connect(lambda: self.fix(self.currentIndex().data(FINDING_ROLE)))
        self.fix_all_button.clicked.connect(self.fix_all)
        self.selectionModel().currentChanged.connect(lambda *_: self._update_fix_bar())
        self.fix_bar.setVisible(self.doc is not None)
        if self.doc is not None:
            self.setViewportMargins(0, self.fix_bar.sizeHint().height(), 0, 0)
        self._update_fix_bar()

    def _update_fix_bar(self) -> None:
        finding = self.currentIndex().data(FINDING_ROLE)
        self.fix_button.setEnabled(finding is not None and bool(remedies(finding)))
        count = self._fixable_count()
        self.fix_all_button.setEnabled(count > 0)
        self.fix_all_button.setText(f"Fix all ({count})" if count else "Fix all")
        self.fixable.emit(self.fix_button.isEnabled(), self.fix_all_button.isEnabled())
        self.fix_button.setToolTip(f"Fix: {fix_text(finding)}" if self.fix_button.isEnabled()
                                   else no_fix_reason(finding.members[0]) if finding is not None
                                   else "Select a finding to fix it")

    def _fixable_count(self) -> int:
        """The shown findings that carry a remedy. The rows the list shows are the report's
        findings: building ``Report.findings`` again after each edit would visit every rack
        (about 1 ms at frontier-100k's 2,468 racks)."""
        return len(fixable(self._rows.rows)) if self.doc is not None else 0

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        rect = self.contentsRect()
        self.fix_bar.setGeometry(rect.x(), rect.y(), rect.width(), self.fix_bar.sizeHint().height())

    def on_changed(self, changes: ChangeSet | None, report: Report) -> None:
        self.show_report(report, changes)
        self._update_fix_bar()

    def show_report(self, report: Report, changes: ChangeSet | None = None) -> None:
        # the findings follow a drop by its change set; their groups are made again (5,036
        # findings of a 100,000-GPU design group in a few milliseconds), and the rows that
        # read the same stay
        if self._rows.update(report, changes) is None:
            self._rows.reset(report)
        # the row the user selected (not the current row Qt keeps without a selection)
        before = self.currentIndex().data(FINDING_ROLE) if self.selectionModel().hasSelection() else None
        self.findings.set_findings(group_findings(self._rows.rows))
        self._keep_current(before)
        counts = report.counts_by_severity()
        self.title = (f"Checks ({counts['error']:,} error{'s' if counts['error'] != 1 else ''}, "
                      f"{counts['warning']:,} warning{'s' if counts['warning'] != 1 else ''}, {counts['info']:,} info)")
        self.titleChanged.emit(self.title)

    def _keep_current(self, before: FindingGroup | None) -> None:
        """After an edit the selected row stays where its finding is: the same line, else the
        line of its check that replaced it ("3 racks" for "4 racks"); a mended finding leaves
        no row selected (Qt would move the selection to the next row, an unrelated check
        that a Fix would then mend)."""
        current = self.currentIndex().data(FINDING_ROLE)
        if before is None or current == before:
            return
        model = self.findings
        rows = [model.index(i) for i in range(model.rowCount())]
        same = next((i for i in rows if i.data(FINDING_ROLE) == before), None)
        same = same or next((i for i in rows if (f := i.data(FINDING_ROLE)) is not None
                             and (f.severity, f.code) == (before.severity, before.code)), None)
        auto = self.hasAutoScroll()
        self.setAutoScroll(False)  # the list stays where it is scrolled: the row is not brought into view
        try:
            if same is not None:
                self.setCurrentIndex(same)
            else:
                self.selectionModel().clear()
        finally:
            self.setAutoScroll(auto)

    def contextMenuEvent(self, event) -> None:  # noqa: N802 (Qt API)
        index = self.indexAt(event.pos())
        if index.isValid():  # the row right-clicked is selected and shown, as a left click shows it
            self.setCurrentIndex(index)
            self._activated(index)
        menu = self.context_menu(index)
        if menu is not None:
            menu.exec(event.globalPos())

    def context_menu(self, index: QModelIndex) -> QMenu | None:
        """Fix (when the finding has a remedy), Fix all, and what the check means."""
        finding = index.data(FINDING_ROLE)
        if finding is None:
            return None
        menu = QMenu(self)
        if self.doc is not None and remedies(finding):
            menu.addAction(f"Fix: {fix_text(finding)}", lambda: self.fix(finding))
        elif finding.severity != "info":
            menu.addAction(no_fix_reason(finding.members[0])).setEnabled(False)
        count = self._fixable_count()
        if count:
            menu.addAction(f"Fix all ({count} with a remedy)", self.fix_all)
        menu.addAction(f"What this check means ({finding.code})", lambda: self.helpRequested.emit(finding.code))
        return menu

    def fix(self, row: FindingGroup) -> bool:
        """Apply the row's remedy: one undo step, named after what it did; taken back (and
        said) when its finding is still there after it. A row of several findings mends each,
        re-evaluating after each, and the mends are one undo step."""
        doc = self.doc
        if row.count == 1:
            finding = row.members[0]
            command = remedy_command(finding.remedy)
            outcome = mend(finding, command, lambda: doc.report.findings, doc.apply, doc.undo)
            if isinstance(outcome, str):
                doc.join_steps(1, command.label)  # joins nothing: the fix taken back is no step to redo
                doc.error.emit(f"{command.label}: not applied, {outcome}")
            elif outcome is True:
                self.fixed.emit(f"Fixed: {command.label}")
            return outcome is True
        key = group_key(row.members[0])
        result = fix_each(lambda: [f for f in doc.report.findings if group_key(f) == key], doc.apply,
                          doc.undo, limit=fix_bound(doc.plan))
        for command, reason in result.refused:
            doc.error.emit(f"{command.label}: not applied, {reason}")
        if result.applied:
            doc.join_steps(len(result.applied), _step_text(result.applied))  # one Fix, one undo step
            self.fixed.emit(_fixed_text(result.applied))
        return bool(result.applied)

    def fix_all(self) -> int:
        """Apply every remedy, re-evaluating after each: one undo step per fix; how many."""
        doc = self.doc
        result = fix_each(lambda: doc.report.findings, doc.apply, doc.undo, limit=fix_bound(doc.plan))
        for command, reason in result.refused:
            doc.error.emit(f"{command.label}: not applied, {reason}")
        if result.applied:
            self.fixed.emit(_fixed_text(result.applied))
        if result.stopped:
            doc.error.emit(f"Fix all stopped after {len(result.applied) + len(result.refused):,} remedies, the most "
                           "one run tries on this plan: press Fix all again")
        return len(result.applied)

    def _activated(self, index: QModelIndex) -> None:
        if index.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.findingActivated.emit(index.data(WHERE_ROLE))
            row = index.data(FINDING_ROLE)
            if row.count > 1:
                self.placesListed.emit(row)

    def messages(self, severity: str | None = None) -> list[str]:
        """The shown findings' texts, of one severity or all."""
        model = self.findings
        rows = (model.index(i) for i in range(model.rowCount()))
        return [i.data() for i in rows if i.data(SEVERITY_ROLE) and severity in (None, i.data(SEVERITY_ROLE))]


def _step_text(applied: list) -> str:
    """The undo step of a row's fixes: the one's label, or how many and the first."""
    if len(applied) == 1:
        return applied[0].label
    return f"Fix {fmt.counted(len(applied), 'finding')} (the first: {applied[0].label})"


def _fixed_text(applied: list) -> str:
    """The status bar's line for fixes applied: the one's label, or how many and the first."""
    if len(applied) == 1:
        return f"Fixed: {applied[0].label}"
    return f"Fixed {fmt.counted(len(applied), 'finding')}, the first: {applied[0].label}"
