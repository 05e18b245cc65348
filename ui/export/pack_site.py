"""The vendor pack's site pages: what a colocation provider quotes power, cooling, floor
space and cabling from.

- Power distribution, cooling and floor per rack (or per rack type on large plans):
  typical and nameplate kW, feeds and redundancy, PDUs and their circuits (voltage, phase,
  amps, connector), heat to liquid and to air, water flow, weight, footprint, floor load.
- Liquid cooling: each liquid-cooled rack's heat to the loop and water flow at the supply
  temperature and rise, and the facility's totals and CDUs.
- Floor plan: rows, aisles (cold / hot), rack positions and the floor's dimensions.
- Cabling: cables by type and length, the links between racks, the cross-connects by network.

Every figure is the report's (``planner.report``, ``planner.facility``) or the cable
schedule's (``planner.network.cables``); this module only lays them out.

Why it is long: four kinds of page, each with its own tables and their columns.
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QRectF, Qt

from planner.facility.floor import floor_layout
from planner.vocabulary import count, kw, text
from planner.report import palette
from planner.report.palette import load_color
from ui.export.labels import kg_text, kw_text
from ui.export.pack_document import Drawing, Page
from ui.export.table import Column, Table

NETWORK_TITLES = {"compute": "Compute fabric", "storage": "Storage network", "management": "Management network"}
AISLE_FILL = palette.AISLE_FILLS
MAX_FLOOR_SCALE = 60.0  # points per metre: a small floor is drawn at a plan's scale, not blown up


def circuit_text(pdu) -> str:
    """"415 V 3-phase 60 A, IEC 60309 560P7": one PDU's input circuit from the catalog."""
    if pdu is None or pdu.pdu is None:
        return "-"
    b = pdu.pdu
    text = f"{b.voltage_v:g} V {b.phases}-phase {b.breaker_a:g} A"
    return f"{text}, {b.connector}" if b.connector else text


def feeds_text(res, redundancy: str) -> str:
    """"A+B (2N)", "A (N)"."""
    if not res.feeds:
        return "-"
    return "+".join(f.name for f in res.feeds) + f" ({redundancy})"


def pdus_text(res) -> str:
    """PDUs per feed: "2 + 2"."""
    if not res.feeds:
        return "0"
    return " + ".join(count(f.pdus) for f in res.feeds)


