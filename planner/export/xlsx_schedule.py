"""The Schedule sheet: each phase's ready week and month, its critical part, GPUs online by
month and capex by quarter (``planner.schedule.model``) as live formulas.

The lead times, install and commissioning times and the deposit are rows of the Assumptions
sheet (with their sources). Each phase's row has a column per part class holding the lead
time's name where the phase needs that part ("-" where not), so raising a lead time on
Assumptions moves every phase that waits for it, the energized month, the GPUs online by
month and the capex by quarter (a test recalculates with LibreOffice). The month table runs
a year past the exported energization, or past the training run's end, so a later one still
shows; the training run's columns and figures are ``planner.export.xlsx_schedule_run``'s.
"""

from __future__ import annotations

from openpyxl.utils import get_column_letter

from planner.export.xlsx_cells import BOLD, TITLE, WRAP, define, formula, header, num, text, widths
from planner.export.xlsx_costs import ASSUMPTIONS, _row
from planner.export.xlsx_schedule_run import COLUMNS as RUN_COLUMNS
from planner.export.xlsx_schedule_run import (PhaseRanges, has_run, later_row, run_figures, run_header, run_row,
                                              table_months)
from planner.schedule.model import MONTH_DAYS, PART_NAMES, PARTS, WORK_DAYS_PER_WEEK
from planner.settings import field_meta
from planner.settings.costs import RENTAL_OPTIONS
from planner.settings.schedule import ScheduleSettings

SCHEDULE = "Schedule"
USED = "Schedule (live formula)"
EXTRA_MONTHS = 12  # months shown past the exported energization
_FIRST_PART_COL = 7  # G: the first part class's column
_MONTH = f"(365.25/12)"  # the workbook's average month, as MONTH_DAYS


