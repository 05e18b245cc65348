"""Goodput: the effective training time ratio (ETTR) and the goodput against the job's size,
from one node to four times the plan's (the goodput section's ``curve``), this plan marked,
and the checkpoint interval on a second axis."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetrics

from planner.goodput.findings import duration_text
from planner.settings.reliability import RESTART_PATHS
from planner.report import palette
from planner.report.palette import LOAD_HIGH
from ui.charts import theme
from ui.charts.base import ACCENT, FOREGROUND, ChartView, pen, wrap_to_plot

NO_GOODPUT = ("No goodput figures: the plan needs a training job, GPU nodes and a parallel filesystem\n"
              "to checkpoint to")
NO_TRAINING = "No goodput in tokens/s: no training throughput (set TP x PP x DP to the GPUs placed)"


PLOT_GAP = 20  # px between the two plots side by side
LEFT_TITLE = {False: "Goodput (tokens/s)", True: "Tokens/s"}  # the short one fits a short plot
# ETTR on each restart path, thin and dotted under the plan's own
PATH_COLORS = {"cold": palette.LOAD_OVER, "warm": palette.SERIES_COLORS[1], "replica": palette.SERIES_COLORS[2]}


class GoodputChart(ChartView):
    title = "Goodput"
    compact_below = 400  # stacked, each plot is as tall as its interval axis' title from here

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = self.add_plot(left="ETTR (%)", bottom="GPUs in the job (log scale)")
        self.plot.setLogMode(x=True, y=False)
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.ettr = pg.PlotDataItem(pen=pen(ACCENT, 2.5), symbol="o", symbolSize=6, symbolBrush=ACCENT)
        self.plan_point = pg.ScatterPlotItem(size=15, symbol="star", brush=pg.mkBrush(LOAD_HIGH),
                                             pen=pg.mkPen(FOREGROUND, width=1))
        self.plan_point.setZValue(10)
        self.paths = {p: pg.PlotDataItem(pen=pen(PATH_COLORS[p], 1.3, Qt.PenStyle.DotLine)) for p in RESTART_PATHS}
        for item in self.paths.values():
            self.plot.addItem(item)
        self.plot.addItem(self.ettr)
        self.plot.addItem(self.plan_point)
        # the checkpoint interval on the right axis, in a view box sharing the x axis
        self.interval_view = pg.ViewBox()
        self.plot.showAxis("right")
        self.plot.scene().addItem(self.interval_view)
        right = self.plot.getAxis("right")
        right.linkToView(self.interval_view)
        right.setLabel("Interval (min)", color=FOREGROUND)  # the legend names it in full
        self.interval_view.setXLink(self.plot)
        self.interval = pg.PlotDataItem(pen=pen(palette.IDEAL, 1.5, Qt.PenStyle.DashLine))
        self.interval_view.addItem(self.interval)
        self.plot.vb.sigResized.connect(self._fit_interval_view)
        # below left of the star, on the chart's white so a curve passing under it stays readable
        self.plan_label = pg.TextItem("", color=FOREGROUND, anchor=(1.02, -0.3),
                                      fill=pg.mkBrush(QColor(palette.CHART_BACKGROUND)))
        self.plot.addItem(self.plan_label, ignoreBounds=True)
        self.ci.nextRow()
        self.goodput_plot = self.add_plot(row=1, left=LEFT_TITLE[False], bottom="GPUs in the job (log scale)")
        self.goodput_plot.setLogMode(x=True, y=True)
        self.goodput_plot.setXLink(self.plot)
        self.goodput_plot.showAxis("right")  # blank, so both plots put a size at the same x
        self.goodput_plot.getAxis("right").setStyle(showValues=False)
        for plot in (self.plot, self.goodput_plot):
            plot.getAxis("right").setWidth(64)
        self.goodput = pg.PlotDataItem(pen=pen(ACCENT, 2.5), symbol="o", symbolSize=6, symbolBrush=ACCENT)
        self.goodput_plan = pg.ScatterPlotItem(size=15, symbol="star", brush=pg.mkBrush(LOAD_HIGH),
                                               pen=pg.mkPen(FOREGROUND, width=1))
        self.goodput_plot.addItem(self.goodput)
        self.goodput_plot.addItem(self.goodput_plan)
        self.legend = self.add_legend(self.plot)
        self.legend.addItem(self.ettr, "ETTR")
        # one entry for the three dotted lines, so the legend fits a short dock; each path's
        # word in its line's colour (one swatch cannot show three)
        words = " / ".join(f'<span style="color: {PATH_COLORS[k]}">{k}</span>' for k in ("cold", "warm", "replica"))
        self.legend.addItem(self.paths["cold"], f"ETTR if {words} (dotted)")
        self.legend.addItem(self.interval, "Checkpoint interval (right axis)")
        self.legend.addItem(self.plan_point, "This plan")
        self.message = self.message_item(self.plot)
        self.goodput_message = self.message_item(self.goodput_plot)
        self._plan_lines: list[str] = []
        self._spacing = self.ci.layout.horizontalSpacing()
        self._plan_high = True  # the plan's point in the top half: its label goes below it
        self._sizes: list[int] = []  # the job sizes the curve has, whose labels _fit_ticks spaces
        self.plot.vb.sigResized.connect(self._fit_ticks)
        for changed in (self.plot.vb.sigResized, self.plot.vb.sigRangeChanged):  # the point moves in pixels
            changed.connect(self._place_plan_label)

    def lay_out(self, compact: bool) -> None:
        """Short and wide: the two plots side by side and the legend right of them, the plan's
        figures in it (a label inside a short plot runs off it); else stacked over the legend."""
        if compact:
            self.place(self.goodput_plot, 0, 1)
            self.place(self.legend, 0, 2)
            self.set_stretch({0: 1}, {0: 1, 1: 1})
        else:
            self.place(self.goodput_plot, 1, 0)
            self.place(self.legend, 2, 0)
            self.set_stretch({0: 1, 1: 1}, {0: 1})
        # stacked, a blank right axis puts both plots' sizes at the same x; side by side it is room lost
        self.goodput_plot.showAxis("right", not compact)
        # side by side, the interval's axis title and the goodput's face each other: a gap between them
        self.ci.layout.setHorizontalSpacing(PLOT_GAP if compact else self._spacing)
        theme.set_axis_title(self.goodput_plot, "left", LEFT_TITLE[compact])
        self._show_plan_text()

    def _place_plan_label(self) -> None:
        """The plan's label above its point (below it when the point is high), left of it where
        there is room, else right of it, else as far in as the plot allows: a plan among the
        smallest sizes ran its label off the plot's left edge."""
        label, vb = self.plan_label, self.plot.vb
        wrap_to_plot(label, self.plot)
        width, box = label.boundingRect().width(), vb.sceneBoundingRect()
        if width <= 0 or box.width() <= 0:
            return
        at = vb.mapViewToScene(label.pos()).x() - box.left()  # the point, in pixels from the plot's left
        if 1.02 * width <= at:
            x = 1.02
        elif at + 1.02 * width <= box.width():
            x = -0.02
        else:  # wider than either side: shifted to stay within the plot where it can
            x = min(at / width, max(0.0, (at + width - box.width()) / width))
        label.setAnchor((x, -0.3) if self._plan_high else (x, 1.3))

    def _show_plan_text(self) -> None:
        self.show_plan_text(self.plan_label, self.legend, self.plan_point, self._plan_lines)

    def _fit_ticks(self) -> None:
        """Every step-th doubling size from the smallest labelled, the step the smallest whose
        labels stand apart at the plot's width (they ran together as "4,60836,86494,912" in a
        narrow dock, and "64128256512" before that), and six labels at most."""
        sizes = self._sizes
        if not sizes:
            for plot in (self.plot, self.goodput_plot):
                plot.getAxis("bottom").setTicks(None)
            return
        first = sizes[0]
        axis = self.plot.getAxis("bottom")
        label_px = QFontMetrics(axis.style.get("tickFont") or axis.font()).horizontalAdvance(f"{sizes[-1]:,}") + 14
        decades = max(np.log10(sizes[-1] / first), 0.3) + 0.2  # the auto range's margins
        per_decade = max(1.0, self.plot.vb.width()) / decades
        step = max(1, -(-len(sizes) // 6))
        while step < len(sizes) and step * np.log10(2) * per_decade < label_px:
            step += 1
        ticks = [[(float(np.log10(n)), f"{n:,}") for n in sizes if round(np.log2(n / first)) % step == 0]]
        for plot in (self.plot, self.goodput_plot):
            plot.getAxis("bottom").setTicks(ticks)

    def _fit_interval_view(self) -> None:
        self.interval_view.setGeometry(self.plot.vb.sceneBoundingRect())
        self.interval_view.linkedViewChanged(self.plot.vb, self.interval_view.XAxis)

    def update_report(self, report, changes=None) -> None:
        g = report.sections.get("goodput")
        points = g.curve if g is not None else ()
        gpus = np.array([p.gpus for p in points], dtype=float)
        ettr = np.array([100 * p.ettr for p in points], dtype=float)
        interval = np.array([np.nan if p.checkpoint_interval_min is None else p.checkpoint_interval_min
                             for p in points], dtype=float)
        self.ettr.setData(gpus, ettr)
        for path, item in self.paths.items():
            item.setData(gpus, np.array([100 * p.ettr_by_path.get(path, np.nan) for p in points], dtype=float))
        # the view box of the right axis does not follow the plot's log mode: log10 of the GPUs
        self.interval.setData(np.log10(gpus) if len(gpus) else gpus, interval)
        # a log axis has no zero: sizes where nothing is trained are left out
        shown = [(p.gpus, p.goodput_tokens_per_s) for p in points if p.goodput_tokens_per_s]
        self.goodput.setData([x for x, _ in shown], [t for _, t in shown])
        tokens = [t for _, t in shown]
        plan = [p for p in points if p.plan]
        if plan:
            p = plan[0]
            self.plan_point.setData(x=[np.log10(p.gpus)], y=[100 * p.ettr])
            ok = p.goodput_tokens_per_s is not None and p.goodput_tokens_per_s > 0
            self.goodput_plan.setData(x=[np.log10(p.gpus)] if ok else [],
                                      y=[np.log10(p.goodput_tokens_per_s)] if ok else [])
            lines = [f"This plan: {p.gpus:,} GPUs"]
            if g.mtbf_h:
                lines += [f"ETTR {100 * p.ettr:.1f}%", f"an interruption every {duration_text(g.mtbf_h * 3600)}"]
            self.plan_label.setText(", ".join(lines))
            self.plan_label.setPos(np.log10(p.gpus), 100 * p.ettr)
            self._plan_high = p.ettr > 0.5
            self._place_plan_label()
            self._plan_lines = lines
        else:
            self.plan_point.setData(x=[], y=[])
            self.goodput_plan.setData(x=[], y=[])
            self._plan_lines = []
        self._show_plan_text()
        # ticks at the sizes plotted and at the powers of ten of goodput (log axes' own minor
        # labels run into each other)
        # the doubling sizes (the plan's own among them where it is one, 128 on a run from 8;
        # else it is the star, and its label gives the size)
        first = points[0].gpus if points else 1  # the smallest: a doubling, plan or not
        self._sizes = [p.gpus for p in points if not p.plan or len(points) == 1
                       or float(np.log2(p.gpus / first)).is_integer()]
        self._fit_ticks()
        finite = tokens
        if finite:
            decades = range(int(np.floor(np.log10(min(finite)))), int(np.ceil(np.log10(max(finite)))) + 1)
            self.goodput_plot.getAxis("left").setTicks([[(float(d), _si(10.0 ** d)) for d in decades]])
        self.plot.enableAutoRange()
        self.goodput_plot.enableAutoRange()
        self.interval_view.enableAutoRange()
        self._fit_interval_view()
        self.show_message(self.plot, self.message, None if points else NO_GOODPUT)
        # the ETTR holds without a training job's throughput; goodput in tokens/s does not
        if shown or not points:
            self.show_message(self.goodput_plot, self.goodput_message, None)
        else:  # centred under the sizes plotted above (an empty log plot has no range of its own)
            self.goodput_plot.setYRange(0, 1, padding=0)
            self.show_message(self.goodput_plot, self.goodput_message, NO_TRAINING)
            x = np.log10(gpus)
            self.goodput_message.setPos((x.min() + x.max()) / 2, 0.5)
            wrap_to_plot(self.goodput_message, self.goodput_plot)  # at its place


def _si(value: float) -> str:
    """10,000 -> '10k', 1e6 -> '1M': the goodput axis' decades."""
    for div, name in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= div:
            return f"{value / div:g}{name}"
    return f"{value:g}"
