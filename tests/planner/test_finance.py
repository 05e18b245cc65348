"""Finance figures: NPV and IRR of building instead of renting, project costs on top of the
hardware, support and software in opex, depreciation, cost per million tokens, currency;
in the core model and as live formulas in the workbook."""

import json

import openpyxl
import pytest

from planner.cli import main
from planner.costs.returns import irr_build_vs_rent, npv_build_vs_rent
from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan
from planner.report.evaluate import evaluate
from tests.planner.xlsx_helpers import cell_of, find_soffice, named, recalc

MONTHLY_1PCT = 1.01 ** 12 - 1  # an annual rate whose monthly equivalent is exactly 1%


def test_npv_and_irr_by_hand():
    # -1,000 now, +1,100 at the end of month 1: at 1% a month NPV = -1,000 + 1,100 / 1.01 = 89.108911;
    # the IRR is 10% a month, 1.1^12 - 1 = 213.8428% a year.
    assert npv_build_vs_rent(1000, 1100, 1, MONTHLY_1PCT) == pytest.approx(89.108911, abs=1e-6)
    assert irr_build_vs_rent(1000, 1100, 1) == pytest.approx(1.1 ** 12 - 1, rel=1e-9)
    # -1,000 now, +600 at months 1 and 2: 600x^2 + 600x - 1000 = 0 with x = 1 / (1 + r)
    # -> x = (-600 + sqrt(600^2 + 4 x 600 x 1000)) / 1200 = 0.88443731, r = 13.0662% a month.
    x = (-600 + (600 ** 2 + 4 * 600 * 1000) ** 0.5) / 1200
    assert irr_build_vs_rent(1000, 600, 2) == pytest.approx((1 / x) ** 12 - 1, rel=1e-9)
    # at 1% a month: -1,000 + 600 / 1.01 + 600 / 1.01^2 = 182.1390
    assert npv_build_vs_rent(1000, 600, 2, MONTHLY_1PCT) == pytest.approx(-1000 + 600 / 1.01 + 600 / 1.0201, abs=1e-9)
    assert npv_build_vs_rent(1000, 600, 2, 0.0) == 200  # undiscounted
    assert irr_build_vs_rent(1000, 0, 36) is None  # renting costs no more than running: no rate
    assert irr_build_vs_rent(1000, 10, 12) < 0  # the savings never pay back the capex: a negative return


def test_workbook_npv_and_irr_recalculated_equal_the_report(tmp_path):
    soffice = find_soffice()
    catalog = default_catalog()
    plan = build_template("medium")
    report = evaluate(plan, catalog)
    path = tmp_path / "m.xlsx"
    write_workbook(plan, catalog, path, report)
    wb = recalc(soffice, path, tmp_path)
    cost = report.cost
    for option in cost.npv_usd:
        assert named(wb, f"npv_{option}") == pytest.approx(cost.npv_usd[option], abs=0.01), option
        assert named(wb, f"irr_{option}") == pytest.approx(cost.irr[option], abs=1e-6), option


# Settings of the new cost lines, and what each adds, worked out by hand below.
LINES = {"spares_pct": 0.03, "installation_pct": 0.02, "shipping_pct": 0.01, "tax_pct": 0.05,
         "contingency_pct": 0.10, "support_pct_per_year": 0.05, "software_usd_per_gpu_year": 1000.0}


