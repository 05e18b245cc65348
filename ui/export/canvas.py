"""A QPainter wrapper that measures in typographic points on any paint device.

The painter is scaled so that one unit is 1/72 inch whatever the device's resolution
(PDF at 300 dpi, PNG at 150 dpi, SVG at 72 dpi); fonts are sized so that a "9 pt" label
prints 9 pt tall on every device. Text never drops below ``MIN_FONT_PT``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen

from planner.text import clean_text
from planner.report import palette

MIN_FONT_PT = 5.5
FONT_FAMILY = "DejaVu Sans"


@dataclass(frozen=True, slots=True)
class PlacedText:
    """One text item as drawn: its full text, the width it needs at its font and the width of
    its box (for a wrapped block, the widest single word, which cannot be broken)."""

    text: str
    width: float
    box_width: float

    @property
    def fits(self) -> bool:
        return self.width <= self.box_width + 0.01


class Canvas:
    def __init__(self, painter: QPainter):
        self.painter = painter
        # Every text item placed, when a list is given (a check that nothing is cut or overflows).
        self.placed: list[PlacedText] | None = None
        self.device = painter.device()
        dpi = self.device.logicalDpiY() or 72
        self.scale = dpi / 72.0
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.scale(self.scale, self.scale)
        self._fonts: dict[tuple[float, bool], QFont] = {}
        self._widths: dict[tuple[float, bool], QFontMetricsF] = {}  # text_width's metrics, by font

    # -- fonts ------------------------------------------------------------------------
    def font(self, size_pt: float, bold: bool = False) -> QFont:
        size_pt = max(MIN_FONT_PT, size_pt)
        key = (size_pt, bold)
        f = self._fonts.get(key)
        if f is None:
            f = QFont(FONT_FAMILY)
            # The painter is already scaled by dpi/72; undo that in the font size.
            f.setPointSizeF(size_pt / self.scale)
            f.setBold(bold)
            f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
            # No "fi"/"fl" ligatures: PDF text stays searchable and copyable as typed.
            f.setFeature(QFont.Tag("liga"), 0)
            f.setFeature(QFont.Tag("clig"), 0)
            self._fonts[key] = f
        return f

    def metrics(self, font: QFont) -> QFontMetricsF:
        return QFontMetricsF(font, self.device)

    def text_width(self, text: str, size_pt: float, bold: bool = False) -> float:
        m = self._widths.get((size_pt, bold))
        if m is None:
            m = self._widths[size_pt, bold] = self.metrics(self.font(size_pt, bold))
        return m.horizontalAdvance(text)

    # -- drawing ----------------------------------------------------------------------
    def rect(self, r: QRectF, fill: str | None = None, stroke: str | None = None, width_pt: float = 0.5) -> None:
        p = self.painter
        p.setPen(QPen(QColor(stroke), width_pt) if stroke else Qt.PenStyle.NoPen)
        p.setBrush(QBrush(QColor(fill)) if fill else Qt.BrushStyle.NoBrush)
        p.drawRect(r)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: str = palette.INK, width_pt: float = 0.5,
             dash: bool = False) -> None:
        pen = QPen(QColor(color), width_pt)
        if dash:
            pen.setStyle(Qt.PenStyle.DashLine)
        self.painter.setPen(pen)
        self.painter.drawLine(QPointF(x1, y1), QPointF(x2, y2))

    def text(self, r: QRectF, text: str, size_pt: float, *, bold: bool = False, color: str = palette.INK,
             align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
             elide: bool = True) -> None:
        """One line of text in ``r``, elided with "..." where it does not fit."""
        text = clean_text(text, "xml")
        font = self.font(size_pt, bold)
        if self.placed is not None:
            self.placed.append(PlacedText(text, self.metrics(font).horizontalAdvance(text), r.width()))
        if elide:
            text = self.metrics(font).elidedText(text, Qt.TextElideMode.ElideRight, max(0.0, r.width()))
        p = self.painter
        p.setFont(font)
        p.setPen(QColor(color))
        p.drawText(r, int(align), text)

    def wrapped_text(self, r: QRectF, text: str, size_pt: float, *, bold: bool = False,
                     color: str = palette.INK) -> float:
        """Word-wrapped text from the top of ``r``; returns the height used."""
        text = clean_text(text, "xml")
        font = self.font(size_pt, bold)
        self._place_block(text, font, r.width())
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
        used = self.metrics(font).boundingRect(QRectF(r.x(), r.y(), r.width(), 1e6), flags, text)
        p = self.painter
        p.setFont(font)
        p.setPen(QColor(color))
        p.drawText(QRectF(r.x(), r.y(), r.width(), max(r.height(), used.height())), flags, text)
        return used.height()

    def _place_block(self, text: str, font: QFont, width: float) -> None:
        if self.placed is None:
            return
        m = self.metrics(font)
        widest = max(text.split(), key=m.horizontalAdvance, default="")
        self.placed.append(PlacedText(text, m.horizontalAdvance(widest), width))

    def fitted_size(self, text: str, width: float, size_pt: float, min_pt: float, bold: bool = False) -> float:
        """The largest font size from ``size_pt`` down to ``min_pt`` at which ``text`` fits ``width``."""
        size = size_pt
        while size > min_pt and self.text_width(text, size, bold) > width:
            size -= 0.5
        return max(size, min_pt)
