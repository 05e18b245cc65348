"""Facility: IT power against facility power (IT x PUE), and the placed CDUs' capacity
against the liquid-cooled nodes' heat, all from the report's totals."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from ui.charts.base import ChartView, CategoryAxis
from ui.colors import CATEGORY_COLORS, LOAD_OVER

IT = "#3D6CA8"
FACILITY = "#8A6A44"
HEAT = "#D9822B"
CDU = CATEGORY_COLORS["cdu"]
BAR_W = 0.6


class FacilityChart(ChartView):
    title = "Facility"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.power_axis = CategoryAxis("bottom", min_px=20)
        self.cooling_axis = CategoryAxis("bottom", min_px=20)
        self.power_plot = self.add_plot(0, 0, left="Power (kW)", axis_items={"bottom": self.power_axis},
                                        title="IT power and facility power")
        self.cooling_plot = self.add_plot(0, 1, left="Heat and capacity (kW)",
                                          axis_items={"bottom": self.cooling_axis}, title="Liquid cooling")
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

    @staticmethod
    def _value_label(plot) -> pg.TextItem:
        item = pg.TextItem("", color="#222222", anchor=(0.5, 1.1))
        plot.addItem(item, ignoreBounds=True)
        return item

    def update_report(self, report, changes=None) -> None:
        t = report.totals
        basis = report.power_basis
        power = np.array([t.it_power_kw, t.facility_power_kw])
        self.power_bars.setOpts(height=power)
        self.power_axis.set_names([f"IT ({basis})", f"Facility (PUE {t.pue:g})"])
        cooling = np.array([t.liquid_heat_kw, t.cdu_capacity_kw])
        short = t.cdus_short
        self.cooling_bars.setOpts(height=cooling, brushes=self._short_brushes if short else self._ok_brushes)
        self.cooling_plot.setTitle("Liquid cooling: CDUs short, see the findings" if short else "Liquid cooling",
                                   color=LOAD_OVER if short else "#222222", size="10pt")
        self.cooling_axis.set_names(["Liquid heat load",
                                     f"CDU capacity ({t.cdus_placed} placed, {t.cdus} needed)"])
        for labels, values in ((self.power_labels, power), (self.cooling_labels, cooling)):
            for i, item in enumerate(labels):
                item.setText(f"{values[i]:,.1f} kW")
                item.setPos(i, values[i])
        for plot, values in ((self.power_plot, power), (self.cooling_plot, cooling)):
            plot.setYRange(0, (float(values.max()) or 1.0) * 1.18, padding=0)
        self.show_message(self.cooling_plot, self.message,
                          None if t.liquid_nodes or t.cdus_placed else "No liquid-cooled nodes")