def write_schedule(wb, report, settings) -> None:
    """The schedule inputs onto the Assumptions sheet, then the Schedule sheet."""
    sched = report.sections.get("schedule")
    if sched is None or not sched.phases:
        return
    _assumption_rows(wb, settings.schedule)
    ws = wb.create_sheet(SCHEDULE, index=len(wb.sheetnames) - 1)  # before Assumptions
    text(ws, 1, 1, "Schedule: phases, lead times, energization and capex by quarter", font=TITLE)
    text(ws, 2, 1, "Live formulas over the lead times on the Assumptions sheet. A phase is ready at the longest lead "
                   "time among the parts it needs ('-': not needed) + commissioning + racks installed by then x "
                   "crew-days per rack / (crews x 5 days a week); online from month ROUNDUP(weeks x 7 / "
                   f"{MONTH_DAYS:g} days); paid deposit % on order, the rest in its ready month.").alignment = WRAP
    ws.row_dimensions[2].height = 45
    parts = list(PARTS)
    last_part = _FIRST_PART_COL + len(parts) - 1
    cols = ["Phase", "Racks", "GPUs", "IT MW", "Racks installed by then", "Crews",
            *(PART_NAMES[p] for p in parts), "Longest lead", "Critical part", "Ready, weeks", "Online from month",
            "Capex weight", "Capex"]
    head = 4
    header(ws, head, cols)
    c_lead, c_crit, c_weeks, c_month, c_weight, c_capex = range(last_part + 1, last_part + 7)
    first, rows = head + 1, len(sched.phases)
    end = first + rows - 1
    letter = get_column_letter
    weights = f"${letter(c_weight)}${first}:${letter(c_weight)}${end}"
    for i, ph in enumerate(sched.phases):
        r = first + i
        text(ws, r, 1, ph.name)
        num(ws, r, 2, ph.racks, "#,##0")
        num(ws, r, 3, ph.gpus, "#,##0")
        num(ws, r, 4, ph.it_mw, "#,##0.000")
        num(ws, r, 5, ph.racks_installed, "#,##0.0")
        crews = max(1.0, ph.crew_racks * settings.schedule.crews_per_100_racks / 100)
        formula(ws, r, 6, f"=MAX(1,{ph.crew_racks}*crews_per_100_racks/100)", "0.00", value=crews)
        for j, part in enumerate(parts):
            if part in ph.parts:
                formula(ws, r, _FIRST_PART_COL + j, f"={part}_weeks", "0.0", value=sched.lead_weeks[part])
            else:
                text(ws, r, _FIRST_PART_COL + j, "-")
        span = f"{letter(_FIRST_PART_COL)}{r}:{letter(last_part)}{r}"
        lead = max((sched.lead_weeks[p] for p in ph.parts), default=0.0)
        formula(ws, r, c_lead, f"=MAX({span})", "0.0", value=lead)
        hdr = f"${letter(_FIRST_PART_COL)}${head}:${letter(last_part)}${head}"
        formula(ws, r, c_crit, f'=IF({letter(c_lead)}{r}=0,"installation",INDEX({hdr},1,MATCH({letter(c_lead)}{r},'
                f"{span},0)))", value=PART_NAMES.get(ph.critical_part, "installation"))
        formula(ws, r, c_weeks, f"={letter(c_lead)}{r}+hall_commissioning_weeks+E{r}*rack_install_days/"
                f"(F{r}*{WORK_DAYS_PER_WEEK})", "0.00", value=ph.ready_weeks)
        formula(ws, r, c_month, f"=ROUNDUP(ROUND({letter(c_weeks)}{r}*7/{_MONTH},9),0)", "0", value=ph.ready_month)
        num(ws, r, c_weight, ph.weight, "#,##0")
        formula(ws, r, c_capex, f"=capex*{letter(c_weight)}{r}/SUM({weights})", '"$"#,##0', value=ph.capex_usd)
    months = f"${letter(c_month)}${first}:${letter(c_month)}${end}"
    gpus = f"$C${first}:$C${end}"
    capex = f"${letter(c_capex)}${first}:${letter(c_capex)}${end}"
    r = end + 2
    figures = [
        ("sched_first_month", "First phase online from month", f"=MIN({months})", "0", sched.first_ready_month),
        ("sched_energized_month", "Energized from month", f"=MAX({months})", "0", sched.energized_month),
        ("sched_energized_weeks", "Energized, weeks after the order",
         f"=MAX(${letter(c_weeks)}${first}:${letter(c_weeks)}${end})", "0.00", sched.energized_weeks),
    ]
    for name, title, expr, fmt, value in figures:
        text(ws, r, 1, title, font=BOLD)
        formula(ws, r, 2, expr, fmt, value=value)
        text(ws, r, 3, name)
        define(wb, name, SCHEDULE, r, 2)
        r += 1
    r += 1
    header(ws, r, ["Month", "GPUs online"])
    run = has_run(sched)
    if run:
        run_header(ws, r)
    online = list(sched.gpus_online_by_month)
    ranges = PhaseRanges(months, gpus, f"$D${first}:$D${end}", capex)
    table_first, last_month, cached = r + 1, table_months(sched, EXTRA_MONTHS), {}
    for m in range(last_month + 1):
        r += 1
        num(ws, r, 1, m, "0")
        formula(ws, r, 2, f'=SUMIF({months},"<="&A{r},{gpus})', "#,##0", value=online[min(m, len(online) - 1)])
        if run:
            run_row(ws, r, table_first, m, sched, ranges, cached)
    month_rows = f"$A${table_first}:$A${r}", f"$B${table_first}:$B${r}"
    if run:
        r += 1
        later_row(ws, r, sched, cached)
    later = r
    r += 2
    header(ws, r, ["Quarter", "First month", "Capex"])
    paid = dict((q["quarter"], q["capex_usd"]) for q in sched.capex_by_quarter)
    for q in range((sched.energized_month + EXTRA_MONTHS) // 3 + 1):
        r += 1
        num(ws, r, 1, q + 1, "0")
        num(ws, r, 2, 3 * q, "0")
        deposit = f"deposit_pct/100*SUM({capex})+" if q == 0 else ""
        formula(ws, r, 3, f"={deposit}(1-deposit_pct/100)*SUMPRODUCT((INT({months}/3)={q})*{capex})", '"$"#,##0',
                value=paid.get(q + 1, 0.0))
    texts = report.cost.break_even_text if report.cost is not None else {}
    r = _renting_rows(wb, ws, r + 2, sched, month_rows, texts)
    if run:
        run_figures(wb, ws, r + 2, sched, table_first, later)
    widths(ws, {1: 30, 2: 10, 3: 10, 4: 10, 5: 12, 6: 8, **{c: 11 for c in range(_FIRST_PART_COL, c_capex + 1)},
                c_crit: 18, c_capex: 16, **({c: 16 for c in range(3, 3 + len(RUN_COLUMNS))} if run else {})})


def _renting_rows(wb, ws, r: int, sched, month_rows: tuple[str, str], texts: dict[str, str]) -> int:
    """Per rental option: renting the GPUs not yet online in the months before the energized
    month, at the Costs sheet's rent per month in proportion; and its break-even counted from
    the order."""
    header(ws, r, ["Rental option", "Renting while building", "Break-even after the order (months)"])
    months, online = month_rows
    for option, title in RENTAL_OPTIONS.items():
        r += 1
        text(ws, r, 1, title)
        # no GPU placed, nothing to rent: 0, not a division by zero
        formula(ws, r, 2, f"=IF(plan_gpus=0,0,rent_month_{option}*SUMPRODUCT(({months}<sched_energized_month)"
                f"*(plan_gpus-{online}))/plan_gpus)", '"$"#,##0', value=sched.rent_while_building_usd.get(option, 0.0))
        after = sched.break_even_month_after_order.get(option)
        formula(ws, r, 3, f'=IF(ISNUMBER(break_even_{option}),sched_energized_month+break_even_{option},'
                f'break_even_{option})', "0.0", value=after if after is not None else texts.get(option, "never"))
        define(wb, f"sched_rent_{option}", SCHEDULE, r, 2)
    return r


def _assumption_rows(wb, s: ScheduleSettings) -> None:
    ws = wb[ASSUMPTIONS]
    row = ws.max_row + 1
    for name in ScheduleSettings.model_fields:
        value = getattr(s, name)
        if isinstance(value, str):
            continue  # the order date and the phases: fixed in the exported schedule
        meta = field_meta(ScheduleSettings, name)
        row = _row(wb, ws, row, name, meta["title"], value, meta["unit"], meta["source"], None, USED)
