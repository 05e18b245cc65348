"""The per-rack tables of the core's exports, each declared once: the workbook's Racks sheet
(``xlsx_layout.write_racks``) and NetBox's ``racks.csv`` (``netbox``, ``netbox_files``).

Workbook rows are ``(rack result, catalog)``; NetBox rows are ``(rack, site, location, name)``,
the name and location as the export made them unique and found them.
"""

from __future__ import annotations

from planner.export.table_columns import TableColumn
from planner.export.xlsx_cells import INTEGER, KW, PCT
from planner.vocabulary import excel_format


def _cdus(res, catalog) -> int:
    return catalog.placed(res.counts, "cdu")


WORKBOOK_RACKS: tuple[TableColumn, ...] = (
    TableColumn("rack", "Rack", lambda res, _: res.name),
    TableColumn("cooling", "Cooling", lambda res, _: res.cooling),
    TableColumn("power", "Power", lambda res, _: res.power_kw, "kW", number_format=excel_format("kW"),
                total_formula="=SUM({power.first}:{power.last})"),
    TableColumn("cap", "Cap (kW)", lambda res, _: res.cap_kw, "kW", number_format=KW,
                total_formula="=SUM({cap.first}:{cap.last})"),
    TableColumn("load", "Load", lambda res, _: res.power_kw / res.cap_kw if res.cap_kw > 0 else 0, "fraction",
                formula="=IF({cap}>0,{power}/{cap},0)", number_format=PCT),
    TableColumn("used_u", "U used", lambda res, _: res.used_u, "U"),
    TableColumn("height_u", "U height", lambda res, _: res.height_u, "U"),
    TableColumn("gpus", "GPUs", lambda res, _: res.gpus, total_formula="=SUM({gpus.first}:{gpus.last})"),
    TableColumn("cdus", "CDUs placed", _cdus, total_formula="=SUM({cdus.first}:{cdus.last})"),
    # sized on the rack's rating per feed, as the bill of materials sizes them; none without feeds
    TableColumn("pdus", "PDUs (nameplate)", lambda res, _: res.pdus if res.feeds else None,
                total_formula="=SUM({pdus.first}:{pdus.last})"),
)
TOTAL_FORMAT = INTEGER  # the workbook's total row and bill-of-materials row: whole counts (kW in their own format)

NETBOX_RACKS: tuple[TableColumn, ...] = (
    TableColumn("site", "site", lambda rack, site, location, name: site),
    TableColumn("location", "location", lambda rack, site, location, name: location),
    TableColumn("name", "name", lambda rack, site, location, name: name),
    TableColumn("status", "status", lambda *_: "planned"),
    TableColumn("width", "width", lambda *_: 19, "in"),
    TableColumn("u_height", "u_height", lambda rack, *_: rack.height_u, "U"),
    TableColumn("max_weight", "max_weight", lambda rack, *_: f"{rack.max_weight_kg:g}", "kg"),
    TableColumn("weight_unit", "weight_unit", lambda *_: "kg"),
    TableColumn("description", "description", lambda rack, *_: f"{rack.cooling}-cooled, {rack.power_cap_kw:g} kW cap"),
)
