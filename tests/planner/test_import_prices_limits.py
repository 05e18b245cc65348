"""import-prices reads a workbook within bounds: the file and its parts at most 64 MB once
uncompressed, the BOM sheet at most 10,000 rows; past them one line, exit 2, plan untouched."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def exported(tmp_path):
    """single-node saved as p.json and exported as p.xlsx."""
    plan = build_template("single-node")
    save_plan(plan, tmp_path / "p.json")
    write_workbook(plan, default_catalog(), tmp_path / "p.xlsx")
    return tmp_path / "p.json", tmp_path / "p.xlsx"


def rewrite_bom_sheet(book: Path, out: Path, edit) -> None:
    """Copy ``book`` to ``out`` with the BOM sheet's XML passed through ``edit``."""
    with zipfile.ZipFile(book) as src:
        part = openpyxl.load_workbook(book, read_only=True)["BOM"]._worksheet_path  # the sheet's part in the zip
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                data = src.read(info)
                dst.writestr(info.filename, edit(data) if info.filename == part else data)


def import_prices(book: Path, plan: Path) -> subprocess.CompletedProcess:
    """``import-prices`` in a fresh process limited to 2 GB and 120 s."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024 ** 3, 2 * 1024 ** 3))

    return subprocess.run([sys.executable, "-m", "cluster_planner", "import-prices", book.name, "--into", plan.name],
                          cwd=book.parent, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=120, preexec_fn=limit)


def assert_refused(proc, plan: Path, before: bytes, *words: str) -> None:
    assert proc.returncode == 2, proc.stderr[-2000:] + proc.stdout[-500:]
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr[:2000]
    for word in words:
        assert word in proc.stderr, proc.stderr
    assert plan.read_bytes() == before


def test_a_sheet_that_inflates_past_64_mb_is_refused_before_it_is_parsed(exported):
    plan, book = exported
    before = plan.read_bytes()
    bomb = book.with_name("bomb.xlsx")
    # 70 MB of spaces inside the sheet: compresses to about 70 kB
    rewrite_bom_sheet(book, bomb, lambda xml: xml.replace(b"</worksheet>", b" " * 70_000_000 + b"</worksheet>"))
    assert bomb.stat().st_size < 2_000_000
    assert_refused(import_prices(bomb, plan), plan, before, "bomb.xlsx", "uncompressed", "64 MB")


def test_a_bom_sheet_of_more_than_10000_rows_is_refused(exported, capsys):
    plan, book = exported
    before = plan.read_bytes()
    wb = openpyxl.load_workbook(book)
    ws = wb["BOM"]
    for r in range(ws.max_row + 1, 10_100):
        ws.cell(r, 2).value = f"hand-made row {r}"
    wb.save(book)
    assert main(["import-prices", str(book), "--into", str(plan)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "p.xlsx" in err and "10,000 rows" in err, err
    assert plan.read_bytes() == before


def test_a_dimension_claiming_a_million_rows_is_refused_without_building_them(exported):
    # A sheet may claim any size in its <dimension>: openpyxl would make 1,048,576 rows of
    # 16,384 empty cells each before reaching the end of this 8-row sheet.
    plan, book = exported
    before = plan.read_bytes()
    huge = book.with_name("huge.xlsx")
    rewrite_bom_sheet(book, huge, lambda xml: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"',
                                                     xml))
    assert_refused(import_prices(huge, plan), plan, before, "huge.xlsx", "1,048,576 rows")


def test_a_fifo_is_not_waited_on(exported):
    plan, book = exported
    before = plan.read_bytes()
    os.mkfifo(book.with_name("pipe.xlsx"))
    assert_refused(import_prices(book.with_name("pipe.xlsx"), plan), plan, before, "pipe.xlsx", "not a regular file")
