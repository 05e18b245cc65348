"""The Excel workbook of a plan (openpyxl, no Qt): Summary, BOM, Costs, Racks, Campus (a plan
of several data halls), Network, Checks and Assumptions.

Costs are live formulas over named cells on the Assumptions sheet, so the workbook is one
a finance team can audit and change. User text (plan, rack and device names, labels) is
always written as text, never as a formula. The file goes through the safe writer
(``planner.safefile``), so a failed export leaves no partial file.
"""

from __future__ import annotations

import datetime as dt
import gc
import sys
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path

from openpyxl import Workbook

from planner import __version__

from planner.hardware.catalog import Catalog
from planner.errors import PlannerError
from planner.report.evaluate import evaluate
from planner.costs.section import billed_kw
from planner.safefile import write_file
from planner.save_target import check_target
from planner.export.xlsx_bom import write_bom
from planner.export.xlsx_campus import CAMPUS, several_halls, write_campus
from planner.export.xlsx_cables import write_cables
from planner.export.xlsx_compare import write_compare
from planner.export.xlsx_costs import write_assumptions, write_costs
from planner.export.xlsx_goodput import write_goodput
from planner.export.xlsx_power_dynamics import write_power_dynamics
from planner.export.xlsx_schedule import write_schedule
from planner.export.xlsx_values import save_with_values
from planner.export.xlsx_layout import write_checks, write_network, write_racks, write_summary
from planner.export.xlsx_workload import WORKLOAD, write_workload
from planner.design.layout import gpu_counts
from planner.network.cables import build_schedule
from planner.hardware.nodes import summarise_nodes
from planner.plan.model import Plan
from planner.report.compare import Comparison
from planner.report.model import Report


Progress = Callable[[int, int, str], None]
# What the workbook export tells its ``progress`` callback, step by step: the evaluation, each
# sheet (Compare and Campus only when the workbook has them), then writing the file.
STEPS = ("evaluating the plan", "Summary sheet", "Compare sheet", "BOM and Costs sheets", "Racks sheet",
         "Campus sheet", "Network sheet", "Workload sheet", "Cables sheet", "Checks sheet", "Assumptions and Goodput sheets",
         "writing the file", "checking the file")


def _tell(progress: Progress | None, step: str) -> None:
    """``progress(steps before this one, steps in all, "Excel workbook: <step>")``."""
    if progress is not None:
        progress(STEPS.index(step), len(STEPS), f"Excel workbook: {step}")