class SitePages:
    """Pages of ``VendorPack`` (a mixin: it uses the pack's plan, report, notes and tables)."""

    # -- power distribution, cooling and floor ------------------------------------------
    def _site_columns(self, grouped: bool) -> list[Column]:
        cols = [Column("Rack type" if grouped else "Rack", 0.9)]
        if grouped:
            cols.append(Column("Racks", 0.55, "right"))
        cols += [Column("Typical", 0.75, "right"), Column("Nameplate", 0.8, "right"),
                 Column("Feeds", 0.75), Column("PDUs per feed", 0.8, "right"),
                 Column("Circuit per PDU", 2.3), Column("Heat to liquid", 0.8, "right"),
                 Column("Heat to air", 0.75, "right"), Column("Water", 0.8, "right"),
                 Column("Weight", 0.75, "right"), Column("Footprint", 0.75, "right"),
                 Column("Floor load", 0.9, "right")]
        return cols

    def _site_cells(self, res) -> list[str]:
        pdu = self.catalog.get(self.plan.settings.power.pdu_device)
        circuit = circuit_text(pdu) if res.feeds and any(f.pdus for f in res.feeds) else "-"
        if res.power_shelves:
            circuit += f"; feeds {res.power_shelves} power shelves on a bus bar"
        return [kw(res.power_typical_kw), kw(res.power_nameplate_kw),
                feeds_text(res, self.plan.settings.power.feed_redundancy), pdus_text(res), circuit,
                kw(res.heat_liquid_kw), kw(res.heat_air_kw), text(res.water_l_min, "l/min"),
                text(res.total_weight_kg, "kg"), text(res.footprint_m2, "m²"), text(res.floor_load_kg_m2, "kg/m²")]

    def _site_pages(self) -> list:
        grouped = self.types is not None
        rating = self.plan.settings.floor.floor_rating_kg_m2
        rows, fills, over = [], {}, set()
        items = [(f"Type {t.letter}", self.report.rack(t.example.id), len(t.racks)) for t in self.types] \
            if grouped else [(res.name, res, 1) for res in self.report.racks]
        for i, (name, res, n) in enumerate(items):
            rows.append([name] + ([count(n)] if grouped else []) + self._site_cells(res))
            fills[i] = tint_load(res.worst_load_fraction)
            if res.floor_load_kg_m2 > rating + 1e-9:
                over.add(i)
        t = self.report.totals
        racks = [(self.report.rack(tp.example.id), len(tp.racks)) for tp in self.types] if grouped \
            else [(res, 1) for res in self.report.racks]
        total = ["All racks"] + ([count(t.racks)] if grouped else []) + [
            kw_text(t.it_power_typical_kw), kw_text(t.it_power_nameplate_kw), "",
            f"{count(t.pdus)} in all", "",
            kw_text(t.liquid_heat_kw),
            kw_text(sum(res.heat_air_kw * n for res, n in racks)),
            text(sum(res.water_l_min * n for res, n in racks), "l/min"),
            kg_text(sum(res.total_weight_kg * n for res, n in racks)),
            text(sum(res.footprint_m2 * n for res, n in racks), "m²"), ""]
        rows.append(total)
        first_power = 2 if grouped else 1
        floor_col = len(rows[0]) - 1
        table = Table(self._site_columns(grouped), rows, font_pt=7,
                      cell_fill=lambda i, j: (fills.get(i) if j in (first_power, first_power + 1) else
                                              palette.SEVERITY_FILLS["error"] if j == floor_col and i in over else None),
                      bold_rows={len(rows) - 1})
        power = self.plan.settings.power
        pdu = self.catalog.get(power.pdu_device)
        per_type = " Each row is one rack of the type; the totals count every rack." if grouped else ""
        aisle = self.plan.settings.floor.aisle_share_mm
        spread = (f"the footprint and the {aisle:,.0f} mm of the adjoining aisles counted with each rack (width x "
                  "(depth + aisle share), the floor setting)" if aisle > 0 else "the footprint")
        note = (f"Feeds {power.feed_redundancy}: " + {
                "2N": "feeds A and B each carry the rack's whole nameplate alone",
                "N+1": "the PDUs the nameplate needs plus one spare, over feeds A and B",
                "N": "one feed; losing it powers the rack off"}[power.feed_redundancy]
                + f". PDUs are sized on the nameplate: {pdu.model if pdu else power.pdu_device}, "
                f"{circuit_text(pdu)}, {power.continuous_derating:.0%} continuous load; one circuit per PDU. "
                f"Heat at nameplate, to the liquid loop (cold plates, rear doors) and to the room's air; water "
                f"at {self.plan.settings.facility.coolant_delta_t_k:g} K rise. Weight with the enclosure; floor "
                f"load over {spread} (rating {text(rating, 'kg/m²')}, red above). Power cells coloured by the "
                f"worse of typical and nameplate against the rack's cap.{per_type}")
        intro = self._intro(note, 7.5)
        return self._table_pages("Feeds, heat and floor per rack" + (" type" if grouped else ""), table, intro)

    # -- liquid cooling -----------------------------------------------------------------
    def _cooling_pages(self) -> list:
        f = self.plan.settings.facility
        grouped = self.types is not None
        items = [(f"Type {t.letter}", self.report.rack(t.example.id), len(t.racks)) for t in self.types] \
            if grouped else [(res.name, res, 1) for res in self.report.racks]
        items = [(name, res, n) for name, res, n in items if res.heat_liquid_milliwatts > 0]
        if not items:
            return []
        rows = []
        for name, res, n in items:
            rack = self.plan.rack(res.id)
            cdus = self.catalog.placed(res.counts, "cdu")
            rows.append([name] + ([count(n)] if grouped else []) + [
                text(res.cooling, "name") + (" + rear door" if rack is not None and rack.rear_door_hx else ""),
                kw(res.heat_liquid_kw), kw(res.heat_air_kw), text(res.water_l_min, "l/min"),
                f"{f.coolant_supply_c:g} / {f.coolant_supply_c + f.coolant_delta_t_k:g} °C", count(cdus)])
        t = self.report.totals
        liquid = t.liquid_heat_kw  # the report's total: every rack with heat to liquid is listed
        water = sum(res.water_l_min * n for _, res, n in items)
        rows.append(["Total"] + ([count(sum(n for *_, n in items))] if grouped else []) +
                    ["", kw_text(liquid), "", text(water, "l/min"), "", f"{count(t.cdus_placed)} placed"])
        cols = [Column("Rack type" if grouped else "Rack", 1.2)] + ([Column("Racks", 0.6, "right")] if grouped else [])
        cols += [Column("Cooling", 1.0), Column("Heat to liquid", 0.9, "right"),
                 Column("Heat to air", 0.9, "right"), Column("Water", 0.9, "right"),
                 Column("Supply / return", 0.9, "right"), Column("CDUs in rack", 0.8, "right")]
        table = Table(cols, rows, font_pt=7.5, bold_rows={len(rows) - 1})
        cdu = self.catalog.get(f.cdu_device)
        note = (f"Facility water supply {f.coolant_supply_c:g} °C, return {f.coolant_supply_c + f.coolant_delta_t_k:g} °C "
                f"({f.coolant_delta_t_k:g} K rise); flow = heat / (c_p {f.coolant_cp_kj_kg_k:g} kJ/(kg·K) x "
                f"{f.coolant_density_kg_l:g} kg/l x {f.coolant_delta_t_k:g} K). Heat to liquid "
                f"{kw_text(liquid)} needs {text(water, 'l/min')} in all. CDUs: {count(t.cdus)} needed "
                f"({cdu.model if cdu else f.cdu_device}, {kw_text(t.cdu_capacity_kw)} in all), "
                f"{count(t.cdus_placed)} placed.")
        intro = self._intro(note, 7.5)
        return self._table_pages("Liquid cooling", table, intro, width=620.0)

    # -- floor plan ---------------------------------------------------------------------
    def _floor_pages(self) -> list:
        if self._several_halls():  # a page per building, its halls side by side (``pack_campus``)
            return self._campus_floor_pages()
        layout = floor_layout(self.plan, self.plan.settings.floor)
        if not layout.rows:
            return []
        s = self.plan.settings.floor
        rows = layout.rows
        n_racks = sum(len(r.racks) for r in rows)
        sizes = sorted({(r.width_mm, r.depth_mm) for r in self.plan.racks})
        footprints = ", ".join(f"{w:,} x {d:,} mm" for w, d in sizes[:3]) + (" and others" if len(sizes) > 3 else "")
        caption = (f"Floor {text(layout.width_m, 'm')} along the rows x {text(layout.depth_m, 'm')} across them: "
                   f"{count(len(rows))} row{'s' if len(rows) != 1 else ''}, {count(n_racks)} rack{'s' if n_racks != 1 else ''} ({footprints}), fronts facing the cold "
                   f"aisles (cold {s.cold_aisle_mm / 1000:g} m, hot {s.hot_aisle_mm / 1000:g} m). Rack footprints to "
                   f"scale, coloured by the worse of typical and nameplate load.")
        caption = self._intro(caption, 7.5)
        w, h = self.body.width(), self._drawing_height("Floor plan", caption)
        drawing = Drawing(w, h, lambda canvas: self._draw_floor(canvas, QRectF(0, 0, w, h), layout))
        return [Page("Floor plan", caption, section="Floor plan", drawing=drawing)]

    def _draw_floor(self, c, body: QRectF, layout) -> None:
        """The rows of racks to scale with their aisles, dimensions and legend, filling ``body``."""
        s = self.plan.settings.floor
        rows = layout.rows
        legend_h, label_w, gap, dim_w = 20.0, 46.0, 18.0, 44.0
        area = QRectF(body.x() + label_w, body.y() + 14, body.width() - label_w - dim_w,
                      body.height() - 14 - legend_h - 16)
        # the aisles before the first row and after the last, drawn when the rows fit one column: rows
        # face alternately, a cold aisle between rows 1 and 2 (``planner.facility.floor``), so the
        # first row's backs face the hot aisle before it, and the last row faces out when it is odd
        width_of = {"cold": s.cold_aisle_mm / 1000, "hot": s.hot_aisle_mm / 1000}
        front_kind, rear_kind = "hot", "cold" if (len(rows) - 1) % 2 == 0 else "hot"
        front_m, rear_m = width_of[front_kind], width_of[rear_kind]
        cols, per_col, scale = _floor_columns(rows, layout.width_m, area.width(), area.height(), gap + label_w + dim_w)
        if cols == 1:
            depth = rows[-1].y1_m - rows[0].y0_m + front_m + rear_m
            scale = min(area.width() / layout.width_m, area.height() / depth)
        scale = min(scale, MAX_FLOOR_SCALE)
        if cols == 1:
            area = QRectF(area.x(), area.y() + front_m * scale, area.width(), area.height())
        for k in range(cols):
            chunk = rows[k * per_col:(k + 1) * per_col]
            if not chunk:
                break
            x0 = area.x() + k * (layout.width_m * scale + gap + label_w + dim_w)
            top = chunk[0].y0_m
            draw_rows(c, self.report, layout, chunk, k * per_col, x0, area.y(), scale, label_w)
            if cols == 1:  # the aisles in front of the first row and behind the last
                last = chunk[-1]
                for kind, y0, h_m in ((front_kind, chunk[0].y0_m - front_m, front_m), (rear_kind, last.y1_m, rear_m)):
                    band = QRectF(x0, area.y() + (y0 - top) * scale, layout.width_m * scale, h_m * scale)
                    c.rect(band, fill=AISLE_FILL[kind])
                    label = f"{kind} aisle {h_m:.1f} m"
                    if band.height() >= 6 * 1.3 and c.text_width(label, 6) <= band.width() - 4:
                        c.text(band, label, 6, color=palette.INK_MUTED, align=Qt.AlignmentFlag.AlignCenter, elide=False)
            if k == 0:  # dimension lines: the rows' length above, their depth to the right
                w = layout.width_m * scale
                _dimension(c, x0, area.y() - 8 - (front_m * scale if cols == 1 else 0), w, text(layout.width_m, "m"))
                depth_m = chunk[-1].y1_m - chunk[0].y0_m
                xr = x0 + w + 8
                y0, y1 = area.y(), area.y() + depth_m * scale
                c.line(xr, y0, xr, y1, palette.INK_HEADING, 0.5)
                for y in (y0, y1):
                    c.line(xr - 3, y, xr + 3, y, palette.INK_HEADING, 0.5)
                label = text(depth_m, "m")
                if c.text_width(label, 6.5) <= dim_w - 10:
                    c.text(QRectF(xr + 4, (y0 + y1) / 2 - 5, dim_w - 10, 10), label, 6.5, elide=False)
        if cols > 1:
            note = f"The {len(rows):,} rows run on down the floor: drawn in {cols} columns of up to {per_col:,} rows."
        else:
            note = f"Scale: 1 m = {scale:.1f} pt."
        floor_legend(c, body.x(), body.bottom() - legend_h, body.width(), note)

    # -- cabling ------------------------------------------------------------------------
    def _cable_pages(self) -> list:
        from planner.network.cables import build_schedule

        cost = self.report.cost
        if cost is not None and not cost.cables_routed:
            # more links than are routed on each edit: the cabling is the bill's per-tier rows,
            # said once on the bill's page (``unrouted_cabling_note``), not listed twice
            return []
        sched = build_schedule(self.plan, self.catalog)
        if not sched.links and not sched.unrouted:
            return []
        parts: Counter = Counter()
        metres: Counter = Counter()
        for link in sched.links:
            parts[(link.network, link.part)] += 1
            metres[(link.network, link.part)] += link.medium.stock_m
        rows = [[NETWORK_TITLES.get(net_, net_), part, count(n), text(metres[(net_, part)], "m")]
                for (net_, part), n in sorted(parts.items(), key=lambda kv: (list(NETWORK_TITLES).index(kv[0][0]),
                                                                             kv[0][1]))]
        for tier, n in sorted(sched.unrouted.items()):
            rows.append(["", f"{tier}: switch not placed (length unknown)", count(n), ""])
        rows.append(["All cables", "", count(len(sched.links) + sum(sched.unrouted.values())),
                     text(sum(metres.values()), "m")])
        by_type = Table([Column("Network", 1.1), Column("Cable (type, stock length)", 2.6),
                         Column("Count", 0.6, "right"), Column("Length", 0.8, "right")], rows, font_pt=7.5,
                        bold_rows={len(rows) - 1})
        # cross-connects: per network, the links that leave their rack
        xrows = []
        for network, title in NETWORK_TITLES.items():
            mine = [link for link in sched.links if link.network == network]
            if not mine:
                continue
            inter = [link for link in mine if link.a.rack != link.b.rack]
            media = Counter(link.medium.name for link in inter)
            xrows.append([title, count(len(mine)), count(len(inter)),
                          ", ".join(f"{count(n)} {m}" for m, n in media.most_common()) or "-"])
        cross = Table([Column("Network", 1.2), Column("Links", 0.6, "right"), Column("Between racks", 0.8, "right"),
                       Column("Media between racks", 2.2)], xrows, font_pt=7.5)
        pairs: dict[tuple[str, str], Counter] = {}
        for (a, b, medium), n in sched.between_racks().items():
            if a != b:
                pairs.setdefault((a, b), Counter())[medium] += n
        prow = [[a, b, count(sum(m.values())), ", ".join(f"{count(n)} {k}" for k, n in m.most_common())]
                for (a, b), m in sorted(pairs.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))]
        between = Table([Column("From rack", 1.0), Column("To rack", 1.0), Column("Cables", 0.6, "right"),
                         Column("By medium", 2.0)], prow, font_pt=7.5)
        intro_text = ("Every link of the plan's cable schedule (cluster-planner cables PLAN --csv FILE lists each "
                      "from rack/U/port to rack/U/port), by network, medium and the stock length ordered.")
        width = 560.0
        pages = self._table_pages("Cables by type and length", by_type, self._intro(intro_text, 7.5), width=width)
        pages += self._table_pages("Cross-connects by network", cross, width=width)
        if prow:
            pages += self._table_pages("Cables between racks", between, width=width)
        return pages

    def unrouted_cabling_note(self) -> str:
        """What the bill's page says of a plan whose cabling is priced per fabric tier, not
        routed run by run; empty for a routed plan (its Cables pages list every run)."""
        cost = self.report.cost
        if cost is None or cost.cables_routed or not any(line.category == "Cabling" for line in cost.bom):
            return ""
        return (f"The plan has more than {cost.cable_routing_limit_links:,} links, more than this pack lists run by "
                "run: its Cabling rows are cables and optics per fabric tier and network. cluster-planner cables "
                "PLAN --csv FILE writes every link with its racks, medium and length.")

