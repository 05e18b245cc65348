"""No text in the vendor pack is cut or runs out of its box: every text item placed on every
page of every template's pack is measured at its font against the box it is drawn in (the
drawings' labels against their boxes, the document's lines against the width they were laid
out in, its tables against the page)."""

from __future__ import annotations

import subprocess

import pytest
from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

from planner.design.templates import build_template, template_names
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from ui.export.files import ensure_app
from ui.export.vendor_pack import VendorPack
from tests.planner.template_cases import everyday_templates


def placed_texts(name: str, path) -> tuple[list, object]:
    catalog = default_catalog()
    plan = build_template(name, catalog=catalog)
    # With prices: the pack with the most text in it.
    placed, _ = render_placed(plan, catalog, path, with_prices=True)
    return placed, plan


def render_placed(plan, catalog, path, with_prices: bool = False) -> tuple[list, int]:
    """The pack of ``plan`` printed to ``path`` (A4 landscape): every text it placed, and its page count."""
    ensure_app()
    writer = QPdfWriter(str(path))
    writer.setResolution(300)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Landscape,
                                     QMarginsF(0, 0, 0, 0)))
    page = writer.pageLayout().fullRect(QPageLayout.Unit.Point)
    painter = QPainter()
    assert painter.begin(writer)
    placed = []
    try:
        n = VendorPack(plan, catalog, evaluate(plan, catalog), page.width(), page.height(),
                       with_prices=with_prices).render(painter, writer, placed)
    finally:
        painter.end()
    return placed, n


@pytest.mark.parametrize("name", everyday_templates())
def test_no_text_in_the_pack_is_wider_than_its_box(name, tmp_path):
    placed, plan = placed_texts(name, tmp_path / "pack.pdf")
    texts = {t.text for t in placed}
    # The scan saw the drawing: the plan's name and its first rack (by name, or in a rack type's range).
    assert plan.name in texts and any(t.startswith(plan.racks[0].name) for t in texts)
    too_wide = [(t.text, round(t.width, 1), round(t.box_width, 1)) for t in placed if not t.fits]
    assert too_wide == []


def test_the_fabric_switches_are_named_by_what_they_are():
    catalog = default_catalog()
    # The inference template's fabric is 100GbE Ethernet (Spectrum SN4600C); massive's is InfiniBand.
    for name, prefix in (("inference", "eth-"), ("massive", "ib-")):
        plan = build_template(name, catalog=catalog)
        switch = plan.settings.fabric.switch_device
        labels = [p.label for p in plan.placements if p.device == switch]
        assert labels and all(label.startswith(prefix) for label in labels), (name, labels[:3])


@pytest.mark.skipif("frontier-100k" not in template_names(), reason="no frontier template")
@pytest.mark.needs_tool("pdfinfo")
def test_frontier_pack_groups_identical_racks_into_types_within_80_pages(tmp_path):
    placed, plan = placed_texts("frontier-100k", tmp_path / "frontier.pdf")
    info = subprocess.run(["pdfinfo", str(tmp_path / "frontier.pdf")], capture_output=True, text=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    assert pages <= 80  # drawn rack by rack it was 684 pages
    texts = {t.text for t in placed}
    # 12,500 nodes filled rack by rack: the racks that hold what GPU-01 holds (6 nodes, and the
    # in-rack CDU the first of them carry) are one type, drawn once and indexed by their range.
    held: dict[str, list[str]] = {}
    for p in plan.placements:
        held.setdefault(p.rack, []).append(p.device)
    first = sorted(held[plan.racks[0].id])
    full = sum(1 for r in plan.racks if sorted(held.get(r.id, [])) == first)
    assert full > 100 and f"Type A × {full:,}" in texts
    assert f"GPU-01\u00a0…\u00a0GPU-{full}" in texts  # a run kept on one line
    # 12,500 nodes at 7.0 kW typical (hgx-h100-8, the planning guide's figure) plus the fabric: over 87.5 MW, written in MW.
    assert any(t.endswith(" MW") for t in texts) and not any("102,69" in t for t in texts)
    # The cover's description (longer than the cover holds) is cut after a whole word, never mid-word.
    cover = [t.text for t in placed if t.text.startswith(plan.description[:40])]
    assert cover and cover[0].endswith(" …")
    kept = cover[0][:-2]
    assert plan.description.startswith(kept) and plan.description[len(kept)] in " .,;:" 


@pytest.mark.skipif("campus-400k" not in template_names(), reason="no campus template")
@pytest.mark.needs_tool("pdfinfo")
def test_campus_pack_is_within_80_pages(tmp_path):
    placed, plan = placed_texts("campus-400k", tmp_path / "campus.pdf")
    info = subprocess.run(["pdfinfo", str(tmp_path / "campus.pdf")], capture_output=True, text=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    assert len(plan.racks) > 8_000 and pages <= 80
    # Its 823 MW of typical IT load reads in MW, not as six-digit kW.
    assert any(t.text.endswith(" MW") for t in placed) and not any("822,8" in t.text for t in placed)
