"""Rack and row elevations on one sheet (PNG and SVG): a title, each row as lines of racks, a legend."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from PySide6.QtCore import QRectF

from planner.hardware.catalog import Catalog
from planner.plan.model import Plan, Rack
from planner.report.model import Report
from planner.report import palette
from ui.export.canvas import Canvas
from ui.export.elevation import ElevationRenderer, ElevationStyle, row_groups, row_title

MARGIN = 24.0
TITLE_H = 40.0
ROW_TITLE_H = 18.0
LINE_GAP = 22.0
LEGEND_H = 40.0
SHORTENED_H = 24.0
# More racks than this on one line make an image too wide to view; longer rows wrap.
MAX_RACKS_PER_LINE = 12


@dataclass(slots=True)
class SheetLayout:
    style: ElevationStyle
    lines: list[tuple[str, list[Rack]]]   # (row title or "", racks) per line, top to bottom
    width: float
    height: float


def layout_sheet(plan: Plan, catalog: Catalog | None = None) -> SheetLayout:
    style = ElevationStyle()
    groups = row_groups(plan)
    lines: list[tuple[str, list[Rack]]] = []
    for row, racks in groups:
        for i in range(0, len(racks), MAX_RACKS_PER_LINE):
            lines.append((row_title(row, len(groups)) if i == 0 else "", racks[i:i + MAX_RACKS_PER_LINE]))
    widest = max((len(r) for _, r in lines), default=0)
    content_w = widest * style.rack_width + max(0, widest - 1) * style.gap
    width = 2 * MARGIN + max(content_w, 420.0)
    height = MARGIN + TITLE_H + LEGEND_H + MARGIN
    if catalog is not None and ElevationRenderer(None, plan, catalog, None).may_shorten():
        height += SHORTENED_H  # the legend's line of model names shortened in the drawing
    for title, racks in lines:
        height += (ROW_TITLE_H if title else 0) + style.rack_height(max(r.height_u for r in racks)) + LINE_GAP
    return SheetLayout(style, lines, width, height)


def draw_sheet(canvas: Canvas, layout: SheetLayout, plan: Plan, catalog: Catalog, report: Report,
               today: date | None = None) -> None:
    c = canvas
    c.rect(QRectF(0, 0, layout.width, layout.height), fill=palette.PAPER)
    w = layout.width - 2 * MARGIN
    c.text(QRectF(MARGIN, MARGIN, w, 18), plan.title, 14, bold=True, color=palette.INK_HEADING)
    t = report.totals
    c.text(QRectF(MARGIN, MARGIN + 19, w, 12),
           f"Rack elevations, front view · {t.racks:,} rack{'' if t.racks == 1 else 's'} · {t.gpus:,} GPUs · IT power {t.it_power_kw:,.1f} kW "
           f"({report.power_basis}) · {(today or date.today()).isoformat()}", 8, color=palette.INK_MUTED)
    renderer = ElevationRenderer(c, plan, catalog, report)
    y = MARGIN + TITLE_H
    for title, racks in layout.lines:
        if title:
            c.text(QRectF(MARGIN, y, w, ROW_TITLE_H - 4), title, 10, bold=True, color=palette.INK_HEADING)
            y += ROW_TITLE_H
        _, h = renderer.draw_line(MARGIN, y, racks, layout.style)
        y += h + LINE_GAP
    renderer.draw_legend(MARGIN, y, w)
