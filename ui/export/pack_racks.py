"""The vendor pack's "Power and cooling per rack" table, declared once: each column's header,
width, value for a rack and cell in the "All racks" row.

Rows are ``(rack result, rack)``; the total row reads the report's totals.
"""

from __future__ import annotations

from planner.export.table_columns import TableColumn
from planner.report.elevation import load_text

POWER_PER_RACK: tuple[TableColumn, ...] = (
    TableColumn("rack", "Rack", lambda res, rack: res.name, total=lambda t: "All racks", width=1.4),
    TableColumn("row", "Row", lambda res, rack: rack.row if rack else "", width=0.7),
    TableColumn("cooling", "Cooling", lambda res, rack: res.cooling + (" + RDHX" if rack and rack.rear_door_hx else ""),
                width=0.8),
    TableColumn("used_u", "U used", lambda res, rack: f"{res.used_u}/{res.height_u}", "U",
                width=0.8, align="right"),
    TableColumn("gpus", "GPUs", lambda res, rack: f"{res.gpus:,}", total=lambda t: f"{t.gpus:,}", width=0.6,
                align="right"),
    TableColumn("typical", "Typical kW", lambda res, rack: f"{res.power_typical_kw:,.1f}", "kW",
                total=lambda t: f"{t.it_power_typical_kw:,.1f}", width=0.9, align="right"),
    TableColumn("nameplate", "Nameplate kW", lambda res, rack: f"{res.power_nameplate_kw:,.1f}", "kW",
                total=lambda t: f"{t.it_power_nameplate_kw:,.1f}", width=1.0, align="right"),
    TableColumn("cap", "Cap kW", lambda res, rack: f"{res.cap_kw:,.3g}", "kW", width=0.8,
                align="right"),
    TableColumn("load", "Load typical / nameplate",
                lambda res, rack: f"{load_text(res.load_on('typical'))} / {load_text(res.load_on('nameplate'))}",
                "fraction", width=1.3, align="right"),
    TableColumn("liquid", "Heat to liquid kW", lambda res, rack: f"{res.liquid_heat_milliwatts / 1e6:,.1f}", "kW",
                total=lambda t: f"{t.liquid_heat_milliwatts / 1e6:,.1f}", width=1.2, align="right"),
    TableColumn("weight", "Weight kg / rating", lambda res, rack: f"{res.weight_kg:,.0f} / {res.max_weight_kg:,.0f}",
                "kg", total=lambda t: f"{t.weight_kg:,.0f}", width=1.4, align="right"),
)
