"""The vendor pack: a multi-page landscape PDF a datacenter vendor can quote from.

Pages: cover with headline figures and contents; rack elevations (as many racks per page
as stay legible, every rack shown); power and cooling per rack; network summary (when the
report has one); bill of materials (when the cost section has one); open findings. Each
page has the plan name and "Page n of N" in its footer. All figures are the Report's.

Why it is long: one method per page of the pack (cover, elevations, power, network, bill of
materials, findings) sharing the page frame, paging and fonts; the tables and the elevations
are drawn by their own modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPdfWriter

from planner.hardware.catalog import Catalog
from planner.plan.model import Plan
from planner.plan.rack_types import GROUP_RACKS_ABOVE, rack_types
from planner.report.elevation import load_text
from planner.report.model import Report
from planner.report.palette import load_color
from planner.report import palette
from ui.export.canvas import Canvas
from ui.export.pack_site import SitePages
from ui.export.elevation import ElevationRenderer, fit_style, racks_per_line, row_groups, row_title
from ui.export.labels import kg_text, kw_text
from ui.export.sections import cost_headlines, describe_where, fabric_headline, money, network_rows
from ui.export.table import Column, Table

MARGIN = 34.0
TITLE_H = 26.0
FOOTER_H = 16.0
INK = palette.INK
MUTED = palette.INK_MUTED
ACCENT = palette.INK_HEADING
TYPE_CAPTION_H = 26.0
SEVERITY_FILL = palette.SEVERITY_FILLS

# Beyond this many findings the pack lists one row per check (count and first message), so a
# plan of thousands of racks keeps a readable findings section.
MAX_LISTED_FINDINGS = 200


@dataclass(slots=True)
class Page:
    title: str
    draw: Callable[[QRectF], None]
    section: str = ""   # the contents entry this page starts, if any


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


def tint(hex_color: str, amount: float = 0.6) -> str:
    """``hex_color`` mixed with white (a light cell fill behind dark text)."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(v + (255 - v) * amount):02X}" for v in (r, g, b))