def build_workbook(plan: Plan, catalog: Catalog, report: Report | None = None,
                   *, exported: dt.datetime | None = None, comparison: Comparison | None = None,
                   progress: Progress | None = None) -> Workbook:
    """The workbook in memory (sheets in reading order; Assumptions last). With a
    ``comparison``, a Compare sheet follows the Summary. ``progress(done, total, what)`` is
    told before each step (``STEPS``) and may raise ``ExportCancelled`` to stop."""
    _tell(progress, "evaluating the plan")
    report = report or evaluate(plan, catalog)
    cost = report.cost
    if cost is None:
        raise PlannerError("the plan has no cost figures to export (the cost section did not run)")
    t = report.totals
    wb = Workbook()
    summary = wb.active
    summary.title = "Summary"
    _tell(progress, "Summary sheet")
    write_summary(summary, plan, report, exported=exported or dt.datetime.now())
    if comparison is not None:
        _tell(progress, "Compare sheet")
        write_compare(wb.create_sheet("Compare"), comparison)
    _tell(progress, "BOM and Costs sheets")
    write_bom(wb, cost.bom)
    write_costs(wb, cost.result, plan.settings.costs)
    _tell(progress, "Racks sheet")
    write_racks(wb.create_sheet("Racks"), plan, catalog, report)
    if several_halls(report):
        _tell(progress, "Campus sheet")
        write_campus(wb.create_sheet(CAMPUS), report)
    _tell(progress, "Network sheet")
    write_network(wb.create_sheet("Network"), report, catalog)
    _tell(progress, "Workload sheet")
    write_workload(wb.create_sheet(WORKLOAD), report, catalog)
    _tell(progress, "Cables sheet")
    write_cables(wb.create_sheet("Cables"), build_schedule(plan, catalog) if cost.cables_routed else None, cost.bom,
                 cost.cable_routing_limit_links)
    _tell(progress, "Checks sheet")
    write_checks(wb.create_sheet("Checks"), report)
    _tell(progress, "Assumptions and Goodput sheets")
    write_assumptions(wb, costs=plan.settings.costs, gpus=t.gpus, nodes=t.nodes, it_kw=t.it_power_kw,
                      energy_kw=t.it_power_typical_kw, pue=t.pue, power_basis=report.power_basis,
                      tokens_per_s=getattr(report.network, "tokens_per_s", None),
                      billed_kw=billed_kw(plan.settings.costs.colocation_basis, t),
                      job_gpus=cost.rented_gpus, rent_factor=cost.result.rent_gpu_factor)
    write_goodput(wb, report, plan.settings, summarise_nodes(gpu_counts(plan, catalog), catalog))
    write_power_dynamics(wb, report, plan.settings)
    write_schedule(wb, report, plan.settings)
    wb.properties.title = plan.title
    wb.properties.creator = f"GPU Cluster Planner {__version__}"
    wb.properties.lastModifiedBy = wb.properties.creator
    stamp = (exported or dt.datetime.now()).strftime("%Y-%m-%d")
    for ws in wb.worksheets:
        _print_setup(ws)
        # plan name and date on every printed page ('&' starts a header code: doubled to print as is)
        ws.oddHeader.center.text = f"{plan.title} - {stamp}".replace("&", "&&")
    # Formula cells carry their values (xlsx_values); Excel still recalculates on open, so an
    # input edited elsewhere never shows a stale result.
    wb.calculation.fullCalcOnLoad = True
    return wb


# Sheets that print landscape (wide tables); the rest portrait. Every sheet fits its width
# to one page and runs down as many pages as it needs.
LANDSCAPE = {"Compare", "BOM", "Costs", "Racks", "Campus", "Network", "Cables", "Checks", "Assumptions"}


def _print_setup(ws) -> None:
    ws.page_setup.orientation = "landscape" if ws.title in LANDSCAPE else "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0  # as many pages down as needed
    ws.print_options.gridLines = False
    ws.oddFooter.center.text = "&A - page &P of &N"


def write_workbook(plan: Plan, catalog: Catalog, path: str | Path, report: Report | None = None, *,
                   inputs: Iterable[str | Path] = (), comparison: Comparison | None = None,
                   progress: Progress | None = None) -> Path:
    """Write the plan's workbook to ``path`` through the safe writer (checked to open before it
    replaces anything); raise PlannerError with a one-line reason if it cannot be written.
    ``progress(done, total, what)`` is told before each step and may raise ``ExportCancelled``:
    nothing is written then (and an earlier file at ``path`` stays as it was)."""
    check_target(path, inputs)  # refuse a bad target before building the workbook
    wb = build_workbook(plan, catalog, report, comparison=comparison, progress=progress)
    _tell(progress, "writing the file")
    return write_file(path, write=lambda tmp: _save(wb, tmp, progress), inputs=inputs)


def _save(wb: Workbook, tmp: str, progress: Progress | None = None) -> None:
    """openpyxl's ``save_workbook`` with everything closed on failure too: a failed write
    (disk full) raises once, here, instead of openpyxl's zip archive and sheet writers
    trying again when garbage-collected and printing stray "Exception ignored" tracebacks."""
    wb.properties.modified = dt.datetime.now(tz=dt.timezone.utc).replace(tzinfo=None)
    try:
        with open(tmp, "wb") as fh:
            save_with_values(wb, fh)  # formula cells carry their computed values
    except OSError as exc:
        _finalize_quietly(exc)
        raise
    _tell(progress, "checking the file")  # a cancel while writing still stops before the rename


def _finalize_quietly(exc: BaseException) -> None:
    """Free the half-done writers the failure's traceback holds, now, with their second
    failure (already reported by ``exc``) kept off the terminal."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None
    try:
        traceback.clear_frames(exc.__traceback__)
        gc.collect()
    finally:
        sys.unraisablehook = hook
