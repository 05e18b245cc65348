"""The Schedule sheet's training run on the calendar (``planner.schedule.run_cost``) as live
formulas: columns of the month table (GPUs training, the run's GPU-hours left, its hours and
GPU-hours, the capex and IT power online, its cost built and rented), a row for what is
left past the table, and the run's inputs and totals as named cells.

The month table's GPUs online follow the lead times on Assumptions, so a later phase moves
the run and its cost; the capex, opex, horizon and rental rates are the Costs and
Assumptions sheets' names. The workload's days to train, the replica and the job's GPUs
are the exported plan's (the workload model is not in the workbook).
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.utils import get_column_letter

from planner.export.xlsx_cells import BOLD, USD, USD0, define, formula, header, num, text
from planner.schedule.model import MONTH_DAYS
from planner.schedule.run_cost import LISTED_MONTHS
from planner.settings.costs import RENTAL_OPTIONS

SCHEDULE = "Schedule"
COLUMNS = ["GPUs training", "Run's GPU-hours left", "Run's hours", "Run's GPU-hours", "Capex online",
           "IT power online (share)", "Run, build", *(f"Run, rent {t.lower()}" for t in RENTAL_OPTIONS.values())]
FIRST_COL = 3  # C: right of the month and the GPUs online
TRAIN, LEFT, HOURS, GPU_H, CAPEX, SHARE, BUILD, *RENTS = (get_column_letter(FIRST_COL + i) for i in range(len(COLUMNS)))


@dataclass(frozen=True, slots=True)
class PhaseRanges:
    """The phase table's columns the run's formulas read (absolute ranges)."""

    months: str
    gpus: str
    it_mw: str
    capex: str


def table_months(sched, extra: int) -> int:
    """The month table's last month: ``extra`` months past the energization, or past the
    run's end (at most the months the report lists of it)."""
    last = sched.energized_month + extra
    if has_run(sched):
        end = int(sched.training_done_month) + 1 + extra
        last = max(last, min(end, sched.training_start_month + LISTED_MONTHS - 1))
    return last


def has_run(sched) -> bool:
    return bool(sched.training_cost_by_month) and sched.training_prices is not None


def run_header(ws, row: int) -> None:
    header(ws, row, COLUMNS, col=FIRST_COL)


def run_row(ws, r: int, first: int, month: int, sched, ranges: PhaseRanges, cached: dict) -> None:
    """Month ``month``'s run columns on row ``r`` (the table's first month on row ``first``);
    ``cached`` carries the GPU-hours left from row to row for the cached values."""
    run = cached.setdefault("by_month", {m["month"]: m for m in sched.training_cost_by_month}).get(month)
    prices = sched.training_prices
    i = min(month, len(prices.capex_online_usd) - 1)
    start = cached.setdefault("left", sched.training_days * 24 * sched.training_job_gpus)
    cached["train"] = run["gpus_training"] if run else 0
    # GPUs train from the start month while GPU-hours are left (the core's rule: a millionth of a
    # millionth of the run left is done)
    formula(ws, r, FIRST_COL, f"=IF(AND(A{r}>=sched_train_start,{LEFT}{r}>sched_run_gpu_hours*1E-12),"
            "MIN(sched_job_gpus,"
            f"INT(B{r}/sched_replica_gpus)*sched_replica_gpus),0)", "#,##0", value=cached["train"])
    formula(ws, r, FIRST_COL + 1, "=sched_run_gpu_hours" if r == first else f"={LEFT}{r - 1}-{GPU_H}{r - 1}",
            "#,##0", value=max(0.0, start))
    formula(ws, r, FIRST_COL + 2, f"=IF({TRAIN}{r}>0,MAX(0,MIN(sched_month_hours,{LEFT}{r}/{TRAIN}{r})),0)",
            "#,##0.0", value=run["hours"] if run else 0.0)
    formula(ws, r, FIRST_COL + 3, f"={TRAIN}{r}*{HOURS}{r}", "#,##0", value=run["gpu_hours"] if run else 0.0)
    formula(ws, r, FIRST_COL + 4, f'=SUMIF({ranges.months},"<="&A{r},{ranges.capex})', '"$"#,##0',
            value=prices.capex_online_usd[i])
    formula(ws, r, FIRST_COL + 5, f'=IF(SUM({ranges.it_mw})>0,SUMIF({ranges.months},"<="&A{r},{ranges.it_mw})/'
            f'SUM({ranges.it_mw}),SUMIF({ranges.months},"<="&A{r},{ranges.gpus})/SUM({ranges.gpus}))', "0.0%",
            value=prices.it_online_share[i])
    _cost_cells(ws, r, run["build_usd"] if run else 0.0, run["rent_usd"] if run else {})
    # the run's months as the report rounds them leave a few GPU-hours over its end: none are
    cached["left"] = start - (run["gpu_hours"] if run else 0.0) if month < int(sched.training_done_month) else 0.0
    if run:
        for key in ("build_usd", *RENTAL_OPTIONS):
            cached[key] = cached.get(key, 0.0) + (run["build_usd"] if key == "build_usd" else run["rent_usd"][key])


