"""The Summary, Racks, Network and Checks sheets.

Why it is long: four sheets, each a table with its own columns and formats.
"""

from __future__ import annotations

import datetime as dt
from copy import copy
from typing import Any

from openpyxl.styles import Alignment, Border, Side
from openpyxl.worksheet.pagebreak import Break

from planner.vocabulary import excel_format
from planner.report import labels
from planner.costs.bom import COUNTED, bom_counts
from planner.export.xlsx_bom import COUNT_NAMES
from planner.hardware.catalog import Catalog
from planner.export.rack_columns import TOTAL_FORMAT, WORKBOOK_RACKS
from planner.export.table_columns import formula_at, headers, position
from planner.export.xlsx_cells import (
    BOLD, INTEGER, CATEGORY_FILLS, CATEGORY_FONTS, EMPTY_U_FILL, TITLE, WRAP, fit_height, formula, header, num, text,
    widths,
)
from planner.plan.model import Plan
from planner.plan.rack_types import GROUP_RACKS_ABOVE, RackType, rack_types
from planner.report.model import Report
from planner.settings.costs import RENTAL_OPTIONS
from planner.report import palette

RACKS_PER_BAND = 6
THIN = Side(style="thin", color=palette.sheet_color(palette.SHEET_GRID))
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
RIGHT = Alignment(horizontal="right")
SHRINK = Alignment(shrink_to_fit=True, vertical="center")


