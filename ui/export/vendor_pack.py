"""The vendor pack: a multi-page landscape PDF a datacenter vendor can quote from.

Pages: cover with headline figures and contents; rack elevations (as many racks per page
as stay legible, every rack shown); power and cooling per rack; network summary (when the
report has one); the schedule (``pack_schedule``); bill of materials (when the cost section
has one); open findings. A plan
of several data halls has a Campus page and a floor page per building (``pack_campus``).
Each page has the plan name and "Page n of N" in its footer. All figures are the Report's.

The text and tables are HTML in one QTextDocument (``pack_document``), which paginates;
the elevations and the floor plan are drawings in it (``elevation``, ``pack_site``).
Why it is long: one method per page of the pack (cover, elevations, power, network, bill of
materials, findings), each choosing its columns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from functools import cache

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QPdfWriter

from planner.hardware.catalog import Catalog
from planner.plan.model import Plan
from planner.plan.rack_types import GROUP_RACKS_ABOVE, rack_types
from planner.report.elevation import load_text
from planner.report.model import Report
from planner.report.palette import load_color
from planner.report import palette
from planner.export.table_columns import position, without
from planner.settings import GUIDE
from planner.vocabulary import count
from ui.export.canvas import Canvas, PlacedText
from ui.export.pack_document import (CSS_PX, Drawing, PackDocument, Page, fitted_pt, heading_html, html_height,
                                     html_text, room_for_drawing, table_of_pages)
from ui.export.pack_campus import CampusPages
from ui.export.pack_racks import POWER_PER_RACK
from ui.export.pack_schedule import run_on, schedule_below
from ui.export.pack_site import SitePages
from ui.export.elevation import ElevationRenderer, fit_style, racks_per_line, row_groups, row_title
from ui.export.labels import kg_text, kw_text
from ui.export.sections import (cost_headlines, describe_where, dynamics_rows, fabric_headline, goodput_rows, money,
                                network_rows)
from ui.export.table import Column, Table, side_by_side

MARGIN = 34.0
FOOTER_H = 16.0
INK = palette.INK
MUTED = palette.INK_MUTED
ACCENT = palette.INK_HEADING
TYPE_CAPTION_H = 26.0
SEVERITY_FILL = palette.SEVERITY_FILLS
CONTENTS = "<!--contents-->"
COVER_LEFT = 0.68  # the cover's share of the width for the plan and its figures; the contents beside it

# Beyond this many findings the pack lists one row per check (count and first message), so a
# plan of thousands of racks keeps a readable findings section.
MAX_LISTED_FINDINGS = 200


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _shorten(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, cut after a whole sentence (or else a whole word), never mid-word."""
    if len(text) <= limit:
        return text
    head = text[:limit - 2]
    end = head.rfind(". ")
    if end > limit // 2:
        return head[:end + 1] + " …"
    return head.rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _long_date(iso: str) -> str:
    """"2026-11-30" -> "30 November 2026"."""
    return date.fromisoformat(iso).strftime("%d %B %Y")


