"""A plain ruled table for the vendor pack, as HTML for its QTextDocument: column titles in a
header row that Qt repeats on every page the table runs over, zebra rows, cells that wrap."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from planner.report import palette
from ui.export.pack_document import CSS_PX, html_text

HEADER_FILL = palette.INK_HEADING
ZEBRA = palette.PANEL_FILL
RULE = palette.RULE_LIGHT


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    weight: float = 1.0            # share of the table width
    align: str = "left"            # left | right | center


@dataclass(slots=True)
class Table:
    columns: Sequence[Column]
    rows: list[list[str]]
    font_pt: float = 7.5
    # Optional fill per cell: fn(row_index, column_index) -> "#rrggbb" or None.
    cell_fill: Callable[[int, int], str | None] | None = None
    bold_rows: set[int] = field(default_factory=set)

    def html(self, width_pt: float | None = None) -> str:
        """The table, the page's width or ``width_pt`` wide."""
        width = "100%" if width_pt is None else f"{width_pt * CSS_PX:.0f}"
        total = sum(col.weight for col in self.columns)
        head = "".join(f'<th width="{100 * col.weight / total:.1f}%" align="{col.align}" bgcolor="{HEADER_FILL}" '
                       f'style="color: {palette.PAPER}; vertical-align: bottom">{html_text(col.title)}</th>'
                       for col in self.columns)
        body = []
        for i, row in enumerate(self.rows):
            cells = []
            for j, (col, text) in enumerate(zip(self.columns, row)):
                fill = self.cell_fill(i, j) if self.cell_fill else None
                text = html_text(text)
                # figures (right-aligned) stay on one line: "1,294.9 l/min", never "1,294.9 l/" over "min"
                nowrap = ' style="white-space: nowrap"' if col.align == "right" else ""
                cells.append(f'<td align="{col.align}"{nowrap}' + (f' bgcolor="{fill}"' if fill else "") + ">"
                             + (f"<b>{text}</b>" if i in self.bold_rows else text) + "</td>")
            zebra = f' bgcolor="{ZEBRA}"' if i % 2 else ""
            body.append(f"<tr{zebra}>{''.join(cells)}</tr>")
        return (f'<table width="{width}" cellspacing="0" cellpadding="{2 * CSS_PX:.0f}" border="0.5" '
                f'style="border-collapse: collapse; border-color: {RULE}; font-size: {self.font_pt:g}pt; '
                # Qt drops the bottom margin of the paragraph before a table: the table keeps the gap
                f'margin-top: {4 * CSS_PX:.0f}px">'
                f"<thead><tr>{head}</tr></thead>{''.join(body)}</table>")
