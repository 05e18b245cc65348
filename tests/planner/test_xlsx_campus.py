"""The workbook's Campus sheet: a row per data hall, building subtotals and the campus total
as live SUM formulas, recalculated by LibreOffice; no sheet for a plan of one hall.

The two-building sample (tests/data/plan_v7.json): GPU racks of 4 x HGX H100 (7.0 kW typical,
10.2 kW nameplate each: 28.0 / 40.8 kW a rack, 32.64 kW of it to liquid at 80% capture),
NET-01 (15.048 / 20.35 kW, air), STOR-01 (12.6 / 16.8 kW, air), CDU-01 (3.0 / 6.0 kW, air).
Hall A1: GPU-01, GPU-02, CDU-01; Hall A2: GPU-03, NET-01; Hall B1: GPU-04, STOR-01.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from planner.design.templates import build_template
from planner.export.xlsx import build_workbook, write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import load_plan
from tests.planner.xlsx_helpers import error_cells, find_soffice, recalc

CATALOG = default_catalog()
DATA = Path(__file__).resolve().parents[1] / "data"
COLUMNS = ("racks", "gpus", "typical", "nameplate", "liquid", "air", "water")


def _rows(ws) -> dict[tuple[str, str], dict]:
    """(column A, column B) -> the row's figures, for every row below the header."""
    out = {}
    for row in ws.iter_rows(min_row=4, values_only=True):
        if row[0] is not None:
            out[(row[0], row[1])] = dict(zip(COLUMNS, row[2:9]))
    return out


def test_a_row_per_hall_and_building_rows_that_sum_their_halls():
    wb = build_workbook(load_plan(DATA / "plan_v7.json"), CATALOG)
    assert wb.sheetnames.index("Campus") == wb.sheetnames.index("Racks") + 1
    ws = wb["Campus"]
    rows = _rows(ws)
    assert list(rows) == [("Building A", "Hall A1"), ("Building A", "Hall A2"), ("Building A", "Building total"),
                          ("Building B", "Hall B1"), ("Building B", "Building total"), ("Campus", "All buildings")]
    # Hall A1: 3 racks, 64 GPUs; 2 x 28.0 + 3.0 = 59.0 kW typical, 2 x 40.8 + 6.0 = 87.6 nameplate;
    # 2 x 32.64 = 65.28 kW to liquid, 87.6 - 65.28 = 22.32 to air; 65.28 / (4.18 x 0.995 x 10) x 60 l/min
    a1 = rows[("Building A", "Hall A1")]
    assert a1 == {"racks": 3, "gpus": 64, "typical": 59.0, "nameplate": 87.6, "liquid": 65.28, "air": 22.32,
                  "water": pytest.approx(65.28 / (4.18 * 0.995 * 10) * 60, abs=1e-3)}
    # the building's row is a formula over its two halls' rows (4 and 5), the campus's over the buildings'
    assert ws["C6"].value == "=SUM(C4:C5)" and ws["I6"].value == "=SUM(I4:I5)"
    assert ws["D8"].value == "=SUM(D7:D7)"
    assert ws["C10"].value == "=C6+C8"
    assert ws.page_setup.orientation == "landscape"


def test_a_plan_of_one_hall_has_no_campus_sheet():
    assert "Campus" not in build_workbook(build_template("medium"), CATALOG).sheetnames


@pytest.fixture
def soffice():
    return find_soffice()


def test_recalculated_subtotals_add_up_the_halls_and_follow_an_edit(soffice, tmp_path):
    path = tmp_path / "campus.xlsx"
    write_workbook(load_plan(DATA / "plan_v7.json"), CATALOG, path)
    wb = recalc(soffice, path, tmp_path)
    assert error_cells(wb) == []
    rows = _rows(wb["Campus"])
    # Building A = Hall A1 + Hall A2 (GPU-03 + NET-01: 28.0 + 15.048 = 43.048 kW typical,
    # 40.8 + 20.35 = 61.15 nameplate, 32.64 to liquid): 5 racks, 96 GPUs, 102.048 / 148.75 kW,
    # 97.92 kW to liquid, 50.83 to air
    a = rows[("Building A", "Building total")]
    assert (a["racks"], a["gpus"]) == (5, 96)
    assert (a["typical"], a["nameplate"], a["liquid"], a["air"]) == pytest.approx((102.048, 148.75, 97.92, 50.83))
    # the campus: 7 racks, 4 x 32 = 128 GPUs, 4 x 28.0 + 15.048 + 12.6 + 3.0 = 142.648 kW typical,
    # 4 x 40.8 + 20.35 + 16.8 + 6.0 = 206.35 kW nameplate, 4 x 32.64 = 130.56 kW to liquid
    c = rows[("Campus", "All buildings")]
    assert (c["racks"], c["gpus"]) == (7, 128)
    assert (c["typical"], c["nameplate"], c["liquid"]) == pytest.approx((142.648, 206.35, 130.56))
    # the values the file carries for its formulas (what a previewer shows) are the recalculated ones
    cached = _rows(openpyxl.load_workbook(path, data_only=True)["Campus"])
    assert cached.keys() == rows.keys()
    for key, figures in rows.items():
        assert cached[key] == {k: pytest.approx(v, abs=1e-9) for k, v in figures.items()}, key
    # live: 8 more GPUs typed into Hall A1 carry into Building A and the campus
    edited_wb = openpyxl.load_workbook(path)
    edited_wb["Campus"]["D4"].value = 72
    edited = tmp_path / "edited" / "campus.xlsx"
    edited.parent.mkdir()
    edited_wb.save(edited)
    again = _rows(recalc(soffice, edited, tmp_path / "edited")["Campus"])
    assert again[("Building A", "Building total")]["gpus"] == 104
    assert again[("Building B", "Building total")]["gpus"] == 32
    assert again[("Campus", "All buildings")]["gpus"] == 136
