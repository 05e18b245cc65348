"""A plain ruled table for the vendor pack: fixed columns, wrapped cells, page breaks between rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, Qt

from planner.report import palette
from ui.export.canvas import Canvas

HEADER_FILL = palette.INK_HEADING
ZEBRA = palette.PANEL_FILL
RULE = palette.PANEL_EDGE


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    weight: float = 1.0            # share of the table width
    align: str = "left"            # left | right | center
    wrap: bool = False             # word-wrap long text instead of eliding it


@dataclass(slots=True)
class Table:
    columns: Sequence[Column]
    rows: list[list[str]]
    font_pt: float = 7.5
    # Optional fill per cell: fn(row_index, column_index) -> "#rrggbb" or None.
    cell_fill: Callable[[int, int], str | None] | None = None
    bold_rows: set[int] = field(default_factory=set)

    def _widths(self, width: float) -> list[float]:
        total = sum(col.weight for col in self.columns)
        return [width * col.weight / total for col in self.columns]

    @property
    def line_height(self) -> float:
        return self.font_pt * 1.55

    def header_height(self, canvas: Canvas, width: float) -> float:
        """Column titles wrap onto more lines rather than being cut short."""
        h = self.line_height
        for col, w in zip(self.columns, self._widths(width)):
            h = max(h, canvas.wrapped_height(w - 6, col.title, self.font_pt, bold=True) + 4)
        return h + 2

    def row_height(self, canvas: Canvas, i: int, width: float) -> float:
        h = self.line_height
        bold = i in self.bold_rows
        for col, w, text in zip(self.columns, self._widths(width), self.rows[i]):
            if text and self._wraps(canvas, col, w, text, bold):
                h = max(h, canvas.wrapped_height(w - 6, text, self.font_pt, bold=bold) + 4)
        return h

    def _wraps(self, canvas: Canvas, col: Column, width: float, text: str, bold: bool = False) -> bool:
        """Wrapped columns wrap; any other cell wraps too when its text (bold in a bold row) is
        wider than the cell."""
        return col.wrap or canvas.text_width(text, self.font_pt, bold) > width - 6

    def paginate(self, canvas: Canvas, width: float, first_height: float, height: float) -> list[range]:
        """Row ranges that fit: the first page has ``first_height``, later pages ``height``."""
        pages: list[range] = []
        hh = self.header_height(canvas, width)
        start, avail = 0, first_height - hh
        used = 0.0
        for i in range(len(self.rows)):
            h = self.row_height(canvas, i, width)
            if used + h > avail and i > start:
                pages.append(range(start, i))
                start, used, avail = i, 0.0, height - hh
            used += h
        pages.append(range(start, len(self.rows)))
        return pages

    def draw(self, canvas: Canvas, x: float, y: float, width: float, rows: range) -> float:
        """Draw the header and ``rows``; returns the height used."""
        widths = self._widths(width)
        fs = self.font_pt
        hh = self.header_height(canvas, width)
        canvas.rect(QRectF(x, y, width, hh), fill=HEADER_FILL)
        cx = x
        for col, w in zip(self.columns, widths):
            canvas.aligned_block(QRectF(cx + 3, y + 2, w - 6, hh - 4), col.title, fs, bold=True, color=palette.PAPER,
                                 align=col.align)
            cx += w
        cy = y + hh
        for n, i in enumerate(rows):
            h = self.row_height(canvas, i, width)
            if n % 2:
                canvas.rect(QRectF(x, cy, width, h), fill=ZEBRA)
            cx = x
            bold = i in self.bold_rows
            for j, (col, w, text) in enumerate(zip(self.columns, widths, self.rows[i])):
                fill = self.cell_fill(i, j) if self.cell_fill else None
                if fill:
                    canvas.rect(QRectF(cx + 1, cy + 1, w - 2, h - 2), fill=fill)
                if self._wraps(canvas, col, w, text, bold):
                    canvas.wrapped_text(QRectF(cx + 3, cy + 2, w - 6, h - 2), text, fs, bold=bold)
                else:
                    canvas.text(QRectF(cx + 3, cy, w - 6, h), text, fs, bold=bold, align=_align(col.align))
                cx += w
            cy += h
            canvas.line(x, cy, x + width, cy, RULE, 0.4)
        return cy - y


def _align(name: str) -> Qt.AlignmentFlag:
    h = {"left": Qt.AlignmentFlag.AlignLeft, "right": Qt.AlignmentFlag.AlignRight,
         "center": Qt.AlignmentFlag.AlignHCenter}[name]
    return h | Qt.AlignmentFlag.AlignVCenter
