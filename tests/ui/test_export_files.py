"""export_drawing: what the drawings say and show, on small plans built by hand."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from planner.costs.bom import BomLine
from planner.hardware.catalog import default_catalog
from planner.errors import PlannerError
from planner.report.evaluate import evaluate
from planner.plan.model import Placement, Plan, Rack
from planner.report.palette import LOAD_HIGH, LOAD_OK, LOAD_OVER, load_color
from ui.export.elevation import ElevationStyle, fit_style
from ui.export.files import export_drawing

needs_poppler = pytest.mark.needs_tool("pdftotext")


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


def node_plan() -> Plan:
    """Three racks of HGX H100 nodes (7.0 kW typical, 10.2 kW nameplate each, catalog entry hgx-h100-8, 4U)."""
    racks = [
        # 2 nodes: typical 14.0 / 13 = 108%, nameplate 20.4 / 13 = 157%
        Rack(id="ra", name="OVER-1", power_cap_kw=13, cooling="liquid", row="A"),
        # 1 node: typical 7.0 / 12.5 = 56%, nameplate 10.2 / 12.5 = 82% (amber by the worse)
        Rack(id="rb", name="HIGH-1", power_cap_kw=12.5, cooling="liquid", row="A"),
        # 1 node: typical 7.0 / 20 = 35%, nameplate 10.2 / 20 = 51%
        Rack(id="rc", name="LOW-1", power_cap_kw=20, cooling="liquid", row="B"),
    ]
    placements = [
        Placement(id="n1", device="hgx-h100-8", rack="ra", u=1, label="node-a1"),
        Placement(id="n2", device="hgx-h100-8", rack="ra", u=9, label="node-a2"),
        Placement(id="n3", device="hgx-h100-8", rack="rb", u=1, label="node-b1"),
        Placement(id="n4", device="hgx-h100-8", rack="rc", u=1, label="node-c1"),
    ]
    return Plan(name="Hand-built plan", racks=racks, placements=placements)


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True, timeout=60).stdout


def test_load_colours_green_amber_red():
    assert load_color(0.79) == LOAD_OK
    assert load_color(0.80) == LOAD_HIGH
    assert load_color(1.00) == LOAD_HIGH   # at the cap is allowed (no finding), but has no headroom
    assert load_color(1.01) == LOAD_OVER


def test_svg_rack_headers_carry_the_reports_power_against_the_cap(tmp_path, catalog):
    plan = node_plan()
    export_drawing(plan, catalog, tmp_path / "r.svg")
    root = ET.parse(tmp_path / "r.svg").getroot()
    texts = ["".join(el.itertext()).strip() for el in root.iter() if el.tag.endswith("text")]
    # Both bases against the cap (see node_plan): typical / nameplate kW, then the two loads.
    assert "Typ. 14.0 · npl. 20.4 / 13 kW (108% / 157%)" in texts
    assert "Typ. 7.0 · npl. 10.2 / 12.5 kW (56% / 82%)" in texts
    assert "Typ. 7.0 · npl. 10.2 / 20 kW (35% / 51%)" in texts
    assert "Row A" in texts and "Row B" in texts
    assert {"node-a1", "node-a2", "node-b1", "node-c1"} <= set(texts)
    # U numbers 1..42 for each of the three racks.
    assert sum(t == "42" for t in texts) == 3


def colour_counts(path) -> dict[str, int]:
    """Pixels of each colour, sampling every second pixel of every second line."""
    from PySide6.QtGui import QColor, QImage

    image = QImage(str(path))
    counts: dict[str, int] = {}
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            name = QColor(image.pixel(x, y)).name().upper()
            counts[name] = counts.get(name, 0) + 1
    return counts


# A full load bar is 135 pt x 5.5 pt; at 150 dpi that is 281 x 11 px, about 140 x 5 = 700 samples (every
# 2nd pixel and line, antialiased edges left out); a bar filled to 70% about 490. A legend swatch is
# 8 x 8 pt = 17 x 17 px, about 70 samples.
BAR_SAMPLES = 0.7 * 700 - 100
SWATCH_SAMPLES = 100


def test_png_bars_are_red_over_the_cap_amber_from_80_percent_green_below_by_the_worse_basis(tmp_path, catalog):
    # OVER-1 red, HIGH-1 amber (only its nameplate load reaches 80%), LOW-1 green.
    export_drawing(node_plan(), catalog, tmp_path / "r.png")
    counts = colour_counts(tmp_path / "r.png")
    for colour in (LOAD_OVER, LOAD_HIGH, LOAD_OK):
        assert counts.get(colour.upper(), 0) > BAR_SAMPLES, colour


def test_removing_a_node_turns_the_red_bar_green(tmp_path, catalog):
    data = node_plan().model_dump()
    # OVER-1 with one node: typical 7.0 / 13 = 54%, nameplate 10.2 / 13 = 78%: green on both.
    data["placements"] = [p for p in data["placements"] if p["id"] != "n2"]
    export_drawing(Plan.model_validate(data), catalog, tmp_path / "r.png")
    counts = colour_counts(tmp_path / "r.png")
    assert counts.get(LOAD_OVER.upper(), 0) < SWATCH_SAMPLES  # the legend's swatch only
    assert counts.get(LOAD_OK.upper(), 0) > 2 * BAR_SAMPLES  # two green bars now


@needs_poppler
def test_vendor_pack_has_bom_network_and_findings_when_the_report_has_them(tmp_path, catalog):
    plan = node_plan()
    report = evaluate(plan, catalog)
    report.sections["cost"] = replace(
        report.cost, capex_usd=1_234_567.0, opex_usd_per_month=8_900.0, tco_usd=1_500_000.0,
        bom=(BomLine("GPU servers", "HGX H100 8-GPU node", "HGX H100", 4, 250_000.0, "vendor quote"),
             BomLine("Cooling", "In-rack CDU 250 kW", "CDU", 1, 60_000.0, "list price")))
    export_drawing(plan, catalog, tmp_path / "pack.pdf", report, with_prices=True)
    text = pdf_text(tmp_path / "pack.pdf")
    assert "Bill of materials" in text
    assert "HGX H100 8-GPU node" in text and "$250,000" in text and "$1,000,000" in text
    assert "$1,234,567" in text          # capex on the cover and under the BOM
    assert "Network summary" in text
    # The over-cap rack's finding, as the report words it.
    over = [f.message for f in report.findings if f.code == "rack.power.over_cap"]
    assert over and over[0][:40] in text


@needs_poppler
def test_vendor_pack_without_cost_section_has_no_bom_page(tmp_path, catalog):
    plan = node_plan()
    report = evaluate(plan, catalog)
    report.sections.pop("cost", None)
    report.sections.pop("network", None)
    export_drawing(plan, catalog, tmp_path / "pack.pdf", report)
    text = pdf_text(tmp_path / "pack.pdf")
    assert "Bill of materials" not in text and "Network summary" not in text
    assert "Power and cooling per rack" in text


@pytest.mark.needs_tool("pdftotext", "pdfinfo")
def test_many_tall_racks_paginate_and_every_rack_appears(tmp_path, catalog):
    racks = [Rack(id=f"r{i}", name=f"TALL-{i:02d}", height_u=60) for i in range(1, 24)]
    plan = Plan(name="Twenty-three 60U racks", racks=racks,
                placements=[Placement(id=f"s{i}", device="qm9700", rack=f"r{i}", u=60) for i in range(1, 24)])
    export_drawing(plan, catalog, tmp_path / "tall.pdf", paper="Letter")
    info = subprocess.run(["pdfinfo", str(tmp_path / "tall.pdf")], capture_output=True, text=True).stdout
    assert "792 x 612 pts" in info  # US Letter, landscape
    text = pdf_text(tmp_path / "tall.pdf")
    for r in racks:
        assert r.name in text
    pages = text.count("\f")
    # 23 racks at five per page is five elevation pages, plus cover, power table (two pages at most), findings.
    assert pages >= 1 + 5 + 1 + 1


def test_a_60u_rack_fits_an_a4_page_at_a_legible_size():
    # A4 landscape is 595 pt tall; the body between margins, title and footer is about 485 pt.
    style = fit_style(60, 485 - 40)
    assert style.rack_height(60) <= 485 - 40
    assert style.label_pt >= 5.5 and style.unum_pt >= 5.5
    assert fit_style(42, 485 - 40).u_pitch > style.u_pitch  # shorter racks get more room per U
    assert ElevationStyle().label_pt <= 8.0


def test_replaces_an_existing_file_and_leaves_no_temporary_files(tmp_path, catalog):
    target = tmp_path / "racks.svg"
    target.write_text("old")
    export_drawing(node_plan(), catalog, target)
    assert target.read_text().startswith("<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["racks.svg"]


def test_unwritable_folder_raises_a_planner_error_and_writes_nothing(tmp_path, catalog):
    with pytest.raises(PlannerError, match="cannot save r.pdf: the folder .*no-such-folder does not exist"):
        export_drawing(node_plan(), catalog, tmp_path / "no-such-folder" / "r.pdf")
    with pytest.raises(PlannerError, match="use .pdf, .svg or .png"):
        export_drawing(node_plan(), catalog, tmp_path / "r.txt")
    assert list(tmp_path.iterdir()) == []


def test_png_of_a_thousand_racks_is_refused_in_favour_of_pdf_or_svg(tmp_path, catalog):
    # 1,200 racks wrap 12 to a line: 100 lines of ~480 pt = 48,000 pt tall x 1,860 pt wide. Fitting that
    # into 40 million pixels needs (72 * sqrt(40e6 / (48,000 * 1,860))) = 48 dpi: 6.6 pt labels would be
    # 4 px tall, so the export says to use the PDF or SVG instead.
    plan = Plan(name="Hall", racks=[Rack(id=f"r{i}", name=f"R{i}") for i in range(1200)])
    with pytest.raises(PlannerError, match="too many for one legible image; export a PDF"):
        export_drawing(plan, catalog, tmp_path / "hall.png")
    assert list(tmp_path.iterdir()) == []
    export_drawing(plan, catalog, tmp_path / "hall.svg")  # vector: no pixel budget
    assert (tmp_path / "hall.svg").stat().st_size > 0


def test_the_rack_view_and_the_exported_elevation_write_a_device_the_same(qtbot, tmp_path, catalog):
    """One layout (``planner.report.elevation``) drawn by both: an HGX H100 node reads
    "7 kW" (7,000 W typical) on screen and on paper, not "7.0 kW" on paper."""
    from planner.report.elevation import device_box
    from ui.document import Document
    from ui.main_window import MainWindow

    plan = node_plan()
    window = MainWindow(Document(plan, catalog, None))
    qtbot.addWidget(window, before_close_func=lambda w: w.doc.undo_stack.setClean())
    item = window.view.racks["rc"].devices["n4"]
    expected = device_box(plan.placement("n4"), catalog.get("hgx-h100-8"), "typical")
    assert item.box == expected and expected.power == "7 kW" and (expected.u, expected.height_u) == (1, 4)  # a 4U node
    assert window.view.racks["rc"].power_text() == "7.0 / 20 kW"
    export_drawing(plan, catalog, tmp_path / "r.svg", evaluate(plan, catalog))
    root = ET.parse(tmp_path / "r.svg").getroot()
    texts = ["".join(el.itertext()).strip() for el in root.iter() if el.tag.endswith("text")]
    assert texts.count("7 kW") == 4 and "7.0 kW" not in texts  # the four nodes
    assert "node-c1" in texts


@needs_poppler
def test_a_table_that_runs_over_pages_repeats_its_header_row_and_title_there(tmp_path, catalog):
    # 40 racks of two HGX H100 nodes (14.0 kW typical) under a 13 kW cap: 40 rows in the power
    # table and 40 over-cap errors in the findings, more than one landscape A4 page holds of either.
    racks = [Rack(id=f"r{i}", name=f"OVER-{i:02d}", power_cap_kw=13, cooling="liquid") for i in range(1, 41)]
    placements = [Placement(id=f"n{i}-{u}", device="hgx-h100-8", rack=f"r{i}", u=u)
                  for i in range(1, 41) for u in (1, 9)]
    plan = Plan(name="Forty racks over their cap", racks=racks, placements=placements)
    export_drawing(plan, catalog, tmp_path / "pack.pdf")
    pages = pdf_text(tmp_path / "pack.pdf").split("\f")

    def section(title):
        first = next(i for i, p in enumerate(pages) if p.lstrip().startswith(title + "\n"))
        rest = [p for p in pages[first + 1:] if p.lstrip().startswith(f"{title} (continued)")]
        return [pages[first]] + rest

    for title, header in (("Power and cooling per rack", ["Rack", "Cooling", "U used", "GPUs", "Typical kW"]),
                          ("Open findings", ["Severity", "Check", "Finding", "Where"])):
        found = section(title)
        assert len(found) >= 2, f"{title} fits one page: nothing to repeat"
        for page in found:
            head = next(line for line in page.splitlines() if line.strip().startswith(header[0] + " "))
            assert head.split()[:len(" ".join(header).split())] == " ".join(header).split(), (title, head)
        text = "\n".join(found)
        for r in racks:
            assert r.name in text, (title, r.name)
    # the power table's totals: 40 x 2 x 7.0 kW typical = 560.0 kW, on its last page
    assert "All racks" in section("Power and cooling per rack")[-1]
    assert "560.0" in next(line for line in section("Power and cooling per rack")[-1].splitlines()
                           if line.strip().startswith("All racks"))
