"""Build vs rent: cumulative cost over the horizon of building (capex + opex) and of each
rental option, from the cost section's ``curves``; each break-even is a marker at the
report's month and money, labelled with the month."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from planner.settings.costs import RENTAL_OPTIONS
from planner.report import palette
from ui.charts import theme
from ui.charts.base import FOREGROUND, SERIES_COLORS, ChartView, DollarAxis, UnitAxis, pen

BUILD = "build"
LEFT_TITLE = {False: "Cumulative cost", True: "Cost"}  # the short one fits a short plot


class BuildVsRentChart(ChartView):
    title = "Build vs rent"
    compact_below = 260  # the legend's three rows under the plot would leave it a strip

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plot = self.add_plot(left=LEFT_TITLE[False], bottom="Months from start",
                                  axis_items={"left": DollarAxis("left"), "bottom": UnitAxis("bottom", "mo")})
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.legend = self.add_legend(self.plot, colCount=2)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.labels: dict[str, pg.TextItem] = {}
        self.break_even = pg.ScatterPlotItem(size=11, symbol="o", pen=pg.mkPen(FOREGROUND, width=1.5),
                                             brush=pg.mkBrush(palette.CHART_BACKGROUND))
        self.break_even.setZValue(20)
        self.plot.addItem(self.break_even)
        self.legend.addItem(self.break_even, "Break-even")
        self.break_even_options: list[str] = []
        self.message = self.empty_note
        self._horizon = None

    def lay_out(self, compact: bool) -> None:
        """Short and wide: the legend in one column right of the plot; else two columns under it."""
        self.place_legend(self.legend, compact, 2)
        theme.set_axis_title(self.plot, "left", LEFT_TITLE[compact])
        self.plot.getAxis("bottom").showLabel(not compact)  # short: its ticks say "mo", the legend needs the height

    def _curve(self, name: str) -> pg.PlotDataItem:
        """The line for one series, made once and reused for every later report."""
        item = self.curves.get(name)
        if item is None:
            color = SERIES_COLORS[len(self.curves) % len(SERIES_COLORS)]
            width = 3 if name == BUILD else 2
            style = Qt.PenStyle.SolidLine if name == BUILD else Qt.PenStyle.DashLine
            # No dynamic-range clipping: a few dozen points, and getData() stays the report's.
            item = pg.PlotDataItem(pen=pen(color, width, style), dynamicRangeLimit=None)
            self.plot.addItem(item)
            self.legend.addItem(item, self._legend_text(name, None))
            self.curves[name] = item
            label = pg.TextItem("", color=color)
            label.setZValue(21)
            self.plot.addItem(label, ignoreBounds=True)
            self.labels[name] = label
        return item

    @staticmethod
    def _legend_text(name: str, month: float | None) -> str:
        if name == BUILD:
            return "Build (capex + opex)"
        title = f"Rent: {RENTAL_OPTIONS.get(name, name)}"
        return f"{title}, break-even at {month:.1f} months" if month is not None else title

    def update_report(self, report, changes=None) -> None:
        cost = report.cost
        curves = cost.curves if cost is not None else {}
        months = np.asarray(curves.get("months", []), dtype=float)
        names = [k for k in curves if k != "months"]
        for name in names:
            self._curve(name).setData(months, np.asarray(curves[name], dtype=float))
        for name, item in self.curves.items():
            if name not in curves:
                item.setData([], [])
        xs, ys, options = [], [], []
        be_months = cost.break_even_months if cost is not None else {}
        be_usd = cost.break_even_usd if cost is not None else {}
        for name, label in self.labels.items():
            m, usd = be_months.get(name), be_usd.get(name)
            if name != BUILD:
                self.legend.getLabel(self.curves[name]).setText(self._legend_text(name, m))
            if m is None or usd is None:
                label.hide()
                continue
            xs.append(m)
            ys.append(usd)
            options.append(name)
        # Month labels alternate above and below the build line so neighbours do not collide.
        for k, (m, usd, name) in enumerate(sorted(zip(xs, ys, options))):
            label = self.labels[name]
            label.setAnchor((0.5, 1.3) if k % 2 == 0 else (0.5, -0.3))
            label.setText(f"{m:.1f} mo")
            label.setPos(m, usd)
            label.show()
        self.break_even.setData(x=xs, y=ys)
        self.break_even_options = options
        if months.size and months[-1] != self._horizon:
            self._horizon = months[-1]
            self.plot.setLimits(xMin=0, xMax=months[-1], yMin=0)
        top = max((float(np.max(curves[n])) for n in names if len(curves[n])), default=0.0)
        if top > 0:  # the legend sits under the plot: only a margin above the highest line
            self.plot.enableAutoRange(axis="x")
            self.plot.setYRange(0, top * 1.08, padding=0)
        else:
            self.plot.enableAutoRange()
        self.set_empty(None if months.size else "No cost figures for this plan")

    def break_even_at(self, option: str) -> tuple[float, float] | None:
        """(month, US$) of ``option``'s break-even marker, or None when it has none."""
        if option not in self.break_even_options:
            return None
        x, y = self.break_even.getData()
        i = self.break_even_options.index(option)
        return float(x[i]), float(y[i])
