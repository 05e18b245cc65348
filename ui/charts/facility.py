"""Facility: IT power against facility power (IT x PUE), the placed CDUs' capacity against
the design heat to liquid, and by rack: each feed's share of the nameplate beside the heat to
liquid and to air. All from the report (totals and per-rack results)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from ui.charts import theme
from ui.charts.base import ChartView, CategoryAxis, UnitAxis, set_columns
from planner.report.palette import ACCENT, CATEGORY_COLORS, LOAD_OVER
from planner.report import palette

IT = ACCENT
FACILITY = palette.FACILITY_POWER
HEAT = palette.HEAT
CDU = CATEGORY_COLORS["cdu"]
BAR_W = 0.6
RACK_W = 0.36
FEED_A = ACCENT
FEED_B = palette.FEED_B
AIR = palette.AIR_HEAT
RACK_TITLE = "By rack: feeds A and B, heat to liquid and to air"
COOLING_NAMES = {False: ["Liquid heat load", "CDU capacity"], True: ["Heat", "CDUs"]}  # short: side by side
TOTALS_MIN_W = 190  # px: a totals plot side by side, its two value labels apart
HEADROOM = {False: 1.18, True: 1.35}  # the y range over the taller bar, tall and short layouts
LABEL_PX = 22  # a value label's height over its bar (9 pt text and its gap), px


class FacilityChart(ChartView):
    title = "Facility"
    compact_below = 320  # two rows of plots and the legend need this to show any bars

    def __init__(self, parent=None):
        super().__init__(parent)
        self.power_axis = CategoryAxis("bottom", min_px=20)
        self.cooling_axis = CategoryAxis("bottom", min_px=20)
        self.power_plot = self.add_plot(0, 0, left="Power", axis_items={"bottom": self.power_axis,
                                                                               "left": UnitAxis("left", "kW")},
                                        title="IT power and facility power")
        self.cooling_plot = self.add_plot(0, 1, left="Heat and capacity",
                                          axis_items={"bottom": self.cooling_axis, "left": UnitAxis("left", "kW")},
                                          title="Liquid cooling")
        for plot in (self.power_plot, self.cooling_plot):
            plot.setMouseEnabled(x=False, y=False)
            plot.setXRange(-0.6, 1.6, padding=0)
        self.power_bars = pg.BarGraphItem(x=[0, 1], height=[0, 0], width=BAR_W,
                                          brushes=[pg.mkBrush(IT), pg.mkBrush(FACILITY)], pen=None)
        self._ok_brushes = [pg.mkBrush(HEAT), pg.mkBrush(CDU)]
        self._short_brushes = [pg.mkBrush(HEAT), pg.mkBrush(LOAD_OVER)]
        self.cooling_bars = pg.BarGraphItem(x=[0, 1], height=[0, 0], width=BAR_W, brushes=self._ok_brushes,
                                            pen=None)
        self.power_plot.addItem(self.power_bars)
        self.cooling_plot.addItem(self.cooling_bars)
        self.power_labels = [self._value_label(self.power_plot) for _ in range(2)]
        self.cooling_labels = [self._value_label(self.cooling_plot) for _ in range(2)]
        self.message = self.message_item(self.cooling_plot)
        # By rack: feed A and feed B (stacked, the nameplate) left of each rack's tick, heat to
        # liquid and to air (stacked, the same nameplate) right of it.
        self.rack_axis = CategoryAxis("bottom", min_px=48)
        self.rack_plot = self.add_plot(1, 0, left="Nameplate", axis_items={"bottom": self.rack_axis,
                                                                                 "left": UnitAxis("left", "kW")},
                                       title=RACK_TITLE)
        self.ci.layout.setRowStretchFactor(1, 2)
        self.removeItem(self.rack_plot)
        self.addItem(self.rack_plot, row=1, col=0, colspan=2)
        self.rack_plot.setMouseEnabled(y=False)
        self.legend = self.add_legend(self.rack_plot, colspan=2, colCount=4)
        self.feed_bars = []
        for colour, name in ((FEED_A, "Feed A"), (FEED_B, "Feed B")):
            bars = pg.BarGraphItem(x=[], height=[], y0=[], width=RACK_W, brush=pg.mkBrush(colour), pen=None, name=name)
            self.rack_plot.addItem(bars)
            self.legend.addItem(bars, name)
            self.feed_bars.append(bars)
        self.heat_bars = []
        for colour, name in ((HEAT, "Heat to liquid"), (AIR, "Heat to air")):
            bars = pg.BarGraphItem(x=[], height=[], y0=[], width=RACK_W, brush=pg.mkBrush(colour), pen=None, name=name)
            self.rack_plot.addItem(bars)
            self.legend.addItem(bars, name)
            self.heat_bars.append(bars)
        self.rack_ids: list[str] = []
        self._totals = None  # (PUE, CDUs placed, CDUs needed, short) the titles were written for
        self._tops = (1.0, 1.0)  # the tallest bar of the power and of the cooling plot, kW
        for plot in (self.power_plot, self.cooling_plot):  # the labels' room follows the plots' height
            plot.getViewBox().sigResized.connect(lambda *_: self._fit_totals())
        self.cooling_axis.set_names(COOLING_NAMES[False])

    def lay_out(self, compact: bool) -> None:
        """Short and wide: the three plots side by side, the legend right of them, short
        titles and no axis titles (the ticks carry kW); else the totals over the racks."""
        if compact:
            self.place(self.rack_plot, 0, 2)
            self.place(self.legend, 0, 3)
            self.set_stretch({0: 1}, {2: 1})  # the totals at the width of their titles, the racks the rest
        else:
            self.place(self.rack_plot, 1, 0, colspan=2)
            self.place(self.legend, 2, 0, colspan=2)
            self.set_stretch({0: 1, 1: 2}, {0: 1, 1: 1})
        set_columns(self.legend, 1 if compact else 4)
        for plot in (self.power_plot, self.cooling_plot):  # room for "222.5 kW" over each bar
            plot.setMinimumWidth(TOTALS_MIN_W if compact else 0)
        for plot in (self.power_plot, self.cooling_plot, self.rack_plot):
            plot.getAxis("left").showLabel(not compact)
        theme.set_title(self.rack_plot, "By rack" if compact else RACK_TITLE)
        self.cooling_axis.set_names(COOLING_NAMES[compact])
        self._set_titles()
        self._fit_totals()

    def _fit_totals(self) -> None:
        """Room over the taller bar of each totals plot for its value label: at least the
        layout's headroom, and the label's height of the plot's pixels (a label is a larger
        share of a short plot)."""
        for plot, top in zip((self.power_plot, self.cooling_plot), self._tops):
            px = plot.getViewBox().height()
            share = min(0.6, LABEL_PX / px) if px > 0 else 0.0
            plot.setYRange(0, top * max(HEADROOM[self.compact], 1.0 / (1.0 - share)), padding=0)

    def _set_titles(self) -> None:
        if self._totals is None:
            return
        pue, placed, needed, short = self._totals
        if self.compact:
            power = f"Power (PUE {pue:g})"
            cooling = f"CDUs short: {placed} of {needed}" if short else f"CDUs: {placed} of {needed}"
        else:
            power = f"IT power and facility power (PUE {pue:g})"
            # the plot is a third of the page: a longer title ran off it at 1280 x 800
            cooling = f"CDUs short: {placed} placed, {needed} needed" if short else f"CDUs: {placed} placed, {needed} needed"
        theme.set_title(self.power_plot, power)
        theme.set_title(self.cooling_plot, cooling, color=LOAD_OVER if short else palette.CHART_INK)

    @staticmethod
    def _value_label(plot) -> pg.TextItem:
        item = pg.TextItem("", color=palette.CHART_INK, anchor=(0.5, 1.1))
        plot.addItem(item, ignoreBounds=True)
        return item

    def update_report(self, report, changes=None) -> None:
        t = report.totals
        basis = report.power_basis
        power = np.array([t.it_power_kw, t.facility_power_kw])
        self.power_bars.setOpts(height=power)
        self.power_axis.set_names([f"IT ({basis})", "Facility"])
        cooling = np.array([t.liquid_heat_kw, t.cdu_capacity_kw])
        short = t.cdus_short
        self.cooling_bars.setOpts(height=cooling, brushes=self._short_brushes if short else self._ok_brushes)
        totals = (t.pue, t.cdus_placed, t.cdus, bool(short))
        if totals != self._totals:
            self._totals = totals
            self._set_titles()
        for labels, values in ((self.power_labels, power), (self.cooling_labels, cooling)):
            for i, item in enumerate(labels):
                item.setText(f"{values[i]:,.1f} kW")
                item.setPos(i, values[i])
        self._tops = (float(power.max()) or 1.0, float(cooling.max()) or 1.0)
        self._fit_totals()
        self.show_message(self.cooling_plot, self.message,
                          None if t.liquid_nodes or t.cdus_placed else "No liquid-cooled nodes")
        self._update_racks(report)

    def _update_racks(self, report) -> None:
        racks = report.racks
        self.rack_ids = [r.id for r in racks]
        x = np.arange(len(racks), dtype=float)
        feed_a = np.array([r.feeds[0].load_kw if r.feeds else 0.0 for r in racks])
        feed_b = np.array([r.feeds[1].load_kw if len(r.feeds) > 1 else 0.0 for r in racks])
        liquid = np.array([r.heat_liquid_kw for r in racks])
        air = np.array([r.heat_air_kw for r in racks])
        self.feed_bars[0].setOpts(x=x - RACK_W / 2, y0=np.zeros(len(racks)), height=feed_a)
        self.feed_bars[1].setOpts(x=x - RACK_W / 2, y0=feed_a, height=feed_b)
        self.heat_bars[0].setOpts(x=x + RACK_W / 2, y0=np.zeros(len(racks)), height=liquid)
        self.heat_bars[1].setOpts(x=x + RACK_W / 2, y0=liquid, height=air)
        self.rack_axis.set_names([r.name for r in racks])
        top = float(max((feed_a + feed_b).max(initial=0.0), (liquid + air).max(initial=0.0))) or 1.0
        self.rack_plot.setYRange(0, top * 1.4, padding=0)  # room for the legend
        self.rack_plot.setXRange(-0.6, max(len(racks), 1) - 0.4, padding=0)