@cache  # a few colours, asked for once per rack of a floor page
def tint(hex_color: str, amount: float = 0.6) -> str:
    """``hex_color`` mixed with white (a light cell fill behind dark text)."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(v + (255 - v) * amount):02X}" for v in (r, g, b))


def _p(text_html: str, size_pt: float, color: str = INK, bold: bool = False, after_pt: float = 0.0) -> str:
    """A paragraph of HTML ``text_html`` at ``size_pt``, ``after_pt`` above the next."""
    weight = "; font-weight: bold" if bold else ""
    return (f'<p style="margin-top: 0; margin-bottom: {after_pt * CSS_PX:.0f}px; font-size: {size_pt:g}pt; '
            f'color: {color}{weight}">{text_html}</p>')



DYNAMICS_TITLE = "Power dynamics: the load the grid sees"

class VendorPack(SitePages, CampusPages):
    """The pack of one plan: its pages (``pages``), laid out and printed by ``render``."""

    def __init__(self, plan: Plan, catalog: Catalog, report: Report, page_width: float, page_height: float,
                 today: date | None = None, with_prices: bool = False, comparison=None):
        self.comparison = comparison  # planner.report.compare.Comparison: Compare pages after the cover
        # Prices, capex, opex and TCO are the buyer's: left out unless asked for.
        self.with_prices = with_prices
        self.plan = plan
        self.catalog = catalog
        self.report = report
        self.pw, self.ph = page_width, page_height
        self.today = today or date.today()
        self.elevations = ElevationRenderer(None, plan, catalog, report)
        # The page frame the document flows in: below the top margin, above the footer.
        self.body = QRectF(MARGIN, MARGIN, self.pw - 2 * MARGIN, self.ph - 2 * MARGIN - FOOTER_H)
        self.device = None   # what the pack is laid out on (its fonts are measured there), set by ``render``

    # -- the document -----------------------------------------------------------------
    def pages(self) -> list[Page]:
        # A large plan is drawn by rack type (identical racks once), with an index of its racks.
        self.types = rack_types(self.plan) if len(self.plan.racks) > GROUP_RACKS_ABOVE else None
        pages = [Page("", self._cover_html())]
        if self.comparison is not None:
            pages += self._compare_pages()
        if self.types is None:
            pages += self._elevation_pages()
            pages += self._power_pages()
        else:
            pages += self._type_pages()
            pages += self._type_power_pages()
            pages += self._index_pages()
        # the load the grid sees runs on below the site's feeds, for the same facility engineer
        pages += run_on(self._site_pages(), self._dynamics_pages(), DYNAMICS_TITLE)
        pages += self._cooling_pages()
        pages += self._campus_pages()
        pages += self._floor_pages()
        pages += self._network_pages()
        pages += self._goodput_and_schedule_pages()
        pages += self._acceptance_pages()
        pages += self._cable_pages()
        pages += self._bom_pages()
        pages += self._findings_pages()
        return pages

    def render(self, painter: QPainter, writer: QPdfWriter, placed: list[PlacedText] | None = None) -> int:
        """Lay the pack out on ``writer`` and print it with ``painter`` (begun on it); returns the
        number of pages. Every text placed (the drawings' labels, the document's blocks and
        tables) goes into ``placed``."""
        self.device = writer
        pages = self.pages()
        entries = [(p.section, i) for i, p in enumerate(pages) if p.section]
        pages[0].html = pages[0].html.replace(CONTENTS, self._contents_html(entries))
        document = PackDocument(writer, pages, self.body, placed)
        document.print_to(painter, self._footer_html)
        if placed is not None:
            placed += document.placed_text()
        return document.page_count

    def _footer_html(self, number: int, total: int) -> str:
        info = self.plan.info
        stamp = (f"Revision {info.revision} · " if info.revision else "") + f"Prepared {info.date or self.today.isoformat()}"
        cell = f'style="color: {MUTED}; border-top: 0.5px solid {palette.RULE}"'
        return (f'<table width="100%" cellspacing="0" cellpadding="0"><tr><td width="50%" {cell}>'
                f'{html_text(self.plan.title)}</td><td width="25%" align="center" {cell}>{html_text(stamp)}</td>'
                f'<td width="25%" align="right" {cell}>Page {number} of {total}</td></tr></table>')

    def _intro(self, text: str, size_pt: float = 8.0) -> str:
        """A muted note above a page's table or drawing."""
        return _p(html_text(text), size_pt, MUTED, after_pt=6)

    # -- cover ------------------------------------------------------------------------
    def _cover_html(self) -> str:
        s = CSS_PX
        issued = self.plan.info.date or self.today.isoformat()
        head = [f'<p style="margin-top: {10 * s:.0f}px"></p>',
                _p("VENDOR PACK  ·  RACK LAYOUT, POWER, COOLING AND NETWORK", 9, MUTED, True, 10),
                _p(html_text(self.plan.title), 24, ACCENT, True, 6),
                _p(html_text(f"Prepared {_long_date(issued)} with GPU Cluster Planner"), 10, MUTED)]
        left = [self._info_html()]
        if self.plan.description.strip():
            left.append(_p(html_text(_shorten(self.plan.description.strip(), 500)), 9, after_pt=8))
        left.append(self._cards_html(self._headline_figures(), self.body.width() * COVER_LEFT))
        counts = self.report.counts_by_severity()
        findings = "Open findings: " + " · ".join(_plural(counts[k], w) for k, w in
                                                   (("error", "error"), ("warning", "warning"), ("info", "note")))
        left.append(_p(html_text(findings), 10, palette.INK_ERROR if counts["error"] else INK,
                       counts["error"] > 0))
        # (the paragraph before a table loses its bottom margin: the table has it as its top margin)
        return (f'{"".join(head)}<table width="100%" cellspacing="0" cellpadding="0" '
                f'style="margin-top: {8 * s:.0f}px"><tr>'
                f'<td width="{COVER_LEFT:.0%}" style="vertical-align: top">{"".join(left)}</td><td width="4%"></td>'
                f'<td style="vertical-align: top">{CONTENTS}</td></tr></table>')

    def _contents_html(self, entries: list[tuple[str, int]]) -> str:
        return _p("Contents", 11, ACCENT, True, 4) + table_of_pages(
            [(title, PackDocument.contents_mark(i)) for title, i in entries])

    def _info_html(self) -> str:
        """The plan's properties (customer, site, contact, revision, dates) in two columns."""
        rows = self.plan.info.rows()
        if not rows:
            return ""
        cells = [f'<td width="19%" style="font-size: 8pt; font-weight: bold; color: {MUTED}">{html_text(title)}</td>'
                 f'<td width="31%" style="font-size: 9pt">{html_text(value)}</td>' for title, value in rows]
        lines = "".join(f"<tr>{''.join(cells[i:i + 2])}</tr>" for i in range(0, len(cells), 2))
        return (f'<table width="100%" cellspacing="0" cellpadding="{1.5 * CSS_PX:.0f}" '
                f'style="margin-bottom: {8 * CSS_PX:.0f}px">{lines}</table>')
    def _headline_figures(self) -> list[tuple[str, str]]:
        t = self.report.totals
        basis = self.report.power_basis
        figures = [
            ("GPUs", f"{t.gpus:,}"),
            ("GPU nodes", f"{t.nodes:,}"),
            ("Racks", f"{t.racks:,}" + (f" ({t.gpu_racks:,} with GPUs)" if t.gpu_racks != t.racks else "")),
            (f"IT power ({basis})", kw_text(t.it_power_kw)),
            ("IT power (nameplate)" if basis != "nameplate" else "IT power (typical)",
             kw_text(t.it_power_nameplate_kw if basis != 'nameplate' else t.it_power_typical_kw)),
            (f"Facility power at PUE {t.pue:g}", kw_text(t.facility_power_kw)),
            ("Heat to liquid", kw_text(t.liquid_heat_milliwatts / 1e6)),
            ("CDUs needed / placed", f"{t.cdus:,} / {t.cdus_placed:,}"),
            ("Equipment weight", kg_text(t.weight_kg)),
        ]
        net = self.report.network
        if net is not None:
            fabric = fabric_headline(self.report)
            if fabric:
                figures.append(fabric)
            tiers = [f"{n:,} {tier}" for n, tier in ((net.leaf_switches, "leaf"), (net.spine_switches, "spine"),
                                                     (net.core_switches, "core")) if n]
            if tiers:
                figures.append(("Fabric switches", " · ".join(tiers)))
            figures.append(("Fabric cables", f"{net.cables:,}"))
        if self.with_prices:
            figures += cost_headlines(self.report)
        return figures

    def _cards_html(self, figures: list[tuple[str, str]], width_pt: float) -> str:
        """The headline figures as boxes, three to a line: the figure large (smaller where it is
        long), its name under it."""
        s, cols, gap = CSS_PX, 3, 8.0
        # a box's width inside its spacing (around every box), accent, padding and border
        room = (width_pt - (cols + 1) * gap) / cols - (3 + 8 + 6) - 2
        cells = []
        for label, value in figures:
            big = fitted_pt(self.device, value, room, 14, 7, bold=True)
            small = fitted_pt(self.device, label, room, 7.5, 6)
            cells.append(f'<td width="33%" bgcolor="{palette.PANEL_FILL}" style="border-left: {3 * s:.0f}px solid '
                         f'{ACCENT}; padding: {5 * s:.0f}px {6 * s:.0f}px {4 * s:.0f}px {8 * s:.0f}px">'
                         + _p(html_text(value), big, ACCENT, True, 2) + _p(html_text(label), small, MUTED)
                         + "</td>")
        lines = "".join(f"<tr>{''.join(cells[i:i + cols])}</tr>" for i in range(0, len(cells), cols))
        return (f'<table width="100%" cellspacing="{gap * s:.0f}" cellpadding="0" style="margin-top: {2 * s:.0f}px">'
                f'{lines}</table>')

    # -- elevations -------------------------------------------------------------------
    def _drawing_height(self, title: str, caption: str) -> float:
        """The height a drawing has under its page's heading and caption (HTML), as laid out."""
        return room_for_drawing(self.device, self.body.width(), self.body.height(), heading_html(title) + caption)

    def _elevation_pages(self) -> list[Page]:
        pages: list[Page] = []
        groups = row_groups(self.plan)
        total = len(self.plan.racks)
        legend_h = 26.0 + (22.0 if self.elevations.may_shorten() else 0.0)
        done = 0
        caption = self._intro(f"Front view, U1 at the bottom. Power typical and nameplate against each rack's cap, "
                              f"coloured by the worse; the plan is checked on the {self.report.power_basis} basis.",
                              7.5)
        room = self._drawing_height("Rack elevations", caption)
        for row, racks in groups:
            style = fit_style(max(r.height_u for r in racks), room - legend_h)
            per_page = racks_per_line(style, self.body.width())
            chunks = [racks[i:i + per_page] for i in range(0, len(racks), per_page)]
            for chunk in chunks:
                first, last = done + 1, done + len(chunk)
                done = last
                title = "Rack elevations" if len(groups) == 1 and not row else \
                    f"Rack elevations: {row_title(row, len(groups))}"
                span = f"rack {first} of {total}" if first == last else f"racks {first}-{last} of {total}"
                pages.append(Page(f"{title} ({span})", caption, section="Rack elevations" if not pages else "",
                                  drawing=self._elevation_drawing(chunk, style, room)))
        return pages

    def _elevation_drawing(self, racks, style, height: float, titles=None, under: Callable | None = None) -> Drawing:
        """Racks side by side, centred, with the legend under them; ``under(canvas, x, y)`` draws
        what goes between (and returns its height)."""
        w = self.body.width()

        def draw(canvas: Canvas) -> None:
            self.elevations.c = canvas
            width = len(racks) * style.rack_width + (len(racks) - 1) * style.gap
            x = max(0.0, (w - width) / 2)
            _, h = self.elevations.draw_line(x, 0.0, racks, style, titles)
            h += under(canvas, x, h) if under else 8.0
            self.elevations.draw_legend(0.0, h, w)
        return Drawing(w, height, draw)

    def _type_pages(self) -> list[Page]:
        """One elevation per rack type, drawn by the first rack of the type, with its racks named under it."""
        legend_h = 26.0 + (22.0 if self.elevations.may_shorten() else 0.0)
        caption = self._intro("Identical racks (same devices at the same positions) are drawn once, by their first "
                              "rack. Front view, U1 at the bottom; power typical and nameplate, coloured by the worse.",
                              7.5)
        room = self._drawing_height("Rack types", caption)
        tallest = max(t.example.height_u for t in self.types)
        style = fit_style(tallest, room - legend_h - TYPE_CAPTION_H)
        per_page = racks_per_line(style, self.body.width())
        chunks = [self.types[i:i + per_page] for i in range(0, len(self.types), per_page)]
        pages = []
        for n, chunk in enumerate(chunks):
            first, last = chunk[0].letter, chunk[-1].letter
            span = f"type {first}" if first == last else f"types {first}-{last}"

            def under(canvas: Canvas, x: float, y: float, chunk=chunk) -> float:
                for i, t in enumerate(chunk):
                    rx = x + i * (style.rack_width + style.gap)
                    canvas.wrapped_text(QRectF(rx, y + 3, style.rack_width, TYPE_CAPTION_H - 4),
                                        f"Racks {t.describe_racks(max_runs=2)}", 6.5, color=MUTED)
                return TYPE_CAPTION_H
            pages.append(Page(f"Rack types ({span} of {len(self.types)}; {len(self.plan.racks):,} racks)", caption,
                              section="Rack types (elevations)" if n == 0 else "",
                              drawing=self._elevation_drawing([t.example for t in chunk], style, room,
                                                              [t.title for t in chunk], under)))
        return pages

    def _type_power_pages(self) -> list[Page]:
        """Power and cooling per rack type: each type's per-rack figures and its count, then the totals."""
        basis = self.report.power_basis
        cols = [Column("Rack type", 1.2), Column("Racks", 0.7, "right"), Column("Cooling", 0.8),
                Column("U used", 0.8, "right"), Column("GPUs per rack", 0.8, "right"),
                Column("Typical per rack", 1.1, "right"), Column("Nameplate per rack", 1.1, "right"),
                Column("Cap", 0.8, "right"), Column("Load typical / nameplate", 1.2, "right"),
                Column("Heat to liquid per rack", 1.2, "right"), Column("Weight per rack / rating", 1.4, "right"),
                Column(f"Power, all racks of the type ({basis})", 1.4, "right")]
        rows, fills = [], {}
        for i, t in enumerate(self.types):
            res = self.report.rack(t.example.id)
            n = len(t.racks)
            rows.append([f"Type {t.letter}", f"{n:,}", res.cooling, f"{res.used_u}/{res.height_u}", f"{res.gpus:,}",
                         kw_text(res.power_typical_kw), kw_text(res.power_nameplate_kw), kw_text(res.cap_kw),
                         f"{load_text(res.load_on('typical'))} / {load_text(res.load_on('nameplate'))}",
                         kw_text(res.liquid_heat_milliwatts / 1e6),
                         f"{kg_text(res.weight_kg)} / {kg_text(res.max_weight_kg)}", kw_text(res.power_kw * n)])
            fills[i] = tint(load_color(res.worst_load_fraction), 0.55)
        t = self.report.totals
        rows.append(["All racks", f"{t.racks:,}", "", "", f"{t.gpus:,}", kw_text(t.it_power_typical_kw),
                     kw_text(t.it_power_nameplate_kw), "", "", kw_text(t.liquid_heat_milliwatts / 1e6), kg_text(t.weight_kg),
                     kw_text(t.it_power_kw)])
        table = Table(cols, rows, cell_fill=lambda i, j: fills.get(i) if j == 8 else None, bold_rows={len(rows) - 1})

        note = (f"Facility power {kw_text(t.facility_power_kw)} at PUE {t.pue:g}. Load colours (the worse "
                f"of typical and nameplate): green below 80% of the rack's cap, amber from 80%, red over the cap. "
                f"CDUs: {t.cdus:,} needed, {t.cdus_placed:,} placed. The rack index lists the racks of each type.")
        intro = self._intro(note)
        return self._table_pages("Power and cooling per rack type", table, intro)

    def _index_pages(self) -> list[Page]:
        # a row a type, its runs of racks next to each other in the plan joined (a campus's
        # halls each hold their share of a type, so its runs are many: campus-1m about 400), a
        # run never broken over two lines
        rows = [[f"Type {t.letter}", t.describe_racks().replace(" … ", "\u00a0…\u00a0"), f"{len(t.racks):,}"]
                for t in self.types]
        table = Table([Column("Rack type", 0.6), Column("Racks", 5.2), Column("Count", 0.6, "right")],
                      rows, font_pt=7.5)
        return self._table_pages("Rack index", table)

    # -- tables -----------------------------------------------------------------------
    def _table_pages(self, title: str, table: Table, intro: str = "", width: float | None = None,
                     two_columns: bool = False) -> list[Page]:
        """A page headed ``title`` with its table (``width`` points wide, else the page's): the
        document runs a long table on over the pages after it, its header row on each. With
        ``two_columns``, a table a little over a page is laid out in two halves side by side on
        one page when they fit there (a narrow table leaves the room)."""
        width = None if width is None or width >= self.body.width() else width
        html = intro + table.html(width)
        if two_columns and len(table.rows) > 1 and not self._fits(title, html):
            # at the table's size, else half a point smaller (a bill a line too long for the
            # page: campus-1m's with its rear doors), not a page of its own for a line or two
            for pt in (table.font_pt, table.font_pt - 0.5):
                halves = intro + side_by_side(*replace(table, font_pt=pt).halves())
                if self._fits(title, halves):
                    return [Page(title, halves, section=title)]
        return [Page(title, html, section=title)]

    def _power_pages(self) -> list[Page]:
        # the Row column only when some rack is in a row
        specs = POWER_PER_RACK if any(r.row for r in self.plan.racks) else without(POWER_PER_RACK, "row")
        cols = [Column(c.header, c.width, c.align) for c in specs]
        rows, fills = [], {}
        for i, res in enumerate(self.report.racks):
            rack = self.plan.rack(res.id)
            rows.append([c.value(res, rack) for c in specs])
            fills[i] = tint(load_color(res.worst_load_fraction), 0.55)
        t = self.report.totals
        rows.append([c.total(t) if c.total else "" for c in specs])
        load_col = position(specs, "load") - 1
        table = Table(cols, rows, cell_fill=lambda i, j: fills.get(i) if j == load_col else None,
                      bold_rows={len(rows) - 1})

        note = (f"Facility power {kw_text(t.facility_power_kw)} at PUE {t.pue:g}. Load colours (the worse "
                f"of typical and nameplate): green below 80% of the rack's cap, amber from 80%, red over the cap. "
                f"CDUs: {t.cdus} needed, {t.cdus_placed} placed.")
        intro = self._intro(note)
        return self._table_pages("Power and cooling per rack", table, intro)

    def _compare_pages(self) -> list[Page]:
        """The comparison's totals with their differences (green better, red worse), and for
        each side its BOM quantity differences; money only with prices."""
        from planner.report.compare import METRICS
        from planner.report.palette import VERDICT_FILLS
        from ui.fmt import difference_text, value_text

        c = self.comparison
        metrics = [m for m in METRICS if any(c.totals(s)[m.key] is not None for s in c.sides)
                   and (self.with_prices or not m.from_prices)]
        cols = [Column("Figure", 1.6)] + [Column(s.name, 1.0, "right") for s in c.sides] + \
            [Column(f"{d.side} − {d.against}", 1.3, "right") for d in c.differences]
        rows, fills = [], {}
        for i, m in enumerate(metrics):
            row = [m.label] + [value_text(c.totals(s)[m.key], m.unit) for s in c.sides]
            for j, d in enumerate(c.differences):
                v = d.verdicts[m.key]
                row.append(difference_text(d.totals[m.key], m.unit) + (f" {v}" if v in VERDICT_FILLS else ""))
                if v in VERDICT_FILLS:
                    fills[(i, 1 + len(c.sides) + j)] = VERDICT_FILLS[v]
            rows.append(row)
        table = Table(cols, rows, font_pt=8.5, cell_fill=lambda i, j: fills.get((i, j)))

        note = ("Differences are each side minus the first; green is better and red worse, by each figure's "
                "direction (less cost, power, space and time is better; more throughput is better; GPUs are "
                "neither)." + ("" if self.with_prices else " Money figures are left out of this pack."))
        intro = self._intro(note)
        pages = self._table_pages("Compare", table, intro)
        for d in c.differences:
            bom_rows = [[b.change, b.category, b.item, f"{b.quantity_a:,} → {b.quantity_b:,}",
                         f"{b.quantity_difference:+,}"] + ([money(b.cost_difference_usd)] if self.with_prices else [])
                        for b in d.bom]
            if not bom_rows:
                            continue
            bcols = [Column("Change", 0.7), Column("Category", 1.0), Column("Item", 3.0),
                     Column("Quantity", 1.0, "right"), Column("Difference", 0.8, "right")] + (
                            [Column("Cost difference", 1.0, "right")] if self.with_prices else [])
            pages += self._table_pages(f"Compare: bill of materials, {d.side} against {d.against}",
                                       Table(bcols, bom_rows, font_pt=7.5))
        return pages

    def _network_pages(self) -> list[Page]:
        rows = network_rows(self.report, self.catalog)
        if not rows:
            return []
        # wide enough that a part's name (a transceiver, a cable) and its count stand on one line:
        # campus-1m's cabling ran the table onto a page of its own for four rows
        table = Table([Column("Item", 1.7), Column("Value", 1.3)], rows, font_pt=8.5)
        return self._table_pages("Network summary", table, width=min(self.body.width(), 620.0), two_columns=True)

    def _goodput_and_schedule_pages(self) -> list[Page]:
        """The Goodput page with the Schedule run on below it, its phases as many as the
        page's room holds (``pack_schedule.schedule_below``)."""
        return schedule_below(self._goodput_pages(), self.report, self.with_prices, _p,
                              lambda page: self._fits(page.title, page.html))

    def _goodput_pages(self) -> list[Page]:
        rows = goodput_rows(self.report)
        if not rows:
            return []
        intro = _p("Expected interruptions from the failure rates of the parts placed (GPUs, hosts, switches, "
                   "optical links, software), the checkpoint interval that answers them and the share of the "
                   "time left for training.", 9)
        return self._figure_pages("Goodput: failures, checkpoints and restarts", rows, intro)

    def _dynamics_pages(self) -> list[Page]:
        rows = dynamics_rows(self.report, self.with_prices)
        if not rows:
            return []
        intro = _p("For the utility and the facility engineer: synchronous training swings the IT load once per "
                   "step, between every GPU computing and every GPU waiting on communication, and drops it at an "
                   "interruption. The load after the plan's smoothing, the unsmoothed swing, the grid's limits "
                   "and the smoothing's size (cooling and losses follow the mean load).", 9)
        return self._figure_pages(DYNAMICS_TITLE, rows, intro)

    def _figure_pages(self, title: str, rows: list[list[str]], intro: str) -> list[Page]:
        """A section's figures as an item / value table under ``intro``."""
        table = Table([Column("Item", 1.4), Column("Value", 1.2)], rows, font_pt=8.5)
        return self._table_pages(title, table, intro=intro, width=min(self.body.width(), 460.0))

    def _acceptance_pages(self) -> list[Page]:
        from planner.acceptance.criteria import acceptance_pack
        from planner.acceptance.pack import runbook_rows

        pack = acceptance_pack(self.plan, self.catalog, self.report)
        if not pack.tests:
            return []
        intro = _p(f"What the site engineer runs on the delivered cluster, the figure the plan expects and the pass "
                   f"threshold: {100 * pack.fraction:.0f}% of the expected figure ({html_text(GUIDE)}: below about "
                   f"75% of the theoretical all-reduce peak, the network is the bottleneck). {pack.stack.collectives} "
                   "are judged by the bus bandwidth at the largest message size; 'cluster-planner acceptance' writes "
                   "the runbook, its JSON and the fio job files.", 9)
        table = Table([Column("Test", 1.1), Column("Command", 2.6), Column("Expected", 0.6, "right"),
                       Column("Pass at", 0.9, "right")], runbook_rows(pack), font_pt=7.0)
        return self._table_pages("Acceptance tests", table, intro=intro)

    def _bom_pages(self) -> list[Page]:
        cost = self.report.cost
        bom = cost.bom if cost is not None else ()
        if not bom:
            return []
        if not self.with_prices:
            # Quantities only: what to quote for, not what the buyer budgets (prices and their sources).
            rows = [[line.category, line.item, count(line.quantity)] for line in bom]
            table = Table([Column("Category", 1.0), Column("Item", 3.0), Column("Qty", 0.6, "right")],
                          rows, font_pt=7.5)
            # a bill a little over a page (a plan priced per tier and network, its cables a line
            # per catalog length) in two columns on one
            return self._table_pages("Bill of materials", table, self._bom_intro(),
                                     width=min(self.body.width(), 520.0), two_columns=True)
        cols = [Column("Category", 1.0), Column("Item", 2.2), Column("Qty", 0.6, "right"),
                Column("Unit price", 1.0, "right"), Column("Total", 1.1, "right"), Column("Source", 2.6)]
        rows = []
        for line in bom:
            rows.append([line.category, line.item, count(line.quantity), money(line.unit_usd),
                         money(line.total_usd), line.source])
        rows.append(["", "Capex (report)", "", "", money(cost.capex_usd), ""])
        bold = {len(rows) - 1}
        table = Table(cols, rows, font_pt=7.5, bold_rows=bold)
        return self._table_pages("Bill of materials", table, self._bom_intro())

    def _fits(self, title: str, html: str) -> bool:
        """Whether a page headed ``title`` holding ``html`` fits on one page."""
        return html_height(self.device, self.body.width(), heading_html(title) + html) <= self.body.height()

    def _bom_intro(self):
        note = self.unrouted_cabling_note()
        return self._intro(note, 7.5) if note else ""

    def _findings_pages(self) -> list[Page]:
        findings = self.report.findings
        if not findings:
            return [Page("Open findings", _p("No open findings: every check passes.", 10),
                         section="Open findings")]
        if len(findings) <= MAX_LISTED_FINDINGS:
            rows = [[f.severity, f.code, f.message, describe_where(self.plan, f.where)] for f in findings]
            severities = [f.severity for f in findings]
        else:  # a large plan: one row per check, with how often it fires and its first message
            groups: dict[tuple[str, str], list] = {}
            for f in findings:
                groups.setdefault((f.severity, f.code), []).append(f)
            rows = [[sev, code, (f"{len(fs):,} findings, the first: " if len(fs) > 1 else "") + fs[0].message,
                     describe_where(self.plan, fs[0].where) + (f" and {len(fs) - 1:,} more" if len(fs) > 1 else "")]
                    for (sev, code), fs in groups.items()]
            severities = [sev for sev, _ in groups]
        table = Table([Column("Severity", 0.7), Column("Check", 1.6), Column("Finding", 5.0),
                       Column("Where", 1.0)], rows, font_pt=7.5,
                      cell_fill=lambda i, j: SEVERITY_FILL.get(severities[i]) if j == 0 else None)
        return self._table_pages("Open findings", table)
