"""Unit prices edited in an exported workbook come back into the plan as price overrides."""

import datetime as dt
import json

import openpyxl
import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.plan.fileio import load_plan, save_plan


FABRIC_OPTIC = "Transceiver, fabric: 800G twin-port OSFP transceiver (2 x 400G SR4)"


def cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    return code, capsys.readouterr()


def exported_medium(tmp_path, capsys):
    """The medium plan saved and exported: (plan file, workbook file, check's cost section,
    the workbook, its BOM sheet, BOM row by item)."""
    plan_path, book = tmp_path / "m.json", tmp_path / "m.xlsx"
    save_plan(build_template("medium"), plan_path)
    assert cli(capsys, "export", str(plan_path), "-o", str(book))[0] == 0
    before = json.loads(cli(capsys, "check", "--json", str(plan_path))[1].out)["cost"]
    wb = openpyxl.load_workbook(book)
    ws = wb["BOM"]
    rows = {ws.cell(r, 2).value: r for r in range(2, ws.max_row + 1) if ws.cell(r, 4).value is not None}
    return plan_path, book, before, wb, ws, rows


def test_two_edited_prices_move_capex_by_difference_times_quantity(tmp_path, capsys):
    plan_path, book, before, wb, ws, rows = exported_medium(tmp_path, capsys)
    # the GPU nodes (16 at $315,000 from the catalog) and the fabric's twin-port transceivers
    # (64 at the leaves' cages, $1,200 from the catalog, tests/planner/test_part_prices.py)
    gpu = rows["Generic HGX H100 8-GPU node (direct liquid cooled, 4U)"]
    optic = rows[FABRIC_OPTIC]
    assert (ws.cell(gpu, 4).value, ws.cell(optic, 4).value) == (16, 64)
    ws.cell(gpu, 5).value = 300_000
    ws.cell(optic, 5).value = 650
    ws.cell(ws.max_row + 2, 2).value = "Spare GPU node"  # a row added by hand: no line of the plan
    ws.cell(ws.max_row, 5).value = 300_000
    untouched = plan_path.read_text()
    wb.save(book)
    code, out = cli(capsys, "import-prices", str(book), "--into", str(plan_path))
    assert code == 0, out.err
    assert "Spare GPU node" in out.out and "not imported" in out.out
    after = json.loads(cli(capsys, "check", "--json", str(plan_path))[1].out)["cost"]
    # (300,000 - 315,000) x 16 + (650 - 1,200) x 64 = -240,000 - 35,200 = -275,200
    assert after["capex_usd"] - before["capex_usd"] == pytest.approx(-275_200, abs=0.005)
    lines = {line["item"]: line for line in after["bom"]}
    today = dt.date.today().isoformat()
    assert lines[FABRIC_OPTIC]["source"] == f"edited in workbook m.xlsx on {today}"
    # the storage network's line for the same module keeps its price
    assert lines["Storage transceiver: 800G twin-port OSFP transceiver (2 x 400G SR4)"]["unit_usd"] == 1200
    # nothing else in the plan changed
    old, new = json.loads(untouched), json.loads(plan_path.read_text())
    assert [o["item"] for o in new.pop("price_overrides")] == ["Generic HGX H100 8-GPU node (direct liquid cooled, 4U)",
                                                             FABRIC_OPTIC]
    old.pop("price_overrides")
    assert new == old
    # importing the same workbook again changes nothing more
    code, out = cli(capsys, "import-prices", str(book), "--into", str(plan_path))
    assert "nothing imported" in out.out
    assert len(load_plan(plan_path).price_overrides) == 2


def test_a_file_that_is_not_a_workbook_is_one_line_and_the_plan_is_untouched(tmp_path, capsys):
    plan_path = tmp_path / "m.json"
    save_plan(build_template("single-node"), plan_path)
    before = plan_path.read_bytes()
    bad = tmp_path / "not.xlsx"
    bad.write_text("hello")
    code, out = cli(capsys, "import-prices", str(bad), "--into", str(plan_path))
    assert code == 2 and out.err.count("\n") == 1 and "not.xlsx" in out.err
    code, out = cli(capsys, "import-prices", str(tmp_path / "missing.xlsx"), "--into", str(plan_path))
    assert code == 2 and "missing.xlsx" in out.err
    assert plan_path.read_bytes() == before


