"""The one look of every chart (the dock's, the Charts page's, the sweep's and compare's):
fonts, colours from ``planner.report.palette``, the grid, and number formats on the ticks.

``ChartView.add_plot`` and ``add_legend`` apply it; a new chart gets it by building its plots
with them. Axis classes here put the unit in every tick label ("20 kW", "$1.5M", "40 ms")."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetrics

from planner.report import palette

BACKGROUND = palette.CHART_BACKGROUND
FOREGROUND = palette.CHART_INK
GRID_ALPHA = 0.15
MUTED = palette.MUTED    # bars that are not the plan's choice
ACCENT = palette.ACCENT  # the plan's choice: the GPU-server blue
SERIES_COLORS = palette.SERIES_COLORS  # one colour per series; build in the accent
FONT_PT = 9       # tick labels, legends, value labels
TITLE_PT = 10     # plot titles and axis titles


def tick_font() -> QFont:
    font = QFont()
    font.setPointSize(FONT_PT)
    return font


def style_axis(axis: pg.AxisItem) -> None:
    axis.setPen(pg.mkPen(FOREGROUND))
    axis.setTextPen(pg.mkPen(FOREGROUND))
    # room between a tick label and the axis title, so the two never touch
    axis.setStyle(tickFont=tick_font(), tickTextOffset=4, autoExpandTextSpace=True, autoReduceTextSpace=False)


def set_title(plot: pg.PlotItem, text: str, color: str = FOREGROUND) -> None:
    plot.setTitle(text, color=color, size=f"{TITLE_PT}pt")


def set_axis_title(plot: pg.PlotItem, side: str, text: str) -> None:
    plot.setLabel(side, text, color=FOREGROUND, **{"font-size": f"{TITLE_PT}pt"})


def legend(**kw) -> pg.LegendItem:
    item = pg.LegendItem(offset=None, labelTextColor=FOREGROUND, labelTextSize=f"{FONT_PT}pt", **kw)
    return item


class UnitAxis(pg.AxisItem):
    """Numbers with their unit on every tick ("20 kW", "45 %", "1,024 GPUs")."""

    def __init__(self, orientation: str, unit: str, **kw):
        super().__init__(orientation, **kw)
        self.unit = unit
        self.enableAutoSIPrefix(False)  # the ticks give the figures whole: no "(x1e+09)" in the title

    def tickStrings(self, values, scale, spacing):
        digits = 0 if spacing >= 1 or spacing <= 0 else min(3, -math.floor(math.log10(spacing)))
        return [f"{v:,.{digits}f} {self.unit}".rstrip() for v in values]

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph API)
        """pyqtgraph's spacing, widened on a horizontal axis until its labels, each with its unit,
        do not run into each other ("500 ms 1,000 ms 1,500 ms" on a 150 px plot did)."""
        levels = super().tickSpacing(minVal, maxVal, size)
        if self.orientation not in ("bottom", "top") or not levels or maxVal <= minVal or size <= 0:
            return levels
        font = self.style.get("tickFont") or QFont()
        widest = QFontMetrics(font).horizontalAdvance(f"{max(abs(minVal), abs(maxVal)):,.0f} {self.unit}")
        most = max(1, int(size / (widest + 16)))  # labels a gap apart
        major = levels[0][0]
        if (maxVal - minVal) / major <= most:
            return levels
        while (maxVal - minVal) / major > most:
            major = _next_nice(major)
        return [(major, 0.0), (major / 2, 0.0)]


def _next_nice(step: float) -> float:
    """The next tick step of the 1, 2, 5 series above ``step``."""
    magnitude = 10 ** math.floor(math.log10(step))
    first = step / magnitude
    return (2 if first < 1.5 else 5 if first < 3.5 else 10) * magnitude


class DollarAxis(pg.AxisItem):
    """US dollars with a k/M/B suffix ($1.5M), keeping the plotted data in dollars."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.enableAutoSIPrefix(False)  # the ticks carry the suffix: no "(x1e+09)" in the title

    def tickStrings(self, values, scale, spacing):
        return [dollars(v, spacing) for v in values]


def dollars(v: float, spacing: float = 0.0) -> str:
    a = abs(v)
    for div, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if a >= div or spacing >= div:
            digits = 0 if spacing >= div or spacing == 0 else max(0, -math.floor(math.log10(spacing / div)))
            return f"${v / div:,.{min(digits, 2)}f}{suffix}"
    return f"${v:,.0f}"