def test_new_cost_lines_move_tco_by_their_amounts_after_recalculation(tmp_path, capsys):
    soffice = find_soffice()
    catalog = default_catalog()
    plan = build_template("medium")  # 128 GPUs, bill of materials $7,728,545.16 (test_check_text), 36 months
    path = tmp_path / "m.xlsx"
    write_workbook(plan, catalog, path)
    base = recalc(soffice, path, tmp_path)
    hardware = 7_728_545.16
    assert named(base, "capex") == pytest.approx(hardware)
    wb = openpyxl.load_workbook(path)
    for name, value in LINES.items():
        cell_of(wb, name).value = value
    edited = tmp_path / "edited" / "m.xlsx"
    edited.parent.mkdir()
    wb.save(edited)
    after = recalc(soffice, edited, tmp_path / "edited")
    spares = 0.03 * hardware                      # 231,499.35
    installation = 0.02 * hardware                # 154,332.90
    shipping = 0.01 * hardware                    # 77,166.45
    tax = 0.05 * (hardware + spares)              # 397,407.23
    contingency = 0.10 * (hardware + spares + installation + shipping + tax)  # 857,705.11
    capex_added = spares + installation + shipping + tax + contingency        # 1,718,111.04
    opex_added = 0.05 * hardware / 12 + 1000 * 128 / 12                       # 32,152.69 + 10,666.67 a month
    assert named(after, "capex") - named(base, "capex") == pytest.approx(capex_added, abs=0.01)
    assert named(after, "opex_month") - named(base, "opex_month") == pytest.approx(opex_added, abs=0.01)
    tco_added = capex_added + 36 * opex_added                                  # 3,259,607.82
    assert named(after, "tco_usd") - named(base, "tco_usd") == pytest.approx(tco_added, abs=0.01)
    assert named(after, "capex_contingency") == pytest.approx(contingency, abs=0.01)
    # the CLI with the same settings in the plan gives the same TCO
    plan.settings.costs = plan.settings.costs.model_copy(update=LINES)
    plan_path = tmp_path / "p.json"
    save_plan(plan, plan_path)
    capsys.readouterr()
    main(["check", "--json", str(plan_path)])
    cost = json.loads(capsys.readouterr().out)["cost"]
    assert cost["tco_usd"] == pytest.approx(named(after, "tco_usd"), abs=0.01)
    assert cost["project_costs_usd"]["contingency"] == pytest.approx(contingency, abs=0.01)


def test_depreciation_cost_per_million_tokens_and_currency():
    catalog = default_catalog()
    plan = build_template("medium")
    plan.settings.costs = plan.settings.costs.model_copy(update={"currency": "EUR", "usd_exchange_rate": 0.9,
                                                                 "depreciation_years": 4})
    cost = evaluate(plan, catalog).cost
    assert cost.depreciation_usd_per_year == pytest.approx(7_728_545.16 / 4)
    assert cost.currency == "EUR"
    assert cost.tco_in_currency == pytest.approx(cost.tco_usd * 0.9, abs=0.01)
    # TCO / tokens over the horizon: tokens/s x 3,600 s x 730 h x 36 months (utilisation 1)
    tokens_per_s = evaluate(plan, catalog).network.tokens_per_s
    tokens = tokens_per_s * 3600 * 730 * 36
    assert cost.cost_per_million_tokens_usd == pytest.approx(cost.tco_usd / tokens * 1e6, rel=1e-4)


def test_a_currency_left_at_the_dollar_rate_is_warned():
    # EUR at the default rate of 1 would show every euro figure equal to its dollar figure
    plan = build_template("medium")
    codes = lambda: {f.code for f in evaluate(plan, default_catalog()).findings}  # noqa: E731
    assert "cost.currency.rate" not in codes()  # US dollars: the rate of 1 is right
    plan.settings.costs = plan.settings.costs.model_copy(update={"currency": "EUR"})
    warning = next(f for f in evaluate(plan, default_catalog()).findings if f.code == "cost.currency.rate")
    assert warning.severity == "warning" and "reported in EUR at 1.00 EUR per US dollar" in warning.message
    plan.settings.costs = plan.settings.costs.model_copy(update={"usd_exchange_rate": 0.92})
    assert "cost.currency.rate" not in codes()


def test_irr_is_the_rate_where_the_discounted_savings_repay_the_capex():
    # an independent root: the NPV as the sum of each month's discounted saving, halved 200 times
    import random

    def reference(capex, saving, months):
        def npv(r):
            return -capex + sum(saving / (1 + r) ** k for k in range(1, months + 1))

        lo, hi = -0.99, 10.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if npv(mid) > 0 else (lo, mid)
        return (1 + lo) ** 12 - 1

    rng = random.Random(7)
    cases = [(1000, 1100, 1), (1000, 600, 2), (1e9, 3.1e7, 36), (7.7e6, 1.5e5, 60), (5e8, 1e7, 36), (1000, 10, 12),
             (1000, 1000 / 36, 36), (2.9e9, 2.2e7, 48)]  # the last-but-one: a rate of exactly 0
    cases += [(rng.uniform(1e5, 1e10), 0, rng.randint(1, 120)) for _ in range(200)]
    cases = [(c, s if s else c * rng.uniform(0.002, 0.5), h) for c, s, h in cases]
    for capex, saving, months in cases:
        got, want = irr_build_vs_rent(capex, saving, months), reference(capex, saving, months)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-9), (capex, saving, months)


