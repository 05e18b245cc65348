"""Scaling: speedup against GPU count for the plan's workload and fabric (the network
section's ``scaling`` points), the ideal line (speedup = GPUs) and the plan's point, labelled
with its end-to-end MFU and the days to train the token budget (the workload section)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ui.charts import theme
from ui.charts.base import ACCENT, FOREGROUND, ChartView, UnitAxis, pen
from ui.charts.fabric_comparison import NO_TRAINING
from planner.report.palette import LOAD_HIGH
from planner.report import palette


LEFT_TITLE = {False: "Speedup over one GPU", True: "Speedup"}  # the short one fits a short plot


class ScalingChart(ChartView):
    title = "Scaling"
    compact_below = 240  # the plan's two-line label would run off a plot under the legend

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = self.add_plot(left=LEFT_TITLE[False], bottom="GPUs in the job",
                                  axis_items={"left": UnitAxis("left", "×"), "bottom": UnitAxis("bottom", "GPUs")})
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.legend = self.add_legend(self.plot, colCount=3)
        self.ideal = pg.PlotDataItem(pen=pen(palette.IDEAL, 1.5, Qt.PenStyle.DashLine))
        self.curve = pg.PlotDataItem(pen=pen(ACCENT, 2.5), symbol="o", symbolSize=7,
                                     symbolBrush=ACCENT, symbolPen=pg.mkPen(palette.CHART_BACKGROUND))
        self.plan_point = pg.ScatterPlotItem(size=15, symbol="star", brush=pg.mkBrush(LOAD_HIGH),
                                             pen=pg.mkPen(FOREGROUND, width=1))
        self.plan_point.setZValue(10)
        for item in (self.ideal, self.curve, self.plan_point):
            self.plot.addItem(item)
        self.legend.addItem(self.ideal, "Ideal (speedup = GPUs)")
        self.legend.addItem(self.curve, "Modelled speedup")
        self.legend.addItem(self.plan_point, "This plan")
        self.plan_label = pg.TextItem("", color=FOREGROUND, anchor=(-0.06, -0.1))  # right of and under the point, off the curves
        self.plot.addItem(self.plan_label, ignoreBounds=True)
        self.message = self.empty_note
        self._plan_lines: list[str] = []

    def lay_out(self, compact: bool) -> None:
        """Short and wide: the legend in one column right of the plot, the plan's figures in it
        (a label inside a short plot runs off it); else the legend in one row under the plot."""
        self.place_legend(self.legend, compact, 3)
        theme.set_axis_title(self.plot, "left", LEFT_TITLE[compact])
        self._show_plan_text()

    def _show_plan_text(self) -> None:
        self.show_plan_text(self.plan_label, self.legend, self.plan_point, self._plan_lines)

    def update_report(self, report, changes=None) -> None:
        net = report.network
        points = net.scaling if net is not None else ()
        gpus = np.array([p.gpus for p in points], dtype=float)
        speedup = np.array([p.speedup for p in points], dtype=float)
        self.ideal.setData(gpus, gpus)
        self.curve.setData(gpus, speedup)
        plan = [p for p in points if p.plan]
        if plan:
            p = plan[0]
            self.plan_point.setData(x=[p.gpus], y=[p.speedup])
            lines = [f"This plan: {p.gpus:,} GPUs, {p.speedup:,.1f}× ({100 * p.efficiency:.1f}% of ideal)"]
            work = report.workload
            if work is not None and work.mfu is not None:
                lines.append(f"MFU {100 * work.mfu:.1f}% end to end")
                if work.time_to_train_days is not None:
                    lines.append(f"{work.time_to_train_days:,.0f} days to train {work.train_tokens_b / 1000:,.3g}T "
                                 "tokens if nothing failed")  # the summary strip's count them (Goodput)
            self.plan_label.setText("\n".join(lines))  # a figure a line: one line of all ran off a narrow plot
            self.plan_label.setPos(p.gpus, p.speedup)
            self._plan_lines = lines
        else:
            self.plan_point.setData(x=[], y=[])
            self._plan_lines = []
        self._show_plan_text()
        self.plot.enableAutoRange()
        self.set_empty(None if points else NO_TRAINING)

    def plan_point_xy(self) -> tuple[float, float] | None:
        x, y = self.plan_point.getData()
        return (float(x[0]), float(y[0])) if len(x) else None
