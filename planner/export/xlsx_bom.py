"""The BOM sheet: an Excel table of the line items with live formulas and totals."""

from __future__ import annotations

from openpyxl.worksheet.table import Table, TableStyleInfo

from planner.costs.bom import COUNTED, BomLine, bom_counts, bom_total_usd
from planner.export.xlsx_cells import BOLD, USD, define, formula, header, num, text, widths

BOM = "BOM"
COLUMNS = ["Category", "Item", "Model / part number", "Quantity", "Unit price (USD)", "Extended price (USD)",
           "Price source", "Counted as", "Catalog id"]

# Defined names of the BOM's counts.
COUNT_NAMES = {kind: f"bom_{kind}s" for kind in COUNTED}


def write_bom(wb, lines: list[BomLine]) -> None:
    """Line items as a table; extended price = quantity x unit price; SUMIF subtotal per
    category and a grand total (defined name ``BOM_Total``) below it. Unit prices that
    come from a cost assumption link to it, so changing it on Assumptions reprices them."""
    ws = wb.create_sheet(BOM)
    header(ws, 1, COLUMNS)
    first, last = 2, 1 + len(lines)
    for i, line in enumerate(lines):
        r = first + i
        text(ws, r, 1, line.category)
        text(ws, r, 2, line.item)
        text(ws, r, 3, line.part)
        num(ws, r, 4, line.quantity, "#,##0")
        if line.price_setting:
            formula(ws, r, 5, f"={line.price_setting}", USD, value=line.unit_usd)
        else:
            num(ws, r, 5, line.unit_usd, USD)
        formula(ws, r, 6, f"=D{r}*E{r}", USD, value=line.total_usd)
        text(ws, r, 7, line.source)
        if line.counts_as:
            text(ws, r, 8, COUNTED[line.counts_as])
        if line.part_id:
            text(ws, r, 9, line.part_id)  # the part's id in the catalog: the bill of parts' key
    if lines:
        table = Table(displayName="BillOfMaterials", ref=f"A1:I{last}")
        table.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2", showRowStripes=True)
        ws.add_table(table)
    rng = f"$A${first}:$A${max(last, first)}", f"$F${first}:$F${max(last, first)}"
    r = max(last, first) + 2
    text(ws, r, 1, "Subtotals by category", font=BOLD)
    r += 1
    for category in dict.fromkeys(line.category for line in lines):
        text(ws, r, 1, "Subtotal")
        text(ws, r, 2, category)
        formula(ws, r, 6, f"=SUMIF({rng[0]},B{r},{rng[1]})", USD,
                value=sum(line.total_usd for line in lines if line.category == category))
        r += 1
    text(ws, r, 1, "Grand total", font=BOLD)
    formula(ws, r, 6, f"=SUM({rng[1]})", USD, font=BOLD, value=bom_total_usd(lines))
    define(wb, "BOM_Total", BOM, r, 6)
    # The counts other sheets show come from here (Summary, Racks, Network link to these names).
    r += 2
    text(ws, r, 1, "Counts (the other sheets show these)", font=BOLD)
    counts = bom_counts(lines)
    kinds, qty = f"$H${first}:$H${max(last, first)}", f"$D${first}:$D${max(last, first)}"
    for kind, title in COUNTED.items():
        r += 1
        text(ws, r, 2, title)
        formula(ws, r, 4, f'=SUMIF({kinds},"{title}",{qty})', "#,##0", value=counts[kind])
        define(wb, COUNT_NAMES[kind], BOM, r, 4)
    ws.freeze_panes = "A2"
    widths(ws, {1: 18, 2: 52, 3: 40, 4: 10, 5: 18, 6: 20, 7: 80, 8: 14, 9: 24})
