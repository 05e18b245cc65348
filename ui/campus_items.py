"""The campus drawn around the racks: each building and each data hall as an outlined area with
its name and a figure or two from the report (racks, GPUs, IT power).

Two items for the whole campus, not one per hall: the outlines under the racks, and the
labels above them. Labels are drawn at screen size at every zoom (a name is as readable
zoomed out to the campus as next to a rack), one line each -- the name and as many whole
figures as fit the outline's width: a building's at its top-left corner, a hall's at its own,
below its building's label where the two would meet, and left out where the outline is too
small on screen to hold one. A plan of one hall draws
neither (``CampusLayout.outlined``).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from ui import fmt, theme
from ui.campus_layout import CampusLayout

LABEL_PAD = 6.0  # screen pixels around a label's text, and from the outline's corner
SEPARATOR = " · "  # between the figures of a label


def building_figures(b, basis: str) -> str:
    """A building's line of figures (``facility.buildings``), its IT power on the plan's basis."""
    halls = f"{fmt.count(b.halls)} hall{'s' if b.halls != 1 else ''}"
    return SEPARATOR.join((halls, f"{fmt.count(b.racks)} racks", f"{fmt.count(b.gpus)} GPUs", _it_power(b, basis)))


def hall_figures(h, basis: str) -> str:
    """A hall's line of figures (``facility.halls``)."""
    return SEPARATOR.join((f"{fmt.count(h.racks)} racks", f"{fmt.count(h.gpus)} GPUs", _it_power(h, basis)))


def _it_power(figures, basis: str) -> str:
    return f"{fmt.kw(getattr(figures, f'it_power_{basis}_kw'))} IT"


def campus_figures(report) -> dict[tuple[str, str], object]:
    """("building" or "hall", id) -> its figures in the report (``facility.buildings``/``halls``)."""
    facility = report.facility if report is not None else None
    out: dict[tuple[str, str], object] = {("building", b.id): b for b in getattr(facility, "buildings", ())}
    out.update((("hall", h.id), h) for h in getattr(facility, "halls", ()))
    return out


def label_text(key: tuple[str, str], figures, basis: str) -> str:
    """The line of figures of a building's or hall's label (IT power on ``basis``, "typical" or
    "nameplate", as the summary shows it)."""
    return building_figures(figures, basis) if key[0] == "building" else hall_figures(figures, basis)


class CampusOutlines(QGraphicsItem):
    """Every building and hall outline, under the racks (one item, a few rectangles)."""

    def __init__(self):
        super().__init__()
        self.setZValue(-20)
        self.campus = CampusLayout()
        self.labels = CampusLabels()

    def set_campus(self, campus: CampusLayout, report, basis: str) -> None:
        self.prepareGeometryChange()
        self.campus = campus
        self.setVisible(campus.outlined)
        self.labels.set_campus(campus, report, basis)
        self.update()

    def boundingRect(self) -> QRectF:
        return self.campus.bounds().adjusted(-4, -4, 4, 4) if self.campus.outlined else QRectF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        exposed = option.exposedRect
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for boxes, fill, line, width in ((self.campus.buildings, theme.BUILDING_FILL, theme.BUILDING_LINE, 2),
                                         (self.campus.halls, theme.HALL_FILL, theme.HALL_LINE, 1)):
            pen = QPen(line, width)
            pen.setCosmetic(True)  # the same on screen at every zoom
            painter.setPen(pen)
            painter.setBrush(fill)
            painter.drawRects([b.rect for b in boxes if b.rect.intersects(exposed)])


