"""The Excel workbook as openpyxl reads it back: sheets, table, formulas, names, safety."""

import os
import shutil
import stat

import openpyxl
import pytest

from planner.hardware.catalog import default_catalog
from planner.cli import main
from planner.errors import PlannerError
from planner.export.xlsx import write_workbook
from planner.plan.fileio import save_plan
from planner.plan.model import Rack
from planner.design.templates import build_template
from tests.planner.cost_helpers import plan_with
from tests.unprivileged import as_unprivileged, shared_folder

INJECTION = '=HYPERLINK("http://x","y")'


def export(plan, tmp_path, name="plan.xlsx"):
    out = tmp_path / name
    write_workbook(plan, default_catalog(), out)
    return openpyxl.load_workbook(out)


def test_sheets_bom_table_and_live_formulas(tmp_path):
    wb = export(build_template("medium"), tmp_path)
    assert wb.sheetnames == ["Summary", "BOM", "Costs", "Racks", "Network", "Workload", "Cables", "Checks", "Goodput",
                             "Power dynamics", "Schedule", "Assumptions"]
    bom = wb["BOM"]
    assert bom.freeze_panes == "A2"
    (table,) = bom.tables.values()
    assert table.ref.startswith("A1:I")  # ... price source, counted as, catalog id
    assert bom["F2"].value == "=D2*E2"
    assert bom["E2"].number_format == '"$"#,##0.00'
    formulas = [c.value for row in bom.iter_rows() for c in row if isinstance(c.value, str)]
    assert any(f.startswith("=SUMIF(") for f in formulas)
    assert any(f.startswith("=SUM($F$2:") for f in formulas)
    # the power distribution line's price is the per-kW assumption times the IT kW, so
    # editing either reprices the BOM
    assert "=facility_power_usd_per_kw*plan_it_kw" in formulas
    costs = wb["Costs"]
    assert costs["B4"].value == "=BOM_Total"
    energy = next(r for r in costs.iter_rows(min_row=4) if r[0].value == "Energy per month")
    assert "electricity_usd_per_kwh" in energy[1].value
    assert len(costs._charts) == 1
    names = set(wb.defined_names.keys())
    assert {"electricity_usd_per_kwh", "plan_pue", "utilisation", "rent_uplift", "rent_spot_usd_per_gpu_h",
            "BOM_Total", "capex", "opex_month", "break_even_reserved_1yr"} <= names


def test_assumptions_list_every_input_with_unit_and_source(tmp_path):
    from planner.settings import CostSettings, field_meta

    ws = export(build_template("medium"), tmp_path)["Assumptions"]
    rows = {r[4]: r for r in ws.iter_rows(min_row=4, values_only=True) if r[4]}
    for name in CostSettings.model_fields:
        assert name in rows, name
        assert rows[name][3] == field_meta(CostSettings, name)["source"]
    assert rows["electricity_usd_per_kwh"][1] == 0.12 and rows["electricity_usd_per_kwh"][2] == "$/kWh"


def test_user_text_is_written_as_text_never_as_a_formula(tmp_path):
    rack = Rack(id="R1", name=INJECTION[:100])
    plan = plan_with([(rack, [("hgx-h100-8", 1)])])
    plan.name = INJECTION
    plan.placements[0].label = INJECTION
    wb = export(plan, tmp_path)
    found = [(ws.title, c.coordinate) for ws in wb for row in ws.iter_rows() for c in row
             if isinstance(c.value, str) and "HYPERLINK" in c.value]
    assert {t for t, _ in found} >= {"Summary", "Racks"}
    for title, coord in found:
        cell = wb[title][coord]
        assert cell.data_type == "s", (title, coord)
        assert cell.value.startswith(INJECTION) or INJECTION in cell.value