def draw_rows(c, report, layout, chunk, first: int, x0: float, y0: float, scale: float, label_w: float) -> None:
    """Rows ``chunk`` of one hall's ``layout`` (the first is the hall's row ``first``, 0-based)
    drawn to ``scale`` (points per metre) from (``x0``, ``y0``): their names in the ``label_w``
    points to the left, each rack's footprint coloured by its load, the aisles between them."""
    top = chunk[0].y0_m
    for i, row in enumerate(chunk):
        y = y0 + (row.y0_m - top) * scale
        h = (row.y1_m - row.y0_m) * scale
        size = c.fitted_size(row.name, label_w - 4, 7, 4)
        if h >= size * 1.2 and c.text_width(row.name, size) <= label_w - 4:
            c.text(QRectF(x0 - label_w, y, label_w - 4, h), row.name, size, color=palette.INK_MUTED,
                   align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        for rack_id in row.racks:
            rx, ry, rw, rd = layout.racks[rack_id]
            r = QRectF(x0 + rx * scale, y0 + (ry - top) * scale, rw * scale, rd * scale)
            res = report.rack(rack_id)
            c.rect(r, fill=tint_load(res.worst_load_fraction) if res else palette.PAPER, stroke=palette.INK_HEADING,
                   width_pt=0.3 if r.width() < 6 else 0.5)
            if r.height() < 4 * 1.3:
                continue  # no room for its name even at 4 pt: thousands of a campus's racks
            name = res.name if res else rack_id
            size = c.fitted_size(name, r.width() - 2, 6, 4)
            if r.height() >= size * 1.3 and c.text_width(name, size) <= r.width() - 2:
                c.text(QRectF(r.x() + 1, r.y(), r.width() - 2, r.height()), name, size,
                       align=Qt.AlignmentFlag.AlignCenter, elide=False)
        if i + 1 < len(chunk):
            nxt = chunk[i + 1]
            kind = "cold" if (first + i) % 2 == 0 else "hot"
            band = QRectF(x0, y + h, row.width_m * scale, (nxt.y0_m - row.y1_m) * scale)
            c.rect(band, fill=AISLE_FILL[kind])
            label = f"{kind} aisle {(nxt.y0_m - row.y1_m):.1f} m"
            size = 6.0
            if band.height() >= size * 1.3 and c.text_width(label, size) <= band.width() - 4:
                c.text(band, label, size, color=palette.INK_MUTED, align=Qt.AlignmentFlag.AlignCenter, elide=False)


def floor_legend(c, x: float, y: float, width: float, note: str) -> None:
    items = [(tint_load(0.5), "load below 80% of cap"), (tint_load(0.9), "80% of cap or more"),
             (tint_load(1.2), "over the cap"), (AISLE_FILL["cold"], "cold aisle"), (AISLE_FILL["hot"], "hot aisle")]
    cx = x
    for fill, label in items:
        c.rect(QRectF(cx, y + 4, 10, 8), fill=fill, stroke=palette.INK_HEADING, width_pt=0.3)
        w = c.text_width(label, 7) + 2
        c.text(QRectF(cx + 13, y, w, 16), label, 7, elide=False)
        cx += 13 + w + 12
    c.text(QRectF(cx, y, max(0.0, x + width - cx), 16), note, 7, color=palette.INK_MUTED,
           align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, elide=False)


def _dimension(c, x: float, y: float, w: float, label: str) -> None:
    """A horizontal dimension line of width ``w`` with its label in the middle."""
    c.line(x, y, x + w, y, palette.INK_HEADING, 0.5)
    for xx in (x, x + w):
        c.line(xx, y - 3, xx, y + 3, palette.INK_HEADING, 0.5)
    lw = c.text_width(label, 6.5)
    if lw + 4 <= w:
        c.rect(QRectF(x + w / 2 - lw / 2 - 2, y - 5, lw + 4, 10), fill=palette.PAPER)
        c.text(QRectF(x, y - 5, w, 10), label, 6.5, align=Qt.AlignmentFlag.AlignCenter, elide=False)


def tint_load(fraction: float) -> str:
    """The light fill of a load colour (the colour the app gives a rack at this load)."""
    from ui.export.vendor_pack import tint

    return tint(load_color(fraction), 0.55)


def _floor_columns(rows, width_m: float, area_w: float, area_h: float, gap_pt: float) -> tuple[int, int, float]:
    """(columns, rows per column, points per metre) that draw the rows largest: long floors
    are wrapped into side-by-side columns of rows."""
    import math

    best = (1, len(rows), 0.0)
    for cols in range(1, len(rows) + 1):
        per = math.ceil(len(rows) / cols)
        depth = max(rows[min(k * per + per, len(rows)) - 1].y1_m - rows[k * per].y0_m
                    for k in range(cols) if k * per < len(rows))
        scale = min((area_w - (cols - 1) * gap_pt) / (cols * width_m) if width_m else 0.0,
                    area_h / depth if depth else 0.0)
        if scale > best[2]:
            best = (cols, per, scale)
        elif cols > 1 and scale < best[2] * 0.5:
            break
    return best
