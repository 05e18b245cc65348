"""One column spec per exported table: each column's name, header, unit, value and (in a
workbook) formula, from which the table's writer takes its headers, cells and formula letters.

A formula names the other columns it reads, never their letters: ``"=IF({cap}>0,{power}/{cap},0)"``
becomes ``=IF(D3>0,C3/D3,0)`` in row 3 when "cap" is the fourth column and "power" the third;
``{gpus.first}`` and ``{gpus.last}`` are the column's first and last table rows, for a total.
A column moved or added in the spec moves every formula that reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openpyxl.utils import get_column_letter


@dataclass(frozen=True, slots=True)
class TableColumn:
    """A column of one table. ``value`` takes what the table's writer gives for a row (the
    table's spec says what) and returns the cell: a number, text, or None for an empty cell."""

    name: str
    header: str
    value: Callable[..., Any]
    unit: str = ""                      # the unit of its figures, "" for names and counts
    formula: str = ""                   # a workbook formula over other columns by name
    number_format: str | None = None    # the workbook's number format of its cells
    total: Callable[..., Any] | None = None  # its cell in the total row, from the table's totals
    total_formula: str = ""             # the total row's workbook formula ("=SUM({gpus.first}:{gpus.last})")
    width: float = 1.0                  # share of a drawn table's width (the vendor pack)
    align: str = "left"                 # left | right


def headers(columns: Sequence[TableColumn]) -> list[str]:
    return [c.header for c in columns]


def position(columns: Sequence[TableColumn], name: str) -> int:
    """The 1-based position of the column ``name`` (a workbook column number)."""
    for i, c in enumerate(columns, 1):
        if c.name == name:
            return i
    raise KeyError(name)


def without(columns: Sequence[TableColumn], *names: str) -> list[TableColumn]:
    """The spec less the columns ``names`` (a table leaving out what the plan lacks)."""
    return [c for c in columns if c.name not in names]


class _Cells:
    """A column's cells as a formula refers to them: "D3" in its row, ``first`` and ``last``
    for the table's first and last rows."""

    __slots__ = ("letter", "row", "first_row", "last_row")

    def __init__(self, letter: str, row: int, first_row: int, last_row: int) -> None:
        self.letter, self.row, self.first_row, self.last_row = letter, row, first_row, last_row

    def __str__(self) -> str:
        return f"{self.letter}{self.row}"

    @property
    def first(self) -> str:
        return f"{self.letter}{self.first_row}"

    @property
    def last(self) -> str:
        return f"{self.letter}{self.last_row}"


def formula_at(columns: Sequence[TableColumn], template: str, row: int, first_row: int = 0,
               last_row: int = 0, first_col: int = 1) -> str:
    """``template`` with each ``{name}`` the cell of that column in ``row`` (the table's first
    column in sheet column ``first_col``), ``{name.first}``/``{name.last}`` its cells in
    ``first_row`` and ``last_row``."""
    cells = {c.name: _Cells(get_column_letter(first_col + i), row, first_row, last_row)
             for i, c in enumerate(columns)}
    return template.format(**cells)
