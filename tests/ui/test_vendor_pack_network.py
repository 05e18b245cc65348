"""The vendor pack's network page speaks a vendor's language: names, units, one page."""

import subprocess

import pytest

from planner.report.evaluate import evaluate
from planner.design.templates import build_template
from ui.export.files import export_drawing

pytestmark = pytest.mark.needs_tool("pdftotext")


def _pages(path):
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout
    return text.split("\f")


def test_network_page_has_human_labels_units_and_fits_one_page(tmp_path, catalog):
    plan = build_template("medium", catalog=catalog)
    report = evaluate(plan, catalog)
    export_drawing(plan, catalog, tmp_path / "pack.pdf", report)
    pages = _pages(tmp_path / "pack.pdf")
    network = [p for p in pages if "Network summary" in p and "Contents" not in p]
    assert len(network) == 1, "the network summary must not spill onto a second page"
    page = network[0]
    # medium template: ib400 rail-optimised fabric of qm9700 switches (resources/templates/medium.json)
    assert "400G InfiniBand (NDR)" in page and "rail-optimised" in page
    assert catalog["qm9700"].title in page
    assert "SHARP in-network reduction" in page and " on" in page
    assert " GB/s" in page and " ms" in page
    for raw in ("rail_optimized", "qm9700 ", "Sharp", "Gpu idle", "sizing.", "ports per tier", "False", "True"):
        assert raw not in page, raw
    cover = pages[0]
    assert "400G InfiniBand (NDR)" in cover and "ib400" not in cover and "rail optimized" not in cover


def test_network_page_counts_the_transceivers_the_bill_of_materials_buys(tmp_path, catalog):
    """medium: 16 DGX-class nodes x 8 rails to 8 leaves, 128 uplinks to 4 spines. The BOM buys
    twin-port 2 x 400G modules (one per two runs at each end) where runs are fibre, none on
    copper; the network page gives the same count, not one optic per run end, and so does
    the network section (125 single-port at the nodes + 64 twin-port at the leaves:
    tests/planner/test_transceiver_counts.py works them out)."""
    from planner.costs.bom import bom_counts

    plan = build_template("medium", catalog=catalog)
    report = evaluate(plan, catalog)
    bought = bom_counts(report.sections["cost"].bom)["transceiver"]
    assert bought == sum(line.quantity for line in report.sections["cost"].bom
                         if line.counts_as == "transceiver") == report.network.transceivers == 125 + 64
    export_drawing(plan, catalog, tmp_path / "pack.pdf", report)
    page = next(p for p in _pages(tmp_path / "pack.pdf") if "Network summary" in p and "Contents" not in p)
    line = next(ln for ln in page.splitlines() if "Fabric transceivers" in ln)
    assert line.split()[-1] == f"{bought:,}"
