"""What every chart shares: a white, print-ready pyqtgraph view, PNG/SVG export from the
context menu and from ``export(path)``, and axes that label categories and dollars.

A chart builds its plot items once; ``update_report`` only feeds them new data
(``setData`` / ``setOpts``), so an edit never clears and rebuilds a plot.

Why it is long: the base every chart shares (layouts for short and tall areas, legends fitted
to the width, plan texts, export through the safe writer, category axes); one concern, the
charts' common frame.
"""

from __future__ import annotations

import math
from pathlib import Path

import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter, SVGExporter
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont, QFontMetrics
from PySide6.QtWidgets import QGraphicsItem, QLabel, QMessageBox, QSizePolicy

from planner.errors import PlannerError
from planner.safefile import write_file
from ui.charts import theme
from ui.charts.theme import (ACCENT, BACKGROUND, FOREGROUND, GRID_ALPHA, MUTED, SERIES_COLORS,  # noqa: F401
                             DollarAxis, UnitAxis, dollars)
from ui.last_folder import last_folder, remember_folder
from ui import file_dialogs


MIN_HEIGHT = 160
"""px: the shortest a chart gets; every chart's short layout has its plots and texts whole from here."""


class ChartExportError(PlannerError):
    """A chart could not be written; the message is shown as is."""


