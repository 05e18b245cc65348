"""Where a chart's texts land on screen: tick labels, axis titles and plot titles as
rectangles in the chart's own pixels, to check that none overlaps another or runs off."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter


def text_rects(chart) -> list[tuple[str, QRectF]]:
    """(text, rectangle in view pixels) of every tick label, axis title and plot title shown."""
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
    finally:
        painter.end()
    return out


def _to_view(chart, scene_rect: QRectF) -> QRectF:
    return QRectF(chart.mapFromScene(scene_rect).boundingRect())


def overlaps(chart) -> list[str]:
    """Pairs of texts whose rectangles overlap (by more than a pixel), and texts cut by the chart's edge."""
    rects = text_rects(chart)
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