class VendorPack(SitePages):
    def __init__(self, canvas: Canvas, plan: Plan, catalog: Catalog, report: Report,
                 page_width: float, page_height: float, today: date | None = None, with_prices: bool = False,
                 comparison=None):
        self.c = canvas
        self.comparison = comparison  # planner.report.compare.Comparison: Compare pages after the cover
        # Prices, capex, opex and TCO are the buyer's: left out unless asked for.
        self.with_prices = with_prices
        self.plan = plan
        self.catalog = catalog
        self.report = report
        self.pw, self.ph = page_width, page_height
        self.today = today or date.today()
        self.elevations = ElevationRenderer(canvas, plan, catalog, report)
        self.body = QRectF(MARGIN, MARGIN + TITLE_H, self.pw - 2 * MARGIN, self.ph - 2 * MARGIN - TITLE_H - FOOTER_H)

    # -- the document -----------------------------------------------------------------
    def pages(self) -> list[Page]:
        # A large plan is drawn by rack type (identical racks once), with an index of its racks.
        self.types = rack_types(self.plan) if len(self.plan.racks) > GROUP_RACKS_ABOVE else None
        pages = [Page("", self._draw_cover)]
        if self.comparison is not None:
            pages += self._compare_pages()
        if self.types is None:
            pages += self._elevation_pages()
            pages += self._power_pages()
        else:
            pages += self._type_pages()
            pages += self._type_power_pages()
            pages += self._index_pages()
        pages += self._site_pages()
        pages += self._cooling_pages()
        pages += self._floor_pages()
        pages += self._network_pages()
        pages += self._cable_pages()
        pages += self._bom_pages()
        pages += self._findings_pages()
        return pages

    def render(self, writer: QPdfWriter) -> int:
        self._pages = self.pages()
        n = len(self._pages)
        for i, page in enumerate(self._pages):
            if i:
                writer.newPage()
            if page.title:
                self.c.text(QRectF(MARGIN, MARGIN, self.pw - 2 * MARGIN, TITLE_H - 8), page.title, 14, bold=True,
                            color=ACCENT)
                self.c.line(MARGIN, MARGIN + TITLE_H - 6, self.pw - MARGIN, MARGIN + TITLE_H - 6, ACCENT, 0.8)
            page.draw(self.body)
            self._draw_footer(i + 1, n)
        return n

    def _draw_footer(self, number: int, total: int) -> None:
        y = self.ph - MARGIN - FOOTER_H + 4
        w = self.pw - 2 * MARGIN
        self.c.line(MARGIN, y, self.pw - MARGIN, y, palette.RULE, 0.4)
        r = QRectF(MARGIN, y + 2, w, FOOTER_H - 4)
        self.c.text(QRectF(r.x(), r.y(), w * 0.6, r.height()), self.plan.name, 7, color=MUTED)
        self.c.text(r, f"Page {number} of {total}", 7, color=MUTED, align=Qt.AlignmentFlag.AlignRight
                    | Qt.AlignmentFlag.AlignVCenter, elide=False)
        info = self.plan.info
        stamp = (f"Revision {info.revision} · " if info.revision else "") + f"Prepared {info.date or self.today.isoformat()}"
        self.c.text(r, stamp, 7, color=MUTED, align=Qt.AlignmentFlag.AlignCenter, elide=False)

    # -- cover ------------------------------------------------------------------------
    def _draw_cover(self, body: QRectF) -> None:
        c = self.c
        x, w = body.x(), body.width()
        y = MARGIN + 10
        c.text(QRectF(x, y, w, 14), "VENDOR PACK  ·  RACK LAYOUT, POWER, COOLING AND NETWORK", 9, bold=True,
               color=MUTED)
        y += 22
        y += c.wrapped_text(QRectF(x, y, w, 60), self.plan.name, 24, bold=True, color=ACCENT) + 6
        issued = self.plan.info.date or self.today.isoformat()
        c.text(QRectF(x, y, w, 14), f"Prepared {_long_date(issued)} with GPU Cluster Planner", 10, color=MUTED)
        y += 20
        y = self._draw_info(x, y, w * 0.68)
        if self.plan.description.strip():
            text = self.plan.description.strip()
            text = _shorten(text, 500)
            y += c.wrapped_text(QRectF(x, y, w * 0.68, 60), text, 9, color=INK) + 8
        y = self._draw_cards(x, y + 4, w * 0.68, self._headline_figures())
        counts = self.report.counts_by_severity()
        c.text(QRectF(x, y + 6, w, 14),
               "Open findings: " + " · ".join(_plural(counts[k], w) for k, w in
                                         (("error", "error"), ("warning", "warning"), ("info", "note"))),
               10, bold=counts["error"] > 0, color=palette.INK_ERROR if counts["error"] else INK)
        self._draw_contents(QRectF(x + w * 0.72, MARGIN + 120, w * 0.28, body.bottom() - MARGIN - 120))

    def _draw_info(self, x: float, y: float, width: float) -> float:
        """The plan's properties (customer, site, contact, revision, dates) in two columns."""
        rows = self.plan.info.rows()
        if not rows:
            return y
        col_w, label_w = width / 2, 100.0
        heights = []
        for i, (title, value) in enumerate(rows):
            cx = x + (i % 2) * col_w
            cy = y + sum(heights[:i // 2])
            self.c.wrapped_text(QRectF(cx, cy, label_w - 4, 14), title, 8, bold=True, color=MUTED)
            h = self.c.wrapped_text(QRectF(cx + label_w, cy, col_w - label_w - 8, 40), value, 9, color=INK)
            if i % 2 == 0:
                heights.append(max(h, 12.0) + 3)
            else:
                heights[-1] = max(heights[-1], max(h, 12.0) + 3)
        return y + sum(heights) + 8

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
            ("Heat to liquid", kw_text(t.liquid_heat_mw / 1e6)),
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

    def _draw_cards(self, x: float, y: float, width: float, figures: list[tuple[str, str]]) -> float:
        cols, gap, h = 3, 8.0, 40.0
        cw = (width - (cols - 1) * gap) / cols
        for i, (label, value) in enumerate(figures):
            cx = x + (i % cols) * (cw + gap)
            cy = y + (i // cols) * (h + gap)
            r = QRectF(cx, cy, cw, h)
            self.c.rect(r, fill=palette.PANEL_FILL, stroke=palette.PANEL_EDGE, width_pt=0.5)
            self.c.rect(QRectF(cx, cy, 3, h), fill=ACCENT)
            size = self.c.fitted_size(value, cw - 14, 14, 7, bold=True)
            self.c.text(QRectF(cx + 9, cy + 4, cw - 14, 20), value, size, bold=True, color=ACCENT, elide=False)
            lsize = self.c.fitted_size(label, cw - 14, 7.5, 6)
            self.c.text(QRectF(cx + 9, cy + 24, cw - 14, 12), label, lsize, color=MUTED, elide=False)
        rows = (len(figures) + cols - 1) // cols
        return y + rows * (h + gap)

    def _draw_contents(self, r: QRectF) -> None:
        c = self.c
        c.text(QRectF(r.x(), r.y(), r.width(), 16), "Contents", 11, bold=True, color=ACCENT)
        y = r.y() + 20
        for number, page in enumerate(self._pages, start=1):
            if not page.section:
                continue
            row = QRectF(r.x(), y, r.width(), 14)
            c.text(QRectF(row.x(), row.y(), row.width() - 24, row.height()), page.section, 9)
            c.text(row, str(number), 9, align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                   elide=False)
            c.line(r.x(), y + 14, r.right(), y + 14, palette.RULE_LIGHT, 0.3)
            y += 16

    # -- elevations -------------------------------------------------------------------
    def _elevation_pages(self) -> list[Page]:
        pages: list[Page] = []
        groups = row_groups(self.plan)
        total = len(self.plan.racks)
        legend_h = 26.0 + (22.0 if self.elevations.may_shorten() else 0.0)
        caption_h = 14.0
        done = 0
        for row, racks in groups:
            style = fit_style(max(r.height_u for r in racks), self.body.height() - legend_h - caption_h)
            per_page = racks_per_line(style, self.body.width())
            chunks = [racks[i:i + per_page] for i in range(0, len(racks), per_page)]
            for chunk in chunks:
                first, last = done + 1, done + len(chunk)
                done = last
                title = "Rack elevations" if len(groups) == 1 and not row else \
                    f"Rack elevations: {row_title(row, len(groups))}"
                span = f"rack {first} of {total}" if first == last else f"racks {first}-{last} of {total}"
                pages.append(Page(f"{title} ({span})", self._elevation_drawer(chunk, style, caption_h),
                                  section="Rack elevations" if not pages else ""))
        return pages

    def _elevation_drawer(self, racks, style, caption_h: float) -> Callable[[QRectF], None]:
        def draw(body: QRectF) -> None:
            basis = self.report.power_basis
            self.c.text(QRectF(body.x(), body.y(), body.width(), caption_h - 2),
                        f"Front view, U1 at the bottom. Power typical and nameplate against each rack's cap, coloured "
                        f"by the worse; the plan is checked on the {basis} basis.", 7.5,
                        color=MUTED)
            width = len(racks) * style.rack_width + (len(racks) - 1) * style.gap
            x = body.x() + max(0.0, (body.width() - width) / 2)
            _, h = self.elevations.draw_line(x, body.y() + caption_h, racks, style)
            self.elevations.draw_legend(body.x(), body.y() + caption_h + h + 8, body.width())
        return draw

    def _type_pages(self) -> list[Page]:
        """One elevation per rack type, drawn by the first rack of the type, with its racks named under it."""
        legend_h = 26.0 + (22.0 if self.elevations.may_shorten() else 0.0)
        caption_h = 14.0
        tallest = max(t.example.height_u for t in self.types)
        style = fit_style(tallest, self.body.height() - legend_h - caption_h - TYPE_CAPTION_H)
        per_page = racks_per_line(style, self.body.width())
        chunks = [self.types[i:i + per_page] for i in range(0, len(self.types), per_page)]
        pages = []
        for n, chunk in enumerate(chunks):
            first, last = chunk[0].letter, chunk[-1].letter
            span = f"type {first}" if first == last else f"types {first}-{last}"
            pages.append(Page(f"Rack types ({span} of {len(self.types)}; {len(self.plan.racks):,} racks)",
                              self._type_drawer(chunk, style, caption_h),
                              section="Rack types (elevations)" if n == 0 else ""))
        return pages

    def _type_drawer(self, types, style, caption_h: float) -> Callable[[QRectF], None]:
        def draw(body: QRectF) -> None:
            self.c.text(QRectF(body.x(), body.y(), body.width(), caption_h - 2),
                        "Identical racks (same devices at the same positions) are drawn once, by their first rack. "
                        "Front view, U1 at the bottom; power typical and nameplate, coloured by the worse.",
                        7.5, color=MUTED)
            racks = [t.example for t in types]
            width = len(racks) * style.rack_width + (len(racks) - 1) * style.gap
            x = body.x() + max(0.0, (body.width() - width) / 2)
            top = body.y() + caption_h
            _, h = self.elevations.draw_line(x, top, racks, style, [t.title for t in types])
            for i, t in enumerate(types):
                rx = x + i * (style.rack_width + style.gap)
                self.c.wrapped_text(QRectF(rx, top + h + 3, style.rack_width, TYPE_CAPTION_H - 4),
                                    f"Racks {t.describe_racks(max_runs=2)}", 6.5, color=MUTED)
            self.elevations.draw_legend(body.x(), top + h + TYPE_CAPTION_H, body.width())
        return draw

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
                         kw_text(res.liquid_heat_mw / 1e6),
                         f"{kg_text(res.weight_kg)} / {kg_text(res.max_weight_kg)}", kw_text(res.power_kw * n)])
            fills[i] = tint(load_color(res.worst_load_fraction), 0.55)
        t = self.report.totals
        rows.append(["All racks", f"{t.racks:,}", "", "", f"{t.gpus:,}", kw_text(t.it_power_typical_kw),
                     kw_text(t.it_power_nameplate_kw), "", "", kw_text(t.liquid_heat_mw / 1e6), kg_text(t.weight_kg),
                     kw_text(t.it_power_kw)])
        table = Table(cols, rows, cell_fill=lambda i, j: fills.get(i) if j == 8 else None, bold_rows={len(rows) - 1})

        def intro(b: QRectF) -> float:
            text = (f"Facility power {kw_text(t.facility_power_kw)} at PUE {t.pue:g}. Load colours (the worse "
                    f"of typical and nameplate): green below 80% of the rack's cap, amber from 80%, red over the cap. "
                    f"CDUs: {t.cdus:,} needed, {t.cdus_placed:,} placed. The rack index lists the racks of each type.")
            return self.c.wrapped_text(QRectF(b.x(), b.y(), b.width(), 30), text, 8, color=MUTED) + 8
        return self._table_pages("Power and cooling per rack type", table, intro, 30.0)

    def _index_pages(self) -> list[Page]:
        rows = []
        for t in self.types:
            for first, last, n in t.runs():
                rows.append([f"Type {t.letter}", first if n == 1 else f"{first} … {last}", f"{n:,}"])
        table = Table([Column("Rack type", 0.8), Column("Racks", 2.4, wrap=True), Column("Count", 0.6, "right")],
                      rows, font_pt=7.5)
        return self._table_pages("Rack index", table, width=min(self.body.width(), 420.0))

    # -- tables -----------------------------------------------------------------------
    def _table_pages(self, title: str, table: Table, intro: Callable[[QRectF], float] | None = None,
                     intro_height: float = 0.0, width: float | None = None) -> list[Page]:
        body = self.body
        width = width or body.width()
        chunks = table.paginate(self.c, width, body.height() - intro_height, body.height())
        pages = []
        for n, rows in enumerate(chunks):
            def draw(b: QRectF, rows=rows, n=n) -> None:
                y = b.y()
                if n == 0 and intro:
                    y += intro(b)
                table.draw(self.c, b.x(), y, width, rows)
            suffix = f" (continued, part {n + 1} of {len(chunks)})" if n else ""
            pages.append(Page(title + suffix, draw, section=title if n == 0 else ""))
        return pages

    def _power_pages(self) -> list[Page]:
        with_rows = any(r.row for r in self.plan.racks)
        cols = [Column("Rack", 1.4), Column("Row", 0.7), Column("Cooling", 0.8), Column("U used", 0.8, "right"),
                Column("GPUs", 0.6, "right"), Column("Typical kW", 0.9, "right"),
                Column("Nameplate kW", 1.0, "right"), Column("Cap kW", 0.8, "right"),
                Column("Load typical / nameplate", 1.3, "right"), Column("Heat to liquid kW", 1.2, "right"),
                Column("Weight kg / rating", 1.4, "right")]
        rows, fills = [], {}
        for i, res in enumerate(self.report.racks):
            rack = self.plan.rack(res.id)
            rows.append([res.name, rack.row if rack else "", res.cooling, f"{res.used_u}/{res.height_u}",
                         f"{res.gpus:,}", f"{res.power_typical_kw:,.1f}", f"{res.power_nameplate_kw:,.1f}",
                         f"{res.cap_kw:,.3g}", f"{load_text(res.load_on('typical'))} / "
                         f"{load_text(res.load_on('nameplate'))}", f"{res.liquid_heat_mw / 1e6:,.1f}",
                         f"{res.weight_kg:,.0f} / {res.max_weight_kg:,.0f}"])
            fills[i] = tint(load_color(res.worst_load_fraction), 0.55)
        t = self.report.totals
        rows.append(["All racks", "", "", "", f"{t.gpus:,}", f"{t.it_power_typical_kw:,.1f}",
                     f"{t.it_power_nameplate_kw:,.1f}", "", "", f"{t.liquid_heat_mw / 1e6:,.1f}",
                     f"{t.weight_kg:,.0f}"])
        load_col = 8
        if not with_rows:
            del cols[1]
            for row in rows:
                del row[1]
            load_col -= 1
        table = Table(cols, rows, cell_fill=lambda i, j: fills.get(i) if j == load_col else None,
                      bold_rows={len(rows) - 1})

        def intro(b: QRectF) -> float:
            text = (f"Facility power {kw_text(t.facility_power_kw)} at PUE {t.pue:g}. Load colours (the worse "
                    f"of typical and nameplate): green below 80% of the rack's cap, amber from 80%, red over the cap. "
                    f"CDUs: {t.cdus} needed, {t.cdus_placed} placed.")
            return self.c.wrapped_text(QRectF(b.x(), b.y(), b.width(), 30), text, 8, color=MUTED) + 8
        return self._table_pages("Power and cooling per rack", table, intro, 30.0)

    def _compare_pages(self) -> list[Page]:
        """The comparison's totals with their differences (green better, red worse), and for
        each side its BOM quantity differences; money only with prices."""
        from planner.report.compare import METRICS
        from planner.report.palette import VERDICT_FILLS
        from ui.fmt import difference_text, value_text

        c = self.comparison
        metrics = [m for m in METRICS if any(s.totals[m.key] is not None for s in c.sides)
                   and (self.with_prices or not m.unit.startswith("$"))]
        cols = [Column("Figure", 1.6)] + [Column(s.name, 1.0, "right") for s in c.sides] + \
            [Column(f"{d.side} − {d.against}", 1.3, "right") for d in c.differences]
        rows, fills = [], {}
        for i, m in enumerate(metrics):
            row = [m.label] + [value_text(s.totals[m.key], m.unit) for s in c.sides]
            for j, d in enumerate(c.differences):
                v = d.verdicts[m.key]
                row.append(difference_text(d.totals[m.key], m.unit) + (f" {v}" if v in VERDICT_FILLS else ""))
                if v in VERDICT_FILLS:
                    fills[(i, 1 + len(c.sides) + j)] = VERDICT_FILLS[v]
            rows.append(row)
        table = Table(cols, rows, font_pt=8.5, cell_fill=lambda i, j: fills.get((i, j)))

        def intro(b: QRectF) -> float:
            text = ("Differences are each side minus the first; green is better and red worse, by each figure's "
                    "direction (less cost, power, space and time is better; more throughput is better; GPUs are "
                    "neither)." + ("" if self.with_prices else " Money figures are left out of this pack."))
            return self.c.wrapped_text(QRectF(b.x(), b.y(), b.width(), 30), text, 8, color=MUTED) + 8
        pages = self._table_pages("Compare", table, intro, 30.0)
        for d in c.differences:
            bom_rows = [[b.change, b.category, b.item, f"{b.quantity_a:,} → {b.quantity_b:,}",
                         f"{b.quantity_difference:+,}"] + ([money(b.cost_difference_usd)] if self.with_prices else [])
                        for b in d.bom]
            if not bom_rows:
                continue
            bcols = [Column("Change", 0.7), Column("Category", 1.0), Column("Item", 3.0, wrap=True),
                     Column("Quantity", 1.0, "right"), Column("Difference", 0.8, "right")] + (
                [Column("Cost difference", 1.0, "right")] if self.with_prices else [])
            pages += self._table_pages(f"Compare: bill of materials, {d.side} against {d.against}",
                                       Table(bcols, bom_rows, font_pt=7.5))
        return pages

    def _network_pages(self) -> list[Page]:
        rows = network_rows(self.report, self.catalog)
        if not rows:
            return []
        table = Table([Column("Item", 1.2), Column("Value", 1.4, wrap=True)], rows, font_pt=8.5)
        return self._table_pages("Network summary", table, width=min(self.body.width(), 460.0))

    def _bom_pages(self) -> list[Page]:
        cost = self.report.cost
        bom = cost.bom if cost is not None else ()
        if not bom:
            return []
        if not self.with_prices:
            # Quantities only: what to quote for, not what the buyer budgets (prices and their sources).
            rows = [[line.category, line.item, f"{line.quantity:,g}"] for line in bom]
            table = Table([Column("Category", 1.0), Column("Item", 3.0, wrap=True), Column("Qty", 0.6, "right")],
                          rows, font_pt=7.5)
            return self._table_pages("Bill of materials", table, width=min(self.body.width(), 520.0))
        cols = [Column("Category", 1.0), Column("Item", 2.2, wrap=True), Column("Qty", 0.6, "right"),
                Column("Unit price", 1.0, "right"), Column("Total", 1.1, "right"), Column("Source", 2.6, wrap=True)]
        rows = []
        for line in bom:
            rows.append([line.category, line.item, f"{line.quantity:,g}", money(line.unit_usd),
                         money(line.total_usd), line.source])
        rows.append(["", "Capex (report)", "", "", money(cost.capex_usd), ""])
        bold = {len(rows) - 1}
        table = Table(cols, rows, font_pt=7.5, bold_rows=bold)
        return self._table_pages("Bill of materials", table)

    def _findings_pages(self) -> list[Page]:
        findings = self.report.findings
        if not findings:
            def draw(b: QRectF) -> None:
                self.c.text(QRectF(b.x(), b.y(), b.width(), 16), "No open findings: every check passes.", 10)
            return [Page("Open findings", draw, section="Open findings")]
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
        table = Table([Column("Severity", 0.7), Column("Check", 1.6), Column("Finding", 5.0, wrap=True),
                       Column("Where", 1.0, wrap=True)], rows, font_pt=7.5,
                      cell_fill=lambda i, j: SEVERITY_FILL.get(severities[i]) if j == 0 else None)
        return self._table_pages("Open findings", table)
