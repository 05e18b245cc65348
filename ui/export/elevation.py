"""Rack elevations drawn onto any QPainter: racks side by side, U1 at the bottom.

Each rack shows a header (name, power used against the cap as a coloured bar, cooling,
space), the U numbers, and its devices as blocks coloured by category and labelled with
their name, model and power. Every figure comes from the Report (per-rack results) or the
catalog entry; nothing is recomputed here. Sizes are in points (see ``canvas``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt

from planner.hardware.catalog import CATEGORY_TITLES, Catalog
from planner.plan.model import Plan, Rack
from planner.report.elevation import DeviceBox, device_box, rack_heading, short_model
from planner.facility.rack_result import RackResult
from planner.report.model import Report
from planner.report.palette import LOAD_TRACK, category_color, load_color
from planner.report import palette
from ui.export.canvas import MIN_FONT_PT, Canvas

LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
CENTER = Qt.AlignmentFlag.AlignCenter

FRAME = palette.ELEVATION_FRAME
EMPTY_U = palette.ELEVATION_EMPTY_U
U_LINE = palette.ELEVATION_U_LINE
MUTED = palette.INK_MUTED

# At this pitch a 60U rack still fits an A4 landscape page; a 1U label is then at the minimum font size.
MIN_U_PITCH_PT = 6.0
MAX_U_PITCH_PT = 12.0


@dataclass(frozen=True, slots=True)
class ElevationStyle:
    """Geometry of one rack drawing, in points."""

    u_pitch: float = 10.0
    body_width: float = 122.0
    unum_width: float = 13.0
    gap: float = 16.0
    header_height: float = 50.0

    @property
    def label_pt(self) -> float:
        return max(MIN_FONT_PT, min(8.0, self.u_pitch * 0.66))

    @property
    def unum_pt(self) -> float:
        return max(MIN_FONT_PT, min(6.5, self.u_pitch * 0.6))

    @property
    def rack_width(self) -> float:
        return self.unum_width + self.body_width

    def rack_height(self, height_u: int) -> float:
        return self.header_height + height_u * self.u_pitch + 2.0


def fit_style(max_height_u: int, avail_height: float) -> ElevationStyle:
    """The largest U pitch (within legible bounds) at which the tallest rack fits the height."""
    base = ElevationStyle()
    pitch = (avail_height - base.header_height - 2.0) / max(1, max_height_u)
    pitch = max(MIN_U_PITCH_PT, min(MAX_U_PITCH_PT, pitch))
    return ElevationStyle(u_pitch=pitch)


def racks_per_line(style: ElevationStyle, avail_width: float) -> int:
    return max(1, int((avail_width + style.gap) // (style.rack_width + style.gap)))


def row_groups(plan: Plan, racks: Iterable[Rack] | None = None) -> list[tuple[str, list[Rack]]]:
    """Racks grouped by their row, rows in order of first appearance, racks in plan order."""
    groups: dict[str, list[Rack]] = {}
    for r in plan.racks if racks is None else racks:
        groups.setdefault(r.row, []).append(r)
    return list(groups.items())


def row_title(row: str, n_rows: int) -> str:
    if row:
        return f"Row {row}"
    return "Racks" if n_rows == 1 else "Racks without a row"


def _two_lines(c: Canvas, text: str, fs: float, width: float) -> tuple[str, str] | None:
    """``text`` broken at a space into two lines that each fit ``width``, or None."""
    words = text.split(" ")
    for i in range(len(words) - 1, 0, -1):
        head, rest = " ".join(words[:i]), " ".join(words[i:])
        if c.text_width(head, fs) <= width:
            return (head, rest) if c.text_width(rest, fs) <= width else None
    return None


class ElevationRenderer:
    """Draws racks of one plan; holds the plan, catalog and report it reads from."""

    def __init__(self, canvas: Canvas, plan: Plan, catalog: Catalog, report: Report):
        self.c = canvas
        self.plan = plan
        self.catalog = catalog
        self.report = report
        # Model names shortened by rule since the last legend: short -> full (the legend lists them).
        self.shortened: dict[str, str] = {}

    # -- a line of racks --------------------------------------------------------------
    def draw_line(self, x: float, y: float, racks: Sequence[Rack], style: ElevationStyle,
                  titles: Sequence[str] | None = None) -> tuple[float, float]:
        """Racks side by side from (x, y), tops aligned; returns (width, height) used. ``titles``
        head the racks instead of their names (a rack type drawn by one of its racks)."""
        if not racks:
            return 0.0, 0.0
        tallest = max(r.height_u for r in racks)
        for i, rack in enumerate(racks):
            # Shorter racks stand on the same floor line as the tallest.
            drop = (tallest - rack.height_u) * style.u_pitch
            self.draw_rack(x + i * (style.rack_width + style.gap), y + drop, rack, style,
                           titles[i] if titles else None)
        width = len(racks) * style.rack_width + (len(racks) - 1) * style.gap
        return width, style.rack_height(tallest)

    # -- one rack ---------------------------------------------------------------------
    def draw_rack(self, x: float, y: float, rack: Rack, style: ElevationStyle, title: str | None = None) -> None:
        res = self.report.rack(rack.id)
        self._draw_header(x, y, rack, res, style, title or rack.name)
        top = y + style.header_height
        body = QRectF(x + style.unum_width, top, style.body_width, rack.height_u * style.u_pitch)
        c = self.c
        c.rect(body, fill=EMPTY_U)
        for u in range(1, rack.height_u + 1):
            uy = self._u_top(body, u, style)
            if u > 1:
                c.line(body.left(), uy + style.u_pitch, body.right(), uy + style.u_pitch, U_LINE, 0.3)
            c.text(QRectF(x, uy, style.unum_width - 2, style.u_pitch), str(u), style.unum_pt, color=MUTED,
                   align=RIGHT, elide=False)
        c.painter.save()
        c.painter.setClipRect(body)
        basis = self.report.power_basis
        for p in sorted(self.plan.rack_members(rack.id).values(), key=lambda p: p.u):
            self._draw_device(body, device_box(p, self.catalog.get(p.device), basis), style)
        c.painter.restore()
        c.rect(body, stroke=FRAME, width_pt=1.2)

    def _u_top(self, body: QRectF, u: int, style: ElevationStyle) -> float:
        """Top edge of rack unit ``u`` (U1 at the bottom)."""
        return body.bottom() - u * style.u_pitch

    def _draw_device(self, body: QRectF, box: DeviceBox, style: ElevationStyle) -> None:
        top = self._u_top(body, box.top_u, style)
        r = QRectF(body.left() + 1.0, top + 0.6, body.width() - 2.0, box.height_u * style.u_pitch - 1.2)
        ink = box.ink
        c = self.c
        c.rect(r, fill=box.fill, stroke=palette.DEVICE_EDGE, width_pt=0.4)
        name, model, kw = box.name, box.model, box.power
        pad = 3.0
        inner = r.adjusted(pad, 0, -pad, 0)
        fs = style.label_pt
        kw_w = c.text_width(kw, fs) + 4
        if box.height_u == 1:
            # One line: name and model (shortened by rule, or left out) left, power right.
            room = inner.width() - kw_w
            text, size = self._fit([f"{name}  {model}", f"{name}  {box.short_model}", name], room, fs)
            if text != name and not text.endswith(model):
                self.shortened[box.short_model] = model
            c.text(QRectF(inner.left(), inner.top(), room, inner.height()), text, size, color=ink, elide=False)
            c.text(inner, kw, fs, color=ink, align=RIGHT, elide=False)
            return
        line_h = fs * 1.35
        lines = max(1, int(r.height() // line_h))
        block_h = min(lines, 3 + (lines >= 4)) * line_h
        ty = r.top() + (r.height() - block_h) / 2
        text, size = self._fit([name], inner.width() - kw_w, fs, bold=True)
        c.text(QRectF(inner.left(), ty, inner.width() - kw_w, line_h), text, size, bold=True, color=ink, elide=False)
        c.text(QRectF(inner.left(), ty, inner.width(), line_h), kw, fs, color=ink, align=RIGHT, elide=False)
        model_lines = 0
        if lines >= 2:
            model_lines = self._model_text(QRectF(inner.left(), ty + line_h, inner.width(), line_h), model, fs, ink,
                                           2 if lines >= 4 else 1)
        if lines >= 2 + model_lines and box.details:
            text, size = self._fit(box.details, inner.width(), fs * 0.92)
            c.text(QRectF(inner.left(), ty + (1 + model_lines) * line_h, inner.width(), line_h), text, size,
                   color=ink, elide=False)

    def _fit(self, options: Sequence[str], width: float, fs: float, min_pt: float | None = None,
             bold: bool = False) -> tuple[str, float]:
        """The first of ``options`` that fits ``width`` at ``fs`` (or, with ``min_pt``, shrunk no
        further than that); else the last one, shrunk to fit (down to the smallest legible size)."""
        for text in options:
            size = self.c.fitted_size(text, width, fs, min_pt or fs, bold)
            if self.c.text_width(text, size, bold) <= width:
                return text, size
        return options[-1], self.c.fitted_size(options[-1], width, fs, MIN_FONT_PT, bold)

    @staticmethod
    def _short(model: str) -> str:
        return short_model(model)

    def _model_text(self, r: QRectF, model: str, fs: float, ink: str, max_lines: int) -> int:
        """The model on one line, or broken between words over two (when ``max_lines`` allows),
        or shortened by rule (its full name then goes in the legend); returns the lines used."""
        c = self.c
        for text in (model, short_model(model)):
            if c.text_width(text, fs) <= r.width():
                if text != model:
                    self.shortened[text] = model
                c.text(r, text, fs, color=ink, elide=False)
                return 1
            if max_lines >= 2:
                split = _two_lines(c, text, fs, r.width())
                if split:
                    if text != model:
                        self.shortened[text] = model
                    c.text(r, split[0], fs, color=ink, elide=False)
                    c.text(r.translated(0, r.height()), split[1], fs, color=ink, elide=False)
                    return 2
        short = short_model(model)
        if short != model:
            self.shortened[short] = model
        c.text(r, short, c.fitted_size(short, r.width(), fs, MIN_FONT_PT), color=ink, elide=False)
        return 1

    def _draw_header(self, x: float, y: float, rack: Rack, res: RackResult | None, style: ElevationStyle,
                     title: str) -> None:
        c = self.c
        w = style.rack_width
        heading = rack_heading(rack, res, self.plan.settings.facility.air_cooling_limit_kw, title)
        tag = heading.cooling_tag
        tag_w = c.text_width(tag, 6.0, bold=True) + 6
        # A long name shrinks (to 6.5 pt) before it is cut short.
        name_pt = c.fitted_size(title, w - tag_w - 2, 9.5, MIN_FONT_PT, bold=True)
        c.text(QRectF(x, y, w - tag_w - 2, 12), title, name_pt, bold=True, elide=False)
        tag_fill = category_color("cdu") if rack.cooling == "liquid" else palette.AIR_TAG
        tag_r = QRectF(x + w - tag_w, y + 2, tag_w, 9)
        c.rect(tag_r, fill=tag_fill)
        c.text(tag_r, tag, 6.0, bold=True, color=palette.PAPER, align=CENTER, elide=False)
        if res is None:
            return
        # Both bases against the cap; the bar and the colour follow the worse (nameplate) load.
        over = heading.worst_load > 1.0 + 1e-9
        text, size = self._fit(heading.power_both, w, 6.8, 5.8)
        c.text(QRectF(x, y + 13, w, 9), text, size, color=palette.INK_ERROR if over else palette.INK, elide=False)
        bar = QRectF(x, y + 23, w, 5.5)
        c.rect(bar, fill=LOAD_TRACK)
        c.rect(QRectF(bar.x(), bar.y(), bar.width() * min(1.0, heading.worst_load), bar.height()),
               fill=heading.worst_colour)
        c.rect(bar, stroke=palette.RULE, width_pt=0.3)
        c.text(QRectF(x, y + 29.5, w, 8.5), heading.cooling, 6.3, color=MUTED)
        c.text(QRectF(x, y + 38, w, 8.5), heading.space, 6.3, color=MUTED)

    # -- legend -----------------------------------------------------------------------
    def draw_legend(self, x: float, y: float, width: float) -> float:
        """Category swatches and the load colours in one or more lines; returns the height used."""
        c = self.c
        used = sorted({d.category for p in self.plan.placements if (d := self.catalog.get(p.device))},
                      key=list(CATEGORY_TITLES).index)
        items = [(category_color(cat), CATEGORY_TITLES[cat]) for cat in used]
        items += [(load_color(0.5), "load < 80% of cap"), (load_color(0.9), "load ≥ 80%"),
                  (load_color(1.1), "over cap")]
        fs, sw, h = 7.0, 8.0, 11.0
        cx, cy = x, y
        for fill, title in items:
            item_w = sw + 4 + c.text_width(title, fs) + 12
            if cx + item_w > x + width and cx > x:
                cx, cy = x, cy + h
            c.rect(QRectF(cx, cy + 1.5, sw, sw), fill=fill, stroke=palette.SWATCH_EDGE, width_pt=0.3)
            c.text(QRectF(cx + sw + 4, cy, item_w, h), title, fs, elide=False)
            cx += item_w
        cy += h
        if self.shortened:
            names = "; ".join(f"{short} = {full}" for short, full in sorted(self.shortened.items()))
            cy += c.wrapped_text(QRectF(x, cy + 1, width, h), "Model names shortened above: " + names, fs - 0.5,
                                 color=MUTED) + 1
            self.shortened.clear()
        return cy - y

    def may_shorten(self) -> bool:
        """Whether any model placed in the plan has a name the drawing may shorten (and the legend explain)."""
        models = {d.model for dev in {p.device for p in self.plan.placements} if (d := self.catalog.get(dev))}
        return any(short_model(m) != m for m in models)
