"""The vendor pack's campus pages, for a plan of several data halls: the Campus table (each
building's and each hall's figures, from the report's ``facility.buildings`` and
``facility.halls``) and a floor page per building, its halls drawn at one scale, each
labelled with its name, racks and IT power.

A campus of many buildings keeps the pack short: at most ``MAX_FLOOR_PAGES`` floor pages
(buildings share a page beyond that), at most ``MAX_HALLS_DRAWN`` halls drawn on a page and
``MAX_HALL_ROWS`` hall rows in the table; the captions say what is left to the Campus table.
Every figure is the report's; this module lays them out (the halls' arrangement is drawing
geometry, in points).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QRectF

from planner.facility.floor import FloorLayout, FloorRow, floor_layout
from planner.plan.campus import campus_of
from planner.report import palette
from planner.vocabulary import count, text
from ui.export.labels import kw_text
from ui.export.pack_document import Drawing, Page
from ui.export.pack_site import MAX_FLOOR_SCALE, draw_rows, floor_legend
from ui.export.table import Column, Table

MAX_FLOOR_PAGES = 4    # floor pages of a campus; more buildings share them
MAX_HALLS_DRAWN = 16   # halls drawn on one floor page; the rest are in the Campus table
MAX_HALL_ROWS = 24     # hall rows in the Campus table (one page with their buildings); beyond, buildings only
LABEL_W, COL_GAP, HALL_GAP, HEAD_H, BAND_GAP = 46.0, 18.0, 26.0, 24.0, 16.0  # points


@dataclass(frozen=True, slots=True)
class _Hall:
    title: str
    figures: str
    layout: FloorLayout  # the hall alone, in its own frame


@dataclass(frozen=True, slots=True)
class _Arrangement:
    scale: float          # points per metre, every hall
    per: int              # rows per column
    bands: list[list[int]]  # the halls (indices) of each band, left to right


class CampusPages:
    """Pages of ``VendorPack`` for a plan of several halls (a mixin, as ``SitePages``)."""

    def _several_halls(self) -> bool:
        return len(campus_of(self.plan).halls) > 1

    # -- the Campus table ---------------------------------------------------------------
    def _campus_pages(self) -> list[Page]:
        if not self._several_halls():
            return []
        f = self.report.sections["facility"]
        with_halls = len(f.halls) <= MAX_HALL_ROWS
        rows, bold = [], set()
        for b in f.buildings:
            bold.add(len(rows))
            trafos = f"{b.transformer_units} x {b.transformer_unit_kva:,g} kVA" if b.transformer_unit_kva else "-"
            rows.append([b.name, count(b.racks), count(b.gpus), kw_text(b.it_power_typical_kw),
                         kw_text(b.it_power_nameplate_kw), kw_text(b.facility_power_kw),
                         "-" if b.utility_feed_kw is None else kw_text(b.utility_feed_kw),
                         f"{b.ups_units} x {kw_text(b.ups_unit_kw)}",
                         f"{b.generator_units} x {kw_text(b.generator_unit_kw)}", trafos,
                         text(b.water_l_min, "l/min")])
            for h in (h for h in f.halls if h.building == b.id and with_halls):
                rows.append(["\u00a0\u00a0\u00a0" + h.name, count(h.racks), count(h.gpus), kw_text(h.it_power_typical_kw),
                             kw_text(h.it_power_nameplate_kw), "",
                             "-" if h.power_limit_kw is None else kw_text(h.power_limit_kw), "", "", "",
                             text(h.water_l_min, "l/min")])
        t = self.report.totals
        rows.append(["Campus", count(t.racks), count(t.gpus), kw_text(t.it_power_typical_kw),
                     kw_text(t.it_power_nameplate_kw), kw_text(f.generator_load_kw), "",
                     f"{f.ups_units} ({kw_text(f.ups_kw)})", f"{f.generator_units} ({kw_text(f.generator_kw)})", "",
                     text(f.water_l_min, "l/min")])
        bold.add(len(rows) - 1)
        cols = [Column("Building / hall", 1.3), Column("Racks", 0.6, "right"), Column("GPUs", 0.7, "right"),
                Column("IT typical", 0.8, "right"), Column("IT nameplate", 0.9, "right"),
                Column("Design load", 0.9, "right"), Column("Feed / hall limit", 0.9, "right"),
                Column("UPS modules", 1.0, "right"), Column("Generator sets", 1.0, "right"),
                Column("Transformers", 1.1, "right"), Column("Water", 0.8, "right")]
        table = Table(cols, rows, font_pt=7.5, bold_rows=bold)
        p = self.plan.settings.power
        note = (f"{count(len(f.buildings))} buildings, {count(len(f.halls))} data halls"
                + ("" if with_halls else f" (more than {MAX_HALL_ROWS}: the buildings only, each the sum of "
                   "its halls)") +
                f". Each building's plant is sized on its own load: UPS modules on its IT nameplate "
                f"({p.ups_redundancy}), generator sets on its design load, IT nameplate x PUE "
                f"{self.plan.settings.facility.pue:g} ({p.generator_redundancy}), transformers at power factor "
                f"0.9 with the generators' redundancy; the feed is checked against the design load, a hall's "
                f"limit against its IT power ({self.report.power_basis}). The Campus row's plant is sized on the "
                f"whole load, so the buildings' plants may add up to more. Water at "
                f"{self.plan.settings.facility.coolant_delta_t_k:g} K rise.")
        # 2 pt short of the page: Qt rounds eleven columns' widths up past it
        return self._table_pages("Campus: buildings and data halls", table, self._intro(note, 7.5),
                                 width=self.body.width() - 2)

    # -- floor pages --------------------------------------------------------------------
    def _campus_floor_pages(self) -> list[Page]:
        """A floor page per building with racks (buildings share pages past ``MAX_FLOOR_PAGES``)."""
        campus = campus_of(self.plan)
        by_hall = campus.racks_by_hall(self.plan.racks)
        figures = {h.id: h for h in self.report.sections["facility"].halls}
        layouts = _hall_layouts(self.plan, campus)
        buildings = [b for b in campus.buildings if any(by_hall[h.id] for h in b.halls)]
        if not buildings:
            return []
        per_page = math.ceil(len(buildings) / MAX_FLOOR_PAGES)
        pages = []
        for i in range(0, len(buildings), per_page):
            group = buildings[i:i + per_page]
            several = len(group) > 1
            halls, empty = [], []
            for b in group:
                for h in b.halls:
                    if not by_hall[h.id]:
                        empty.append(h.name)
                        continue
                    fig, layout = figures[h.id], layouts[h.id]
                    limit = f" of {kw_text(fig.power_limit_kw)}" if fig.power_limit_kw is not None else ""
                    racks = f"{count(fig.racks)} rack{'s' if fig.racks != 1 else ''}"
                    halls.append(_Hall(f"{b.name} · {h.name}" if several else h.name,
                                       f"{racks} · IT {kw_text(fig.it_power_kw)}{limit} · "
                                       f"{text(layout.width_m, 'm')} x {text(layout.depth_m, 'm')}", layout))
            drawn, left = halls[:MAX_HALLS_DRAWN], halls[MAX_HALLS_DRAWN:]
            name = group[0].name if not several else f"{group[0].name} to {group[-1].name}"
            title = f"Floor plan: {name}"
            caption = self._intro(self._floor_caption(group, len(halls), empty, left, len(buildings)), 7.5)
            w, height = self.body.width(), self._drawing_height(title, caption)
            drawing = Drawing(w, height, lambda canvas, box=QRectF(0, 0, w, height), drawn=drawn:
                              self._draw_halls(canvas, box, drawn))
            pages.append(Page(title, caption, section="Floor plan" if not pages else "", drawing=drawing))
        return pages

    def _floor_caption(self, group, n_halls: int, empty: list[str], left: list[_Hall], n_buildings: int) -> str:
        s = self.plan.settings.floor
        racks = sum(fig.racks for fig in self.report.sections["facility"].buildings if fig.id in {b.id for b in group})
        what = group[0].name if len(group) == 1 else f"{group[0].name} to {group[-1].name}"
        out = (f"{what}: {count(n_halls)} data hall{'s' if n_halls != 1 else ''} with racks, {count(racks)} racks. "
               f"Each hall is its own floor, drawn apart from the others (not at its place in the building) and all "
               f"at one scale; a long hall runs on in columns of rows. Labels give the hall's racks, its IT power "
               f"({self.report.power_basis}) against its limit where it has one, and its size. Fronts face the "
               f"cold aisles (cold {s.cold_aisle_mm / 1000:g} m, hot {s.hot_aisle_mm / 1000:g} m); rack footprints "
               f"to scale, coloured by the worse of typical and nameplate load.")
        if len(group) > 1:
            out += (f" The campus has {count(n_buildings)} buildings with racks, more than {MAX_FLOOR_PAGES} floor "
                    "pages hold: buildings share a page.")
        if left:
            out += (f" {count(len(left))} more halls are not drawn ({left[0].title} to {left[-1].title}): their "
                    "figures are on the Campus page.")
        if empty:
            out += f" No racks in {', '.join(empty[:6])}{' and others' if len(empty) > 6 else ''}."
        return out

    def _draw_halls(self, c, body: QRectF, halls: list[_Hall]) -> None:
        legend_h = 20.0
        area = QRectF(body.x(), body.y(), body.width(), body.height() - legend_h - 12)
        min_w = [max(c.text_width(h.title, 7.5, True), c.text_width(h.figures, 7)) + 4 for h in halls]
        plan = arrange([h.layout for h in halls], min_w, area.width(), area.height())
        scale, per = plan.scale, plan.per
        y = area.y()
        for band in plan.bands:
            x = area.x()
            depth = 0.0
            for i in band:
                hall, layout = halls[i], halls[i].layout
                rows = layout.rows
                cols = math.ceil(len(rows) / per)
                block_w = _block_w(layout.width_m, cols, scale, min_w[i])
                c.text(QRectF(x, y, block_w, 11), hall.title, 7.5, bold=True, color=palette.INK_HEADING, elide=False)
                c.text(QRectF(x, y + 11, block_w, 10), hall.figures, 7, color=palette.INK_MUTED, elide=False)
                for k in range(cols):
                    chunk = rows[k * per:(k + 1) * per]
                    x0 = x + k * (LABEL_W + layout.width_m * scale + COL_GAP) + LABEL_W
                    draw_rows(c, self.report, layout, chunk, k * per, x0, y + HEAD_H, scale, LABEL_W)
                    depth = max(depth, (chunk[-1].y1_m - chunk[0].y0_m) * scale)
                x += block_w + HALL_GAP
            y += HEAD_H + depth + BAND_GAP
        floor_legend(c, body.x(), body.bottom() - legend_h, body.width(), f"Scale: 1 m = {scale:.1f} pt, every hall.")


def _hall_layouts(plan, campus) -> dict[str, FloorLayout]:
    """Each hall's rows (in its own frame) out of one ``floor_layout`` of every hall: what
    ``floor_layout(plan, s, hall)`` gives for each, in one pass over the racks instead of one a hall."""
    full = floor_layout(plan, plan.settings.floor)
    hall_of = {r.id: campus.hall_id(r) for r in plan.racks}
    rows: dict[str, list[FloorRow]] = {}
    for row in full.rows:
        rows.setdefault(hall_of[row.racks[0]], []).append(row)
    return {hall: FloorLayout(full.racks, tuple(mine), (), max(r.width_m for r in mine),
                              max(r.y1_m for r in mine) - min(r.y0_m for r in mine))
            for hall, mine in rows.items()}


def _block_w(width_m: float, cols: int, scale: float, min_w: float) -> float:
    """A hall's width on the page: its columns of rows with their row labels, or its label's."""
    return max(min_w, cols * (LABEL_W + width_m * scale) + (cols - 1) * COL_GAP)


def _depth_m(rows, per: int) -> float:
    """The deepest column of a hall's rows, ``per`` rows a column."""
    return max(rows[min(k + per, len(rows)) - 1].y1_m - rows[k].y0_m for k in range(0, len(rows), per))


