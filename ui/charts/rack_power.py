"""Rack power: a pair of bars per rack (typical draw and nameplate), the rack's cap as a
line across its pair, bars above the cap in red. Hover shows the rack's figures; a click
on a rack's column emits ``rackClicked(rack_id)``."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QToolTip

from ui.charts.base import CategoryAxis, ChartView, pen, set_bars
from planner.report.palette import ACCENT, LOAD_OVER

TYPICAL = ACCENT
TYPICAL_OVER = LOAD_OVER
NAMEPLATE = "#B7CCE6"
NAMEPLATE_OVER = "#F2B3AE"
CAP = "#222222"
BAR_W = 0.38  # each of the pair, in rack slots
HALF = 0.45   # half the width of a rack's column (the cap line, the click target)
OUTLINE_MAX_RACKS = 120
DENSE_RACKS = 300  # above this, bars are drawn as filled step curves: one path, not thousands of rects


class RackPowerChart(ChartView):
    title = "Rack power"
    rackClicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.axis = CategoryAxis("bottom", min_px=64)
        self.plot = self.add_plot(left="kW per rack", bottom="Rack",
                                  axis_items={"bottom": self.axis})
        self.plot.setMouseEnabled(x=True, y=False)
        self.rack_ids: list[str] = []
        self.dense = False
        self._racks: list = []
        self._basis = ""
        self._brush = {k: pg.mkBrush(c) for k, c in
                       (("t", TYPICAL), ("to", TYPICAL_OVER), ("n", NAMEPLATE), ("no", NAMEPLATE_OVER))}
        self._pen = {k: pg.mkPen(c, width=1) for k, c in
                     (("t", TYPICAL), ("to", TYPICAL_OVER), ("n", TYPICAL), ("no", TYPICAL_OVER))}
        self._no_pen = pg.mkPen(None)
        empty = np.zeros(0)
        self.typical_bars = pg.BarGraphItem(x=empty, height=empty, width=BAR_W,
                                            brush=self._brush["t"], pen=self._pen["t"])
        self.nameplate_bars = pg.BarGraphItem(x=empty, height=empty, width=BAR_W,
                                              brush=self._brush["n"], pen=self._pen["n"])
        self.cap_line = pg.PlotDataItem(empty, empty, connect="pairs", pen=pen(CAP, 2, Qt.PenStyle.DashLine))
        edges = np.zeros(1)
        self.dense_nameplate = pg.PlotCurveItem(edges, empty, stepMode="center", fillLevel=0,
                                                brush=self._brush["n"], pen=self._no_pen)
        self.dense_typical = pg.PlotCurveItem(edges, empty, stepMode="center", fillLevel=0,
                                              brush=self._brush["t"], pen=self._no_pen)
        self.dense_over = pg.PlotCurveItem(edges, empty, stepMode="center", fillLevel=0,
                                           brush=self._brush["to"], pen=self._no_pen)
        for item in (self.dense_nameplate, self.dense_typical, self.dense_over,
                     self.typical_bars, self.nameplate_bars, self.cap_line):
            self.plot.addItem(item)
        legend = self.add_legend(self.plot, colCount=4)
        self._over_sample = pg.BarGraphItem(x=[0], height=[0], width=1, brush=self._brush["to"],
                                            pen=self._pen["to"])
        legend.addItem(self.typical_bars, "Typical draw")
        legend.addItem(self.nameplate_bars, "Nameplate (maximum)")
        legend.addItem(self._over_sample, "Over the cap")
        legend.addItem(self.cap_line, "Rack power cap")
        self.legend = legend
        self.message = self.message_item(self.plot)
        scene = self.scene()
        scene.sigMouseMoved.connect(self._on_hover)
        scene.sigMouseClicked.connect(self._on_click)

    # -- data ---------------------------------------------------------------------
    def update_report(self, report, changes=None) -> None:
        if changes is not None and self._racks_untouched(report, changes):
            return
        racks = report.racks
        n = len(racks)
        x = np.arange(n, dtype=float)
        typical = np.fromiter((r.power_typical_kw for r in racks), float, n)
        nameplate = np.fromiter((r.power_nameplate_kw for r in racks), float, n)
        caps = np.fromiter((r.cap_kw for r in racks), float, n)
        t_over = [r.over_cap("typical") for r in racks]
        n_over = [r.over_cap("nameplate") for r in racks]
        b, p = self._brush, self._pen
        # Outlines only while a bar is several pixels wide: on hundreds of racks an outline
        # would paint over the fill (every bar would look like its outline colour).
        outline = n <= OUTLINE_MAX_RACKS
        no_pen = self._no_pen
        self.dense = n > DENSE_RACKS
        if self.dense:
            # one filled step per rack: nameplate behind, typical in front, over-cap racks red
            edges = np.arange(n + 1, dtype=float) - 0.5
            over = np.fromiter((o for o in (t_over if report.power_basis == "typical" else n_over)), bool, n)
            shown = typical if report.power_basis == "typical" else nameplate
            self.dense_nameplate.setData(edges, nameplate)
            self.dense_typical.setData(edges, typical)
            self.dense_over.setData(edges, np.where(over, shown, 0.0))
            empty = np.zeros(0)
            set_bars(self.typical_bars, x=empty, height=empty, width=BAR_W, pen=no_pen, brushes=[], pens=[])
            set_bars(self.nameplate_bars, x=empty, height=empty, width=BAR_W, pen=no_pen, brushes=[], pens=[])
        else:
            edges, empty = np.zeros(1), np.zeros(0)
            for curve in (self.dense_nameplate, self.dense_typical, self.dense_over):
                curve.setData(edges, empty)
            set_bars(self.typical_bars, x=x - 0.2, height=typical, width=BAR_W, pen=no_pen,
                     brushes=[b["to"] if o else b["t"] for o in t_over],
                     pens=[p["to"] if o else p["t"] for o in t_over] if outline else [])
            set_bars(self.nameplate_bars, x=x + 0.2, height=nameplate, width=BAR_W, pen=no_pen,
                     brushes=[b["no"] if o else b["n"] for o in n_over],
                     pens=[p["no"] if o else p["n"] for o in n_over] if outline else [])
        self.cap_line.setData(np.repeat(x, 2) + np.tile([-HALF, HALF], n), np.repeat(caps, 2))
        self.rack_ids = list(report.rack_order)
        self._racks = racks
        self.axis.set_names([r.name for r in racks])
        if report.power_basis != self._basis:
            self._basis = report.power_basis
            basis = report.power_basis
            self.legend.getLabel(self.typical_bars).setText(
                "Typical draw" + (" (plan's basis)" if basis == "typical" else ""))
            self.legend.getLabel(self.nameplate_bars).setText(
                "Nameplate (maximum)" + (" (plan's basis)" if basis == "nameplate" else ""))
        top = max(float(nameplate.max(initial=0.0)), float(caps.max(initial=0.0)), 1.0)
        self.plot.setLimits(xMin=-1, xMax=max(n, 1), yMin=0)
        self.plot.setYRange(0, top * 1.08, padding=0)  # the legend sits under the plot, not over the bars
        if changes is None or changes.structure or changes.needs_full:
            self.plot.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.show_message(self.plot, self.message, None if n else "No racks in the plan")

    def _racks_untouched(self, report, changes) -> bool:
        """Nothing the bars show changed: no rack, no facility setting, same rack list."""
        return (not changes.racks and not changes.structure and not changes.needs_full
                and len(report.rack_order) == len(self.rack_ids))

    # -- hover and click ------------------------------------------------------------
    def rack_index_at(self, scene_pos: QPointF) -> int | None:
        """The rack whose column holds ``scene_pos`` (scene coordinates), or None."""
        vb = self.plot.vb
        if not vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = vb.mapSceneToView(scene_pos)
        i = int(round(p.x()))
        if 0 <= i < len(self._racks) and abs(p.x() - i) <= HALF and p.y() >= 0:
            return i
        return None

    def hover_text(self, index: int) -> str:
        r = self._racks[index]
        basis = r.basis
        state = "over its cap" if r.over_cap() else f"{100 * r.load_fraction:.0f}% of its cap"
        return (f"<b>{r.name}</b><br>"
                f"Typical {r.power_typical_kw:,.1f} kW · nameplate {r.power_nameplate_kw:,.1f} kW<br>"
                f"Cap {r.cap_kw:g} kW: {state} ({basis})<br>"
                f"{r.nodes} node{'s' if r.nodes != 1 else ''}, {r.gpus} GPUs, "
                f"{r.used_u}/{r.height_u} U, {r.cooling}-cooled")

    def _on_hover(self, scene_pos) -> None:
        i = self.rack_index_at(scene_pos)
        if i is None:
            QToolTip.hideText()
            self.setToolTip("")
            return
        text = self.hover_text(i)
        self.setToolTip(text)
        QToolTip.showText(QCursor.pos(), text, self)

    def _on_click(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or event.double():
            return
        i = self.rack_index_at(event.scenePos())
        if i is not None:
            self.rackClicked.emit(self.rack_ids[i])

    def bar_scene_pos(self, rack_id: str) -> QPointF:
        """Scene position of the middle of a rack's column (for tests and keyboard focus)."""
        i = self.rack_ids.index(rack_id)
        r = self._racks[i]
        return self.plot.vb.mapViewToScene(QPointF(i, max(r.power_typical_kw, 0.1) / 2))

