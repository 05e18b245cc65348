"""The workbook's Cables sheet: totals by part and length, then the cable schedule."""

from __future__ import annotations

from planner.costs.bom import CABLING
from planner.export.xlsx_cells import BOLD, TITLE, header, num, text, widths

def write_cables(ws, schedule, bom, limit_links: int = 0) -> None:
    """The cables and optics of the bill of materials (``bom``: its lines), then every
    link of ``schedule``; None: a plan of more than ``limit_links`` links, whose cabling the
    cost section priced per fabric tier (the schedule goes to CSV, ``cluster-planner cables --csv``)."""
    text(ws, 1, 1, "Cables", font=TITLE)
    text(ws, 2, 1, "Every link from rack/U/port to rack/U/port, its routed length, the stock length ordered and "
                   "its path (in-rack, in-row, in-hall, inter-hall, inter-building; cluster-planner cables PLAN "
                   "--csv FILE writes the same schedule).")
    header(ws, 4, ["Item (as in the BOM)", "Quantity", "Part priced"])
    r = 5
    for line in bom:
        if line.category != CABLING:
            continue
        text(ws, r, 1, line.item)
        num(ws, r, 2, line.quantity)
        text(ws, r, 3, line.part)
        r += 1
    r += 1
    text(ws, r, 1, "Schedule", font=BOLD)
    r += 1
    if schedule is None:
        text(ws, r, 1, f"More than {limit_links:,} links: more than this sheet lists (the cabling above is per "
                       "fabric tier); use cluster-planner cables PLAN --csv FILE")
        widths(ws, {1: 60, 2: 12})
        return
    header(ws, r, ["Link", "Network", "Tier", "From rack", "From U", "From device", "From port", "To rack", "To U",
                   "To device", "To port", "Gb/s", "Medium", "Route (m)", "Length (m)", "Part", "Path"])
    for i, link in enumerate(schedule.links, 1):
        r += 1
        values = [i, link.network, link.tier, link.a.rack, link.a.u, link.a.device, link.a.port, link.b.rack,
                  link.b.u, link.b.device, link.b.port, link.gbps, link.medium.name, round(link.length_m, 2),
                  link.medium.stock_m, link.part, link.route]
        for col, v in enumerate(values, 1):
            if isinstance(v, str):
                text(ws, r, col, v)
            else:
                num(ws, r, col, v)
    widths(ws, {1: 60, 2: 12, 3: 30, 4: 10, 5: 7, 6: 14, 7: 8, 8: 10, 9: 7, 10: 14, 11: 8, 12: 7, 13: 8, 14: 10,
                15: 10, 16: 40, 17: 14})
