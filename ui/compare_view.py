"""The Compare view: variants of the plan (and other plan files) side by side.

Totals of each side and each one's difference from the first, the bill of materials' lines
added, removed and changed, the findings gained and lost, and the cumulative cost curves
overlaid. Every figure and every better/worse verdict comes from ``planner.report.compare``;
green is better and red worse, by each figure's own direction, and the word says it too;
and the settings each side holds differently.

Why it is long: one dialog of five tabs (totals, bill of materials, findings, settings, cost
curves), each a table filled from the one comparison.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QHBoxLayout, QHeaderView, QLabel,
                               QListWidget, QListWidgetItem, QPushButton, QTableWidget, QTableWidgetItem,
                               QTabWidget, QVBoxLayout)

from planner.errors import PlannerError
from planner.plan.fileio import open_plan
from planner.plan.variants import resolve_variant
from planner.report import palette
from planner.report.compare import (METRIC, METRICS, NOT_COMPARABLE, Comparison, compare_plans, finding_verdict,
                                    finding_verdicts, grouped_differences, verdict)
from planner.vocabulary import setting_text
from ui.fmt import count, difference_text, value_text
from ui.charts.base import ChartView, DollarAxis, UnitAxis
from ui import file_dialogs

FILLS = {k: QColor(v) for k, v in palette.VERDICT_FILLS.items()}


def _item(text: str, verdict_: str | None = None, *, tip: str = "", bold: bool = False,
          align=Qt.AlignmentFlag.AlignRight) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    item.setTextAlignment(align | Qt.AlignmentFlag.AlignVCenter)
    if verdict_ in FILLS:
        item.setBackground(QBrush(FILLS[verdict_]))
        item.setForeground(QBrush(QColor(palette.INK)))
        bold = True
    if bold:
        font = QFont()
        font.setBold(True)
        item.setFont(font)
    if tip:
        item.setToolTip(tip)
    return item


COUNTED = (("error", "Errors"), ("warning", "Warnings"))  # the Totals tab's first rows


class CostCurves(ChartView):
    """The sides' cumulative cost of building (capex, then opex month by month), overlaid."""

    title = "Cumulative cost"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = self.add_plot(left="Cumulative cost of building", bottom="Months from start",
                                  axis_items={"left": DollarAxis("left"), "bottom": UnitAxis("bottom", "mo")})
        self.legend = self.add_legend(self.plot)

    def show_comparison(self, c: Comparison) -> None:
        self.plot.clear()
        self.legend.clear()
        for i, side in enumerate(c.sides):
            curves = (side.report.get("cost") or {}).get("curves") or {}
            months, build = curves.get("months"), curves.get("build")
            if months and build:
                color = palette.SERIES_COLORS[i % len(palette.SERIES_COLORS)]
                line = self.plot.plot(months, build, pen={"color": color, "width": 2.5})
                self.legend.addItem(line, side.name)

    def update_report(self, report, changes=None) -> None:  # the view feeds it comparisons
        pass


