"""Unit prices edited in an exported workbook, brought back into the plan as price overrides.

``import_prices(book, plan, catalog)`` reads the BOM sheet of a workbook the planner wrote,
compares each row's unit price with the plan's own bill of materials (rows matched by their
Item text), and records every changed price as a ``PriceOverride`` whose source says
"edited in workbook BOOK.xlsx on DATE". Rows it cannot match (a line the plan does not
have, a row added by hand) are reported, not guessed at. Nothing else in the plan changes.
``apply_price_overrides`` is what the bill of materials does with them.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from planner.costs.bom import BomLine
from planner.costs.spares import SPARES
from planner.errors import PlannerError
from planner.findings import Finding
from planner.plan.model import PriceOverride
from planner.readfile import read_limited

# A workbook is read whole (at most as large as a plan file), and checked before openpyxl
# parses any of it: its parts at most that size in all once uncompressed (the campus-400k
# workbook is 0.6 MB, 7.8 MB uncompressed), its BOM sheet at most 10,000 rows of which the
# first 50 columns are read (the planner writes one row per bill-of-materials line, 8 columns).
MAX_BOOK_BYTES = 64 * 1024 * 1024
MAX_BOM_ROWS = 10_000
MAX_BOM_COLUMNS = 50

BOM_SHEET = "BOM"
ITEM_HEADER = "Item"
PRICE_HEADER = "Unit price (USD)"


MAX_UNIT_PRICE = 1e12  # beyond a trillion a unit price is a typing slip, not a quote


@dataclass(slots=True)
class PriceImport:
    """What an import did: (item, old unit price, new unit price) per changed line, and
    the rows that match no line of the plan's bill of materials (row number, item), and the
    rows of a line whose unit price is not a price (text, negative, beyond a trillion)."""

    changed: list[tuple[str, float, float]] = field(default_factory=list)
    unmatched: list[tuple[int, str]] = field(default_factory=list)
    invalid: list[tuple[int, str, object]] = field(default_factory=list)  # (row, item, the cell's value)
    uncomputed: list[tuple[int, str]] = field(default_factory=list)  # formula prices no program has computed
    overrides: list[PriceOverride] = field(default_factory=list)  # the plan's overrides after the import

    def lines(self) -> list[str]:
        """What the import did, a line per changed price and per row not imported."""
        out = [f"{item}: ${old:,.2f} -> ${new:,.2f}" for item, old, new in self.changed]
        out += [f"row {row}: '{item}' matches no line of the plan's bill of materials: not imported"
                for row, item in self.unmatched]
        out += [f"row {row}: '{item}': the unit price is a formula no spreadsheet program has computed (open the "
                "workbook in Excel or LibreOffice and save it): not imported" for row, item in self.uncomputed]
        for row, item, price in self.invalid:
            number = isinstance(price, (int, float)) and not isinstance(price, bool)
            shown = "empty" if price is None else f"{price:,}" if number else repr(price) if isinstance(
                price, str) else str(price)
            out.append(f"row {row}: '{item}': unit price {shown} is not a price (a number from 0 to "
                       f"{MAX_UNIT_PRICE:,.0f}): not imported")
        return out


def apply_price_overrides(lines: list[BomLine], overrides: list[PriceOverride]) -> list[BomLine]:
    """The lines with each overridden item's unit price and source replaced (the price no
    longer follows a cost setting)."""
    if not overrides:
        return lines
    by_item = {o.item: o for o in overrides}
    # A spare stocked costs what the part placed costs: the part's override reprices its spares'
    # line too, unless that line has its own.
    by_part = {line.part_id: by_item[line.item] for line in lines
               if line.item in by_item and line.part_id and line.part_kind != SPARES}
    out = []
    for line in lines:
        o = by_item.get(line.item) or (by_part.get(line.part_id) if line.part_kind == SPARES else None)
        out.append(line if o is None else replace(line, unit_usd=o.unit_usd, source=o.source, price_setting=None))
    return out


def unmatched_override_findings(lines: list[BomLine], overrides: list[PriceOverride]) -> list[Finding]:
    """A warning for each price override whose item no line of the bill has any more (a line
    renamed by a newer planner, a part the plan no longer needs): its price applies to nothing."""
    if not overrides:
        return []
    items = {line.item for line in lines}
    return [Finding("warning", "cost.price_override.unmatched",
                    f"The price override of '{o.item}' (${o.unit_usd:,.2f}, {o.source}) matches no line of the bill "
                    "of materials: a line renamed or a part the plan no longer needs; its price applies to nothing. "
                    "Edit the price on the line as it is now named (Import prices from a workbook), or remove it")
            for o in overrides if o.item not in items]


def _bom_rows(book: Path, *, computed: bool = False) -> list[tuple]:
    """The values of the BOM sheet's rows, within the bounds above; PlannerError in one line.
    ``computed``: a formula cell's value as Excel or LibreOffice last computed and saved it
    (None where no program has), else the formula's text."""
    from openpyxl import load_workbook

    raw = read_limited(book, MAX_BOOK_BYTES, "workbook")
    unreadable = f"{book.name}: not an Excel workbook the planner can read"
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:  # zipfile inflates no part past its stated size
            inflated = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError) as exc:
        raise PlannerError(f"{unreadable} ({exc})") from None
    if inflated > MAX_BOOK_BYTES:
        raise PlannerError(f"{book.name}: {inflated / 1e6:,.0f} MB uncompressed, more than a workbook can be "
                           f"({MAX_BOOK_BYTES // 2**20} MB)")
    try:
        wb = load_workbook(io.BytesIO(raw), read_only=True, data_only=computed)
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError) as exc:  # SyntaxError: XML's ParseError
        raise PlannerError(f"{unreadable} ({exc})") from None
    try:
        if BOM_SHEET not in wb.sheetnames:
            raise PlannerError(f"{book.name}: has no '{BOM_SHEET}' sheet (is it a workbook the planner exported?)")
        sheet = wb[BOM_SHEET]
        too_many = f"{book.name}: the {BOM_SHEET} sheet has more than {MAX_BOM_ROWS:,} rows"
        if (sheet.max_row or 0) > MAX_BOM_ROWS:  # the size the sheet states, before building any row
            raise PlannerError(f"{too_many} ({sheet.max_row:,} rows)")
        rows = []
        for row in sheet.iter_rows(values_only=True, max_col=MAX_BOM_COLUMNS):
            if len(rows) == MAX_BOM_ROWS:  # a sheet may state a smaller size than it has
                raise PlannerError(too_many)
            rows.append(row)
    except (zipfile.BadZipFile, KeyError, ValueError, SyntaxError) as exc:  # a part that does not inflate or parse
        raise PlannerError(f"{unreadable} ({exc})") from None
    finally:
        wb.close()
    return rows