def arrange(layouts, min_w: list[float], area_w: float, area_h: float) -> _Arrangement:
    """The arrangement that draws the halls (``layouts``, each at least ``min_w`` points wide)
    largest in ``area_w`` x ``area_h`` points: halls left to right in bands of whole halls,
    each hall's rows in columns of ``per`` rows, one scale for all (at most the one-hall
    page's ``MAX_FLOOR_SCALE``). Tried over every rows-per-column and number of bands; each
    scale found by bisection (a band's width and the bands' height grow with the scale)."""
    n = len(layouts)
    longest = max(len(lay.rows) for lay in layouts)
    pers = sorted({math.ceil(longest / k) for k in range(1, longest + 1)}, reverse=True)
    best = _Arrangement(0.0, longest, [list(range(n))])
    for per in pers:
        cols = [math.ceil(len(lay.rows) / per) for lay in layouts]
        depth = [_depth_m(lay.rows, per) for lay in layouts]
        for n_bands in range(1, n + 1):
            size = math.ceil(n / n_bands)
            bands = [list(range(i, min(i + size, n))) for i in range(0, n, size)]

            def fits(scale: float) -> bool:
                widths = [sum(_block_w(layouts[i].width_m, cols[i], scale, min_w[i]) for i in b)
                          + (len(b) - 1) * HALL_GAP for b in bands]
                height = sum(HEAD_H + scale * max(depth[i] for i in b) for b in bands) + (len(bands) - 1) * BAND_GAP
                return max(widths) <= area_w and height <= area_h

            if not fits(0.0):
                continue
            lo, hi = 0.0, MAX_FLOOR_SCALE
            if fits(hi):
                lo = hi
            else:
                for _ in range(40):
                    mid = (lo + hi) / 2
                    lo, hi = (mid, hi) if fits(mid) else (lo, mid)
            if lo > best.scale:
                best = _Arrangement(lo, per, bands)
    return best
