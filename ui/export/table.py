"""A plain ruled table for the vendor pack, as HTML for its QTextDocument: column titles in a
header row that Qt repeats on every page the table runs over, zebra rows, cells that wrap."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

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

    def halves(self) -> tuple[Table, Table]:
        """The table cut in two at the heading row nearest the middle (a row not indented: a
        part's indented rows stay under theirs), each half with its bold rows and fills."""
        heads = [i for i in range(1, len(self.rows)) if not str(self.rows[i][0]).startswith(" ")] or [1]
        half = min(heads, key=lambda i: abs(2 * i - len(self.rows)))
        left = replace(self, rows=self.rows[:half], bold_rows={i for i in self.bold_rows if i < half})
        right = replace(self, rows=self.rows[half:], bold_rows={i - half for i in self.bold_rows if i >= half},
                        cell_fill=None if self.cell_fill is None else
                        (lambda i, j, fill=self.cell_fill: fill(i + half, j)))
        return left, right


def side_by_side(left: Table, right: Table) -> str:
    """Two tables side by side, each half the page's width less a gap."""
    gap = 12 * CSS_PX
    return (f'<table width="100%" cellspacing="0" cellpadding="0"><tr>'
            f'<td width="50%" valign="top" style="padding-right: {gap:.0f}px">{left.html()}</td>'
            f'<td width="50%" valign="top">{right.html()}</td></tr></table>')
