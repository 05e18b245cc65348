"""Rack power: a pair of bars per rack (typical draw and nameplate), the rack's cap as a
line across its pair, bars above the cap in red. Hover shows the rack's figures; a click
on a rack's column emits ``rackClicked(rack_id)``."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QCursor, QPainter
from PySide6.QtWidgets import QToolTip

from ui.charts.base import CategoryAxis, ChartView, UnitAxis, pen, set_bars
from planner.report.palette import ACCENT, LOAD_OVER
from planner.report import palette

TYPICAL = ACCENT
TYPICAL_OVER = LOAD_OVER
NAMEPLATE = palette.NAMEPLATE
NAMEPLATE_OVER = palette.NAMEPLATE_OVER
CAP = palette.CHART_INK
BAR_W = 0.38  # each of the pair, in rack slots
HALF = 0.45   # half the width of a rack's column (the cap line, the click target)
OUTLINE_MAX_RACKS = 120
DENSE_RACKS = 300
"""Above this, the racks on screen are drawn in three layers of one colour each (nameplate
behind, typical in front, over-cap racks red on top), a bar per pixel column at most: the
tallest of the racks that column holds, as bars that thin would draw them, and red if any
of them is over its cap. pyqtgraph draws a layer of one brush as one batch of rectangles;
the caps are one dashed segment per run of racks with the same cap. After a drop on
frontier-100k (2,468 racks) the chart repaints in ~2 ms instead of ~25 ms."""


class _Layer(pg.BarGraphItem):
    """A dense layer: bars a pixel column wide, axis-aligned, drawn without antialiasing
    (which would only blur their edges, at several times the cost)."""

    def paint(self, p, *args) -> None:
        smooth = p.testRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        super().paint(p, *args)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)


class RackPowerChart(ChartView):
    title = "Rack power"
    compact_below = 220  # the legend's row under the plot would leave it under three grid lines
    rackClicked = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.axis = CategoryAxis("bottom", min_px=64)
        self.plot = self.add_plot(left="Power", bottom="Rack",
                                  axis_items={"bottom": self.axis, "left": UnitAxis("left", "kW")})
        self.plot.setMouseEnabled(x=True, y=False)
        self.rack_ids: list[str] = []
        self.dense = False
        self._report = None  # the report shown (hover reads its racks)
        self._basis = ""
        self._order: tuple[str, ...] | None = None  # the report's rack order the figures follow
        self._kept: tuple | None = None
        self._index: dict[str, int] = {}
        self._names: list[str] = []
        self._brush = {k: pg.mkBrush(c) for k, c in
                       (("t", TYPICAL), ("to", TYPICAL_OVER), ("n", NAMEPLATE), ("no", NAMEPLATE_OVER))}
        self._pen = {k: pg.mkPen(c, width=1) for k, c in
                     (("t", TYPICAL), ("to", TYPICAL_OVER), ("n", TYPICAL), ("no", TYPICAL_OVER))}
        self._no_pen = pg.mkPen(None)
        self._dense_layers: tuple | None = None  # nameplate, typical, over-cap heights per rack
        self._extent: tuple | None = None  # (racks, tallest kW) the axes were set for
        self._caps_shown: np.ndarray | None = None  # the caps the cap line was drawn for
        empty = np.zeros(0)
        self.typical_bars = pg.BarGraphItem(x=empty, height=empty, width=BAR_W,
                                            brush=self._brush["t"], pen=self._pen["t"])
        self.nameplate_bars = pg.BarGraphItem(x=empty, height=empty, width=BAR_W,
                                              brush=self._brush["n"], pen=self._pen["n"])
        self.cap_line = pg.PlotDataItem(empty, empty, connect="pairs", pen=pen(CAP, 2, Qt.PenStyle.DashLine))
        self.dense_nameplate, self.dense_typical, self.dense_over = (
            _Layer(x0=empty, x1=empty, height=empty, brush=self._brush[k], pen=self._no_pen)
            for k in ("n", "t", "to"))
        for item in (self.dense_nameplate, self.dense_typical, self.dense_over,
                     self.typical_bars, self.nameplate_bars, self.cap_line):
            self.plot.addItem(item)
        legend = self.add_legend(self.plot, colCount=4)
        # a bar over the cap in its own colour, each basis its own (red, pink): both in the legend
        self._over_sample, self._nameplate_over_sample = (
            pg.BarGraphItem(x=[0], height=[0], width=1, brush=self._brush[k], pen=self._pen[k]) for k in ("to", "no"))
        legend.addItem(self.typical_bars, "Typical draw")
        legend.addItem(self.nameplate_bars, "Nameplate (maximum)")
        legend.addItem(self._over_sample, "Typical over the cap")
        legend.addItem(self._nameplate_over_sample, "Nameplate over the cap")
        legend.addItem(self.cap_line, "Rack power cap")
        self.legend = legend
        self.message = self.empty_note
        self.plot.vb.sigXRangeChanged.connect(self._draw_dense)
        self.plot.vb.sigResized.connect(self._draw_dense)
        scene = self.scene()
        scene.sigMouseMoved.connect(self._on_hover)
        scene.sigMouseClicked.connect(self._on_click)

    def lay_out(self, compact: bool) -> None:
        self.place_legend(self.legend, compact, 4)

    # -- data ---------------------------------------------------------------------
    def update_report(self, report, changes=None) -> None:
        if changes is not None and self._racks_untouched(report, changes):
            return
        n = len(report.rack_order)
        x = np.arange(n, dtype=float)
        typical, nameplate, caps, t_over, n_over = self._figures(report, changes)
        b, p = self._brush, self._pen
        # Outlines only while a bar is several pixels wide: on hundreds of racks an outline
        # would paint over the fill (every bar would look like its outline colour).
        outline = n <= OUTLINE_MAX_RACKS
        no_pen = self._no_pen
        was_dense, self.dense = self.dense, n > DENSE_RACKS
        if self.dense:
            over = t_over if report.power_basis == "typical" else n_over
            shown = typical if report.power_basis == "typical" else nameplate
            self._dense_layers = (nameplate, typical, np.where(over, shown, 0.0))
            # the bar over the cap in its basis's colour, as the legend says (red typical, pink nameplate)
            over_brush = b["to"] if report.power_basis == "typical" else b["no"]
            if self.dense_over.opts.get("brush") is not over_brush:
                self.dense_over.setOpts(brush=over_brush)
            self._draw_dense()
            if not was_dense:  # the bars of a colour each are left empty
                empty = np.zeros(0)
                set_bars(self.typical_bars, x=empty, height=empty, width=BAR_W, pen=no_pen, brushes=[], pens=[])
                set_bars(self.nameplate_bars, x=empty, height=empty, width=BAR_W, pen=no_pen, brushes=[], pens=[])
        else:
            empty = np.zeros(0)
            self._dense_layers = None
            for layer in (self.dense_nameplate, self.dense_typical, self.dense_over):
                layer.setOpts(x0=empty, x1=empty, height=empty)
            set_bars(self.typical_bars, x=x - 0.2, height=typical, width=BAR_W, pen=no_pen,
                     brushes=[b["to"] if o else b["t"] for o in t_over],
                     pens=[p["to"] if o else p["t"] for o in t_over] if outline else [])
            set_bars(self.nameplate_bars, x=x + 0.2, height=nameplate, width=BAR_W, pen=no_pen,
                     brushes=[b["no"] if o else b["n"] for o in n_over],
                     pens=[p["no"] if o else p["n"] for o in n_over] if outline else [])
        if self.dense != was_dense or self._caps_shown is None or not np.array_equal(self._caps_shown, caps):
            self._caps_shown = caps.copy()  # a move leaves the caps alone: the line is not redrawn
            if self.dense:  # a segment per run of equal caps: thousands of dashes would read as one line anyway
                starts = np.flatnonzero(np.r_[True, caps[1:] != caps[:-1]]) if n else np.zeros(0, dtype=int)
                ends = np.r_[starts[1:], n]
                self.cap_line.setData(np.column_stack([starts - 0.5, ends - 0.5]).ravel(), np.repeat(caps[starts], 2))
            else:
                self.cap_line.setData(np.repeat(x, 2) + np.tile([-HALF, HALF], n), np.repeat(caps, 2))
        self._report = report
        if report.power_basis != self._basis:
            self._basis = report.power_basis
            basis = report.power_basis
            self.legend.getLabel(self.typical_bars).setText(
                "Typical draw" + (" (plan's basis)" if basis == "typical" else ""))
            self.legend.getLabel(self.nameplate_bars).setText(
                "Nameplate (maximum)" + (" (plan's basis)" if basis == "nameplate" else ""))
        top = max(float(nameplate.max(initial=0.0)), float(caps.max(initial=0.0)), 1.0)
        if (n, top) != self._extent:  # the same extent: leave the axes alone (no relayout, no repaint)
            self._extent = (n, top)
            self.plot.setLimits(xMin=-1, xMax=max(n, 1), yMin=0)
            self.plot.setYRange(0, top * 1.08, padding=0)  # the legend sits under the plot, not over the bars
        if changes is None or changes.structure or changes.needs_full:
            self.plot.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.set_empty(None if n else "No racks in the plan: add a rack (Ctrl+R) and drag devices into it")

    def _draw_dense(self) -> None:
        """The dense layers for the racks in view: one bar per pixel column at most."""
        layers = self._dense_layers
        if layers is None:
            return
        n = len(layers[0])
        (left, right), _ = self.plot.vb.viewRange()
        lo, hi = max(0, int(np.floor(left))), min(n, int(np.ceil(right)) + 1)
        if hi <= lo:
            lo, hi = 0, n
        per = max(1, int((hi - lo) / max(1.0, self.plot.vb.width())))  # racks per pixel column
        starts = np.arange(lo, hi, per)
        x0, x1 = starts - 0.5, np.minimum(starts + per, hi) - 0.5
        for item, heights in zip((self.dense_nameplate, self.dense_typical, self.dense_over), layers):
            shown = heights[lo:hi] if per == 1 else np.maximum.reduceat(heights[lo:hi], starts - lo)
            item.setOpts(x0=x0, x1=x1, height=shown)

    def _figures(self, report, changes):
        """Per rack, in plan order: typical and nameplate kW, cap, over the cap on each basis
        (arrays); the rack names on the axis follow. After an edit of a few racks in an
        unchanged rack order, only theirs are read again (a campus has 8,000 racks)."""
        kept = self._kept
        if (changes is None or changes.structure or changes.needs_full or kept is None
                or report.rack_order is not self._order):
            racks = report.racks
            n = len(racks)
            self._kept = kept = (
                np.fromiter((r.power_typical_kw for r in racks), float, n),
                np.fromiter((r.power_nameplate_kw for r in racks), float, n),
                np.fromiter((r.cap_kw for r in racks), float, n),
                np.fromiter((r.over_cap("typical") for r in racks), bool, n),
                np.fromiter((r.over_cap("nameplate") for r in racks), bool, n))
            self._order = report.rack_order
            self._index = {rid: i for i, rid in enumerate(report.rack_order)}
            self.rack_ids = list(report.rack_order)
            self._names = [r.name for r in racks]
            self.axis.set_names(list(self._names))
            return kept
        typical, nameplate, caps, t_over, n_over = kept
        renamed = False
        for rid in changes.racks:
            i, r = self._index.get(rid), report.rack(rid)
            if i is not None and r is not None:
                typical[i], nameplate[i], caps[i] = r.power_typical_kw, r.power_nameplate_kw, r.cap_kw
                t_over[i], n_over[i] = r.over_cap("typical"), r.over_cap("nameplate")
                if r.name != self._names[i]:
                    self._names[i], renamed = r.name, True
        if renamed:
            self.axis.set_names(list(self._names))
        return kept

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
        if 0 <= i < len(self.rack_ids) and abs(p.x() - i) <= HALF and p.y() >= 0:
            return i
        return None

    def hover_text(self, index: int) -> str:
        r = self._report.rack(self.rack_ids[index])
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
        r = self._report.rack(self.rack_ids[i])
        return self.plot.vb.mapViewToScene(QPointF(i, max(r.power_typical_kw, 0.1) / 2))