def test_a_rate_near_zero_gives_every_option_its_irr():
    # a 600-node plan after an edit: its 3-year reservation repays the capex at 0.02 % a year,
    # where Newton's steps on the annuity never settle below numpy-financial's tolerance; the
    # four options are solved together, and each must come out as the independent root (the
    # sum of each month's discounted saving, halved 200 times), cold or from kept rates
    from planner.costs.returns import irr_each

    def reference(capex, saving, months):
        lo, hi = -0.99, 10.0
        for _ in range(200):
            mid = (lo + hi) / 2
            npv = -capex + sum(saving / (1 + mid) ** k for k in range(1, months + 1))
            lo, hi = (mid, hi) if npv > 0 else (lo, mid)
        return (1 + lo) ** 12 - 1

    capex = 295_293_484.14
    savings = {"spot": 6_593_574.892448, "reserved_1yr": 10_824_654.892448, "reserved_3yr": 8_205_414.892448,
               "on_demand": 9_212_814.892448}
    start: dict[str, float] = {}
    for got in (irr_each(capex, savings, 36), irr_each(capex, savings, 36, start),
                irr_each(capex, savings, 36, start)):
        for name, saving in savings.items():
            assert got[name] == pytest.approx(reference(capex, saving, 36), rel=1e-9, abs=1e-9), name
    assert round(got["reserved_3yr"], 4) == 0.0002 and round(got["spot"], 3) == -0.128
    # and a sweep of savings just above the zero rate (capex / 36 months), a few of which
    # Newton's steps do not settle on
    for k in range(1, 60):
        saving = capex / 36 * (1 + k * 1e-5)
        got = irr_each(capex, {"x": saving}, 36)["x"]
        assert got == pytest.approx(reference(capex, saving, 36), rel=1e-7, abs=1e-9), k


def test_the_fallback_root_holds_for_a_horizon_of_a_month_or_two():
    # where numpy-financial gives up, the bisection must still find a rate below -99 % a month:
    # one month, saving 5 on 1,000: 1,000 = 5 / (1 + r), r = -0.995; two months, saving 50:
    # 1,000 = 50 x + 50 x^2 for x = 1 / (1 + r): x^2 + x - 20 = 0, x = 4, r = -0.75
    from planner.costs.returns import _bisected_rate

    assert _bisected_rate(1000.0, 5.0, 1) == pytest.approx(-0.995, rel=1e-12)
    assert _bisected_rate(1000.0, 50.0, 2) == pytest.approx(-0.75, rel=1e-12)


def test_a_repricing_starts_from_the_kept_rate_and_lands_on_the_same_irr():
    # the cost section keeps each option's monthly rate and starts the next repricing there
    # (a fabric switch moved: capex a few cables apart): the same IRR as a cold start, to the
    # report's six decimals and to 1e-12, whether the rate is positive or negative
    from planner.costs.returns import irr_each

    savings = {"spot": 2.1e7, "on_demand": 3.9e7, "loss": 4.0e6}
    start: dict[str, float] = {}
    first = irr_each(2.2e9, savings, 60, start)
    assert set(start) == set(savings) and start["loss"] < 0 < start["on_demand"]
    for capex in (2.2e9 + 1234.5, 2.2e9 - 8e5, 2.5e9):
        warm, cold = irr_each(capex, savings, 60, start), irr_each(capex, savings, 60)
        for name in savings:
            assert warm[name] == pytest.approx(cold[name], rel=1e-12, abs=1e-12)
            assert round(warm[name], 6) == round(cold[name], 6)
    assert first == irr_each(2.2e9, savings, 60)  # a cold start is the rate as before


def test_a_kept_rate_far_from_the_root_still_gives_the_root():
    # an edit that moves a saving a lot (a rack cap cut from 30 to 5 kW: its committed kW billed
    # less) leaves a kept monthly rate of -11.4 %; Newton's steps from there shrank below their
    # tolerance where the annuity is steep and answered a 76 % yearly loss for a 7 % one
    from planner.costs.returns import irr_each

    capex, months = 160_912.0, 36
    saving = capex / 39.9  # repays the capex at a small loss over 36 months
    cold = irr_each(capex, {"x": saving}, months)["x"]
    warm = irr_each(capex, {"x": saving}, months, {"x": -0.114})["x"]
    assert -0.1 < cold < 0 and warm == pytest.approx(cold, abs=1e-9)
    # the root: -capex + saving x (1 - (1 + r)^-36) / r = 0 at the monthly r of that yearly rate
    r = (1 + cold) ** (1 / 12) - 1
    assert -capex + saving * (1 - (1 + r) ** -months) / r == pytest.approx(0.0, abs=1e-4)
