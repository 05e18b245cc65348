"""The Assumptions and Costs sheets: every cost input as a named cell, every cost figure
as a formula over those names, so a finance team can audit and change them in Excel.

The formulas are the ones ``planner.costs.model`` documents; the report's figures and the
recalculated workbook agree to the cent (a test recalculates with LibreOffice).
"""

from __future__ import annotations

from typing import get_args

from openpyxl.chart import LineChart, Reference
from openpyxl.worksheet.datavalidation import DataValidation

from planner.settings import FacilitySettings, field_meta
from planner.settings.costs import RENTAL_OPTIONS, CostSettings
from planner.export.xlsx_cells import (
    BOLD, KW, MONTHS, RATE, TITLE, USD, WRAP, define, formula, header, num, text, widths,
)

ASSUMPTIONS = "Assumptions"
COSTS = "Costs"
# Inputs that change quantities in the bill of materials: the export applies them.
AT_EXPORT = {"node_leaf_dac", "colocation_basis"}
LIVE = "Costs (live formula)"
USD_FIELDS = {"colocation_usd_per_kw_month", "owned_facility_usd_per_node_year", "staffing_usd_per_year",
              "cable_usd", "transceiver_usd", "rack_usd", "facility_power_usd"}


def write_assumptions(wb, *, costs: CostSettings, gpus: int, nodes: int, it_kw: float, energy_kw: float,
                      pue: float, power_basis: str, billed_kw: float) -> None:
    """One row per input (title, value, unit, source, defined name, where it is used)."""
    ws = wb.create_sheet(ASSUMPTIONS)
    text(ws, 1, 1, "Assumptions", font=TITLE)
    text(ws, 2, 1, "Every input of the cost model with its unit and source. Change a value in column B and the "
                   "Costs sheet recalculates; inputs used at export change BOM quantities: export again to apply them.")
    header(ws, 3, ["Input", "Value", "Unit", "Source", "Name", "Used in"])
    row = 4
    pue_meta = field_meta(FacilitySettings, "pue")
    plan_rows = [
        ("plan_gpus", "GPUs", gpus, "GPUs", "Counted from the GPU nodes placed in the plan", "0"),
        ("plan_nodes", "GPU nodes", nodes, "nodes", "Counted from the plan", "0"),
        ("plan_it_kw", "IT power", it_kw, "kW", f"Sum of the placed devices on the plan's {power_basis} power basis", KW),
        ("plan_energy_kw", "IT power drawn on average", energy_kw, "kW",
         "Sum of the placed devices' typical draw: electricity is paid on what is drawn, not the rating", KW),
        ("plan_pue", pue_meta["title"], pue, "", pue_meta["source"], "0.00"),
        ("plan_billed_kw", "Colocation kW billed", billed_kw, "kW",
         f"The plan's kW on the '{costs.colocation_basis}' basis of the setting 'Colocation billed on' "
         "(committed = the racks' power caps)", KW),
    ]
    for name, title, value, unit, source, fmt in plan_rows:
        row = _row(wb, ws, row, name, title, value, unit, source, fmt, LIVE)
    for name in CostSettings.model_fields:
        meta = field_meta(CostSettings, name)
        value = getattr(costs, name)
        fmt = USD if name in USD_FIELDS else RATE if "usd_per" in name else None
        used = "Bill of materials (applied at export)" if name in AT_EXPORT else LIVE
        if name in ("cable_usd", "transceiver_usd", "rack_usd", "facility_power_usd"):
            used = "BOM unit price (live formula)"
        row = _row(wb, ws, row, name, meta["title"], value, meta["unit"], meta["source"], fmt, used)
        if name == "opex_mode":
            choices = ",".join(get_args(CostSettings.model_fields[name].annotation))
            dv = DataValidation(type="list", formula1=f'"{choices}"', allow_blank=False)
            ws.add_data_validation(dv)
            dv.add(f"B{row - 1}")
    ws.freeze_panes = "A4"
    widths(ws, {1: 44, 2: 16, 3: 14, 4: 90, 5: 34, 6: 34})


def _row(wb, ws, row, name, title, value, unit, source, fmt, used) -> int:
    text(ws, row, 1, title)
    if isinstance(value, str):
        text(ws, row, 2, value)
    else:
        num(ws, row, 2, value, fmt)
    text(ws, row, 3, unit)
    text(ws, row, 4, source).alignment = WRAP
    text(ws, row, 5, name)
    text(ws, row, 6, used)
    define(wb, name, ASSUMPTIONS, row, 2)
    return row + 1


