"""Writing drawings of a plan to files: the vendor pack (.pdf) and elevations (.svg, .png).

Works without a display: when no QGuiApplication exists, one is created on the offscreen
platform. Files go through the core's safe writer, so a failed export never leaves a
partial file and never replaces the previous one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from planner.hardware.catalog import Catalog
from planner.errors import PlannerError
from planner.plan.model import Plan
from planner.report.model import Report
from planner.safefile import write_file
from planner.save_target import check_target
from planner.text import clean_text

DRAWING_SUFFIXES = (".pdf", ".svg", ".png")
PNG_DPI = 150
# Pixels one PNG may hold; bigger plans are drawn at a lower resolution, down to MIN_PNG_DPI.
MAX_PNG_PIXELS = 40_000_000  # 160 MB at 32 bits: under the 256 MB Qt itself will read back
MIN_PNG_DPI = 50
PAPER_SIZES = ("A4", "Letter")
# Racks one SVG may draw: every rack is drawn in full, ~300 kB of memory each while drawing
# (2,982 racks: 0.9 GB, a 154 MB file). Larger plans: the PDF vendor pack.
MAX_SVG_RACKS = 3_000

_app = None  # the application this module made, kept alive until the process ends


class ExportError(PlannerError):
    """An export that cannot be written; the message is one line for the user."""


def ensure_app():
    """The running QGuiApplication, or a new offscreen one when there is none (CLI, tests)."""
    from PySide6.QtGui import QGuiApplication

    global _app
    app = QGuiApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = _app = QGuiApplication(["cluster-planner"])
    return app


def export_drawing(plan: Plan, catalog: Catalog, path: str | Path, report: Report | None = None, *,
                   paper: str = "A4", today: date | None = None, with_prices: bool = False,
                   inputs: Iterable[str | Path] = (), comparison=None) -> Path:
    """Draw the plan to ``path``: .pdf the vendor pack, .svg/.png the rack and row elevations.
    With a ``comparison`` (``planner.report.compare``), the pack has Compare pages after its cover.

    The vendor pack leaves out unit prices, capex, opex and TCO unless ``with_prices``.
    Written through the safe writer (``planner.safefile``): the result is checked (the PDF
    has its trailer, the SVG parses, the PNG decodes) before it replaces anything;
    ``inputs`` are files the target must not be (the plan, catalogs)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in DRAWING_SUFFIXES:
        raise ExportError(f"{path.name}: cannot export to '{suffix or 'no extension'}'; use .pdf, .svg or .png")
    if paper not in PAPER_SIZES:
        raise ExportError(f"paper size '{paper}' is not one of {', '.join(PAPER_SIZES)}")
    check_target(path, inputs)  # refuse a bad target before any drawing
    if suffix == ".svg" and len(plan.racks) > MAX_SVG_RACKS:
        raise ExportError(f"{len(plan.racks):,} racks are too many for one SVG drawing (at most {MAX_SVG_RACKS:,}); "
                          "export the PDF vendor pack instead")
    if report is None:
        from planner.report.evaluate import evaluate

        report = evaluate(plan, catalog)
    ensure_app()
    write = {".pdf": lambda tmp: _write_pdf(plan, catalog, report, tmp, paper, today, with_prices, comparison),
             ".svg": lambda tmp: _write_svg(plan, catalog, report, tmp, today),
             ".png": lambda tmp: _write_png(plan, catalog, report, tmp, today)}[suffix]
    return write_file(path, write=write, kind=suffix, inputs=inputs)


def _begin(painter, device, what: str) -> None:
    if not painter.begin(device):
        raise ExportError(f"cannot draw the {what}: the output could not be opened")


def _write_pdf(plan, catalog, report, tmp: str, paper: str, today, with_prices: bool = False,
               comparison=None) -> None:
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from ui.export.vendor_pack import VendorPack

    size_id = QPageSize.PageSizeId.A4 if paper == "A4" else QPageSize.PageSizeId.Letter
    writer = QPdfWriter(tmp)
    writer.setResolution(300)
    writer.setTitle(clean_text(f"{plan.title}: vendor pack", "xml"))
    writer.setCreator("GPU Cluster Planner")
    writer.setPageLayout(QPageLayout(QPageSize(size_id), QPageLayout.Orientation.Landscape, QMarginsF(0, 0, 0, 0)))
    page_pt = writer.pageLayout().fullRect(QPageLayout.Unit.Point)
    pack = VendorPack(plan, catalog, report, page_pt.width(), page_pt.height(), today, with_prices=with_prices,
                      comparison=comparison)
    painter = QPainter()
    _begin(painter, writer, "vendor pack")
    try:
        pack.render(painter, writer)
    finally:
        painter.end()
    if os.path.getsize(tmp) == 0:
        raise ExportError("the vendor pack came out empty")


def _write_svg(plan, catalog, report, tmp: str, today) -> None:
    from PySide6.QtCore import QRectF, QSize
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgGenerator

    from ui.export.canvas import Canvas
    from ui.export.sheet import draw_sheet, layout_sheet

    layout = layout_sheet(plan, catalog)
    gen = QSvgGenerator()
    gen.setFileName(tmp)
    gen.setResolution(72)  # one SVG unit = one point
    gen.setSize(QSize(round(layout.width), round(layout.height)))
    gen.setViewBox(QRectF(0, 0, layout.width, layout.height))
    gen.setTitle(clean_text(f"{plan.title}: rack elevations", "xml"))
    gen.setDescription("Drawn by GPU Cluster Planner")
    painter = QPainter()
    _begin(painter, gen, "SVG drawing")
    try:
        draw_sheet(Canvas(painter), layout, plan, catalog, report, today)
    finally:
        painter.end()


def _write_png(plan, catalog, report, tmp: str, today) -> None:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage, QPainter

    from ui.export.canvas import Canvas
    from ui.export.sheet import draw_sheet, layout_sheet

    layout = layout_sheet(plan, catalog)
    dpi = float(PNG_DPI)
    pixels = layout.width * layout.height * (dpi / 72) ** 2
    if pixels > MAX_PNG_PIXELS:
        dpi = int(dpi * (MAX_PNG_PIXELS / pixels) ** 0.5)  # whole dpi: QImage keeps its resolution as an int
    if dpi < MIN_PNG_DPI:
        raise ExportError(f"{len(plan.racks):,} racks are too many for one legible image; "
                          "export a PDF vendor pack or an SVG instead")
    w, h = round(layout.width * dpi / 72), round(layout.height * dpi / 72)
    image = QImage(w, h, QImage.Format.Format_RGB32)
    if image.isNull():
        raise ExportError(f"not enough memory for a {w} x {h} pixel image; export an SVG instead")
    dpm = round(dpi / 0.0254)
    image.setDotsPerMeterX(dpm)
    image.setDotsPerMeterY(dpm)
    image.fill(0xFFFFFF)
    painter = QPainter()
    _begin(painter, image, "image")
    try:
        draw_sheet(Canvas(painter), layout, plan, catalog, report, today)
    finally:
        painter.end()
    # Encoded in memory and written by Python: a full disk is then an OSError the safe
    # writer words, not a libpng message on the terminal.
    encoded = QByteArray()
    buffer = QBuffer(encoded)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ExportError("the PNG image could not be encoded")
    buffer.close()
    del image
    with open(tmp, "wb") as fh:
        fh.write(encoded.data())
