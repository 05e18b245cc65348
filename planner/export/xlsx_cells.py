"""Cell helpers for the workbook: user text always as text, number formats, colours, widths."""

from __future__ import annotations

from typing import Any

from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.workbook.defined_name import DefinedName

from planner.text import clean_text

USD = '"$"#,##0.00'
USD0 = '"$"#,##0'
KW = '#,##0.0'
MONTHS = '0.0'
PCT = '0%'
RATE = '"$"#,##0.00##'

BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
HEADER_FILL = PatternFill("solid", fgColor="DDE3EA")
WRAP = Alignment(wrap_text=True, vertical="top")

# Elevation colours by catalog category (light, so black labels stay readable).
CATEGORY_FILLS = {
    "gpu_server": PatternFill("solid", fgColor="B7E1A1"),
    "switch": PatternFill("solid", fgColor="9DC3E6"),
    "storage": PatternFill("solid", fgColor="F8CBAD"),
    "cdu": PatternFill("solid", fgColor="A9E5E5"),
    "pdu": PatternFill("solid", fgColor="FFE699"),
    "other": PatternFill("solid", fgColor="D9D9D9"),
}
EMPTY_U_FILL = PatternFill("solid", fgColor="F7F7F7")


# First characters a spreadsheet may take as the start of a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


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


def formula(ws, row: int, col: int, expr: str, fmt: str | None = None, *, font: Font | None = None):
    """A formula the planner wrote itself (never from user text)."""
    assert expr.startswith("="), expr
    return _value(ws, row, col, expr, fmt, font)


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
