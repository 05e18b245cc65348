"""The vendor pack's pages as one QTextDocument, printed page by page to a QPdfWriter.

Qt lays out the text and paginates the tables: each page of the pack starts a new page
(``page-break-before``), a table that runs over a page repeats its header row there
(``<thead>``: ``QTextTableFormat.headerRowCount``), and the footer ("Page n of N") and the
running title of a continued page are small documents of their own. Drawings (elevations,
the floor plan) are objects in the text (``QTextObjectInterface``) drawn by QPainter at
print time, so they stay vectors and their labels stay text a reader can search.

The document is laid out on the PDF writer itself (``setPaintDevice``): fonts are measured
at the resolution they print at. Lengths in its HTML are CSS pixels (1/96 inch, ``CSS_PX``
per point, whatever the device); the page and the drawings are sized in device pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from PySide6.QtCore import QRectF, QSizeF
from PySide6.QtGui import (QFont, QFontMetricsF, QPainter, QPagedPaintDevice, QPyTextObject,
                           QTextDocument, QTextFormat)

from planner.report import palette
from planner.text import clean_text
from ui.export.canvas import FONT_FAMILY, Canvas, PlacedText

DRAWING = "drawing:"       # the source of an <img> that is a drawing, before its number
CONTENTS_MARK = "@@page-"  # the contents' placeholder for a page number, replaced once laid out
CSS_PX = 96 / 72           # CSS pixels per point


def html_text(text: object) -> str:
    """``text`` as HTML character data: characters XML cannot hold dropped, markup escaped."""
    return escape(clean_text(text, "xml"), quote=True)


@dataclass(slots=True)
class Drawing:
    """A picture in the text: its size in points and what draws it (on a canvas in points)."""

    width_pt: float
    height_pt: float
    draw: Callable[[Canvas], None]


@dataclass(slots=True)
class Page:
    """One page of the pack as the reader meets it: a heading ("" for the cover), its text and
    tables (HTML), then its drawing, if any. A long table runs on over the pages after it."""

    title: str
    html: str = ""
    section: str = ""              # the contents entry this page starts, if any
    drawing: Drawing | None = None


class _DrawingHandler(QPyTextObject):
    """Sizes and draws the document's images, which are all drawings (QTextObjectInterface)."""

    def __init__(self, drawings: Sequence[Drawing], scale: float, placed: list[PlacedText] | None):
        super().__init__()
        self.drawings, self.scale, self.placed = drawings, scale, placed

    def intrinsicSize(self, doc, pos, fmt) -> QSizeF:
        d = self._drawing(fmt)
        return QSizeF(d.width_pt * self.scale, d.height_pt * self.scale)

    def drawObject(self, painter: QPainter, rect: QRectF, doc, pos, fmt) -> None:
        painter.save()
        painter.translate(rect.topLeft())
        canvas = Canvas(painter)
        canvas.placed = self.placed
        self._drawing(fmt).draw(canvas)
        painter.restore()

    def _drawing(self, fmt) -> Drawing:
        return self.drawings[int(fmt.toImageFormat().name()[len(DRAWING):])]


def heading_html(title: str, style: str = "") -> str:
    """A page's title, ruled under; ``style`` adds to its paragraph's CSS."""
    return (f'<p style="{style}margin-top: 0; margin-bottom: {2 * CSS_PX:.0f}px; font-size: 14pt; '
            f'font-weight: bold; color: {palette.INK_HEADING}">{html_text(title)}</p>'
            f'<hr style="height: 1px; background-color: {palette.INK_HEADING}"/>')


def drawing_html(content: str) -> str:
    """The paragraph a drawing stands in: a tiny font, so the line is the drawing's height with
    next to no descent under it."""
    return f'<p style="margin: 0; font-size: 1pt">{content}</p>'


