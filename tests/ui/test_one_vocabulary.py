"""One vocabulary: the same figure reads the same on every surface.

The medium and frontier-100k plans go through the ``check`` text, the summary strip, the
workbook and the vendor pack; rack power, IT power, capex and the fabric's name appear as
the same text on each (the workbook through the number format Excel applies to the cell)."""

from __future__ import annotations

import re
import subprocess

import pytest

from planner.cli.cmd_check import render_text
from planner.design.templates import build_template
from planner.export.xlsx import build_workbook
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.vocabulary import choice_title, kw, usd

CAT = default_catalog()
needs_poppler = pytest.mark.needs_tool("pdftotext")


def excel_shows(value: float, number_format: str) -> str:
    """What Excel displays for ``value`` in the two formats the figures use (worked out here,
    independently of the product): '#,##0.0 "kW"' and '"$"#,##0'."""
    if number_format == '#,##0.0 "kW"':
        return f"{value:,.1f} kW"
    if number_format == '"$"#,##0':
        return f"${value:,.0f}"
    raise AssertionError(f"unexpected number format {number_format!r}")


def vendor_pack_text(plan, report, tmp_path, monkeypatch) -> str:
    """The vendor pack's cover, first power page and network summary as pdftotext reads them
    (the whole pack of a frontier plan takes minutes to draw)."""
    from ui.export import vendor_pack
    from ui.export.files import export_drawing

    everything = vendor_pack.VendorPack.pages

    def some(self):
        pages = everything(self)
        keep = [pages[0]]
        keep += [p for p in pages if p.title == "Power and cooling per rack"][:1]
        keep += [p for p in pages if p.title.startswith("Network summary")]
        return keep

    monkeypatch.setattr(vendor_pack.VendorPack, "pages", some)
    path = export_drawing(plan, CAT, tmp_path / "pack.pdf", report, with_prices=True)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True)
    return re.sub(r"[ \t]+", " ", out.stdout)


@needs_poppler
@pytest.mark.parametrize("template", ["medium", "frontier-100k"])
def test_every_surface_writes_the_same_figure_the_same_way(template, qtbot, tmp_path, monkeypatch):
    from ui.summary_strip import SummaryStrip

    plan = build_template(template, catalog=CAT)
    report = evaluate(plan, CAT)
    t, net, cost = report.totals, report.network, report.cost
    rack = max(report.racks, key=lambda r: r.power_kw)
    figures = {"rack power": kw(rack.power_kw), "IT power": kw(t.it_power_kw), "capex": usd(cost.capex_usd),
               "fabric": choice_title(net.fabric)}
    # the words themselves, worked out by hand from the report's numbers
    assert figures["IT power"] == f"{t.it_power_kw:,.1f} kW"
    assert figures["capex"] == f"${cost.capex_usd:,.0f}"
    assert figures["fabric"] == {"ib400": "400G InfiniBand (NDR)", "ib800": "800G InfiniBand (XDR)"}[net.fabric]

    cli = render_text(report, CAT)
    for name, words in figures.items():
        assert words in cli, (name, words)

    strip = SummaryStrip()
    qtbot.addWidget(strip)
    strip.show_report(report)
    assert figures["IT power"] in strip.figures["it_kw"].toolTip()
    assert figures["capex"] in strip.figures["capex"].toolTip()

    wb = build_workbook(plan, CAT, report)
    summary = {row[0].value: row[1] for row in wb["Summary"].iter_rows(min_row=3, max_col=2) if row[0].value}
    it_cell = summary["IT power"]
    assert excel_shows(it_cell.value, it_cell.number_format) == figures["IT power"]
    # capex is a live formula there; Excel shows it in the vocabulary's money format
    assert excel_shows(cost.capex_usd, summary["Capex"].number_format) == figures["capex"]
    racks = wb["Racks"]
    power_cell = next(row[2] for row in racks.iter_rows(min_row=3) if row[0].value == rack.name)
    assert excel_shows(power_cell.value, power_cell.number_format) == figures["rack power"]
    network = {row[0].value: row[1].value for row in wb["Network"].iter_rows(min_row=4, max_col=2) if row[0].value}
    assert network["Compute fabric"] == figures["fabric"]

    pdf = vendor_pack_text(plan, report, tmp_path, monkeypatch)
    # the vendor pack writes power compactly (MW from a megawatt), as the summary strip does
    assert kw(t.it_power_kw, "compact") in pdf and kw(t.it_power_kw, "compact") == strip.text("it_kw")
    assert figures["capex"] in pdf and figures["fabric"] in pdf
