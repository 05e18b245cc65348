"""The workbook reads as a report for a vendor: human labels with units on the Network
sheet, the description never over other rows, print settings that fit a page's width."""

from __future__ import annotations

import openpyxl
import pytest

from planner.hardware.catalog import default_catalog
from planner.export.xlsx import write_workbook
from planner.design.templates import build_template


@pytest.fixture(scope="module")
def medium_wb(tmp_path_factory):
    out = tmp_path_factory.mktemp("xlsx") / "m.xlsx"
    write_workbook(build_template("medium"), default_catalog(), out)
    return openpyxl.load_workbook(out)


def rows(ws):
    return {r[0]: r[1:] for r in ws.iter_rows(values_only=True) if r and isinstance(r[0], str)}


def test_network_sheet_has_human_labels_units_and_names(medium_wb):
    ws = medium_wb["Network"]
    r = rows(ws)
    assert r["Compute fabric"][0] == "400G InfiniBand (NDR)"
    assert r["Topology"][0] == "rail-optimised fat tree"
    assert r["Fabric switch"][0] == default_catalog()["qm9700"].title
    assert r["SHARP in-network reduction"][0] == "on"
    # 16 nodes x 8 NICs on rail leaves of 64 ports: 128 leaf ports down, 128 up (non-blocking)
    assert r["Leaf ports down (to nodes)"][0] == 128 and r["Leaf ports up (to spines)"][0] == 128
    # all-reduce 4.375 GB / 47 GB/s (NDR at 94%) = 93.09 ms (+ 2 x 5 us), unit in its own column
    assert r["Gradient all-reduce per step"][0] == pytest.approx(4.375 / 47 * 1e3 + 0.01, abs=0.01)
    assert r["Gradient all-reduce per step"][1] == "ms"
    assert r["Gradient all-reduce, bytes sent / time, per GPU"][1] == "GB/s"
    every = " ".join(str(v) for row in ws.iter_rows(values_only=True) for v in row if v is not None)
    for raw in ("rail_optimized", "qm9700 ", "ib400", "Sharp True", "Gpu idle pct", "sizing.", "ports per tier",
                "plan False", "True", "False", "_gbs", "_ms"):
        assert raw not in every, raw


def test_summary_description_is_last_and_wrapped(medium_wb):
    ws = medium_wb["Summary"]
    last = max(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value is not None)
    assert ws.cell(last, 1).value == "Description"
    cell = ws.cell(last, 2)
    assert cell.value.startswith('Type 2 of N. Dixit, "The GPU Cluster That Actually Works') and cell.alignment.wrap_text
    # ~270 characters at ~70 per line: 4 lines of 15 points
    assert ws.row_dimensions[last].height >= 45


def test_every_sheet_prints_fit_to_width(medium_wb):
    for ws in medium_wb.worksheets:
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0, ws.title
    assert medium_wb["Network"].page_setup.orientation == "landscape"
    assert medium_wb["Racks"].page_setup.orientation == "landscape"
    assert medium_wb["Summary"].page_setup.orientation == "portrait"
