"""Fabric comparison: the plan's workload on every fabric technology (the network
section's ``fabrics`` rows): gradient all-reduce time and GPU idle %, one horizontal bar
per technology, the plan's fabric highlighted."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics

from planner.report import palette
from ui.charts.base import ACCENT, MUTED, CategoryAxis, ChartView, UnitAxis, set_bars

BAR_H = 0.6
NO_TRAINING = "No training figures: set TP × PP × DP to the GPUs placed (Settings, Workload)"


class FabricComparisonChart(ChartView):
    title = "Fabric comparison"
    titles_below = 260  # the dock at 1280 x 800: the axes say what the bars are

    def __init__(self, parent=None):
        super().__init__(parent)
        self.axis_ms = CategoryAxis("left", min_px=16)
        self.axis_idle = CategoryAxis("left", min_px=16)
        self.plot_ms = self.add_plot(0, 0, bottom="All-reduce per step",
                                     axis_items={"left": self.axis_ms, "bottom": UnitAxis("bottom", "ms")}, title="All-reduce time")
        # the wait on communication alone (the summary's GPU idle adds the pipeline bubble)
        self.plot_idle = self.add_plot(0, 1, bottom="Share of the step",
                                       axis_items={"left": self.axis_idle, "bottom": UnitAxis("bottom", "%")},
                                       title="GPU idle on communication")
        self.plot_idle.getAxis("left").setStyle(showValues=False)
        self.plot_idle.setYLink(self.plot_ms)
        self.ci.layout.setColumnStretchFactor(0, 3)
        self.ci.layout.setColumnStretchFactor(1, 2)
        for plot in (self.plot_ms, self.plot_idle):
            plot.showGrid(x=True, y=False, alpha=0.15)
            plot.setMouseEnabled(x=False, y=False)
            plot.invertY(True)  # first technology at the top, as in the report
        self._brush_plan, self._brush_other = pg.mkBrush(ACCENT), pg.mkBrush(MUTED)
        self._pen = pg.mkPen(palette.CHART_BACKGROUND, width=0.5)
        empty = np.zeros(0)
        self.ms_bars = pg.BarGraphItem(x0=0, y=empty, width=empty, height=BAR_H, brush=self._brush_other)
        self.idle_bars = pg.BarGraphItem(x0=0, y=empty, width=empty, height=BAR_H, brush=self._brush_other)
        self.plot_ms.addItem(self.ms_bars)
        self.plot_idle.addItem(self.idle_bars)
        self.ms_labels: list[pg.TextItem] = []
        self.idle_labels: list[pg.TextItem] = []
        self.fabric_ids: list[str] = []
        self.highlighted: str | None = None
        self.message = self.empty_note
        self._values = None
        for plot in (self.plot_ms, self.plot_idle):
            plot.vb.sigResized.connect(self._plot_resized)

    def _label(self, plot, labels: list[pg.TextItem], i: int) -> pg.TextItem:
        while len(labels) <= i:
            item = pg.TextItem("", color=palette.CHART_INK, anchor=(0, 0.5))
            plot.addItem(item, ignoreBounds=True)
            labels.append(item)
        return labels[i]

    def update_report(self, report, changes=None) -> None:
        net = report.network
        rows = net.fabrics if net is not None else ()
        plan_fabric = net.fabric if net is not None else None
        n = len(rows)
        y = np.arange(n, dtype=float)
        ms = np.array([r.allreduce_ms for r in rows], dtype=float)
        idle = np.array([r.gpu_idle_pct for r in rows], dtype=float)
        brushes = [self._brush_plan if r.fabric == plan_fabric else self._brush_other for r in rows]
        set_bars(self.ms_bars, x0=np.zeros(n), y=y, width=ms, height=BAR_H, brushes=brushes, pens=[self._pen] * n)
        set_bars(self.idle_bars, x0=np.zeros(n), y=y, width=idle, height=BAR_H, brushes=brushes,
                               pens=[self._pen] * n)
        names = [r.title + ("  ◀ plan" if r.fabric == plan_fabric else "") for r in rows]
        self.axis_ms.set_names(names)
        self.axis_idle.set_names(names)
        for labels, plot, values, fmt in ((self.ms_labels, self.plot_ms, ms, "{:,.0f} ms"),
                                          (self.idle_labels, self.plot_idle, idle, "{:.1f}%")):
            for i in range(n):
                item = self._label(plot, labels, i)
                item.setText(fmt.format(values[i]))
                item.setPos(values[i], y[i])
                item.show()
            for item in labels[n:]:
                item.hide()
        self.fabric_ids = [r.fabric for r in rows]
        self.highlighted = plan_fabric if plan_fabric in self.fabric_ids else None
        self._show_value_labels()
        self._values = (ms, idle)
        self._fit_ranges()
        for plot in (self.plot_ms, self.plot_idle):
            plot.setYRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.set_empty(None if n else NO_TRAINING)

    def _fit_ranges(self) -> None:
        """Each plot's range 1.6 x its longest bar, and each figure after its bar's end, or
        inside it, right-aligned, where the plot's width has no room after it ("1,167 ms" ran
        off the plot of a 1280 x 800 window's Charts page)."""
        for plot, values, labels in ((self.plot_ms, self._values[0], self.ms_labels),
                                     (self.plot_idle, self._values[1], self.idle_labels)):
            span = (float(values.max(initial=0.0)) or 1.0) * 1.6
            plot.setXRange(0, span, padding=0)
            width = plot.vb.width()
            if width <= 0 or not labels:
                continue
            metrics = QFontMetrics(labels[0].textItem.font())
            for value, item, fabric in zip(values, labels, self.fabric_ids):
                inside = value / span * width + metrics.horizontalAdvance(item.toPlainText()) + 6 > width
                item.setAnchor((1.04, 0.5) if inside else (0, 0.5))
                # on the plan's blue bar in white, on a grey one in ink
                item.setColor(palette.PAPER if inside and fabric == self.highlighted else palette.CHART_INK)

    def _plot_resized(self, *_args) -> None:
        """A plot's new size: where its figures go and which show, again."""
        if self._values is not None:
            self._fit_ranges()
        self._show_value_labels()

    def _show_value_labels(self) -> None:
        """Every bar's figure where a bar's row is as tall as its text; else only the plan's
        fabric's (in the dock at 1280 x 800, 8 rows in about 100 px printed over each other)."""
        n = len(self.fabric_ids)
        if not n:
            return
        row_px = self.plot_ms.vb.height() / n
        every = row_px >= QFontMetrics(self.ms_labels[0].textItem.font()).height() if self.ms_labels else True
        for labels in (self.ms_labels, self.idle_labels):
            for i, item in enumerate(labels[:n]):
                item.setVisible(every or self.fabric_ids[i] == self.highlighted)
