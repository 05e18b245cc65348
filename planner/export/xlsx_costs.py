"""The Assumptions and Costs sheets: every cost input as a named cell, every cost figure
as a formula over those names, so a finance team can audit and change them in Excel.

The formulas are the ones ``planner.costs.model`` documents; the report's figures and the
recalculated workbook agree to the cent (a test recalculates with LibreOffice).

Why it is long: every cost input is a named cell with its source and every cost figure a
formula, one line each.
"""

from __future__ import annotations

from typing import get_args

from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from planner.settings import FacilitySettings, field_meta
from planner.costs.model import CostResult
from planner.settings.costs import HORIZON_MAX_MONTHS, RENTAL_OPTIONS, CostSettings
from planner.export.xlsx_cells import (
    BOLD, KW, MONTHS, NA, RATE, SERIES_COLOURS, TITLE, USD, WRAP, define, fit_height, formula, header, num, ref, text, widths,
)

ASSUMPTIONS = "Assumptions"
COSTS = "Costs"
# Inputs that change quantities in the bill of materials: the export applies them.
AT_EXPORT = {"node_leaf_dac", "colocation_basis"}
LIVE = "Costs (live formula)"
USD_FIELDS = {"colocation_usd_per_kw_month", "owned_facility_usd_per_node_year", "staffing_usd_per_year",
              "cable_usd", "transceiver_usd", "rack_usd", "rear_door_usd", "facility_power_usd_per_kw",
              "facility_cooling_usd_per_kw"}
# Inputs a BOM unit price is a formula of.
BOM_PRICES = ("cable_usd", "transceiver_usd", "rack_usd", "rear_door_usd", "facility_power_usd_per_kw",
              "facility_cooling_usd_per_kw")


