"""Prices stay with the buyer: the vendor pack leaves out unit prices, capex, opex and TCO unless
asked (`export --with-prices`, File > Export > Include prices in the vendor pack); the workbook keeps them."""

from __future__ import annotations

import re

import openpyxl
from ui import file_dialogs

from tests.ui.test_export_cli import cli, needs_poppler
from tests.ui.test_export_files import pdf_text

# A dollar figure as the pack writes one: "$250,000", "$150.00", "~$317k".
DOLLARS = re.compile(r"\$\s?\d")


@needs_poppler
def test_default_pack_has_no_dollar_figure_and_the_switch_puts_them_in(tmp_path):
    assert cli("new", "--template", "massive", "-o", "m.json", cwd=tmp_path).returncode == 0
    done = cli("export", "m.json", "-o", "plain.pdf", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    plain = pdf_text(tmp_path / "plain.pdf")
    assert not DOLLARS.findall(plain)
    assert "Capex" not in plain and "TCO" not in plain and "Unit price" not in plain
    # The bill of materials still says what to quote for: 48 GPU nodes of the massive template.
    assert "Bill of materials" in plain and re.search(r"GPU servers .*\b48\b", plain)

    done = cli("export", "m.json", "-o", "priced.pdf", "--with-prices", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    priced = pdf_text(tmp_path / "priced.pdf")
    # 48 nodes at the catalog's $315,000 (the guide's break-even price) is $15,120,000.
    assert "$315,000" in priced and "$15,120,000" in priced
    assert "Capex" in priced and "TCO" in priced

    assert cli("export", "m.json", "-o", "m.xlsx", cwd=tmp_path).returncode == 0
    book = openpyxl.load_workbook(tmp_path / "m.xlsx")
    cells = [c.value for ws in book.worksheets for row in ws.iter_rows() for c in row]
    # The workbook keeps the prices (totals there are formulas): the node's unit price and a capex line.
    assert 315_000 in cells and any(isinstance(v, str) and v.startswith("Capex") for v in cells)


@needs_poppler
def test_every_templates_default_pack_has_no_dollar_figure(tmp_path):
    for name in ("single-node", "inference", "medium"):
        assert cli("new", "--template", name, "-o", f"{name}.json", cwd=tmp_path).returncode == 0
        assert cli("export", f"{name}.json", "-o", f"{name}.pdf", cwd=tmp_path).returncode == 0
        assert not DOLLARS.findall(pdf_text(tmp_path / f"{name}.pdf")), name


@needs_poppler
def test_app_export_leaves_prices_out_unless_the_menu_option_is_ticked(window, tmp_path, monkeypatch):
    assert window.pack_prices_action in window.export_menu.actions()
    assert window.pack_prices_action.isCheckable() and not window.pack_prices_action.isChecked()
    target = tmp_path / "pack.pdf"
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: (str(target), ""))
    window.export_pack_action.trigger()
    assert not DOLLARS.findall(pdf_text(target))
    assert window.doc.report.cost.bom  # the medium template is priced
    window.pack_prices_action.setChecked(True)
    window.export_pack_action.trigger()
    assert DOLLARS.findall(pdf_text(target))