def test_unwritable_folder_gives_a_clear_error_and_no_file():
    folder = shared_folder("locked", 0o755)  # root's folder: the unprivileged child may not write in it
    try:
        outcome = as_unprivileged(write_workbook, build_template("medium"), default_catalog(), folder / "out.xlsx")
        assert outcome.startswith("SaveError: cannot save out.xlsx: no permission to write in"), outcome
        assert list(folder.iterdir()) == []
    finally:
        shutil.rmtree(folder)


def test_failed_replace_leaves_no_partial_file(tmp_path, monkeypatch):
    """The target cannot be replaced (here: os.replace fails): the temporary file goes too."""
    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PlannerError, match="cannot save out.xlsx: no permission to write in"):
        write_workbook(build_template("medium"), default_catalog(), tmp_path / "out.xlsx")
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_file_as_folder_and_folder_as_target(tmp_path):
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("x")
    with pytest.raises(PlannerError, match="cannot save out.xlsx: "):
        write_workbook(build_template("medium"), default_catalog(), not_a_folder / "out.xlsx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    with pytest.raises(PlannerError, match="the folder .*nope does not exist"):
        write_workbook(build_template("medium"), default_catalog(), tmp_path / "nope" / "out.xlsx")
    with pytest.raises(PlannerError, match="is a folder"):
        write_workbook(build_template("medium"), default_catalog(), tmp_path)


def test_export_command_dispatches_on_the_extension(tmp_path, capsys):
    plan = tmp_path / "p.json"
    save_plan(build_template("single-node"), plan)
    assert main(["export", str(plan), "-o", str(tmp_path / "p.xlsx")]) == 0
    assert openpyxl.load_workbook(tmp_path / "p.xlsx")["Summary"]["B3"].value == build_template("single-node").name
    assert main(["export", str(plan), "-o", str(tmp_path / "p.docx")]) == 2
    assert "use .pdf, .svg, .png or .xlsx" in capsys.readouterr().err


def test_drawing_formats_need_the_programs_entry_point(tmp_path, capsys):
    """The core's command line draws nothing itself: without the entry point's drawing export
    (``python -m planner``, a build without the app) a drawing is refused in one line, no file."""
    plan = tmp_path / "p.json"
    save_plan(build_template("single-node"), plan)
    assert main(["export", str(plan), "-o", str(tmp_path / "p.pdf")]) == 2
    assert "p.pdf: drawings are exported by 'cluster-planner'" in capsys.readouterr().err
    assert not (tmp_path / "p.pdf").exists()
    assert main(["export", str(plan), "-o", str(tmp_path / "p.xlsx")]) == 0  # the workbook needs no Qt


def test_racks_sheet_power_against_cap_and_coloured_elevations(tmp_path):
    from planner.export.xlsx_cells import CATEGORY_FILLS

    plan = plan_with([(Rack(id="R1", name="GPU rack", cooling="liquid", power_cap_kw=30),
                       [("hgx-h100-8", 1), ("hgx-h100-8", 9), ("cdu-inrack-250", 17)])])
    ws = export(plan, tmp_path)["Racks"]
    row = [c.value for c in ws[3]][:10]
    # two nodes at 7 kW + a CDU at 1.5 kW = 15.5 kW of a 30 kW cap; one CDU; 2 PDUs (A+B)
    assert row[0] == "GPU rack" and row[2] == pytest.approx(15.5) and row[3] == 30
    assert row[4] == "=IF(D3>0,C3/D3,0)" and row[8] == 1 and row[9] == 2
    cells = {c.value: c for r in ws.iter_rows() for c in r if isinstance(c.value, str)}
    node = next(c for v, c in cells.items() if v.startswith("hgx-h100-8-0:"))
    cdu = next(c for v, c in cells.items() if v.startswith("cdu-inrack-250-2:"))
    assert node.fill.fgColor.rgb.endswith(CATEGORY_FILLS["gpu_server"].fgColor.rgb[-6:])
    assert cdu.fill.fgColor.rgb.endswith(CATEGORY_FILLS["cdu"].fgColor.rgb[-6:])
    # the node's label sits in its top U (a 4U direct-liquid-cooled node at U1: U4)
    u_col = ws.cell(row=node.row, column=node.column - 1).value
    assert u_col == 4


def test_a_plan_of_many_racks_draws_one_elevation_per_rack_type_and_lists_every_rack(tmp_path):
    # 62 liquid racks of two nodes (G-01 ... G-62, G-31 with a CDU as well) and 2 empty racks
    # at the end: 64 racks, more than the 60 drawn one by one. Three types: A (61 racks, in two
    # runs around G-31), B (G-31) and C (the empty racks).
    racks = []
    for i in range(1, 63):
        devices = [("hgx-h100-8", 1), ("hgx-h100-8", 9)] + ([("cdu-inrack-250", 17)] if i == 31 else [])
        racks.append((Rack(id=f"G{i}", name=f"G-{i:02d}", cooling="liquid", power_cap_kw=30), devices))
    racks += [(Rack(id=f"E{i}", name=f"E-{i}", cooling="liquid", power_cap_kw=30), []) for i in (1, 2)]
    ws = export(plan_with(racks), tmp_path)["Racks"]
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    # the power table still has one row per rack
    table = [r for r in rows if isinstance(r[0], str) and r[0][:2] in ("G-", "E-") and r[2] is not None]
    assert len(table) == 64
    index = [r[:3] for r in rows if isinstance(r[0], str) and r[0].startswith("Type ") and r[2] is not None]
    assert index == [["Type A", "G-01 … G-30", 30], ["Type A", "G-32 … G-62", 31], ["Type B", "G-31", 1],
                     ["Type C", "E-1 … E-2", 2]]
    titles = [v for r in rows for v in r if isinstance(v, str) and " × " in v]
    assert titles == ["Type A × 61", "Type B × 1", "Type C × 2"]
    # one elevation per type, not 64: type A's two nodes and type B's two nodes, named by model
    # (a type stands for racks whose devices have different labels)
    nodes = [v for r in rows for v in r if isinstance(v, str) and v.startswith("HGX H100 8-GPU node")]
    assert len(nodes) == 4
    assert not any(isinstance(v, str) and v.startswith("hgx-h100-8-") for r in rows for v in r)


def test_the_workload_sheet_gives_the_step_or_the_serving_figures_as_check_does(tmp_path):
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.report.evaluate import evaluate

    catalog = default_catalog()

    def rows(wb):  # label -> (value, unit)
        return {r[0]: r[1:3] for r in wb["Workload"].iter_rows(min_row=4, values_only=True) if r[0]}

    # a training plan: MFU as a percentage of the same figure check gives, the run's cost by option
    plan = build_template("medium")
    work = evaluate(plan, catalog).workload
    got = rows(export(plan, tmp_path))
    assert got["Model FLOP utilisation, end to end"] == (work.mfu, None)
    assert export(plan, tmp_path, "b.xlsx")["Workload"]["B4"].value == "custom"  # the model, first
    assert got["Step time"] == (work.step_time_s, "s")
    assert got["Cost of the training run: build"][0] == pytest.approx(work.run_cost_usd["build"])
    assert "Inference weights per GPU" not in got  # a training plan has no serving figures
    # DeepSeek-V3 served on DGX H100 in FP8: 671 GB over a replica's 16 GPUs, and no training step
    served = design(Intent(system="dgx-h100", inference=True, requests_per_s=20, model="deepseek-v3"), catalog).plan
    got = rows(export(served, tmp_path, "s.xlsx"))
    assert got["Inference weights per GPU"] == (pytest.approx(671 / 16, abs=1e-3), "GB")
    assert "Step time" not in got and "Global batch" not in got
    cost = evaluate(served, catalog).workload.inference_usd_per_m_output_tokens["rent_reserved_1yr"]
    assert got["Cost per million output tokens: rent reserved 1yr"][0] == pytest.approx(cost)