def room_for_drawing(device: QPagedPaintDevice, width_pt: float, height_pt: float, above: str) -> float:
    """The height in points a drawing may have on a page ``height_pt`` tall under ``above`` (HTML).
    Kept 8 pt short: Qt's pagination finds a few points more under a drawing than its laid-out
    line shows (at 3 pt short a page after one is pushed on by a page), and a drawing one point
    too tall leaves a blank page behind it."""
    return height_pt - html_height(device, width_pt, above + drawing_html("&nbsp;")) - 8.0


def html_height(device: QPagedPaintDevice, width_pt: float, html: str) -> float:
    """The height in points that ``html`` takes laid out ``width_pt`` wide on ``device``."""
    doc = new_document(device, width_pt)
    doc.setHtml(html)
    return doc.size().height() * 72 / device.logicalDpiY()


def fitted_pt(device: QPagedPaintDevice, text: str, width_pt: float, size_pt: float, min_pt: float,
              bold: bool = False) -> float:
    """The largest font size from ``size_pt`` down to ``min_pt`` (by half points) at which one
    line of ``text`` is at most ``width_pt`` wide."""
    font = QFont(FONT_FAMILY)
    font.setBold(bold)
    size = size_pt
    while size > min_pt:
        font.setPointSizeF(size)
        if QFontMetricsF(font, device).horizontalAdvance(text) * 72 / device.logicalDpiX() <= width_pt:
            break
        size -= 0.5
    return max(size, min_pt)


def new_document(device: QPagedPaintDevice, width_pt: float, font_pt: float = 8.0) -> QTextDocument:
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(device)
    font = QFont(FONT_FAMILY)
    font.setPointSizeF(font_pt)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    # No "fi"/"fl" ligatures: PDF text stays searchable and copyable as typed.
    font.setFeature(QFont.Tag("liga"), 0)
    font.setFeature(QFont.Tag("clig"), 0)
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    doc.setDefaultStyleSheet(f"body {{ color: {palette.INK}; }}")
    doc.setTextWidth(width_pt * device.logicalDpiX() / 72)
    return doc


