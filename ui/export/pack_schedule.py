"""The vendor pack's Schedule page: when each phase is ready after the order and the part
that gates it, the lead times the plan assumes, the training run's months on that calendar,
and (with prices) each phase's capex and the run's cost. A
vendor quotes against the dates its parts must meet. Every figure is the report's
``schedule`` section; at most ``MAX_PHASE_ROWS`` rows: with more phases the last row adds up
the rest (the workbook's Schedule sheet has each). After a Goodput page it runs on below it, under its own heading, so
the pack keeps its page count."""

from __future__ import annotations

from collections.abc import Callable

from planner.report.model import Report
from planner.report.schedule_text import training_run_line
from planner.schedule.model import PART_NAMES, PARTS
from planner.schedule.section import energized_text
from planner.vocabulary import count
from ui.export.pack_document import Page, heading_html, html_text
from ui.export.sections import money
from ui.export.table import Column, Table

MAX_PHASE_ROWS = 24  # one page of phases; a plan of more scalable units lists the first ones
MIN_PHASE_ROWS = 8  # fewer phases below the Goodput page than this: the schedule runs on over the next page


def schedule_pages(report: Report, with_prices: bool, paragraph, max_rows: int = MAX_PHASE_ROWS) -> list[Page]:
    """The Schedule page, or none when the plan has nothing to bring online. ``paragraph(html,
    size_pt)`` writes the pack's text; at most ``max_rows`` phases are listed."""
    s = report.sections.get("schedule")
    if s is None or not s.phases:
        return []
    gate = PART_NAMES.get(s.critical_part, "installation")
    ordered = f"ordered on {s.order_date}" if s.order_date else "counted from the order"
    intro = paragraph(html_text(
        f"Every part {ordered}. The plan is energized {energized_text(s)}; the {gate} gates it. A phase is ready "
        "when the part it needs with the longest lead time has arrived and its racks are installed and "
        "commissioned."), 9)
    cols = [Column("Phase", 2.0), Column("GPUs", 0.7, "right"), Column("IT MW", 0.7, "right"),
            Column("Waits for", 1.4), Column("Ready, weeks", 0.8, "right"), Column("Online from", 0.9, "right")]
    if with_prices:
        cols.append(Column("Capex", 1.0, "right"))
    rows = []
    # more phases than rows: the last row adds up the rest, so the pack's totals are all there
    shown = s.phases if len(s.phases) <= max_rows else s.phases[:max(1, max_rows - 1)]
    for p in shown:
        when = f"month {p.ready_month}" + (f" ({p.ready_date})" if p.ready_date else "")
        row = [p.name, count(p.gpus), f"{p.it_mw:,.2f}", PART_NAMES.get(p.critical_part, "installation"),
               f"{p.ready_weeks:,.1f}", when]
        rows.append(row + ([money(p.capex_usd)] if with_prices else []))
    rest = s.phases[len(shown):]
    note = ""
    if rest:
        weeks = [f"{w:,.1f}" for w in (min(p.ready_weeks for p in rest), max(p.ready_weeks for p in rest))]
        months = [min(p.ready_month for p in rest), max(p.ready_month for p in rest)]
        parts = {PART_NAMES.get(p.critical_part, "installation") for p in rest}
        row = [f"The other {len(rest)} phases", count(sum(p.gpus for p in rest)), f"{sum(p.it_mw for p in rest):,.2f}",
               parts.pop() if len(parts) == 1 else "several parts",
               weeks[0] if weeks[0] == weeks[1] else "-".join(weeks),
               f"month {months[0]}" if months[0] == months[1] else f"months {months[0]}-{months[1]}"]
        rows.append(row + ([money(sum(p.capex_usd for p in rest))] if with_prices else []))
        note = paragraph(html_text(
            f"The first {len(shown)} of {len(s.phases)} phases each on a row; the last row adds up the other "
            f"{len(rest)} (the plan's workbook lists each on its Schedule sheet)."), 8)
    phases = Table(cols, rows, font_pt=8.0)
    leads = paragraph(html_text("Lead times from order: " + ", ".join(
        f"{PART_NAMES[part]} {s.lead_weeks[part]:g} weeks" for part in PARTS) + "."), 8)
    run = training_run_line(report, with_money=with_prices)
    html = intro + leads + phases.html() + note + (paragraph(html_text(run), 8) if run else "")
    return [Page(TITLE, html, section=TITLE)]


TITLE = "Schedule: phases and lead times"


def run_on(pages: list[Page], schedule: list[Page], title: str = TITLE) -> list[Page]:
    """``pages`` with a one-page section (by default the schedule's) run on below the last of
    them, under its own heading ``title``; pages of their own when there are none, or more."""
    if not pages or len(schedule) != 1:
        return pages + schedule
    last = pages[-1]
    below = heading_html(title, "margin-top: 14px; ") + schedule[0].html
    return pages[:-1] + [Page(last.title, last.html + below, last.section, last.drawing)]


def schedule_below(goodput: list[Page], report: Report, with_prices: bool, paragraph,
                   fits: Callable[[Page], bool]) -> list[Page]:
    """The ``goodput`` pages with the Schedule run on below them (``run_on``). When a plan has
    more phases than ``MAX_PHASE_ROWS`` (so they are listed in part anyway) and they would run
    the page over onto one of their own, as many rows are listed as its room holds (at least
    ``MIN_PHASE_ROWS``; the last adds up the rest): campus-1m's 24 of 32 halls spilled 14 onto
    a page. ``fits(page)``: whether a page holds its content on one."""
    rows = MAX_PHASE_ROWS
    pages = run_on(goodput, schedule_pages(report, with_prices, paragraph, rows))
    schedule = report.sections.get("schedule")
    listed_in_part = schedule is not None and len(schedule.phases) > MAX_PHASE_ROWS
    if not listed_in_part or len(goodput) != 1 or not fits(goodput[0]):
        return pages  # every phase listed (a page more if need be), or no room to gain
    while rows > MIN_PHASE_ROWS and not fits(pages[-1]):
        rows -= 1
        pages = run_on(goodput, schedule_pages(report, with_prices, paragraph, rows))
    return pages if fits(pages[-1]) else run_on(goodput, schedule_pages(report, with_prices, paragraph))
