"""Where a chart's texts land on screen: tick labels, axis titles and plot titles as
rectangles in the chart's own pixels, to check that none overlaps another or runs off."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication


def shown_chart(panel, index: int):
    """Tab ``index`` of a ChartsPanel (the dock or the Charts page) brought up and painted once:
    pyqtgraph sizes its axes to their labels while it paints."""
    panel.setCurrentIndex(index)
    QApplication.processEvents()
    chart = panel.chart_at(index)  # built on first view
    QApplication.processEvents()
    chart.grab()
    QApplication.processEvents()
    return chart


def text_rects(chart, labels: bool = False) -> list[tuple[str, QRectF]]:
    """(text, rectangle in view pixels) of every tick label, axis title and plot title shown;
    with ``labels``, also every legend entry and every label drawn inside a plot."""
    out = []
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        for item in chart.ci.items:
            if not isinstance(item, pg.PlotItem) or not item.isVisible():
                continue
            for side in ("left", "bottom", "right", "top"):
                axis = item.getAxis(side)
                if not axis.isVisible():
                    continue
                specs = axis.generateDrawSpecs(painter)
                for rect, _flags, text in (specs[2] if specs else ()):
                    out.append((text, _to_view(chart, axis.mapRectToScene(rect))))
                if axis.label.isVisible() and axis.labelText:
                    out.append((axis.labelText, _to_view(chart, axis.label.sceneBoundingRect())))
            title = item.titleLabel
            if title.isVisible() and title.text:
                out.append((title.text, _to_view(chart, title.item.sceneBoundingRect())))
            if labels:
                out += [(t.toPlainText(), _to_view(chart, t.sceneBoundingRect())) for t in plot_labels(item)]
        if labels:
            for legend in (i for i in chart.ci.items if isinstance(i, pg.LegendItem) and i.isVisible()):
                out += [(label.text, _to_view(chart, label.item.sceneBoundingRect())) for _, label in legend.items]
    finally:
        painter.end()
    return out


def plot_labels(plot: pg.PlotItem) -> list[pg.TextItem]:
    """The labels shown inside a plot (values over bars, the plan's point, break-evens)."""
    # the plot's own list: the view box lists only what sets its range, not labels added with
    # ignoreBounds (the fabric chart's figures over its bars)
    return [i for i in plot.items if isinstance(i, pg.TextItem) and i.isVisible() and i.toPlainText()]


def cut_labels(chart) -> list[str]:
    """Labels inside a plot that its view box cuts (it clips what it holds to its own rectangle)."""
    found = []
    for plot in (i for i in chart.ci.items if isinstance(i, pg.PlotItem) and i.isVisible()):
        box = plot.vb.sceneBoundingRect().adjusted(-1, -1, 1, 1)
        found += [f"{t.toPlainText()!r} is cut by its plot" for t in plot_labels(plot)
                  if not box.contains(t.sceneBoundingRect())]
    return found


def _to_view(chart, scene_rect: QRectF) -> QRectF:
    return QRectF(chart.mapFromScene(scene_rect).boundingRect())


def overlaps(chart, labels: bool = False) -> list[str]:
    """Pairs of texts whose rectangles overlap (by more than a pixel), and texts cut by the
    chart's edge; ``labels``: legends' and plots' labels too (see ``text_rects``)."""
    rects = text_rects(chart, labels)
    found = []
    bounds = QRectF(chart.viewport().rect()).adjusted(-1, -1, 1, 1)
    for i, (a, ra) in enumerate(rects):
        if not bounds.contains(ra):
            found.append(f"{a!r} runs off the chart ({ra} not in {bounds})")
        for b, rb in rects[i + 1:]:
            common = ra.intersected(rb)
            if common.width() > 1 and common.height() > 1:
                found.append(f"{a!r} overlaps {b!r}")
    return found