class ChartView(pg.GraphicsLayoutWidget):
    """Base of the charts: a GraphicsLayoutWidget on a white background with an
    "Export chart…" context-menu action and ``export(path)`` (.png or .svg)."""

    title = "Chart"
    titles_below = 0
    """Below this height (px) the plots' titles are hidden: the chart's tab names it, and in the
    dock at 1280 x 800 (about 180 px) the titles took the rows the bars need. 0: always shown."""
    compact_below = 0
    """Below this height (px) the chart lays its parts out for a short, wide area (the dock at
    the window's default size): legends right of the plots and plots side by side. 0: one layout."""

    def __init__(self, parent=None):
        super().__init__(parent)
        # a dock shrunk below this would cut the short layouts' legends and axis titles
        self.setMinimumHeight(MIN_HEIGHT)
        self.setBackground(BACKGROUND)
        self.setAntialiasing(True)
        self.ci.setContentsMargins(8, 8, 12, 8)
        self.export_action = QAction("Export chart…", self)
        self.export_action.triggered.connect(self.export_dialog)
        # The scene's menu is appended to every ViewBox menu: ours replaces pyqtgraph's
        # generic "Export..." so there is one export entry, with a file dialog.
        self.scene().contextMenu = [self.export_action]
        self.empty_note = QLabel(self)
        """The sentence an empty chart shows, centred, in place of its axes."""
        self.empty_note.setObjectName("ChartEmptyNote")
        self.empty_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_note.setWordWrap(True)
        self.empty_note.setStyleSheet(f"color: {FOREGROUND}; background: {BACKGROUND};")
        self.empty_note.hide()

    def set_empty(self, text: str | None) -> None:
        """Nothing to plot: ``text`` centred, no axes; ``None`` brings the plots back."""
        if text:
            self.empty_note.setText(text)
            self.empty_note.setToolTip(text)
            self.ci.hide()
            self.empty_note.show()
        else:
            self.empty_note.hide()
            self.ci.show()

    @property
    def is_empty(self) -> bool:
        return not self.empty_note.isHidden()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        compact = self.height() < self.compact_below
        if compact != self.compact:  # before the view sizes the layout: a move can widen it
            self.compact = compact
            self.lay_out(compact)
        titled = self.height() >= self.titles_below
        if titled != self.titled:
            self.titled = titled
            self.show_titles(titled)
        self.fit_legends()
        super().resizeEvent(event)
        if getattr(self, "empty_note", None) is not None:  # pyqtgraph resizes while it is built
            self.empty_note.setGeometry(self.rect().adjusted(16, 16, -16, -16))

    def fit_legends(self) -> None:
        """Legends in as many of their columns as the chart's width holds: a row of four entries
        is wider than the Charts page at 1280 x 800 (668 px), and the layout, held to it, ran
        the plot and the legend off the chart's right edge."""
        if getattr(self, "empty_note", None) is None or self._fitting:  # pyqtgraph resizes while it is built
            return
        self._fitting = True
        try:
            self._fit_legend_columns()
        finally:
            self._fitting = False

    _fitting = False

    def _fit_legend_columns(self) -> None:
        room = self.width() - 32  # the layout's margins and a legend's own
        for item in list(self.ci.items):
            if not isinstance(item, pg.LegendItem):
                continue
            wanted = getattr(item, "wanted_columns", None)
            if wanted is None:
                wanted = item.wanted_columns = item.columnCount
            columns = wanted
            if item.columnCount != columns:
                item.setColumnCount(columns)
            while columns > 1 and _legend_width(item) > room:
                columns -= 1
                item.setColumnCount(columns)

    compact = False
    """True while the chart is in its short, wide layout (see ``compact_below``)."""
    titled = True
    """False while the chart is too short for its plots' titles (see ``titles_below``)."""

    def show_titles(self, shown: bool) -> None:
        """The plots' titles shown or hidden (``titles_below``)."""
        for item in self.ci.items:
            if isinstance(item, pg.PlotItem) and getattr(item, "title_text", None):
                theme.set_title(item, item.title_text) if shown else item.setTitle(None)

    def lay_out(self, compact: bool) -> None:
        """Put the plots and legends where they read at this size: ``compact`` for a short,
        wide area, else the tall layout the chart was built in. Called when the chart's height
        crosses ``compact_below``, never on an edit."""

    def place(self, item, row: int, col: int, rowspan: int = 1, colspan: int = 1) -> None:
        """Move ``item`` (a plot or a legend) to another cell of the layout."""
        if item in self.ci.items:
            self.ci.removeItem(item)
        self.ci.addItem(item, row=row, col=col, rowspan=rowspan, colspan=colspan)
        if isinstance(item, pg.LegendItem):  # its rows at their own height, at the top: not spread over the cell
            item.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
            self.ci.layout.setAlignment(item, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

    def place_legend(self, legend: pg.LegendItem, compact: bool, columns: int) -> None:
        """A one-plot chart's legend: short and wide, in one column right of the plot (rows of
        it under the plot would leave the plot a strip); else ``columns`` columns under it."""
        self.place(legend, *((0, 1) if compact else (1, 0)))
        set_columns(legend, 1 if compact else columns)
        self.set_stretch({0: 1}, {0: 1})

    def set_stretch(self, rows: dict[int, int], cols: dict[int, int]) -> None:
        """Stretch factors of the layout's rows and columns (those not named: 0 when empty)."""
        layout = self.ci.layout
        for r in range(layout.rowCount()):
            layout.setRowStretchFactor(r, rows.get(r, 0))
        for c in range(layout.columnCount()):
            layout.setColumnStretchFactor(c, cols.get(c, 0))

    # -- building blocks ------------------------------------------------------------
    def add_plot(self, row: int = 0, col: int = 0, *, left: str = "", bottom: str = "",
                 axis_items: dict | None = None, title: str | None = None) -> pg.PlotItem:
        plot = self.addPlot(row=row, col=col, axisItems=axis_items, title=None)
        plot.title_text = title  # shown while the chart is tall enough (``titles_below``)
        if title:
            theme.set_title(plot, title)
        for name in ("left", "bottom", "right", "top"):
            axis = plot.getAxis(name)
            # drawn once into a pixmap until its range or size changes: the left axis carries the
            # grid across the plot, and an edit that only changes the bars would replay it otherwise
            axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            theme.style_axis(axis)
        if left:
            theme.set_axis_title(plot, "left", left)
        if bottom:
            theme.set_axis_title(plot, "bottom", bottom)
        plot.showGrid(x=False, y=True, alpha=GRID_ALPHA)
        plot.setMenuEnabled(True)
        plot.hideButtons()
        return plot

    def add_legend(self, plot: pg.PlotItem, colspan: int | None = None, **kw) -> pg.LegendItem:
        """A legend in its own row under the plot, outside the data (a legend over the plot hides bars)."""
        legend = theme.legend(**kw)
        span = colspan or max(1, self.ci.currentCol or 1)
        self.ci.addItem(legend, row=self.ci.layout.rowCount(), col=0, colspan=span)
        self.ci.nextRow()
        return legend

    @staticmethod
    def message_item(plot: pg.PlotItem) -> pg.TextItem:
        """A centred note for one plot of several that has nothing to plot (its axes go while it shows)."""
        item = pg.TextItem("", color=FOREGROUND, anchor=(0.5, 0.5))
        item.setZValue(50)
        plot.addItem(item, ignoreBounds=True)
        item.hide()
        for changed in (plot.vb.sigResized, plot.vb.sigRangeChanged):  # its place in pixels moves with either
            changed.connect(lambda *_: wrap_to_plot(item, plot) if item.isVisible() else None)
        return item

    @staticmethod
    def show_message(plot: pg.PlotItem, item: pg.TextItem, text: str | None) -> None:
        for side in ("left", "bottom"):
            plot.showAxis(side, not text)
        if not text:
            item.hide()
            return
        item.setText(text)
        (x0, x1), (y0, y1) = plot.viewRange()
        item.setPos((x0 + x1) / 2, (y0 + y1) / 2)
        wrap_to_plot(item, plot)  # at its place: a centred note's width is the nearer edge's
        item.show()

    def show_plan_text(self, label: pg.TextItem, legend: pg.LegendItem, sample, lines: list[str]) -> None:
        """The plan's figures (``lines``): ``label`` inside the plot in the tall layout; in the
        short one, the text of ``sample``'s legend entry instead (a label runs off a short plot)."""
        label.setVisible(bool(lines) and not self.compact)
        entry = legend.getLabel(sample)
        text = "<br>".join(lines) if lines and self.compact else "This plan"
        if entry.text != text:  # a new text lays the legend out again: not on every edit
            entry.setText(text)

    # -- the API the window uses ------------------------------------------------------
    def update_report(self, report, changes=None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def export_item(self):
        """What export writes: the whole layout (every plot of the chart)."""
        return self.ci

    def export(self, path: str | Path) -> Path:
        """Write the chart to ``path``: PNG (at twice the on-screen size) or SVG, by suffix."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in (".png", ".svg"):
            raise ChartExportError(f"Charts export as .png or .svg, not '{path.suffix or path.name}'")
        if not self.isVisible():
            self._lay_out_offscreen()
        item = self.export_item()

        def write(temporary: str) -> None:  # the exporters write the file themselves
            if suffix == ".png":
                exporter = ImageExporter(item)
                width = max(1, int(item.boundingRect().width()))
                exporter.parameters()["width"] = 2 * width
                exporter.parameters()["background"] = pg.mkColor(BACKGROUND)
                exporter.export(temporary)
            else:
                SVGExporter(item).export(temporary)

        try:  # to a temporary file checked and renamed over the target: never half a chart
            return write_file(path, write=write, kind=suffix)
        except PlannerError as exc:
            raise ChartExportError(str(exc)) from None
        except OSError as exc:
            raise ChartExportError(f"Could not write {path}: {exc.strerror or exc}") from exc

    def _lay_out_offscreen(self) -> None:
        """A chart never shown (a hidden tab) has not sized its axes to their labels yet;
        pyqtgraph does that while painting, so paint it twice around a layout pass."""
        self.grab()
        self.ci.layout.activate()
        self.grab()

    def export_dialog(self) -> None:
        name = self.title.lower().replace(" ", "-")
        start = str(last_folder() / f"{name}.png")
        path, _ = file_dialogs.save_file_name(self, "Export chart", start, "PNG image (*.png);;SVG drawing (*.svg)")
        if not path:
            return
        try:
            self.export(path)
            remember_folder(path)
        except PlannerError as exc:
            QMessageBox.warning(self, "Export chart", str(exc))


class CategoryAxis(pg.AxisItem):
    """An axis of named categories at 0, 1, 2, ...: labels as many names as fit (one per
    ``min_px`` pixels) and more as the user zooms in."""

    def __init__(self, orientation: str, min_px: float = 56.0, **kw):
        super().__init__(orientation, **kw)
        self.names: list[str] = []
        self.min_px = min_px

    def set_names(self, names: list[str]) -> None:
        if names != self.names:
            self.names = list(names)
            if self.orientation in ("left", "right") and self.style.get("showValues", True):
                # Fit the longest name now: pyqtgraph widens an axis only when it paints,
                # which a hidden chart (another tab) has not done before an export.
                metrics = QFontMetrics(self.style.get("tickFont") or QFont())
                widest = max((metrics.horizontalAdvance(n) for n in names), default=0)
                self.setWidth(widest + 16)
            self.picture = None
            self.update()

    def tickValues(self, minVal, maxVal, size):
        n = len(self.names)
        if n == 0:
            return []
        lo = max(0, math.ceil(min(minVal, maxVal) - 1e-9))
        hi = min(n - 1, math.floor(max(minVal, maxVal) + 1e-9))
        if hi < lo:
            return []
        visible = hi - lo + 1
        per_label = max(1, math.ceil(visible * self.min_px / max(size, 1.0)))
        return [(float(per_label), list(range(lo, hi + 1, per_label)))]

    def tickStrings(self, values, scale, spacing):
        names = self.names
        return [names[int(v)] if 0 <= int(v) < len(names) else "" for v in values]


def set_columns(legend: pg.LegendItem, columns: int) -> None:
    """A legend's columns as its layout wants them: fewer only where the chart is too narrow
    (``BaseChart.fit_legends``), these again where it is wide enough."""
    legend.wanted_columns = columns
    legend.setColumnCount(columns)


def _legend_width(legend: pg.LegendItem) -> float:
    """The width a legend's grid asks for as its columns are now (its geometry follows later)."""
    legend.layout.invalidate()
    return legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize).width()


def pen(color: str, width: float = 2.0, style=Qt.PenStyle.SolidLine):
    return pg.mkPen(color, width=width, style=style)


def set_bars(item: pg.BarGraphItem, *, brushes: list, pens: list, **opts) -> None:
    """``setOpts`` on a bar item with per-bar brushes and pens; an empty list becomes None
    (pyqtgraph 0.14 fails on an empty ``pens`` list)."""
    item.setOpts(brushes=brushes or None, pens=pens or None, **opts)


TEXT_MARGIN_PX = 12  # between a text wrapped to a plot and the plot's edges


def wrap_to_plot(item: pg.TextItem, plot: pg.PlotItem) -> None:
    """A text inside a plot on one line where it fits, else wrapped to the plot's width (a note
    or the plan's figures ran off both edges of a narrow plot)."""
    box = plot.vb.sceneBoundingRect()
    width = box.width() - 2 * TEXT_MARGIN_PX
    if item.anchor.x() == 0.5:  # centred on its position: as wide as the nearer edge allows on both sides
        at = plot.vb.mapViewToScene(item.pos()).x()
        if box.left() < at < box.right():  # else not laid out yet: the plot's width
            width = 2 * min(at - box.left(), box.right() - at) - 2 * TEXT_MARGIN_PX
    item.setTextWidth(-1)  # its own width first
    if width > 0 and item.boundingRect().width() > width:
        item.setTextWidth(width)
