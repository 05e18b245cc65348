"""The Campus sheet, for a plan of several data halls: a row per hall with its building,
racks, GPUs, IT power and design heat (the report's ``facility.halls``), each building's
subtotal row after its halls and the campus's after the buildings, both live SUM formulas,
so a figure typed into a hall's row carries into its building's and the campus's.
"""

from __future__ import annotations

from openpyxl.styles import Border, Side

from planner.export.xlsx_cells import BOLD, INTEGER, KW, TITLE, WRAP, formula, header, num, ref, text, widths
from planner.report import palette

CAMPUS = "Campus"
# (title, the hall's figure, number format): the columns after Building and Hall
COLUMNS = [("Racks", "racks", INTEGER), ("GPUs", "gpus", INTEGER),
           ("IT power, typical (kW)", "it_power_typical_kw", KW),
           ("IT power, nameplate (kW)", "it_power_nameplate_kw", KW),
           ("Design heat to liquid (kW)", "heat_liquid_kw", KW), ("Design heat to air (kW)", "heat_air_kw", KW),
           ("Facility water flow (l/min)", "water_l_min", KW)]
FIRST_ROW = 4
ABOVE = Border(top=Side(style="thin", color=palette.sheet_color(palette.SHEET_GRID)))


def several_halls(report) -> bool:
    facility = report.sections.get("facility")
    return facility is not None and len(facility.halls) > 1


def write_campus(ws, report) -> None:
    facility = report.sections["facility"]
    text(ws, 1, 1, "Campus: buildings and data halls", font=TITLE)
    text(ws, 2, 1, "One row per data hall (the report's figures; design heat at nameplate). Each building's "
                   "row adds up its halls' rows and the campus row the buildings' rows, as live formulas: edit "
                   "a hall's figures and its building's and the campus's follow.").alignment = WRAP
    ws.merge_cells(start_row=2, start_column=1, end_row=2, end_column=2 + len(COLUMNS))
    ws.row_dimensions[2].height = 30
    header(ws, 3, ["Building", "Hall"] + [title for title, _, _ in COLUMNS])
    for cell in ws[3]:
        cell.alignment = WRAP  # the figures' titles over two lines, the columns as narrow as their figures
    ws.row_dimensions[3].height = 30
    r = FIRST_ROW
    subtotals: list[tuple[int, dict[str, float]]] = []
    for b in facility.buildings:
        halls = [h for h in facility.halls if h.building == b.id]
        first = r
        for h in halls:
            text(ws, r, 1, b.name)
            text(ws, r, 2, h.name)
            for j, (_, key, fmt) in enumerate(COLUMNS):
                num(ws, r, 3 + j, getattr(h, key), fmt)
            r += 1
        sums = {key: sum(getattr(h, key) for h in halls) for _, key, _ in COLUMNS}
        _total_row(ws, r, b.name, "Building total",
                   lambda col: f"=SUM({ref(first, col)}:{ref(r - 1, col)})" if halls else "=0", sums)
        subtotals.append((r, sums))
        r += 1
    campus = {key: sum(s[key] for _, s in subtotals) for _, key, _ in COLUMNS}
    _total_row(ws, r + 1, "Campus", "All buildings",
               lambda col: "=" + "+".join(ref(row, col) for row, _ in subtotals), campus)
    ws.freeze_panes = ws.cell(row=FIRST_ROW, column=3)
    widths(ws, {1: 24, 2: 24} | {3 + j: 16 for j in range(len(COLUMNS))})


def _total_row(ws, r: int, first: str, second: str, expr, values: dict[str, float]) -> None:
    """A bold row of formulas (``expr(column)``), each cached with its value from ``values``."""
    text(ws, r, 1, first, font=BOLD).border = ABOVE
    text(ws, r, 2, second, font=BOLD).border = ABOVE
    for j, (_, key, fmt) in enumerate(COLUMNS):
        formula(ws, r, 3 + j, expr(3 + j), fmt, value=values[key], font=BOLD).border = ABOVE