def write_assumptions(wb, *, costs: CostSettings, gpus: int, nodes: int, it_kw: float, energy_kw: float,
                      pue: float, power_basis: str, billed_kw: float, tokens_per_s: float | None = None,
                      job_gpus: int | None = None, rent_factor: float = 1.0) -> None:
    """One row per input (title, value, unit, source, defined name, where it is used).
    ``rent_factor``: the plan's GPUs' rental rate against an H100's as the report worked it
    out, written where the setting is empty (by price) so the rent formulas read a number."""
    ws = wb.create_sheet(ASSUMPTIONS)
    text(ws, 1, 1, "Assumptions", font=TITLE)
    text(ws, 2, 1, "Every input of the cost model with its unit and source. Change a value in column B and the "
                   "Costs sheet recalculates; inputs used at export change BOM quantities: export again to apply them.")
    header(ws, 3, ["Input", "Value", "Unit", "Source", "Name", "Used in"])
    row = 4
    pue_meta = field_meta(FacilitySettings, "pue")
    plan_rows = [
        ("plan_gpus", "GPUs", gpus, "GPUs", "Counted from the GPU nodes placed in the plan", "0"),
        ("plan_job_gpus", "GPUs the job runs on", gpus if job_gpus is None else job_gpus, "GPUs",
         "The GPUs placed less the hot spares, which wait idle: what renting pays for (a cloud replaces its own "
         "failed nodes) and what delivers GPU-hours", "0"),
        ("plan_tokens_per_s", "Training throughput", tokens_per_s or 0, "tokens/s",
         "The network section's training throughput for the plan's workload (0 when it has none)", "#,##0.0"),
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
        fmt = (USD if name in USD_FIELDS else RATE if "usd_per" in name else "0.000" if name == "rent_gpu_factor" else
               "0.0%" if name.endswith("_pct") or "_pct_" in name or name == "discount_rate" else None)
        used = "Bill of materials (applied at export)" if name in AT_EXPORT else LIVE
        if name in BOM_PRICES:
            used = "BOM unit price (live formula)"
        if name == "rent_gpu_factor" and value is None:  # empty: the ratio by price, as the report has it
            value, used = rent_factor, f"{LIVE}; by price (the setting is empty)"
        row = _row(wb, ws, row, name, meta["title"], value, meta["unit"], meta["source"], fmt, used)
        if name == "opex_mode":
            choices = ",".join(get_args(CostSettings.model_fields[name].annotation))
            dv = DataValidation(type="list", formula1=f'"{choices}"', allow_blank=False)
            ws.add_data_validation(dv)
            dv.add(f"B{row - 1}")
        if name == "horizon_months":  # the month-by-month table has rows up to the maximum
            dv = DataValidation(type="whole", operator="between", formula1="1", formula2=str(HORIZON_MAX_MONTHS),
                                allow_blank=False, showErrorMessage=True, errorTitle="Horizon",
                                error=f"A whole number of months from 1 to {HORIZON_MAX_MONTHS}")
            ws.add_data_validation(dv)
            dv.add(f"B{row - 1}")
    ws.freeze_panes = "A4"
    widths(ws, {1: 44, 2: 16, 3: 28, 4: 90, 5: 34, 6: 34})


def _row(wb, ws, row, name, title, value, unit, source, fmt, used) -> int:
    text(ws, row, 1, title)
    if isinstance(value, str):
        text(ws, row, 2, value)
    else:
        num(ws, row, 2, value, fmt)
    text(ws, row, 3, unit)
    text(ws, row, 4, source).alignment = WRAP
    fit_height(ws, row, source, 90)
    text(ws, row, 5, name)
    text(ws, row, 6, used)
    define(wb, name, ASSUMPTIONS, row, 2)
    return row + 1


def write_costs(wb, result: CostResult, settings: CostSettings) -> None:
    """Capex from the BOM total plus the project costs; opex, rent, break-even, TCO, NPV and
    IRR as formulas over the Assumptions names; straight-line depreciation by year; a
    month-by-month table of cumulative cost and its chart, both following the horizon set
    on Assumptions (up to ``HORIZON_MAX_MONTHS``).

    Each formula carries the value the cost model computed (``result``), so the sheet
    reads right before any recalculation."""
    ws = wb.create_sheet(COSTS)
    text(ws, 1, 1, "Costs: build vs rent", font=TITLE)
    header(ws, 3, ["Figure", "Value", "Unit", "Formula"])
    r_ = result
    p = r_.project_costs_usd
    delivered = "plan_job_gpus*hours_per_month*horizon_months*utilisation"
    tokens = "plan_tokens_per_s*3600*hours_per_month*horizon_months*utilisation"
    per_h = r_.cost_per_gpu_hour.get("build")
    per_tok = r_.cost_per_million_tokens_usd
    cur = r_.usd_exchange_rate
    figures = [
        ("capex_hardware", "Hardware (bill of materials)", "=BOM_Total", USD, "$", "BOM grand total", r_.hardware_usd),
        ("capex_spares", "Spare parts", "=spares_pct*capex_hardware", USD, "$", "spares % x hardware", p["spares"]),
        ("capex_installation", "Installation and integration", "=installation_pct*capex_hardware", USD, "$",
         "installation % x hardware", p["installation"]),
        ("capex_shipping", "Shipping and insurance", "=shipping_pct*capex_hardware", USD, "$",
         "shipping % x hardware", p["shipping"]),
        ("capex_tax", "Sales / use tax", "=tax_pct*(capex_hardware+capex_spares)", USD, "$",
         "tax % x (hardware + spares)", p["tax"]),
        ("capex_contingency", "Contingency",
         "=contingency_pct*(capex_hardware+capex_spares+capex_installation+capex_shipping+capex_tax)", USD, "$",
         "contingency % x everything above", p["contingency"]),
        ("capex", "Capex", "=capex_hardware+capex_spares+capex_installation+capex_shipping+capex_tax+capex_contingency",
         USD, "$", "hardware + project costs", r_.capex_usd),
        ("energy_month", "Energy per month", "=plan_energy_kw*plan_pue*hours_per_month*electricity_usd_per_kwh", USD,
         "$/month", "IT kW x PUE x hours per month x $/kWh", r_.energy_usd_per_month),
        ("facility_month", "Facility per month",
         '=IF(opex_mode="owned",owned_facility_usd_per_node_year*plan_nodes/12,colocation_usd_per_kw_month*plan_billed_kw)',
         USD, "$/month", "colocation: $/kW/month x billed kW; owned: $/node/year x nodes / 12", r_.facility_usd_per_month),
        ("staffing_month", "Staffing per month", "=staffing_usd_per_year/12", USD, "$/month", "staffing per year / 12",
         r_.staffing_usd_per_month),
        ("support_month", "Support and warranty per month", "=support_pct_per_year*capex_hardware/12", USD,
         "$/month", "support % per year x hardware / 12", r_.support_usd_per_month),
        ("software_month", "Software licences per month", "=software_usd_per_gpu_year*plan_gpus/12", USD,
         "$/month", "$/GPU/year x GPUs / 12", r_.software_usd_per_month),
        ("opex_month", "Opex per month", "=energy_month+facility_month+staffing_month+support_month+software_month",
         USD, "$/month", "energy + facility + staffing + support + software", r_.opex_usd_per_month),
        ("horizon", "Horizon", "=horizon_months", "0", "months", "Assumptions", r_.horizon_months),
        ("tco_usd", "Total cost of ownership over the horizon", "=capex+opex_month*horizon", USD, "$",
         "capex + opex x horizon", r_.tco_usd),
        ("build_per_gpu_h", "Cost per delivered GPU-hour, build",
         f'=IF({delivered}>0,tco_usd/({delivered}),"-")', RATE, "$/GPU-h",
         "TCO / (the job's GPUs x hours per month x horizon x utilisation)", "-" if per_h is None else per_h),
        ("build_per_m_tokens", "Cost per million training tokens, build",
         f'=IF({tokens}>0,tco_usd/({tokens})*1000000,"-")', RATE, "$/M tokens",
         "TCO / (tokens/s x 3,600 x hours per month x horizon x utilisation) x 10^6",
         "-" if per_tok is None else per_tok),
        ("depreciation_year", "Depreciation per year (straight line)", "=capex/depreciation_years", USD, "$/year",
         "capex / years", r_.depreciation_usd_per_year),
        ("discount_month", "Discount rate per month", "=(1+discount_rate)^(1/12)-1", "0.000%", "per month",
         "(1 + annual rate)^(1/12) - 1", (1 + settings.discount_rate) ** (1 / 12) - 1),
        ("capex_currency", "Capex in the reporting currency", "=capex*usd_exchange_rate", "#,##0.00", r_.currency,
         "capex x exchange rate", r_.capex_usd * cur),
        ("opex_currency", "Opex per month in the reporting currency", "=opex_month*usd_exchange_rate", "#,##0.00",
         f"{r_.currency}/month", "opex x exchange rate", r_.opex_usd_per_month * cur),
        ("tco_currency", "TCO in the reporting currency", "=tco_usd*usd_exchange_rate", "#,##0.00", r_.currency,
         "TCO x exchange rate", r_.tco_usd * cur),
    ]
    for i, (name, title, expr, fmt, unit, how, value) in enumerate(figures):
        r = 4 + i
        text(ws, r, 1, title)
        formula(ws, r, 2, expr, fmt, value=value, font=BOLD if name in ("capex", "opex_month", "tco_usd") else None)
        if name.endswith("_currency"):  # the currency code follows the Assumptions
            formula(ws, r, 3, '=currency&"/month"' if unit.endswith("/month") else "=currency", value=unit)
        else:
            text(ws, r, 3, unit)
        text(ws, r, 4, how)
        define(wb, name, COSTS, r, 2)

    top = 4 + len(figures) + 1
    header(ws, top, ["Rental option", "Rate ($/GPU-h)", "Rent per month", "Rent over the horizon",
                     "Break-even (months)", "Cost per delivered GPU-hour", "Break-even",
                     "NPV of building", "IRR of building (per year)"])
    rate_names = {"spot": "rent_spot_usd_per_gpu_h", "reserved_1yr": "rent_reserved_1yr_usd_per_gpu_h",
                  "reserved_3yr": "rent_reserved_3yr_usd_per_gpu_h", "on_demand": "rent_on_demand_usd_per_gpu_h"}
    rent_rows: dict[str, int] = {}
    first_month_row = top + len(RENTAL_OPTIONS) + 4 + DEPRECIATION_YEARS_MAX + 3 + 2  # the monthly table's month 0
    for i, (option, title) in enumerate(RENTAL_OPTIONS.items()):
        r = top + 1 + i
        rent_rows[option] = r
        month = r_.break_even_months.get(option)
        words = r_.break_even_text.get(option, "never")
        text(ws, r, 1, title)
        formula(ws, r, 2, f"={rate_names[option]}*rent_gpu_factor", RATE,
                value=settings.rental_rates(r_.rent_gpu_factor)[option])
        formula(ws, r, 3, f"=plan_job_gpus*hours_per_month*utilisation*B{r}*(1+rent_uplift)", USD,
                value=r_.rent_usd_per_month[option])
        formula(ws, r, 4, f"=C{r}*horizon_months", USD, value=r_.rent_total_usd[option])
        m = f"capex/(C{r}-opex_month)"
        later = '"not within "&horizon_months&" months"'
        formula(ws, r, 5, f'=IF(C{r}-opex_month>0,IF({m}<=horizon_months,ROUND({m},1),{later}),"never")', MONTHS,
                value=words if month is None else month)
        formula(ws, r, 6, f"=B{r}*(1+rent_uplift)", RATE, value=r_.cost_per_gpu_hour[option])
        formula(ws, r, 7, f'=IF(ISNUMBER(E{r}),"month "&FIXED(E{r},1),E{r})', value=words)
        # the cash flows of building instead of renting: hidden columns beside the monthly table
        col = get_column_letter(CHART_DATA_COLUMN + 2 + len(RENTAL_OPTIONS) + i)
        flows0, flows1 = f"{col}{first_month_row}", f"{col}{first_month_row + 1}"
        flows_end = f"{col}{first_month_row + HORIZON_MAX_MONTHS}"
        formula(ws, r, 8, f"=-capex+NPV(discount_month,{flows1}:{flows_end})", USD, value=r_.npv_usd[option])
        irr = r_.irr.get(option)
        formula(ws, r, 9, f'=IFERROR((1+IRR({flows0}:{flows_end},0.01))^12-1,"-")', "0.0%",
                value="-" if irr is None else irr)
        define(wb, f"rent_month_{option}", COSTS, r, 3)
        define(wb, f"break_even_{option}", COSTS, r, 5)
        define(wb, f"break_even_text_{option}", COSTS, r, 7)
        define(wb, f"npv_{option}", COSTS, r, 8)
        define(wb, f"irr_{option}", COSTS, r, 9)
    note = top + len(RENTAL_OPTIONS) + 1
    text(ws, note, 1, "Rent = the job's GPUs x hours per month x utilisation x rate x (1 + uplift): renting pays only "
                      "for the "
                      "hours used. Break-even = capex / (rent - opex), to 0.1 month: 'month N'; 'not within N months' "
                      "when it comes after the horizon; 'never' when renting costs no more than opex.")
    text(ws, note + 1, 1, "NPV and IRR of building instead of renting: -capex in month 0, then rent - opex at the end "
                          "of each month of the horizon, discounted monthly at the discount rate; IRR per year = "
                          "(1 + monthly IRR)^12 - 1; '-' when building never saves.")
    d = note + 3
    text(ws, d, 1, f"Depreciation, straight line over the years on Assumptions (at most {DEPRECIATION_YEARS_MAX})",
         font=BOLD)
    header(ws, d + 1, ["Year", "Depreciation", "Book value at year end"])
    years = settings.depreciation_years
    for y in range(1, DEPRECIATION_YEARS_MAX + 1):
        r = d + 1 + y
        shown = y <= years
        formula(ws, r, 1, f'=IF({y}<=depreciation_years,{y},"")', "0", value=y if shown else "")
        formula(ws, r, 2, f'=IF(ISNUMBER(A{r}),depreciation_year,"")', USD,
                value=r_.depreciation_usd_per_year if shown else "")
        formula(ws, r, 3, f'=IF(ISNUMBER(A{r}),capex-depreciation_year*A{r},"")', USD,
                value=r_.capex_usd - r_.depreciation_usd_per_year * y if shown else "")
    t = d + DEPRECIATION_YEARS_MAX + 3
    assert t + 2 == first_month_row
    _monthly(wb, ws, t, rent_rows, r_)
    ws.freeze_panes = "A4"
    widths(ws, {1: 40, 2: 18, 3: 18, 4: 24, 5: 22, 6: 26, 7: 24, 8: 18, 9: 16})


DEPRECIATION_YEARS_MAX = 10  # the depreciation setting's maximum


CHART_DATA_COLUMN = 22  # column V: the chart (anchored at I3, about 12 columns wide) ends before it


def _monthly(wb, ws, t: int, rent_rows: dict[str, int], result: CostResult) -> None:
    """Cumulative cost by month for months 0..HORIZON_MAX_MONTHS; rows past the horizon
    set on Assumptions stay blank, so the table follows the horizon when it is edited.
    The chart plots hidden columns that hold #N/A past the horizon (a gap, not a zero)."""
    h = result.horizon_months
    text(ws, t, 1, f"Cumulative cost by month (months 0 to the horizon on Assumptions; at most "
                   f"{HORIZON_MAX_MONTHS})", font=BOLD)
    options = list(RENTAL_OPTIONS)
    header(ws, t + 1, ["Month", "Build"] + list(RENTAL_OPTIONS.values()))
    helper = CHART_DATA_COLUMN  # first hidden chart column, right of the chart
    header(ws, t + 1, ["Chart: month", "Build"] + list(RENTAL_OPTIONS.values()), col=helper)
    opex, capex = result.opex_usd_per_month, result.capex_usd
    rents = result.rent_usd_per_month
    for m in range(HORIZON_MAX_MONTHS + 1):
        r = t + 2 + m
        shown = m <= h
        formula(ws, r, 1, f'=IF({m}<=horizon_months,{m},"")', "0", value=m if shown else "")
        formula(ws, r, 2, f'=IF(ISNUMBER(A{r}),capex+opex_month*A{r},"")', USD,
                value=capex + opex * m if shown else "")
        for j, option in enumerate(options):
            formula(ws, r, 3 + j, f'=IF(ISNUMBER(A{r}),$C${rent_rows[option]}*A{r},"")', USD,
                    value=rents[option] * m if shown else "")
        for j in range(2 + len(options)):
            src = ref(r, 1 + j)
            formula(ws, r, helper + j, f"=IF(ISNUMBER({src}),{src},NA())", value=(
                (m if j == 0 else capex + opex * m if j == 1 else rents[options[j - 2]] * m) if shown else NA))
        for j, option in enumerate(options):  # cash flows of building instead of renting (NPV, IRR)
            c = helper + 2 + len(options) + j
            if m == 0:
                formula(ws, r, c, "=-capex", value=-capex)
            else:
                formula(ws, r, c, f'=IF(ISNUMBER(A{r}),$C${rent_rows[option]}-opex_month,"")',
                        value=rents[option] - opex if shown else "")
    last = t + 2 + HORIZON_MAX_MONTHS
    header(ws, t + 1, [f"Building vs {title}: cash flow" for title in RENTAL_OPTIONS.values()],
           col=helper + 2 + len(options))
    for j in range(2 + 2 * len(options)):
        ws.column_dimensions[get_column_letter(helper + j)].hidden = True
    chart = ScatterChart()
    chart.title = "Cumulative cost: build vs rent"
    chart.style = 2
    chart.y_axis.title = "US dollars"
    chart.x_axis.title = "Month"
    chart.y_axis.numFmt = '"$"#,##0'
    chart.height, chart.width = 10, 20
    chart.visible_cells_only = False  # the series live in hidden columns
    xs = Reference(ws, min_col=helper, min_row=t + 2, max_row=last)
    for j in range(1 + len(options)):
        ys = Reference(ws, min_col=helper + 1 + j, min_row=t + 1, max_row=last)
        series = Series(ys, xs, title_from_data=True)
        series.marker.symbol = "none"
        series.smooth = False
        series.graphicalProperties.line.solidFill = SERIES_COLOURS[j % len(SERIES_COLOURS)]
        chart.series.append(series)
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    ws.add_chart(chart, "I3")
    # Print the table as far as the horizon at export (blank rows past it would print empty pages).
    ws.print_area = f"A1:{get_column_letter(CHART_DATA_COLUMN - 1)}{t + 2 + h}"
