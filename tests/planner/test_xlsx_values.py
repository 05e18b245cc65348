"""The workbook shows its figures before anything recalculates it, and its month-by-month
table follows the horizon set in the workbook."""

import json

import openpyxl
import pytest

from planner.cli import main
from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan
from tests.planner.xlsx_helpers import cell_of, find_soffice, monthly_rows, named, recalc
from tests.planner.template_cases import everyday_templates


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


_BOOKS: dict[str, tuple] = {}


@pytest.fixture
def template_book(tmp_path_factory):
    """Each template's plan and workbook, exported once for this module's tests."""
    def get(name):
        if name not in _BOOKS:
            _BOOKS[name] = export_template(name, tmp_path_factory.mktemp(name))
        return _BOOKS[name]
    return get


@pytest.mark.parametrize("template", everyday_templates())
def test_figures_are_visible_without_recalculation(template, template_book, capsys):
    plan_path, book = template_book(template)
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
    # 1,000,200 / 27,777.78 = 36.007 months: past a 36-month horizon, though it shows as 36.0
    assert break_even_text(1_000_200, 10_000, 37_777.78, 36) == "not within 36 months"
    assert break_even_text(1_000_200, 10_000, 37_777.78, 37) == "month 36.0"


def test_horizon_48_in_the_workbook_gives_48_months_and_the_clis_break_even(tmp_path, capsys):
    soffice = find_soffice()
    plan_path, book = export_template("medium", tmp_path)
    wb = openpyxl.load_workbook(book)
    cell_of(wb, "horizon_months").value = 48
    edited = tmp_path / "edited" / "medium.xlsx"
    edited.parent.mkdir()
    wb.save(edited)
    out = recalc(soffice, edited, tmp_path / "edited")
    months = [r[0] for r in monthly_rows(out["Costs"])]
    assert months == list(range(49))  # month 0 (capex) and 48 monthly rows
    # the CLI on the same plan with a 48-month horizon
    plan48, _ = export_template("medium", tmp_path / "h48", horizon_months=48)
    cost = check_json(plan48, capsys)["cost"]
    assert cost["horizon_months"] == 48
    for option, words in cost["break_even_text"].items():
        assert named(out, f"break_even_text_{option}") == words, option
    # opex 65,743.71 a month (colocation billed on the racks' committed 200 kW: see test_check_text).
    # Reserved 3-yr breaks even in month 38.1: 7,728,545.16 (test_check_text) / (268,640 - 65,743.71),
    # beyond 36 months, within 48; spot needs 7,728,545.16 / (225,657.60 - 65,743.71) = 48.3 months,
    # beyond 48.
    assert cost["break_even_text"]["reserved_3yr"] == "month 38.1"
    assert cost["break_even_text"]["spot"] == "not within 48 months"
    assert named(out, "tco_usd") == pytest.approx(cost["tco_usd"], abs=0.005)


@pytest.mark.parametrize("template", everyday_templates())
def test_pdu_cable_transceiver_and_cdu_counts_are_the_boms_on_every_sheet(template, template_book, capsys):
    plan_path, book = template_book(template)
    bom = check_json(plan_path, capsys)["cost"]["bom"]
    wb = openpyxl.load_workbook(book, data_only=True)

    def bom_qty(pred):
        return sum(line["quantity"] for line in bom if pred(line))

    expected = {
        "PDUs": bom_qty(lambda x: x["category"] == "Power (PDU)"),
        "Fabric cables": bom_qty(lambda x: x["item"].startswith("Fabric cable")),
        "Transceivers": bom_qty(lambda x: x["item"].startswith("Transceiver")),
        "CDUs": bom_qty(lambda x: x["category"] == "Cooling (CDU)"),
    }
    # the BOM sheet's own lines, by the column that says what each counts as
    rows = list(wb["BOM"].iter_rows(min_row=2, values_only=True))
    for title, n in expected.items():
        assert sum(r[3] for r in rows if len(r) > 7 and r[7] == title and isinstance(r[3], int)) == n, title
    summary = {r[0]: r[1] for r in wb["Summary"].iter_rows(values_only=True) if r[0]}
    for title, n in expected.items():
        assert summary[title] == n, title
    racks = list(wb["Racks"].iter_rows(values_only=True))
    header = racks[1]
    total = next(r for r in racks if r[0] == "Total")
    in_bom = next(r for r in racks if r[0] == "In the bill of materials")
    pdu_col, cdu_col = header.index("PDUs (nameplate)"), header.index("CDUs placed")
    assert total[pdu_col] == in_bom[pdu_col] == expected["PDUs"]
    assert in_bom[cdu_col] == expected["CDUs"]
    # the racks' power and caps add up in the total row: the plan's IT power and committed caps
    power_col, cap_col = header.index("Power"), header.index("Cap (kW)")
    rows = racks[2:racks.index(total)]
    totals = check_json(plan_path, capsys)["totals"]
    assert total[power_col] == pytest.approx(sum(r[power_col] for r in rows), abs=1e-6)
    assert total[power_col] == pytest.approx(totals["it_power_kw"], abs=0.01)
    assert total[cap_col] == pytest.approx(sum(r[cap_col] for r in rows), abs=1e-6) and total[cap_col] > 0
    network = {r[0]: r[1] for r in wb["Network"].iter_rows(values_only=True) if isinstance(r[0], str)}
    cables = [v for k, v in network.items() if k.startswith("Fabric cables")]
    optics = [v for k, v in network.items() if k.startswith("Transceivers")]
    if expected["Fabric cables"]:
        assert cables == [expected["Fabric cables"]]
        assert optics == [expected["Transceivers"]]