def import_prices(book: str | Path, existing: list[PriceOverride], lines: list[BomLine], *,
                  today: dt.date | None = None) -> PriceImport:
    """Read the BOM sheet of ``book``: ``existing`` (the plan's price overrides) plus one for
    every unit price that differs from ``lines`` (the plan's bill of materials) make the
    result's ``overrides``. Raises PlannerError with one line when the file is not a
    workbook with a BOM sheet. The plan itself is not touched."""
    book = Path(book)
    rows = _bom_rows(book)
    if not rows or ITEM_HEADER not in rows[0] or PRICE_HEADER not in rows[0]:
        raise PlannerError(f"{book.name}: the {BOM_SHEET} sheet has no '{ITEM_HEADER}' and '{PRICE_HEADER}' columns")
    item_col, price_col = rows[0].index(ITEM_HEADER), rows[0].index(PRICE_HEADER)
    values = None  # the formula cells' computed values, read when the sheet has a formula price
    current = {line.item: line for line in lines}
    date = (today or dt.date.today()).isoformat()
    source = f"edited in workbook {book.name} on {date}"
    overrides = {o.item: o for o in existing}
    result = PriceImport()
    for number, row in enumerate(rows[1:], start=2):
        item = row[item_col] if item_col < len(row) else None
        price = row[price_col] if price_col < len(row) else None
        if not isinstance(item, str) or not item.strip():
            continue  # blank rows, totals and notes below the table
        if isinstance(price, str) and price.startswith("="):
            # a formula, the planner's (linked to a cost setting) or the user's: its value as the
            # spreadsheet program computed it; the planner's own carries the plan's price
            values = values if values is not None else _bom_rows(book, computed=True)
            got = values[number - 1] if number - 1 < len(values) else ()
            price = got[price_col] if price_col < len(got) else None
            if price is None:  # not computed: the planner's own link to a cost setting says nothing
                line = current.get(item)
                if line is None or str(row[price_col]).replace(" ", "") != f"={line.price_setting}":
                    result.uncomputed.append((number, item))
                continue
        if item not in current:
            if isinstance(price, (int, float)) and not isinstance(price, bool):
                result.unmatched.append((number, item))
            continue
        if not isinstance(price, (int, float)) or isinstance(price, bool) or not 0 <= price <= MAX_UNIT_PRICE:
            result.invalid.append((number, item, price))
            continue
        old = current[item].unit_usd
        if abs(float(price) - old) < 0.005:
            continue  # unchanged, to the cent
        overrides[item] = PriceOverride(item=item, unit_usd=float(price), source=source)
        result.changed.append((item, old, float(price)))
    result.overrides = list(overrides.values())
    return result
