"""The workbook shows its figures before anything recalculates it, and its month-by-month
table follows the horizon set in the workbook."""

import json

import openpyxl
import pytest

from planner.cli import main
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan
from planner.plan.templates import build_template, template_names
from tests.planner.xlsx_helpers import cell_of, find_soffice, named, recalc


def check_json(plan_path, capsys):
    capsys.readouterr()
    main(["check", "--json", str(plan_path)])
    return json.loads(capsys.readouterr().out)


def export_template(name, tmp_path, **costs):
    plan = build_template(name)
    if costs:
        plan.settings.costs = plan.settings.costs.model_copy(update=costs)
    tmp_path.mkdir(parents=True, exist_ok=True)
    plan_path = tmp_path / f"{name}.json"
    save_plan(plan, plan_path)
    book = tmp_path / f"{name}.xlsx"
    assert main(["export", str(plan_path), "-o", str(book)]) == 0
    return plan_path, book


@pytest.mark.parametrize("template", template_names())
def test_figures_are_visible_without_recalculation(template, tmp_path, capsys):
    plan_path, book = export_template(template, tmp_path)
    cost = check_json(plan_path, capsys)["cost"]
    wb = openpyxl.load_workbook(book, data_only=True)  # cached values only: nothing recalculates
    assert named(wb, "capex") == pytest.approx(cost["capex_usd"], abs=0.005)
    assert named(wb, "opex_month") == pytest.approx(cost["opex_usd_per_month"], abs=0.005)
    assert named(wb, "tco_usd") == pytest.approx(cost["tco_usd"], abs=0.005)
    for option, month in cost["break_even_months"].items():
        words = cost["break_even_text"][option]
        assert named(wb, f"break_even_{option}") == (words if month is None else month), option
        assert named(wb, f"break_even_text_{option}") == words
    # the Summary's copies, and the BOM total, are there too
    summary = {r[0]: r[1] for r in wb["Summary"].iter_rows(values_only=True) if r[0]}
    assert summary["Capex"] == pytest.approx(cost["capex_usd"], abs=0.005)
    assert summary["Break-even vs Reserved 1-yr"] == cost["break_even_text"]["reserved_1yr"]
    assert named(wb, "BOM_Total") == pytest.approx(cost["capex_usd"], abs=0.005)
    # every formula cell of the file carries a value (none reads blank in a previewer)
    formulas = openpyxl.load_workbook(book)
    blank = [(ws.title, c.coordinate) for ws in formulas for row in ws.iter_rows() for c in row
             if c.data_type == "f" and wb[ws.title][c.coordinate].value is None
             and not ws.title == "Costs"]  # the month table's rows past the horizon are blank on purpose
    assert blank == []


def test_break_even_words_have_one_meaning_each():
    from planner.costs.model import break_even_text

    # capex $1,000,000; opex $10,000/month
    assert break_even_text(1_000_000, 10_000, 60_000, 36) == "month 20.0"          # 1e6 / 50,000
    assert break_even_text(1_000_000, 10_000, 30_000, 36) == "not within 36 months"  # month 50
    assert break_even_text(1_000_000, 10_000, 30_000, 60) == "month 50.0"
    assert break_even_text(1_000_000, 10_000, 10_000, 36) == "never"                # renting costs no more


def test_horizon_48_in_the_workbook_gives_48_months_and_the_clis_break_even(tmp_path, capsys):
    soffice = find_soffice()
    plan_path, book = export_template("medium", tmp_path)
    wb = openpyxl.load_workbook(book)
    cell_of(wb, "horizon_months").value = 48
    edited = tmp_path / "edited" / "medium.xlsx"
    edited.parent.mkdir()
    wb.save(edited)
    out = recalc(soffice, edited, tmp_path / "edited")
    months = [r[0] for r in out["Costs"].iter_rows(values_only=True) if isinstance(r[0], int)]
    assert months == list(range(49))  # month 0 (capex) and 48 monthly rows
    # the CLI on the same plan with a 48-month horizon
    plan48, _ = export_template("medium", tmp_path / "h48", horizon_months=48)
    cost = check_json(plan48, capsys)["cost"]
    assert cost["horizon_months"] == 48
    for option, words in cost["break_even_text"].items():
        assert named(out, f"break_even_text_{option}") == words, option
    # spot breaks even in month 46.2: capex / (spot rent - opex), beyond 36 months, within 48
    assert cost["break_even_text"]["spot"] == "month 46.2"
    assert named(out, "tco_usd") == pytest.approx(cost["tco_usd"], abs=0.005)