class CampusLabels(QGraphicsItem):
    """The buildings' and halls' names and figures, above the racks, at screen size."""

    def __init__(self):
        super().__init__()
        self.setZValue(50)  # above the racks, below the drag ghost
        self.campus = CampusLayout()
        self._figures: dict[tuple[str, str], str] = {}
        self._drawn: dict[tuple[str, str], QRectF] = {}  # where each label was last drawn (scene)
        self._fonts: _Metrics | None = None
        self._basis = "typical"
        self._source: dict[tuple[str, str], object] = {}  # the report's figures the texts were made from

    def set_campus(self, campus: CampusLayout, report, basis: str) -> None:
        self.prepareGeometryChange()
        self.campus = campus
        self.setVisible(campus.outlined)
        self._basis = basis
        self._source = campus_figures(report)
        self._figures = {key: label_text(key, f, basis) for key, f in self._source.items()}
        self._drawn = {}
        self.update()

    def set_report(self, report, basis: str) -> None:
        """New figures: redraw only the labels whose text changed (a drop changes one or two halls)."""
        if not self.campus.outlined:
            return
        if basis != self._basis:
            self._basis, self._source = basis, {}
        source = campus_figures(report)
        for key, f in source.items():
            if self._source.get(key) == f:
                continue  # the same figures: no text made again (a number's format reads the settings)
            text = label_text(key, f, basis)
            if self._figures.get(key) != text and key in self._drawn:
                self.update(self._drawn[key])
            self._figures[key] = text
        self._source = source

    def figures(self, kind: str, box_id: str) -> str:
        return self._figures.get((kind, box_id), "")

    def boundingRect(self) -> QRectF:
        return self.campus.bounds() if self.campus.outlined else QRectF()

    def fonts(self) -> _Metrics:
        if self._fonts is None:
            self._fonts = _Metrics()
        return self._fonts

    def label_rects(self, transform: QTransform, area: QRectF | None = None
                    ) -> list[tuple[tuple[str, str], str, str, QRectF]]:
        """(key, name, the figures shown, rectangle on screen) of every label that fits at
        ``transform``; with ``area`` (on screen), of the buildings and halls that meet it."""
        fonts = self.fonts()
        out = []
        for b in self.campus.buildings:
            box = transform.mapRect(b.rect)
            if area is not None and not box.intersects(area):
                continue  # its halls are inside it: none of them meets the area either
            placed = fonts.place(box, box.top(), b.name, self.figures("building", b.id))
            if placed is None:
                continue
            out.append((("building", b.id), b.name, *placed))
            rect = placed[1]
            for h in (h for h in self.campus.halls if h.building == b.id):
                hall_box = transform.mapRect(h.rect)
                if area is not None and not hall_box.intersects(area):
                    continue
                top = hall_box.top()
                if hall_box.left() < rect.right() and top < rect.bottom():
                    top = rect.bottom()  # the building's label is in the way: below it
                hall = fonts.place(hall_box, top, h.name, self.figures("hall", h.id))
                if hall is not None:
                    out.append((("hall", h.id), h.name, *hall))
        return out

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        transform = painter.worldTransform()
        exposed = transform.mapRect(option.exposedRect)
        inverse, _ = transform.inverted()
        fonts = self.fonts()
        painter.save()
        painter.resetTransform()  # text at screen size
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        drawn: dict[tuple[str, str], QRectF] = {}
        # the part of the screen being painted: the item's exposed rectangle is its whole
        # bounds (it asks for no exact one), and every label was placed and drawn on each
        # paint close up, where a few are on screen (2.7 ms a paint on campus-1m's 36)
        if widget is not None:
            exposed = exposed.intersected(QRectF(widget.rect()))
        for key, name, figures, rect in self.label_rects(transform, exposed):
            drawn[key] = inverse.mapRect(rect)
            if rect.intersects(exposed):
                fonts.draw(painter, rect, name, figures)
        painter.restore()
        self._drawn.update(drawn)


class _Metrics:
    """The labels' two fonts: a bold name, its figures smaller and muted (pixel sizes: the same
    on every screen and at every zoom)."""

    def __init__(self):
        self.title, self.small = QFont(), QFont()
        self.title.setPixelSize(14)
        self.title.setBold(True)
        self.small.setPixelSize(12)
        self.title_m, self.small_m = QFontMetricsF(self.title), QFontMetricsF(self.small)
        self.space = self.title_m.horizontalAdvance("  ")

    def place(self, box: QRectF, top: float, name: str, figures: str) -> tuple[str, QRectF] | None:
        """(the figures shown, the label's rectangle) in the top-left of ``box`` from ``top``: one
        line, the name and as many whole figures as fit beside it; None where not even the name
        fits (too small on screen: the outline says enough)."""
        room = box.width() - 3 * LABEL_PAD
        name_w = self.title_m.horizontalAdvance(name)
        shown = self.figures_in(figures, room - name_w - self.space)
        width = min(room, name_w + (self.space + self.small_m.horizontalAdvance(shown) if shown else 0.0))
        rect = QRectF(box.left() + LABEL_PAD, top + LABEL_PAD, width + 2 * LABEL_PAD + 2,  # + 2: no cut by rounding
                      self.title_m.height() + 2 * LABEL_PAD)
        if room < self.title_m.averageCharWidth() * 6 or rect.bottom() > box.bottom() - LABEL_PAD:
            return None
        return shown, rect

    def draw(self, painter: QPainter, rect: QRectF, name: str, figures: str) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.LABEL_PLATE)
        painter.drawRect(rect)
        inner = rect.adjusted(LABEL_PAD, LABEL_PAD, -LABEL_PAD, -LABEL_PAD)
        painter.setFont(self.title)
        painter.setPen(theme.RACK_TEXT)
        name = self.title_m.elidedText(name, Qt.TextElideMode.ElideRight, inner.width())
        baseline = inner.top() + self.title_m.ascent()
        painter.drawText(QPointF(inner.left(), baseline), name)
        if figures:
            painter.setFont(self.small)
            painter.setPen(theme.RACK_MUTED_TEXT)
            painter.drawText(QPointF(inner.left() + self.title_m.horizontalAdvance(name) + self.space, baseline),
                             figures)

    def figures_in(self, figures: str, width: float) -> str:
        """As many of the figures as fit in ``width``, whole ones (not a number cut short)."""
        parts = figures.split(SEPARATOR) if figures else []
        while parts and self.small_m.horizontalAdvance(SEPARATOR.join(parts)) > width:
            parts.pop()
        return SEPARATOR.join(parts)