def write_summary(ws, plan: Plan, report: Report, *, exported: dt.datetime) -> None:
    t = report.totals
    text(ws, 1, 1, "GPU Cluster Planner: plan summary", font=TITLE)
    rows: list[tuple[str, Any, str | None]] = [
        ("Plan", plan.title, None),
        ("Exported", exported.strftime("%Y-%m-%d %H:%M"), None),
        ("Power basis", report.power_basis, None),
        ("GPUs", t.gpus, "#,##0"),
        ("GPU nodes", t.nodes, "#,##0"),
        ("Racks", t.racks, "#,##0"),
        ("IT power", t.it_power_kw, excel_format("kW")),
        ("Facility power at PUE", t.facility_power_kw, excel_format("kW")),
    ]
    r = 3
    for label, value, fmt in rows:
        text(ws, r, 1, label, font=BOLD)
        if isinstance(value, str):
            text(ws, r, 2, value).alignment = WRAP
        else:
            num(ws, r, 2, value, fmt)
        r += 1
    counts = bom_counts(report.cost.bom)
    for kind, title in COUNTED.items():
        text(ws, r, 1, title, font=BOLD)
        formula(ws, r, 2, f"={COUNT_NAMES[kind]}", "#,##0", value=counts[kind])
        note = "from the bill of materials"
        if kind == "cdu":
            note += f" (the cooling policy needs {t.cdus:,}; {t.cdus_placed:,} placed in racks)"
        text(ws, r, 3, note)
        r += 1
    r += 1
    text(ws, r, 1, "Costs (live from the Costs sheet)", font=BOLD)
    r += 1
    money = excel_format("$")
    cost = report.cost.result
    for label, name, fmt, value in [("Capex", "capex", money, cost.capex_usd),
                                    ("Opex per month", "opex_month", money, cost.opex_usd_per_month),
                                    ("Total cost of ownership over the horizon", "tco_usd", money, cost.tco_usd),
                                    ("Horizon (months)", "horizon", "0", cost.horizon_months)]:
        text(ws, r, 1, label)
        formula(ws, r, 2, f"={name}", fmt, value=value)
        r += 1
    for option, title in RENTAL_OPTIONS.items():
        text(ws, r, 1, f"Break-even vs {title}")
        formula(ws, r, 2, f"=break_even_text_{option}", value=cost.break_even_text[option])
        r += 1
    counts = report.counts_by_severity()
    r += 1
    text(ws, r, 1, "Findings", font=BOLD)
    text(ws, r, 2, f"{counts['error']} errors, {counts['warning']} warnings, {counts['info']} info (see Checks)")
    if plan.description:
        # Last, wrapped in its cell with the rows it needs, so it never runs over other rows.
        r += 2
        text(ws, r, 1, "Description", font=BOLD).alignment = WRAP
        text(ws, r, 2, plan.description).alignment = WRAP
        ws.row_dimensions[r].height = 15 * max(1, sum(len(p) // 70 + 1 for p in plan.description.splitlines()))
    widths(ws, {1: 42, 2: 75})


def write_racks(ws, plan: Plan, catalog: Catalog, report: Report) -> None:
    """A table of power per rack against its cap, then each rack's elevation: one row per
    U (top U first), devices coloured by category and labelled in their top U."""
    power = plan.settings.power
    pdu = catalog.get(power.pdu_device)
    pdu_kw = pdu.pdu_kw(power.continuous_derating) if pdu is not None else None
    text(ws, 1, 1, "Racks", font=TITLE)
    columns = WORKBOOK_RACKS
    header(ws, 2, headers(columns))
    first = r = 3
    totals = [0] * len(columns)
    for res in report.racks:
        for j, c in enumerate(columns):
            value = c.value(res, catalog)
            if c.formula:
                formula(ws, r, j + 1, formula_at(columns, c.formula, r), c.number_format, value=value)
            elif isinstance(value, str):
                text(ws, r, j + 1, value)
            elif value is not None:
                num(ws, r, j + 1, value, c.number_format)
                totals[j] += value
        r += 1
    last = r - 1
    text(ws, r, 1, "Total", font=BOLD)
    if last >= first:
        for j, c in enumerate(columns):
            if c.total_formula:
                formula(ws, r, j + 1, formula_at(columns, c.total_formula, r, first, last),
                        c.number_format if c.unit == "kW" else TOTAL_FORMAT, value=totals[j], font=BOLD)
    r += 1
    counts = bom_counts(report.cost.bom)
    text(ws, r, 1, "In the bill of materials", font=BOLD)
    formula(ws, r, position(columns, "cdus"), "=bom_cdus", TOTAL_FORMAT, value=counts["cdu"])
    formula(ws, r, position(columns, "pdus"), "=bom_pdus", TOTAL_FORMAT, value=counts["pdu"])
    r += 1
    text(ws, r, 1, f"Power on the {report.power_basis} basis; PDUs sized on the nameplate: "
                   + (f"{pdu_kw:.1f} kW each" if pdu_kw else "model not in catalog")
                   + f", feeds {power.feed_redundancy}"
                   + ". The bill of materials adds the CDUs the cooling policy needs beyond those placed.")
    top = r + 2
    types = rack_types(plan) if len(plan.racks) > GROUP_RACKS_ABOVE else None
    if types is None:
        text(ws, top, 1, "Elevations (top U first)", font=BOLD)
        drawn = [(rack, rack.name, True) for rack in plan.racks]
    else:
        top = _type_index(ws, top, types)
        text(ws, top, 1, "Elevations by rack type (top U first)", font=BOLD)
        drawn = [(t.example, t.title, False) for t in types]
    top += 1
    band_height = 0
    styles: dict[int, Any] = {}
    for i, (rack, title, labelled) in enumerate(drawn):
        band, pos = divmod(i, RACKS_PER_BAND)
        if pos == 0 and i:
            top += band_height + 2
            band_height = 0
        if pos == 0:  # each band of racks starts a printed page: names and elevations stay together
            ws.row_breaks.append(Break(id=top - (2 if i == 0 else 1)))  # the first with the section title
        col = 1 + pos * 3
        band_height = max(band_height, rack.height_u + 2)
        _elevation(ws, top, col, plan, catalog, report, rack, styles, title=title, labelled=labelled)
    # Columns serve both the table above and the elevations (U, device, gap): widths suit both.
    widths(ws, {c: (16 if c % 3 == 1 else 34 if c % 3 == 2 else 11) for c in range(1, 3 * RACKS_PER_BAND + 1)})


def _type_index(ws, top: int, types: list[RackType]) -> int:
    """The rack index of a large plan: each rack type's racks as runs of neighbours; returns
    the row after it."""
    text(ws, top, 1, "Rack types", font=BOLD)
    text(ws, top + 1, 1, f"More than {GROUP_RACKS_ABOVE} racks: identical racks (same devices at the same U, same "
                         "height, cooling, power cap and weight rating) are drawn once, as their rack type; the "
                         "table above lists every rack.")
    header(ws, top + 2, ["Rack type", "Racks", "Count"])
    r = top + 3
    for t in types:
        for first, last, n in t.runs():
            text(ws, r, 1, f"Type {t.letter}")
            text(ws, r, 2, first if n == 1 else f"{first} … {last}")
            num(ws, r, 3, n)
            r += 1
    return r + 1


def _elevation(ws, top: int, col: int, plan: Plan, catalog: Catalog, report: Report, rack,
               styles: dict[Any, Any], *, title: str, labelled: bool = True) -> None:
    """One rack's elevation under ``title``; devices named by label and model, or (a rack type
    standing for many racks, ``labelled`` False) by model only."""
    res = report.rack(rack.id)
    text(ws, top, col, title, font=BOLD)
    if res is not None:
        text(ws, top + 1, col, f"{res.power_kw:,.1f} of {res.cap_kw:g} kW, {rack.cooling}")
    h = rack.height_u
    row_of = {u: top + 2 + (h - u) for u in range(1, h + 1)}
    # Each U's cell gets its fill once (device colour or empty): openpyxl hashes a style on
    # every assignment, which dominates the export of a plan with 3,000 racks.
    fills: dict[int, Any] = {}
    labels: list[tuple[int, str, str]] = []
    for p in plan.rack_members(rack.id).values():
        d = catalog.get(p.device)
        if d is None:
            continue
        fill = CATEGORY_FILLS.get(d.category, CATEGORY_FILLS["other"])
        span = [u for u in range(p.u, p.u + d.u_height) if u in row_of]
        for u in span:
            fills[u] = fill
        if span:
            name = f"{p.label or p.id}: {d.model}" if labelled else d.model
            height = f" ({d.u_height}U)" if d.u_height > 1 and not d.height_named else ""
            labels.append((span[-1], name + height, d.category))
    for u in range(1, h + 1):
        number = num(ws, row_of[u], col, u)
        cell = ws.cell(row=row_of[u], column=col + 1)
        fill = fills.get(u, EMPTY_U_FILL)
        # Style the first cell of each kind, then copy its style array: assigning a style
        # object hashes it every time, which dominated the export of 8,000 racks.
        if "u" not in styles:
            number.alignment = RIGHT
            styles["u"] = number._style
        number._style = copy(styles["u"])
        if id(fill) not in styles:
            cell.fill, cell.border = fill, BOX
            styles[id(fill)] = cell._style
        cell._style = copy(styles[id(fill)])
    for u, label, category in labels:
        # in the colour that reads on the fill, shrunk to the cell rather than running over the next rack
        text(ws, row_of[u], col + 1, label, font=CATEGORY_FONTS.get(category, CATEGORY_FONTS["other"])).alignment = SHRINK


def write_network(ws, report: Report, catalog: Catalog | None = None) -> None:
    """The network section with human labels and units (``planner.report.labels``): one row per
    figure (value, unit), per-tier figures one row per tier, then the fabric comparison
    and scaling tables with labelled columns."""
    text(ws, 1, 1, "Network", font=TITLE)
    net = report.network
    if net is None:
        text(ws, 3, 1, "No fabric sizing: see the Checks sheet")
        return
    header(ws, 3, ["Figure", "Value", "Unit"])
    r = 4
    tables: list[tuple[str, tuple]] = []
    rows: list[tuple[str, object]] = []
    for meta, value in net.figures():
        if meta.name == "sizing":
            rows += [(k, v) for k, v in _flatten(value.to_json() if value is not None else {}, "sizing.")
                     if k not in SIZING_REPEATS]
        elif isinstance(value, tuple):
            if value:
                tables.append((meta.name, value))
        else:
            rows.append((meta.name, value))
    counts = bom_counts(report.cost.bom) if report.cost is not None else None
    for key, value in rows:
        if key in ("cables_per_tier", "transceivers_per_tier") and counts is not None:
            continue  # by tier in the bill of materials
        if key in ("cables", "transceivers") and counts is not None:
            kind = key[:-1]  # the bill of materials is the one source of these counts
            text(ws, r, 1, f"{labels.label('network', key)} (bill of materials, by tier there)")
            formula(ws, r, 2, f"={COUNT_NAMES[kind]}", "#,##0", value=counts[kind])
            r += 1
            continue
        if isinstance(value, dict):
            for sub, v in value.items():
                text(ws, r, 1, f"{labels.label('network', key)}: {sub}")
                _value(ws, r, "network", key, v, catalog)
                r += 1
            continue
        text(ws, r, 1, labels.label("network", key))
        _value(ws, r, "network", key, value, catalog)
        r += 1
    for key, records in tables:
        r += 1
        text(ws, r, 1, labels.label("network", key), font=BOLD)
        r += 1
        cols = [c for c in records[0].figure_names() if c not in ("title", "fabric")]
        first = "fabric" in records[0]
        titles = (["Fabric"] if first else []) + [labels.column(key, c) for c in cols]
        header(ws, r, titles)
        for rec in records:
            r += 1
            j = 1
            if first:
                text(ws, r, 1, rec.title or labels.describe("network", "fabric", rec.fabric)[1])
                j = 2
            for c in cols:
                v = getattr(rec, c)
                if isinstance(v, bool):
                    text(ws, r, j, "yes" if v else "")
                elif isinstance(v, (int, float)):
                    num(ws, r, j, v, INTEGER if float(v).is_integer() else "#,##0.0##")
                else:
                    text(ws, r, j, "" if v is None else str(v))
                j += 1
        r += 1
    widths(ws, {1: 48, 2: 24, 3: 14} | {c: 16 for c in range(4, 12)})


def _value(ws, r: int, section: str, key: str, value, catalog) -> None:
    unit = labels.unit(section, key)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        num(ws, r, 2, value, INTEGER if float(value).is_integer() else "#,##0.0##")
        text(ws, r, 3, unit)
    else:
        text(ws, r, 2, labels.describe(section, key, value, catalog)[1])


# Sizing figures that repeat the section's own rows.
SIZING_REPEATS = frozenset({"sizing.tiers", "sizing.leaf_switches", "sizing.spine_switches", "sizing.core_switches",
                            "sizing.cables_per_tier", "sizing.transceivers_per_tier"})


def _flatten(data: dict, prefix: str = ""):
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and key == "ports_per_tier":
            yield from _flatten(value, f"{name}.")
        else:
            yield name, value


def write_checks(ws, report: Report) -> None:
    text(ws, 1, 1, "Checks", font=TITLE)
    header(ws, 2, ["Severity", "Code", "Message", "Where"])
    for i, f in enumerate(report.findings):
        r = 3 + i
        text(ws, r, 1, f.severity)
        text(ws, r, 2, f.code)
        text(ws, r, 3, f.message).alignment = WRAP
        fit_height(ws, r, f.message, 110)
        text(ws, r, 4, f.where or "")
    if not report.findings:
        text(ws, 3, 1, "No findings")
    ws.freeze_panes = "A3"
    widths(ws, {1: 10, 2: 34, 3: 110, 4: 20})