class CompareDialog(QDialog):
    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Compare")
        self.setObjectName("CompareDialog")
        self.doc = doc
        self.files: dict[str, Path] = {}
        self.comparison: Comparison | None = None
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel("Sides (tick two or more; the first ticked is the reference):"))
        self.sides = QListWidget()
        self.sides.setFlow(QListWidget.Flow.LeftToRight)
        self.sides.setMaximumHeight(self.fontMetrics().height() * 3)
        self.sides.itemChanged.connect(lambda _item: self.refresh())
        top.addWidget(self.sides, 1)
        add_file = QPushButton("Add plan file…")
        add_file.clicked.connect(self.add_file_dialog)
        top.addWidget(add_file)
        layout.addLayout(top)
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout.addWidget(self.note)
        self.tabs = QTabWidget()
        self.totals = self._table()
        self.bom = self._table()
        self.findings = self._table()
        self.settings = self._table()
        self.chart = CostCurves()
        self.tabs.addTab(self.totals, "Totals")
        self.tabs.addTab(self.bom, "Bill of materials")
        self.tabs.addTab(self.findings, "Findings")
        self.tabs.addTab(self.settings, "Settings")
        self.tabs.addTab(self.chart, "Cost curves")
        layout.addWidget(self.tabs, 1)
        legend = QLabel("Differences are each side minus the reference. <span style='background:%s'>&nbsp;Green: "
                        "better&nbsp;</span> <span style='background:%s'>&nbsp;Red: worse&nbsp;</span> by each "
                        "figure's direction (less cost, power, space and time is better; more throughput is better; "
                        "GPUs are neither). Hover a difference for why." % (palette.VERDICT_FILLS["better"],
                                                                          palette.VERDICT_FILLS["worse"]))
        legend.setWordWrap(True)
        layout.addWidget(legend)
        self._timer = QTimer(self, singleShot=True, interval=300)
        self._timer.timeout.connect(self.refresh)
        doc.changed.connect(lambda *_: self.isVisible() and self._timer.start())
        self.resize(1100, 620)
        self.fill_sides()
        self.refresh()

    def _show_counts(self, c: Comparison) -> None:
        """The first rows: each side's errors and warnings (the Findings tab lists them), fewer
        being better (``finding_verdicts``)."""
        t, counts = self.totals, [s.finding_counts for s in c.sides]
        verdicts = [finding_verdicts(counts[0], n) for n in counts[1:]]
        for r, (severity, label) in enumerate(COUNTED):
            t.setItem(r, 0, _item(label, tip="The Findings tab lists them", align=Qt.AlignmentFlag.AlignLeft))
            for i, n in enumerate(counts):
                t.setItem(r, 1 + i, _item(count(n[severity])))
            for j in range(len(c.differences)):  # each side after the reference, against it
                n = counts[j + 1][severity] - counts[0][severity]
                v, why = verdicts[j][severity]
                text = "no change" if n == 0 else f"{difference_text(n, '')}  {v}" if v else difference_text(n, '')
                t.setItem(r, 1 + len(c.sides) + j, _item(text, v, tip=why))

    @staticmethod
    def _table() -> QTableWidget:
        t = QTableWidget()
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setAlternatingRowColors(False)
        t.verticalHeader().setVisible(False)
        return t

    # -- the sides -----------------------------------------------------------------------
    def fill_sides(self) -> None:
        self.sides.blockSignals(True)
        self.sides.clear()
        plan = self.doc.plan
        for name in plan.variant_names:
            self._add_side(name, checked=True)
        self.sides.blockSignals(False)

    def _add_side(self, name: str, checked: bool, file: Path | None = None) -> None:
        item = QListWidgetItem(name)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        item.setData(Qt.ItemDataRole.UserRole, str(file) if file else None)
        self.sides.addItem(item)

    def add_file(self, path: str | Path) -> bool:
        path = Path(path)
        try:
            open_plan(path, self.doc.catalog)
        except PlannerError as exc:
            self.note.setText(str(exc))
            return False
        self._add_side(path.name, checked=True, file=path)
        return True

    def add_file_dialog(self) -> None:
        path, _ = file_dialogs.open_file_name(self, "Add a plan file to the comparison", "", "Plans (*.json)")
        if path:
            self.add_file(path)

    def set_checked(self, names: list[str]) -> None:
        self.sides.blockSignals(True)
        for i in range(self.sides.count()):
            item = self.sides.item(i)
            item.setCheckState(Qt.CheckState.Checked if item.text() in names else Qt.CheckState.Unchecked)
        self.sides.blockSignals(False)
        self.refresh()

    def _chosen(self):
        out = []
        for i in range(self.sides.count()):
            item = self.sides.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.append((item.text(), item.data(Qt.ItemDataRole.UserRole)))
        return out

    # -- showing ------------------------------------------------------------------------
    def refresh(self) -> None:
        chosen = self._chosen()
        if len(chosen) < 2:
            self.note.setText("Tick two sides or more to compare them (New variant from current in the Variants "
                              "menu makes another variant; Add plan file… brings in another plan).")
            self.comparison = None
            for t in (self.totals, self.bom, self.findings, self.settings):
                t.setRowCount(0)
            self.tabs.setTabText(self.tabs.indexOf(self.settings), "Settings")
            return
        try:
            plans = [open_plan(f, self.doc.catalog) if f else resolve_variant(self.doc.plan, name)
                     for name, f in chosen]
            self.comparison = compare_plans([n for n, _ in chosen], plans, self.doc.catalog)
        except PlannerError as exc:
            self.note.setText(str(exc))
            return
        c = self.comparison
        notes = [f"{d.side}: training throughput and time to train are not comparable: {why}."
                 for d in c.differences for why in dict.fromkeys(d.notes.values())]
        self.note.setText("\n".join([f"Reference: {c.sides[0].name}. Power is read on its {c.basis} basis on "
                                      "every side."] + notes))
        self._show_totals(self.comparison)
        self._show_bom(self.comparison)
        self._show_findings(self.comparison)
        self._show_settings(self.comparison)
        self.chart.show_comparison(self.comparison)

    def _show_totals(self, c: Comparison) -> None:
        metrics = [m for m in METRICS if any(c.totals(s)[m.key] is not None for s in c.sides)]
        t = self.totals
        heads = ["Figure"] + [s.name for s in c.sides] + [f"{d.side} − {d.against}" for d in c.differences]
        self._reset(t, heads, len(metrics) + len(COUNTED))
        self._show_counts(c)
        for r, m in enumerate(metrics, start=len(COUNTED)):
            label = f"{m.label} ({c.basis})" if m.on_basis else m.label  # power like with like: one basis
            t.setItem(r, 0, _item(label, tip=f"check --json: {'.'.join(m.path_on(c.basis))}",
                                  align=Qt.AlignmentFlag.AlignLeft))
            for i, s in enumerate(c.sides):
                value = c.totals(s)[m.key]
                words = c.none_texts(s).get(m.key) if value is None else None  # "not within 36 months"
                t.setItem(r, 1 + i, _item(words or value_text(value, m.unit)))
            for j, d in enumerate(c.differences):
                v = d.verdicts[m.key]
                if v == NOT_COMPARABLE:
                    t.setItem(r, 1 + len(c.sides) + j, _item(NOT_COMPARABLE, tip=f"Not comparable: {d.notes[m.key]}."))
                    continue
                shown = difference_text(d.totals[m.key], m.unit)
                if shown == "no change":  # the compact text shows none ($0.30 as $0): no colour either
                    v = "same"
                text = shown + (f"  {v}" if v in FILLS else "")
                direction = {"lower": "lower is better", "higher": "higher is better"}.get(m.better or "",
                                                                                          "neither way is better")
                t.setItem(r, 1 + len(c.sides) + j, _item(text, v, tip=f"{m.label}: {direction}. {m.why}."))
        self._fit(t)

    def _show_bom(self, c: Comparison) -> None:
        t = self.bom
        rows = [(d, b) for d in c.differences for b in d.bom]
        heads = ["Against", "Change", "Category", "Item", "Quantity", "Cost difference"]
        self._reset(t, heads, len(rows) + len(c.differences))
        r = 0
        capex = METRIC["capex_usd"]
        for d in c.differences:
            for b in d.bom:
                left = Qt.AlignmentFlag.AlignLeft
                t.setItem(r, 0, _item(f"{d.side} − {d.against}", align=left))
                t.setItem(r, 1, _item(b.change, align=left))
                t.setItem(r, 2, _item(b.category, align=left))
                t.setItem(r, 3, _item(b.item, align=left))
                qty = f"{b.quantity_a:,} → {b.quantity_b:,} ({b.quantity_difference:+,})"
                t.setItem(r, 4, _item(qty))
                v = verdict(capex, b.cost_difference_usd)
                t.setItem(r, 5, _item(difference_text(b.cost_difference_usd, "$"), v))
                r += 1
            total = sum(b.cost_difference_usd for b in d.bom)
            t.setItem(r, 3, _item(f"Total ({d.side} − {d.against}): the capex difference", bold=True))
            t.setItem(r, 5, _item(difference_text(total, "$"), verdict(capex, total)))
            r += 1
        self._fit(t, stretch=3)

    def _show_findings(self, c: Comparison) -> None:
        t = self.findings
        rows = [(d, word, f) for d in c.differences
                for word, found in (("gained", d.findings_gained), ("lost", d.findings_lost))
                for f in grouped_differences(found)]
        heads = ["Against", "", "Severity", "Check", "Message"]
        self._reset(t, heads, len(rows))
        left = Qt.AlignmentFlag.AlignLeft
        for r, (d, word, f) in enumerate(rows):
            v = finding_verdict(f.severity, word == "gained")
            t.setItem(r, 0, _item(f"{d.side} − {d.against}", align=left))
            t.setItem(r, 1, _item(word + (f" ×{f.count}" if f.count > 1 else ""), v, align=left))
            t.setItem(r, 2, _item(f.severity, align=left))
            t.setItem(r, 3, _item(f.code, align=left))
            t.setItem(r, 4, _item(f.message, align=left, tip=f.message))
        self._fit(t, stretch=4)

    def _show_settings(self, c: Comparison) -> None:
        """Each setting a side holds differently from the reference: what changed between them."""
        t = self.settings
        rows = [(d, s) for d in c.differences for s in d.settings]
        heads = ["Against", "Setting", "Section", "Reference", "This side"]
        self._reset(t, heads, len(rows))
        left = Qt.AlignmentFlag.AlignLeft
        for r, (d, s) in enumerate(rows):
            t.setItem(r, 0, _item(f"{d.side} − {d.against}", align=left))
            t.setItem(r, 1, _item(s.title, align=left, tip=f"{s.section}.{s.name}"))
            t.setItem(r, 2, _item(s.section, align=left))
            t.setItem(r, 3, _item(setting_text(s.first, s.unit), align=left))
            t.setItem(r, 4, _item(setting_text(s.side, s.unit), align=left))
        self.tabs.setTabText(self.tabs.indexOf(t), f"Settings ({len(rows)})" if rows else "Settings")
        self._fit(t, stretch=1)

    @staticmethod
    def _reset(t: QTableWidget, heads: list[str], rows: int) -> None:
        """An empty table of these column titles and ``rows`` rows."""
        t.clear()
        t.setColumnCount(len(heads))
        t.setHorizontalHeaderLabels(heads)
        t.setRowCount(rows)

    @staticmethod
    def _fit(t: QTableWidget, stretch: int | None = None) -> None:
        t.resizeColumnsToContents()
        if stretch is not None:
            t.horizontalHeader().setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