def later_row(ws, r: int, sched, cached: dict) -> None:
    """What is left of the run past the table's last month (row ``r - 1``): every phase online,
    so at that month's pace, its hours not capped at a month."""
    p, total = r - 1, sched.training_cost_usd
    rest = max(0.0, cached["left"])
    last = sched.training_cost_by_month[-1]
    running = last["gpus_training"] or 1
    prices = sched.training_prices
    text(ws, r, 1, "later")
    formula(ws, r, 2, f"=B{p}", "#,##0", value=sched.gpus_online_by_month[-1])
    formula(ws, r, FIRST_COL, f"={TRAIN}{p}", "#,##0", value=cached["train"])
    formula(ws, r, FIRST_COL + 1, f"={LEFT}{p}-{GPU_H}{p}", "#,##0", value=rest)
    formula(ws, r, FIRST_COL + 2, f"=IF({TRAIN}{r}>0,MAX(0,{LEFT}{r}/{TRAIN}{r}),0)", "#,##0.0",
            value=rest / running)
    formula(ws, r, FIRST_COL + 3, f"={TRAIN}{r}*{HOURS}{r}", "#,##0", value=rest)
    formula(ws, r, FIRST_COL + 4, f"={CAPEX}{p}", '"$"#,##0', value=prices.capex_online_usd[-1])
    formula(ws, r, FIRST_COL + 5, f"={SHARE}{p}", "0.0%", value=prices.it_online_share[-1])
    over = rest <= 0  # the run ends within the table: what its rounded months leave of the total is not a cost
    _cost_cells(ws, r, 0.0 if over else max(0.0, total["build"] - cached.get("build_usd", 0.0)),
                {o: 0.0 if over else max(0.0, total[f"rent_{o}"] - cached.get(o, 0.0)) for o in RENTAL_OPTIONS})


def _cost_cells(ws, r: int, build: float, rents: dict[str, float]) -> None:
    """Row ``r``'s cost of the run, built and rented (``build`` and ``rents`` the cached values)."""
    formula(ws, r, FIRST_COL + 6, f"=({CAPEX}{r}/horizon_months+opex_month*{SHARE}{r})*{HOURS}{r}/hours_per_month",
            USD0, value=build)
    for k, option in enumerate(RENTAL_OPTIONS):
        formula(ws, r, FIRST_COL + 7 + k, f"=B{r}*{HOURS}{r}*rent_{option}_usd_per_gpu_h*rent_gpu_factor*(1+rent_uplift)", USD0,
                value=rents.get(option, 0.0))


def run_figures(wb, ws, r: int, sched, first: int, later: int) -> int:
    """The run's inputs and totals as named cells from row ``r``; returns the next free row."""
    start = "sched_first_month" if sched.train_from == "first_phase" else "sched_energized_month"
    total = sched.training_cost_usd
    months, spans = f"A{first}:A{later - 1}", f"{HOURS}{first}:{HOURS}{later - 1}"
    text(ws, r, 1, "The training run on the calendar", font=BOLD)
    r += 1
    text(ws, r, 1, f"Starts at {'the first phase' if sched.train_from == 'first_phase' else 'energization'} (the "
                   "setting train_from, fixed at export); build: capex of the phases online / horizon + opex x IT "
                   "power online, for the run's hours; rent: the GPUs online for those hours")
    rows = [
        ("sched_run_days", "Days to train on the whole job (the workload's)", sched.training_days, "days",
         "#,##0.000"),
        ("sched_replica_gpus", "GPUs a model replica takes (TP x CP x PP)", sched.training_replica_gpus, "GPUs", "0"),
        ("sched_job_gpus", "GPUs the job runs on (replica x DP)", sched.training_job_gpus, "GPUs", "#,##0"),
        ("sched_run_gpu_hours", "The run's GPU-hours", ("=sched_job_gpus*sched_run_days*24",
                                                        sched.training_days * 24 * sched.training_job_gpus),
         "GPU-h", "#,##0"),
        ("sched_month_hours", "Hours in a calendar month", ("=365.25/12*24", MONTH_DAYS * 24), "h", "0.0"),
        ("sched_train_start", "Training starts in month", (f"={start}", sched.training_start_month), "", "0"),
        ("sched_run_done_month", "Training done in month",
         (f"=IF({HOURS}{later}>0,A{later - 1}+1+{HOURS}{later}/sched_month_hours,"
          f"SUMPRODUCT(MAX(({spans}>0)*({months}+{spans}/sched_month_hours))))", sched.training_done_month),
         "months after the order", "0.00"),
        ("sched_run_build", "The run's cost, build", (f"=SUM({BUILD}{first}:{BUILD}{later})", total["build"]),
         "$", USD),
        *((f"sched_run_rent_{option}", f"The run's cost, renting {title.lower()}",
           (f"=SUM({RENTS[k]}{first}:{RENTS[k]}{later})", total[f"rent_{option}"]), "$", USD)
          for k, (option, title) in enumerate(RENTAL_OPTIONS.items())),
    ]
    for name, title, value, unit, fmt in rows:
        r += 1
        text(ws, r, 1, title)
        if isinstance(value, tuple):
            formula(ws, r, 2, value[0], fmt, value=value[1])
        else:
            num(ws, r, 2, value, fmt)
        text(ws, r, 3, unit)
        text(ws, r, 4, name)
        define(wb, name, SCHEDULE, r, 2)
    return r + 1