class PackDocument:
    """The pages laid out on ``device`` in the page frame ``body`` (in points); the drawings'
    labels go into ``placed`` as they are printed."""

    def __init__(self, device: QPagedPaintDevice, pages: Sequence[Page], body: QRectF,
                 placed: list[PlacedText] | None = None):
        self.device, self.pages, self.body = device, list(pages), body
        self.scale = device.logicalDpiY() / 72
        drawings = [p.drawing for p in self.pages if p.drawing is not None]
        self._handler = _DrawingHandler(drawings, self.scale, placed)
        # Laid out twice: once to find the page each of the pack's pages starts on (0-based), then
        # with those numbers in the contents (the cover is one page whatever they are).
        self.starts: list[int] = []
        for _ in range(2):
            self.doc = new_document(device, body.width())
            # whole pixels: Qt's fixed-point layout then puts a page's first line exactly at its top
            self.doc.setPageSize(QSizeF(int(self.px(body.width())), int(self.px(body.height()))))
            self.doc.documentLayout().registerHandler(QTextFormat.ObjectTypes.ImageObject, self._handler)
            self.doc.setHtml(self._html())
            self.doc.documentLayout().documentSize()  # Qt lays out lazily: finish before asking where
            self.starts = [self._page_of(b) for b in self._blocks() if b == self.doc.begin()
                           or b.blockFormat().pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore]

    def px(self, pt: float) -> float:
        """Device pixels of ``pt`` points."""
        return pt * self.scale

    # -- building -----------------------------------------------------------------------
    def _html(self) -> str:
        """The pages as one HTML text, with the page numbers found so far in the contents."""
        parts, drawn = ["<html><body>"], 0
        for i, page in enumerate(self.pages):
            brk = "page-break-before: always; " if i else ""
            if page.title:
                parts.append(heading_html(page.title, brk))
            elif brk:
                parts.append(f'<p style="{brk}margin: 0"></p>')
            parts.append(page.html)
            if page.drawing is not None:
                parts.append(drawing_html(f'<img src="{DRAWING}{drawn}"/>'))
                drawn += 1
        parts.append("</body></html>")
        html = "".join(parts)
        for i, start in enumerate(self.starts):
            html = html.replace(self.contents_mark(i), str(start + 1))
        return html

    def _blocks(self):
        b = self.doc.begin()
        while b.isValid():
            yield b
            b = b.next()

    def _page_of(self, block) -> int:
        top = self.doc.documentLayout().blockBoundingRect(block).top()
        return int((top + 1) // self.doc.pageSize().height())

    @staticmethod
    def contents_mark(page_index: int) -> str:
        """Where the contents give the page number of the pack's page ``page_index``."""
        return f"{CONTENTS_MARK}{page_index}@@"

    # -- printing -----------------------------------------------------------------------
    @property
    def page_count(self) -> int:
        return self.doc.pageCount()

    def section_of(self, n: int) -> tuple[Page, bool]:
        """The pack page that printed page ``n`` (0-based) belongs to, and whether it continues there."""
        k = max(i for i, s in enumerate(self.starts) if s <= n)
        return self.pages[k], self.starts[k] < n

    def print_to(self, painter: QPainter, footer: Callable[[int, int], str]) -> None:
        """Every page with its footer (``footer(number, total)`` is its HTML) and, where a page
        runs on from the one before, its title."""
        total = self.page_count
        w, h = self.doc.pageSize().width(), self.doc.pageSize().height()
        for n in range(total):
            if n:
                self.device.newPage()
            page, continued = self.section_of(n)
            if continued and page.title:
                self._print_small(painter, QRectF(self.body.x(), self.body.y() - 16, self.body.width(), 14),
                                  f'<span style="color: {palette.INK_MUTED}; font-weight: bold">'
                                  f'{html_text(page.title)} (continued)</span>', 8.5)
            painter.save()
            painter.translate(self.px(self.body.x()), self.px(self.body.y()) - n * h)
            # a pixel short: a line that starts the next page touches this one's bottom edge, and Qt
            # would write it here too (clipped from sight, but still in the PDF's text)
            self.doc.drawContents(painter, QRectF(0, n * h, w, h - 1))
            painter.restore()
            self._print_small(painter, QRectF(self.body.x(), self.body.bottom() + 4, self.body.width(), 12),
                              footer(n + 1, total), 7)

    def _print_small(self, painter: QPainter, r: QRectF, html: str, font_pt: float) -> None:
        doc = new_document(self.device, r.width(), font_pt)
        doc.setHtml(html)
        painter.save()
        painter.translate(self.px(r.x()), self.px(r.y()))
        doc.drawContents(painter)
        painter.restore()

    # -- checking -----------------------------------------------------------------------
    def placed_text(self) -> list[PlacedText]:
        """Each block's text, as wide as its widest line, against the width it was laid out in;
        each table as wide as it was laid out against the page (Qt breaks a word too long for
        its cell, but widens a column whose figures must not wrap, up to past the page)."""
        out = []
        layout = self.doc.documentLayout()
        for block in self._blocks():
            lines = [block.layout().lineAt(i) for i in range(block.layout().lineCount())]
            if block.text().strip() and lines:
                out.append(PlacedText(block.text(), max(ln.naturalTextWidth() for ln in lines) / self.scale,
                                      min(ln.width() for ln in lines) / self.scale))
        for frame in self.doc.rootFrame().childFrames():
            out.append(PlacedText("a table", layout.frameBoundingRect(frame).width() / self.scale,
                                  self.body.width()))
        return out


def table_of_pages(entries: Sequence[tuple[str, str]]) -> str:
    """(title, page number or placeholder) rows as the cover's contents."""
    rule = f'style="border-bottom: 0.5px solid {palette.RULE_LIGHT}"'
    rows = "".join(f'<tr><td {rule}>{html_text(t)}</td><td align="right" {rule}>{n}</td></tr>' for t, n in entries)
    return (f'<table width="100%" cellspacing="0" cellpadding="{2 * CSS_PX:.0f}" style="font-size: 9pt; '
            f'border-collapse: collapse">{rows}</table>')