def write_costs(wb, *, horizon_months: int) -> None:
    """Capex from the BOM total; opex, rent, break-even and TCO as formulas over the
    Assumptions names; a month-by-month table of cumulative cost and its line chart."""
    ws = wb.create_sheet(COSTS)
    text(ws, 1, 1, "Costs: build vs rent", font=TITLE)
    header(ws, 3, ["Figure", "Value", "Unit", "Formula"])
    delivered = "plan_gpus*hours_per_month*horizon_months*utilisation"
    figures = [
        ("capex", "Capex (bill of materials)", "=BOM_Total", USD, "$", "BOM grand total"),
        ("energy_month", "Energy per month", "=plan_energy_kw*plan_pue*hours_per_month*electricity_usd_per_kwh", USD,
         "$/month", "IT kW x PUE x hours per month x $/kWh"),
        ("facility_month", "Facility per month",
         '=IF(opex_mode="owned",owned_facility_usd_per_node_year*plan_nodes/12,colocation_usd_per_kw_month*plan_billed_kw)',
         USD, "$/month", "colocation: $/kW/month x IT kW; owned: $/node/year x nodes / 12"),
        ("staffing_month", "Staffing per month", "=staffing_usd_per_year/12", USD, "$/month", "staffing per year / 12"),
        ("opex_month", "Opex per month", "=B5+B6+B7", USD, "$/month", "energy + facility + staffing"),
        ("horizon", "Horizon", "=horizon_months", "0", "months", "Assumptions"),
        ("tco_usd", "Total cost of ownership over the horizon", "=B4+B8*B9", USD, "$", "capex + opex x horizon"),
        ("build_per_gpu_h", "Cost per delivered GPU-hour, build",
         f'=IF({delivered}>0,B10/({delivered}),"-")', RATE, "$/GPU-h",
         "TCO / (GPUs x hours per month x horizon x utilisation)"),
    ]
    for i, (name, title, expr, fmt, unit, how) in enumerate(figures):
        r = 4 + i
        text(ws, r, 1, title)
        formula(ws, r, 2, expr, fmt, font=BOLD if name in ("capex", "opex_month", "tco_usd") else None)
        text(ws, r, 3, unit)
        text(ws, r, 4, how)
        define(wb, name, COSTS, r, 2)

    top = 13
    header(ws, top, ["Rental option", "Rate ($/GPU-h)", "Rent per month", "Rent over the horizon",
                     "Break-even (months)", "Cost per delivered GPU-hour"])
    rate_names = {"spot": "rent_spot_usd_per_gpu_h", "reserved_1yr": "rent_reserved_1yr_usd_per_gpu_h",
                  "reserved_3yr": "rent_reserved_3yr_usd_per_gpu_h", "on_demand": "rent_on_demand_usd_per_gpu_h"}
    rent_rows: dict[str, int] = {}
    for i, (option, title) in enumerate(RENTAL_OPTIONS.items()):
        r = top + 1 + i
        rent_rows[option] = r
        text(ws, r, 1, title)
        formula(ws, r, 2, f"={rate_names[option]}", RATE)
        formula(ws, r, 3, f"=plan_gpus*hours_per_month*utilisation*B{r}*(1+rent_uplift)", USD)
        formula(ws, r, 4, f"=C{r}*horizon_months", USD)
        m = f"ROUND(capex/(C{r}-opex_month),1)"
        formula(ws, r, 5, f'=IF(C{r}-opex_month>0,IF({m}<=horizon_months,{m},"never"),"never")', MONTHS)
        formula(ws, r, 6, f"=B{r}*(1+rent_uplift)", RATE)
        define(wb, f"rent_month_{option}", COSTS, r, 3)
        define(wb, f"break_even_{option}", COSTS, r, 5)
    note = top + len(RENTAL_OPTIONS) + 1
    text(ws, note, 1, "Rent = GPUs x hours per month x utilisation x rate x (1 + uplift): renting pays only for the "
                      "hours used. Break-even = capex / (rent - opex), to 0.1 month; 'never' when renting costs no more "
                      "than opex or the month lies beyond the horizon.")

    t = note + 2
    text(ws, t, 1, f"Cumulative cost by month (months 0-{horizon_months}, the horizon at export)", font=BOLD)
    header(ws, t + 1, ["Month", "Build"] + list(RENTAL_OPTIONS.values()))
    for m in range(horizon_months + 1):
        r = t + 2 + m
        num(ws, r, 1, m, "0")
        formula(ws, r, 2, f"=capex+opex_month*A{r}", USD)
        for j, option in enumerate(RENTAL_OPTIONS):
            formula(ws, r, 3 + j, f"=$C${rent_rows[option]}*A{r}", USD)
    last = t + 2 + horizon_months
    chart = LineChart()
    chart.title = "Cumulative cost: build vs rent"
    chart.y_axis.title = "US dollars"
    chart.x_axis.title = "Month"
    chart.y_axis.numFmt = '"$"#,##0'
    chart.height, chart.width = 10, 20
    chart.add_data(Reference(ws, min_col=2, max_col=2 + len(RENTAL_OPTIONS), min_row=t + 1, max_row=last),
                   titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=t + 2, max_row=last))
    ws.add_chart(chart, "H3")
    ws.freeze_panes = "A4"
    widths(ws, {1: 40, 2: 18, 3: 18, 4: 24, 5: 20, 6: 26})
