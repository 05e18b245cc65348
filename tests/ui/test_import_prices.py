"""File > Import prices: unit prices edited in an exported workbook become the open plan's
price overrides, as one undoable edit; rows the plan lacks are listed."""

import openpyxl
import pytest
from PySide6.QtWidgets import QMessageBox

from planner.export.xlsx import write_workbook


def test_import_prices_menu_reprices_the_plan_and_undo_restores_it(window, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a: shown.append(a[2]))
    book = tmp_path / "m.xlsx"
    write_workbook(window.doc.plan, window.doc.catalog, book)
    capex = window.doc.report.cost.capex_usd
    wb = openpyxl.load_workbook(book)
    ws = wb["BOM"]
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 2).value == "Rack enclosure")
    assert (ws.cell(row, 4).value, ws.cell(row, 5).value) == (7, "=rack_usd")  # 7 racks at the assumption's $2,500
    ws.cell(row, 5).value = 4000
    wb.save(book)
    file_menu = next(m for m in window.menuBar().findChildren(type(window.recent_menu)) if m.title() == "&File")
    assert window.import_prices_action in file_menu.actions()
    message = window.import_prices_from(book)
    assert "1 price imported" in message and "Rack enclosure: $2,500.00 -> $4,000.00" in message
    # 7 racks x ($4,000 - $2,500) = $10,500
    assert window.doc.report.cost.capex_usd - capex == pytest.approx(10_500)
    assert shown and "Rack enclosure" in shown[0]
    window.doc.undo_stack.undo()
    assert window.doc.report.cost.capex_usd == pytest.approx(capex)
    assert window.doc.plan.price_overrides == []