def test_a_workbook_with_a_sheet_cut_short_is_one_line_and_the_plan_is_untouched(tmp_path, capsys):
    # a sheet's XML cut in half (a copy interrupted) does not parse: named, not a crash
    import zipfile

    plan_path = tmp_path / "m.json"
    save_plan(build_template("single-node"), plan_path)
    before = plan_path.read_bytes()
    book = tmp_path / "m.xlsx"
    assert main(["export", str(plan_path), "-o", str(book)]) == 0
    cut = tmp_path / "cut.xlsx"
    with zipfile.ZipFile(book) as src, zipfile.ZipFile(cut, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            dst.writestr(item, data[: len(data) // 2] if item.filename.startswith("xl/worksheets/") else data)
    code, out = cli(capsys, "import-prices", str(cut), "--into", str(plan_path))
    assert code == 2 and out.err.count("\n") == 1 and "cut.xlsx" in out.err and "unexpected" not in out.err
    assert plan_path.read_bytes() == before


def test_a_price_that_is_not_a_number_is_named_as_such(tmp_path, capsys):
    # A line of the plan whose price was typed as words, or made negative, is not "a row that
    # matches no line": the message says the price is not a price, and nothing is imported.
    plan_path, book = tmp_path / "m.json", tmp_path / "m.xlsx"
    save_plan(build_template("medium"), plan_path)
    assert cli(capsys, "export", str(plan_path), "-o", str(book))[0] == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["BOM"]
    rows = {ws.cell(r, 2).value: r for r in range(2, ws.max_row + 1) if ws.cell(r, 4).value is not None}
    ws.cell(rows[FABRIC_OPTIC], 5).value = "forty"
    gpu = rows["Generic HGX H100 8-GPU node (direct liquid cooled, 4U)"]
    ws.cell(gpu, 5).value = -5
    wb.save(book)
    untouched = plan_path.read_text()
    code, out = cli(capsys, "import-prices", str(book), "--into", str(plan_path))
    assert code == 0
    assert f"row {rows[FABRIC_OPTIC]}: '{FABRIC_OPTIC}': unit price 'forty' is not a price" in out.out
    assert f"row {gpu}: 'Generic HGX H100 8-GPU node (direct liquid cooled, 4U)': unit price -5 is not a price" in out.out
    assert "matches no line" not in out.out and "nothing imported" in out.out
    assert plan_path.read_text() == untouched


def test_a_price_the_user_wrote_as_a_formula_is_imported_once_computed(tmp_path, capsys):
    """=2*150000 in the GPU nodes' unit price: unread until a spreadsheet program computes it
    (then $300,000: 16 x -$15,000 = -$240,000 of capex); the planner's own formulas (linked
    to a cost setting, computed to the plan's price) stay unimported."""
    from tests.planner.xlsx_helpers import convert, find_soffice

    plan_path, book, before, wb, ws, rows = exported_medium(tmp_path, capsys)
    gpu = rows["Generic HGX H100 8-GPU node (direct liquid cooled, 4U)"]
    ws.cell(gpu, 5).value = "=2*150000"
    wb.save(book)
    code, out = cli(capsys, "import-prices", str(book), "--into", str(plan_path))
    assert code == 0 and f"row {gpu}: 'Generic HGX H100 8-GPU node" in out.out
    assert "is a formula no spreadsheet program has computed" in out.out and "nothing imported" in out.out
    # openpyxl's save dropped every formula's computed value: the planner's own links to a cost
    # setting (=cable_usd ...) are not the user's formulas and are not listed
    assert [line for line in out.out.splitlines() if line.startswith("row ")] == [
        next(line for line in out.out.splitlines() if line.startswith(f"row {gpu}: "))]
    computed = convert(find_soffice(), book, tmp_path / "lo", "xlsx", tmp_path / "profile")
    code, out = cli(capsys, "import-prices", str(computed), "--into", str(plan_path))
    assert code == 0 and "$315,000.00 -> $300,000.00" in out.out and "1 price imported" in out.out
    after = json.loads(cli(capsys, "check", "--json", str(plan_path))[1].out)["cost"]
    assert after["capex_usd"] - before["capex_usd"] == pytest.approx(-240_000, abs=0.005)
