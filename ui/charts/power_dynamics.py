"""Power dynamics: the IT load over a few training steps and across an interruption, unsmoothed
beside the load the grid sees under the plan's smoothing, with the swing limit drawn above
the smoothed trough (the power dynamics section's ``trace``)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from planner.report import palette
from planner.report.palette import ACCENT, LOAD_OVER
from planner.vocabulary import choice_title
from ui import fmt
from ui.charts.base import ChartView, UnitAxis, pen, set_columns

NO_STEP = "No power dynamics: the plan needs GPU nodes and a training step (TP x PP x DP = the GPUs placed)"


class PowerDynamicsChart(ChartView):
    title = "Power dynamics"
    compact_below = 320  # the legend right of the plot from here

    def __init__(self, parent=None):
        super().__init__(parent)
        self.load_axis = UnitAxis("left", "MW")
        self.load_axis.enableAutoSIPrefix(False)  # the unit is on every tick
        self.plot = self.add_plot(left="IT load", bottom="Time (s)", axis_items={"left": self.load_axis},
                                  title="IT load over training steps and an interruption")
        self.plot.setMouseEnabled(y=False)
        self.raw = pg.PlotDataItem(pen=pen(palette.MUTED, 1.5, Qt.PenStyle.DashLine))
        self.smoothed = pg.PlotDataItem(pen=pen(ACCENT, 2.5))
        self.swing_limit = pg.PlotDataItem(pen=pen(LOAD_OVER, 1.5, Qt.PenStyle.DotLine))
        for item in (self.raw, self.swing_limit, self.smoothed):
            self.plot.addItem(item)
        self.legend = self.add_legend(self.plot, colCount=3)
        self.legend.addItem(self.raw, "Unsmoothed")
        self.legend.addItem(self.smoothed, "Smoothed")
        self.legend.addItem(self.swing_limit, "Largest swing allowed, over the trough")
        self._listed = {self.raw: "Unsmoothed", self.swing_limit: "Largest swing allowed, over the trough"}

    def lay_out(self, compact: bool) -> None:
        self.place_legend(self.legend, compact, 3)

    def update_report(self, report, changes=None) -> None:
        d = report.sections.get("power_dynamics")
        points = d.trace if d is not None else ()
        if not points:
            for item in (self.raw, self.smoothed, self.swing_limit):
                item.setData([], [])
            self.set_empty(NO_STEP)
            return
        self.set_empty(None)
        # MW from a megawatt up, else kW (a 16-node plan swings by tens of kW)
        self.load_axis.unit, per_w = ("MW", 1e-6) if d.raw_peak_mw >= 1 else ("kW", 1e-3)
        self.load_axis.picture = None  # the ticks' text again
        t = np.array([p[0] for p in points])
        raw, smoothed = np.array([p[1] for p in points]), np.array([p[2] for p in points])
        self.raw.setData(t, raw * per_w)
        self.smoothed.setData(t, smoothed * per_w)
        limited = d.max_swing_mw is not None or d.max_ramp_mw_per_s is not None
        if limited:  # the swing both limits allow (a ramp limit over the edge time), over the trough
            self.swing_limit.setData([t[0], t[-1]], [(d.floor_mw * 1e6 + d.grid.allowed_swing_w()) * per_w] * 2)
        else:
            self.swing_limit.setData([], [])
        ramp = ("" if d.max_ramp_mw_per_s is None
                else f", ramps at most {fmt.value_text(d.max_ramp_mw_per_s, 'MW/s', style='exact')}")
        # the legend lists the lines drawn: no limit line without a limit, and no unsmoothed line
        # where nothing smooths the load (it lies under the smoothed one)
        self._list(self.raw, "Unsmoothed", not np.array_equal(raw, smoothed))
        self._list(self.swing_limit, f"Largest swing allowed, over the trough{ramp}", limited)
        ramps = "" if not d.job_ramps else f", stop ramped over {fmt.value_text(d.job_ramp_s, 's', style='exact')}"
        smoothing = "IT load, not smoothed" if d.smoothing == "none" else f"Smoothed: {choice_title(d.smoothing)}"
        self._set_label(self.smoothed, f"{smoothing}{ramps}")

    def _list(self, item, text: str, shown: bool) -> None:
        """``item`` in the legend with ``text`` while ``shown``, out of it otherwise."""
        if shown and item not in self._listed:
            self.legend.addItem(item, text)
            self._listed[item] = text
            set_columns(self.legend, 1 if self.compact else 3)
        elif not shown and item in self._listed:
            self.legend.removeItem(item)
            del self._listed[item]
        elif shown:
            self._set_label(item, text)

    def _set_label(self, item, text: str) -> None:
        label = self.legend.getLabel(item)
        if label.text != text:  # a new text lays the legend out again: not on every edit
            label.setText(text)
