"""The exported workbook recalculated by LibreOffice agrees with the report.

Runs ``soffice --headless --convert-to xlsx`` with recalculation on load forced (the file
carries cached values LibreOffice would otherwise keep) and reads the results with
``data_only=True``. Skips only where LibreOffice is missing and CI is not set; in CI a
missing soffice fails.
"""

import openpyxl
import pytest

from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.export.xlsx import write_workbook
from planner.plan.model import Plan
from planner.design.templates import build_template
from tests.planner.cost_helpers import guide_server_plan
from tests.planner.xlsx_helpers import error_cells, find_soffice, monthly_rows, named, recalc


@pytest.fixture
def soffice():
    return find_soffice()


@pytest.mark.parametrize("template", ["medium", "massive", "empty"])
def test_recalculated_workbook_equals_the_report(soffice, tmp_path, template):
    catalog = default_catalog()
    plan = Plan(name="Empty") if template == "empty" else build_template(template)
    report = evaluate(plan, catalog)
    cost = report.sections["cost"].to_json()
    path = tmp_path / f"{template}.xlsx"
    write_workbook(plan, catalog, path, report)
    wb = recalc(soffice, path, tmp_path)
    assert error_cells(wb) == []
    assert cached_differences(openpyxl.load_workbook(path, data_only=True), wb) == []
    bom_total = sum(line["total_usd"] for line in cost["bom"])
    assert named(wb, "BOM_Total") == pytest.approx(bom_total, abs=0.005)
    assert named(wb, "capex") == pytest.approx(cost["capex_usd"], abs=0.005)
    assert named(wb, "opex_month") == pytest.approx(cost["opex_usd_per_month"], abs=0.005)
    assert named(wb, "tco_usd") == pytest.approx(cost["tco_usd"], abs=0.005)
    for option, month in cost["break_even_months"].items():
        got = named(wb, f"break_even_{option}")
        words = cost["break_even_text"][option]
        assert got == (words if month is None else pytest.approx(month, abs=0.05)), option
        assert named(wb, f"break_even_text_{option}") == words
        assert named(wb, f"rent_month_{option}") == pytest.approx(cost["rent_usd_per_month"][option], abs=0.005)
    # the month-by-month table: build at the horizon = TCO
    costs = wb["Costs"]
    months = [r[0] for r in monthly_rows(costs)]
    assert months == list(range(cost["horizon_months"] + 1))
    last_build = monthly_rows(costs)[-1][1]
    assert last_build == pytest.approx(cost["tco_usd"], abs=0.005)


def test_changing_electricity_price_in_the_workbook_changes_opex_by_hand(soffice, tmp_path):
    # single-node: one 4 x H100 server drawing 3.6 kW (typical) at PUE 1.56.
    # $0.12 -> $0.20 per kWh: 3.6 kW x 1.56 x 730 h x $0.08 = $327.9744 more a month.
    catalog = default_catalog()
    plan = build_template("single-node")
    path = tmp_path / "single.xlsx"
    write_workbook(plan, catalog, path)
    before = named(recalc(soffice, path, tmp_path), "opex_month")
    wb = openpyxl.load_workbook(path)
    ((sheet, coord),) = list(wb.defined_names["electricity_usd_per_kwh"].destinations)
    assert wb[sheet][coord.replace("$", "")].value == 0.12
    wb[sheet][coord.replace("$", "")].value = 0.20
    edited = tmp_path / "edited" / "single.xlsx"
    edited.parent.mkdir()
    wb.save(edited)
    after = named(recalc(soffice, edited, tmp_path / "edited"), "opex_month")
    assert after - before == pytest.approx(327.9744, abs=1e-6)


def test_guide_break_even_in_the_workbook_and_utilisation_edit(soffice, tmp_path):
    # $315,000 / (8 x 730 x $3.15) = 17.1 months; at 80% utilisation 21.4 (the guide)
    plan, catalog = guide_server_plan()
    path = tmp_path / "guide.xlsx"
    write_workbook(plan, catalog, path)
    assert named(recalc(soffice, path, tmp_path), "break_even_reserved_1yr") == pytest.approx(17.1)
    wb = openpyxl.load_workbook(path)
    ((sheet, coord),) = list(wb.defined_names["utilisation"].destinations)
    wb[sheet][coord.replace("$", "")].value = 0.8
    edited = tmp_path / "edited" / "guide.xlsx"
    edited.parent.mkdir()
    wb.save(edited)
    assert named(recalc(soffice, edited, tmp_path / "edited"), "break_even_reserved_1yr") == pytest.approx(21.4)


def test_formula_injection_stays_text_after_recalculation(soffice, tmp_path):
    catalog = default_catalog()
    plan = build_template("single-node")
    plan.name = '=HYPERLINK("http://x","y")'
    plan.racks[0].name = "=1+1"
    path = tmp_path / "inj.xlsx"
    write_workbook(plan, catalog, path)
    wb = recalc(soffice, path, tmp_path)
    assert wb["Summary"]["B3"].value == '=HYPERLINK("http://x","y")'
    assert wb["Racks"]["A3"].value == "=1+1"  # the rack table's name cell, not 2


def test_a_break_even_just_past_the_horizon_is_not_within_it_in_the_workbook(soffice, tmp_path):
    # The guide's server at 95% utilisation: 17.1233 / 0.95 = 18.02 months, which rounds to
    # 18.0 but comes after an 18-month horizon: "not within 18 months", as the check says
    from planner.costs.model import break_even_text

    plan, catalog = guide_server_plan()
    path = tmp_path / "guide.xlsx"
    write_workbook(plan, catalog, path)
    wb = openpyxl.load_workbook(path)
    for name, value in (("utilisation", 0.95), ("horizon_months", 18)):
        ((sheet, coord),) = list(wb.defined_names[name].destinations)
        wb[sheet][coord.replace("$", "")].value = value
    edited = tmp_path / "edited" / "guide.xlsx"
    edited.parent.mkdir()
    wb.save(edited)
    assert named(recalc(soffice, edited, tmp_path / "edited"), "break_even_reserved_1yr") == "not within 18 months"
    assert break_even_text(315_000, 0, 8 * 730 * 3.15 * 0.95, 18) == "not within 18 months"


def cached_differences(cached, recalculated) -> list[tuple]:
    """Cells whose value as exported (what a reader that does not recalculate shows) differs
    from LibreOffice's recalculation: text at all, a number by more than the last digit a
    figure's format shows (0.2 % of it, or a hundredth where it is about zero: the report
    rounds the figures it caches)."""
    out = []
    for ws in cached.worksheets:
        again = recalculated[ws.title]
        for row in ws.iter_rows():
            for cell in row:
                a, b = cell.value, again[cell.coordinate].value
                if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                    if abs(a - b) <= max(0.002 * max(abs(a), abs(b)), 0.01):
                        continue
                elif a == b:
                    continue
                out.append((ws.title, cell.coordinate, a, b))
    return out
