"""`cluster-planner export` end to end, in a child process without a display (as on a server)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The massive template's racks (resources/templates/massive.json: 12 GPU racks, 2 network, 1 storage).
MASSIVE_RACKS = [f"GPU-{i:02d}" for i in range(1, 13)] + ["NET-01", "NET-02", "STOR-01"]

needs_poppler = pytest.mark.needs_tool("pdftoppm", "pdftotext")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "cluster_planner", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=180)


@pytest.fixture(scope="module")
def massive(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("massive")
    done = cli("new", "--template", "massive", "-o", "massive.json", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "massive.json"


def gray_pages(pdf: Path, dpi: int = 30) -> list[tuple[int, int, bytes]]:
    """Render every page with pdftoppm to 8-bit grey (PGM) and return (width, height, pixels) per page."""
    out = pdf.parent / "page"
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(pdf), str(out)], check=True, timeout=120)
    pages = []
    for f in sorted(pdf.parent.glob("page-*.pgm"), key=lambda p: int(p.stem.split("-")[-1])):
        data = f.read_bytes()
        # P5 header: magic, width, height, maxval, each followed by whitespace.
        magic, w, h, maxval, pixels = data.split(maxsplit=4)
        assert magic == b"P5" and maxval == b"255"
        pages.append((int(w), int(h), pixels[: int(w) * int(h)]))
    return pages


def ink_fraction(pixels: bytes) -> float:
    """Share of pixels darker than light grey: 0 for a blank page."""
    return sum(1 for v in pixels if v < 200) / len(pixels)


def page_text(pdf: Path, page: int) -> str:
    return subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          check=True, capture_output=True, text=True, timeout=60).stdout


@needs_poppler
def test_massive_vendor_pack_shows_every_rack_on_non_blank_pages(massive):
    done = cli("export", "massive.json", "-o", "m.pdf", cwd=massive.parent)
    assert done.returncode == 0, done.stderr
    pdf = massive.parent / "m.pdf"
    pages = gray_pages(pdf)
    # Cover, at least three elevation pages (15 racks; a legible 42U rack is ~150 pt wide, so at most
    # five fit the 774 pt between A4 landscape margins), power table, network, findings.
    assert len(pages) >= 7
    for n, (w, h, pixels) in enumerate(pages, start=1):
        assert w > h, f"page {n} is not landscape"
        assert ink_fraction(pixels) > 0.005, f"page {n} is blank"
    texts = [page_text(pdf, n) for n in range(1, len(pages) + 1)]
    elevation_text = "\n".join(t for t in texts[1:] if "Rack elevations" in t)
    for name in MASSIVE_RACKS:
        assert name in elevation_text, f"rack {name} is on no elevation page"
    whole = "\n".join(texts)
    assert "Power and cooling per rack" in whole and "Network summary" in whole and "Open findings" in whole
    # Every page has the plan name and its number in the footer.
    for n, t in enumerate(texts, start=1):
        assert f"Page {n} of {len(pages)}" in t
        assert "48-node cluster" in t


def test_svg_export_is_xml_naming_every_rack(massive):
    done = cli("export", "massive.json", "-o", "racks.svg", cwd=massive.parent)
    assert done.returncode == 0, done.stderr
    root = ET.parse(massive.parent / "racks.svg").getroot()
    assert root.tag.endswith("svg")
    texts = {"".join(el.itertext()).strip() for el in root.iter() if el.tag.endswith("text")}
    for name in MASSIVE_RACKS:
        assert name in texts
    assert "node-48" in texts  # device labels are text too


def test_png_export_is_a_non_blank_image_of_sensible_size(massive):
    from PySide6.QtGui import QImage

    done = cli("export", "massive.json", "-o", "racks.png", cwd=massive.parent)
    assert done.returncode == 0, done.stderr
    image = QImage(str(massive.parent / "racks.png"))
    assert not image.isNull()
    # 15 racks wrap to 12 + 3 per line; at 150 dpi a 42U rack (~140 pt wide, ~480 pt tall) is ~290 x 1000 px.
    assert 2500 < image.width() < 6000
    assert 1500 < image.height() < 4000
    small = image.scaled(200, 120).convertToFormat(QImage.Format.Format_Grayscale8)
    dark = sum(1 for y in range(small.height()) for x in range(small.width()) if small.pixelColor(x, y).value() < 200)
    assert dark > 0.05 * small.width() * small.height()


@pytest.mark.parametrize("where", ["missing-folder/out.pdf", "plan-as-folder/out.png", "missing-folder/out.svg"])
def test_unwritable_target_exits_2_with_one_line_and_leaves_nothing(massive, tmp_path, where):
    (tmp_path / "plan-as-folder").write_text("a file, not a folder")
    before = sorted(p.name for p in tmp_path.iterdir())
    done = cli("export", str(massive), "-o", where, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cluster-planner: cannot save out."), done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_unknown_format_exits_2(massive, tmp_path):
    done = cli("export", str(massive), "-o", "out.docx", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == "cluster-planner: out.docx: cannot export to '.docx'; use .pdf, .svg, .png or .xlsx"
    assert list(tmp_path.iterdir()) == []


def test_export_command_does_not_load_qt_until_it_runs():
    code = "import sys, planner.cli, planner.cli.cmd_export; planner.cli.build_parser(); " \
           "print('PySide6' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "False", done.stderr


@needs_poppler
def test_vendor_pack_compare_pages_show_the_differences_and_keep_money_out_unless_asked(massive):
    folder = massive.parent
    assert cli("new", "--template", "medium", "-o", "medium.json", cwd=folder).returncode == 0
    done = cli("export", "medium.json", "-o", "c.pdf", "--compare-with", "massive.json", cwd=folder)
    assert done.returncode == 0, done.stderr
    text = page_text(folder / "c.pdf", 2)
    assert "Compare" in text and "medium.json" in text and "massive.json" in text
    gpus = next(line for line in text.splitlines() if line.strip().startswith("GPUs"))
    assert gpus.split() == ["GPUs", "128", "384", "+256"]  # 16 and 48 nodes of 8 GPUs
    racks = next(line for line in text.splitlines() if line.strip().startswith("Racks"))
    # massive: 18 racks (12 of 4 nodes at 30 kW; 16 spines and 8 cores, ECMP-balanced, fill a
    # third network rack, which has room for the storage leaf-spine of 3 together; 2 of storage;
    # one of CDUs)
    assert racks.split() == ["Racks", "7", "18", "+11", "worse"]
    assert "Capex" not in text  # prices are the buyer's: left out without --with-prices
    assert "Break-even" not in text  # a month worked out from the prices is left out with them
    done = cli("export", "medium.json", "-o", "p.pdf", "--compare-with", "massive.json", "--with-prices",
               cwd=folder)
    assert done.returncode == 0, done.stderr
    capex = next(line for line in page_text(folder / "p.pdf", 2).splitlines() if line.strip().startswith("Capex"))
    assert re.search(r"\+\$\d+\.\d\dM worse", capex), capex  # massive's three times the nodes cost more
    assert "Break-even vs on-demand rent" in page_text(folder / "p.pdf", 2)
    refused = cli("export", "medium.json", "-o", "c.svg", "--compare-with", "massive.json", cwd=folder)
    assert refused.returncode == 2 and "Compare" in refused.stderr and not (folder / "c.svg").exists()
