"""The per-rack tables are declared once (planner/export/table_columns.py, rack_columns.py):
each formula names the columns it reads, and the writers take the letters from the spec."""

from __future__ import annotations

from planner.export.rack_columns import NETBOX_RACKS, WORKBOOK_RACKS
from planner.export.table_columns import TableColumn, formula_at, headers, position, without


def test_the_racks_sheet_load_reads_power_and_cap_by_name():
    # Rack, Cooling, Power, Cap (kW), ...: power is column C and cap column D, so row 3's load
    # is C3 over D3, as the sheet has always computed it.
    load = next(c for c in WORKBOOK_RACKS if c.name == "load")
    assert formula_at(WORKBOOK_RACKS, load.formula, 3) == "=IF(D3>0,C3/D3,0)"
    # GPUs are the eighth column (H): the total of rows 3 to 7
    gpus = WORKBOOK_RACKS[position(WORKBOOK_RACKS, "gpus") - 1]
    assert formula_at(WORKBOOK_RACKS, gpus.total_formula, 8, 3, 7) == "=SUM(H3:H7)"


def test_a_formula_follows_its_columns_when_they_move():
    # Cap moved before power: cap is now C and power D; the same spec line gives the right letters.
    moved = [WORKBOOK_RACKS[0], WORKBOOK_RACKS[1], WORKBOOK_RACKS[3], WORKBOOK_RACKS[2], *WORKBOOK_RACKS[4:]]
    load = moved[4]
    assert formula_at(moved, load.formula, 12) == "=IF(C12>0,D12/C12,0)"
    # a table starting in sheet column B shifts every letter by one
    assert formula_at(WORKBOOK_RACKS, load.formula, 3, first_col=2) == "=IF(E3>0,D3/E3,0)"


def test_a_table_leaves_a_column_out_by_name():
    spec = [TableColumn("a", "A", str), TableColumn("b", "B", str), TableColumn("c", "C", str)]
    assert headers(without(spec, "b")) == ["A", "C"]
    assert position(without(spec, "b"), "c") == 2


def test_netbox_racks_are_the_fields_of_its_rack_import_form():
    # netbox/dcim/forms/bulk_import.py RackImportForm: the fields the export fills, in its order
    assert headers(NETBOX_RACKS) == ["site", "location", "name", "status", "width", "u_height", "max_weight",
                                     "weight_unit", "description"]
