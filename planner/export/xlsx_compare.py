"""The workbook's Compare sheet: the plan beside other designs (``planner.report.compare``).

Totals of each side as values, each difference as a formula over them (side minus the
first) with its better/worse verdict; the bill of materials' line differences with their
quantity and cost differences as formulas, summed and set against the capex difference;
the findings gained and lost. Green is better and red worse, by each figure's direction.
"""

from __future__ import annotations

from openpyxl.styles import Font, PatternFill

from planner.export.xlsx_cells import BOLD, INTEGER, TITLE, USD0, WRAP, formula, header, num, ref, text, widths
from planner.report import palette
from planner.report.compare import METRICS, Comparison, grouped_differences
from planner.vocabulary import excel_format

FILLS = {k: PatternFill("solid", fgColor=v.lstrip("#")) for k, v in palette.VERDICT_FILLS.items()}
FONTS = {k: Font(bold=True, color=v.lstrip("#")) for k, v in palette.VERDICT_COLORS.items()}


def _fmt(unit: str) -> str:
    """The cell format of a figure, as the vocabulary shows it (money per month in whole dollars)."""
    return USD0 if unit == "$/month" else excel_format(unit)


def write_compare(ws, c: Comparison) -> None:
    names = [s.name for s in c.sides]
    text(ws, 1, 1, "Compare: " + " / ".join(names), font=TITLE)
    text(ws, 2, 1, "Differences are each side minus the first; green is better and red worse, by each figure's "
         "direction (less cost, power, space and time is better; more throughput is better; GPUs are neither).")
    n = len(names)
    titles = ["Figure", "Unit", "Better"] + names + [f"{d.side} - {d.against}" for d in c.differences] + \
        [f"{d.side}: verdict" for d in c.differences]
    header(ws, 4, titles)
    row = 5
    rows: dict[str, int] = {}
    for m in METRICS:
        values = [c.totals(s)[m.key] for s in c.sides]
        if all(v is None for v in values):
            continue
        rows[m.key] = row
        text(ws, row, 1, m.label)
        text(ws, row, 2, m.unit)
        text(ws, row, 3, m.better or "neither")
        for i, v in enumerate(values):
            num(ws, row, 4 + i, v, _fmt(m.unit))
        for j, d in enumerate(c.differences):
            col = 4 + n + j
            diff = d.totals[m.key]
            verdict = d.verdicts[m.key]
            if diff is None:
                text(ws, row, col, "-")
            else:
                cell = formula(ws, row, col, f"={ref(row, 5 + j)}-{ref(row, 4)}", _fmt(m.unit), value=diff)
                if verdict in FILLS:
                    cell.fill, cell.font = FILLS[verdict], FONTS[verdict]
            vcell = text(ws, row, col + len(c.differences), verdict or "")
            if verdict in FILLS:
                vcell.fill, vcell.font = FILLS[verdict], FONTS[verdict]
        row += 1
    for d_index, d in enumerate(c.differences):
        row += 1
        text(ws, row, 1, f"Bill of materials, {d.side} against {d.against}", font=BOLD)
        row += 1
        header(ws, row, ["Change", "Category", "Item", f"Qty {d.against}", f"Qty {d.side}", "Qty difference",
                         f"Cost {d.against}", f"Cost {d.side}", "Cost difference"])
        row += 1
        first = row
        for b in d.bom:
            text(ws, row, 1, b.change)
            text(ws, row, 2, b.category)
            text(ws, row, 3, b.item).alignment = WRAP
            num(ws, row, 4, b.quantity_a, INTEGER)
            num(ws, row, 5, b.quantity_b, INTEGER)
            formula(ws, row, 6, f"={ref(row, 5)}-{ref(row, 4)}", INTEGER, value=b.quantity_difference)
            num(ws, row, 7, round(b.total_usd_a, 2), USD0)
            num(ws, row, 8, round(b.total_usd_b, 2), USD0)
            formula(ws, row, 9, f"={ref(row, 8)}-{ref(row, 7)}", USD0, value=round(b.cost_difference_usd, 2))
            row += 1
        text(ws, row, 8, "Total", font=BOLD)
        total = round(sum(b.cost_difference_usd for b in d.bom), 2)
        formula(ws, row, 9, f"=SUM({ref(first, 9)}:{ref(max(first, row - 1), 9)})" if d.bom else "=0", USD0,
                value=total, font=BOLD)
        if "capex_usd" in rows:
            row += 1
            text(ws, row, 8, "Capex difference")
            formula(ws, row, 9, f"={ref(rows['capex_usd'], 4 + n + d_index)}", USD0,
                    value=d.totals["capex_usd"])
        row += 2
        gained = sum(f.count for f in d.findings_gained)
        lost = sum(f.count for f in d.findings_lost)
        text(ws, row, 1, f"Findings, {d.side} against {d.against}: {gained} gained, {lost} lost", font=BOLD)
        row += 1
        header(ws, row, ["Gained/lost", "Severity", "Check", "Count", "Message"])
        row += 1
        for word, found in (("gained", d.findings_gained), ("lost", d.findings_lost)):
            for f in grouped_differences(found):
                text(ws, row, 1, word)
                text(ws, row, 2, f.severity)
                text(ws, row, 3, f.code)
                num(ws, row, 4, f.count, INTEGER)
                text(ws, row, 5, f.message)
                row += 1
    widths(ws, {1: 30, 2: 18, 3: 44, **{4 + i: 16 for i in range(n + 2 * len(c.differences))}})
