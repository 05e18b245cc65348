"""Cell helpers for the workbook: user text always as text, number formats, colours, widths."""

from __future__ import annotations

from typing import Any

from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName

from planner.report import palette
from planner.text import FORMULA_STARTS, clean_text

INTEGER = "#,##0"
USD = '"$"#,##0.00'
USD0 = '"$"#,##0'
KW = '#,##0.0'
MONTHS = '0.0'
PCT = '0%'
RATE = '"$"#,##0.00##'

BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
HEADER_FILL = PatternFill("solid", fgColor=palette.sheet_color(palette.SHEET_HEADER_FILL))
WRAP = Alignment(wrap_text=True, vertical="top")

# Elevation colours by catalog category: the app's palette, labels in the colour that reads on each.
CATEGORY_FILLS = {c: PatternFill("solid", fgColor=v.lstrip("#")) for c, v in palette.CATEGORY_COLORS.items()}
CATEGORY_FONTS = {c: Font(color=palette.text_color_on(v).lstrip("#")) for c, v in palette.CATEGORY_COLORS.items()}
# Chart series in the order the app's charts draw them (build, then the rental options).
SERIES_COLOURS = [c.lstrip("#") for c in palette.SERIES_COLORS]
EMPTY_U_FILL = PatternFill("solid", fgColor=palette.sheet_color(palette.SHEET_EMPTY_U_FILL))


def text(ws, row: int, col: int, value: Any, *, font: Font | None = None):
    """Write ``value`` as a plain string that Excel and LibreOffice never evaluate.

    openpyxl turns any string starting with '=' into a formula; setting the data type back
    to string (and the quote prefix, as Excel does for typed text) keeps a label such as
    ``=HYPERLINK("http://x","y")`` inert. Control characters XML cannot hold are dropped.
    """
    s = clean_text(value, "xml")
    cell = ws.cell(row=row, column=col)
    cell.value = s
    cell.data_type = "s"
    if s[:1] in FORMULA_STARTS:
        cell.quotePrefix = True
    if font is not None:
        cell.font = font
    return cell


def _value(ws, row: int, col: int, value: Any, fmt: str | None, font: Font | None):
    cell = ws.cell(row=row, column=col)
    cell.value = value
    if fmt:
        cell.number_format = fmt
    if font is not None:
        cell.font = font
    return cell


def num(ws, row: int, col: int, value: Any, fmt: str | None = None, *, font: Font | None = None):
    """A number (or bool); None becomes an empty cell."""
    return _value(ws, row, col, value, fmt, font)


NA = "#N/A"  # the cached value of a formula that returns NA() (a gap in a chart)


def formula(ws, row: int, col: int, expr: str, fmt: str | None = None, *, value: Any,
            font: Font | None = None):
    """A formula the planner wrote itself (never from user text), with the value it computes.

    openpyxl saves formulas without a result; ``planner.export.xlsx_values`` adds ``value``
    as the cell's cached result when the file is written, so previewers, Protected View and
    pandas show the figures without recalculating. ``value`` is a number, a string, or
    ``NA`` for an #N/A result.
    """
    assert expr.startswith("="), expr
    cell = _value(ws, row, col, expr, fmt, font)
    cached_values(ws.parent)[(ws.title, cell.coordinate)] = value
    return cell


def cached_values(wb) -> dict[tuple[str, str], Any]:
    """(sheet title, cell) -> the value each planner formula computes, kept on the workbook."""
    store = getattr(wb, "_planner_cached_values", None)
    if store is None:
        store = wb._planner_cached_values = {}
    return store


def fit_height(ws, row: int, value: str, width: float) -> None:
    """Give ``row`` the height its wrapped ``value`` needs in a column ``width`` characters
    wide (15 points a line; a little narrower than the width, as proportional fonts run)."""
    per_line = max(10, int(width * 1.1))
    lines = sum(max(1, -(-len(part) // per_line)) for part in str(value).splitlines() or [""])
    if lines > 1:
        current = ws.row_dimensions[row].height or 15
        ws.row_dimensions[row].height = max(current, 15 * lines)


def header(ws, row: int, titles: list[str], col: int = 1) -> None:
    for i, t in enumerate(titles):
        c = text(ws, row, col + i, t, font=BOLD)
        c.fill = HEADER_FILL


def widths(ws, cols: dict[int, float]) -> None:
    for col, w in cols.items():
        ws.column_dimensions[get_column_letter(col)].width = w


def absolute(sheet: str, row: int, col: int) -> str:
    return f"'{sheet}'!${get_column_letter(col)}${row}"


def define(wb, name: str, sheet: str, row: int, col: int) -> None:
    """A workbook-level defined name for one cell."""
    wb.defined_names[name] = DefinedName(name, attr_text=absolute(sheet, row, col))


def ref(row: int, col: int, *, fixed: bool = False) -> str:
    c = get_column_letter(col)
    return f"${c}${row}" if fixed else f"{c}{row}"


def named_rows(wb, ws, first_row: int, rows, cached: dict[str, Any], bold: tuple[str, ...] = ()) -> None:
    """One figure a row from ``first_row``: (name, title, value or "=formula", unit, number
    format), the value in column 2 defined as ``name``; a formula carries ``cached[name]``."""
    for i, (name, title, value, unit, fmt) in enumerate(rows):
        row = first_row + i
        text(ws, row, 1, title, font=BOLD if name in bold else None)
        if isinstance(value, str) and value.startswith("="):
            formula(ws, row, 2, value, fmt, value=cached.get(name))
        else:
            num(ws, row, 2, value, fmt)
        text(ws, row, 3, unit)
        text(ws, row, 4, name)
        define(wb, name, ws.title, row, 2)
