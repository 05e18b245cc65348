"""Renting a plan's job means renting its own GPUs: the rental rates of the cost settings are
H100 rates, and a plan of other GPUs rents at them times its GPUs' price over an H100's, or
at the ratio the user sets. Figures by hand from the catalog's list prices: DGX H100
$270,000 for 8 GPUs (the lowest price per H100 SXM: $33,750), DGX B200 $500,000 for 8
($62,500): a B200 rents at 62,500 / 33,750 = 1.8519 x an H100."""

import pytest

from planner.design.build import design
from planner.design.intent import Intent
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.hardware.rent import gpu_price_usd, rent_factor_by_price
from planner.report.evaluate import evaluate
from tests.planner.xlsx_helpers import error_cells, find_soffice, named, recalc

B200 = 62_500 / 33_750


def _plan(system: str, gpus: int = 64, **costs):
    plan = design(Intent(system=system, gpus=gpus)).plan
    if costs:
        plan.settings.costs = plan.settings.costs.model_copy(update=costs)
    return plan


def test_an_h100_plan_rents_at_the_h100_rates():
    plan = _plan("dgx-h100")
    cost = evaluate(plan, default_catalog()).sections["cost"].to_json()
    s = plan.settings.costs
    assert cost["rent_gpu_factor"] == 1.0
    assert cost["cost_per_gpu_hour"]["reserved_1yr"] == pytest.approx(3.15 * 1.15, abs=1e-4)
    assert s.rent_reserved_1yr_usd_per_gpu_h == 3.15 and s.rent_uplift == 0.15


def test_a_b200_plan_rents_at_the_h100_rates_times_its_price_over_an_h100s():
    catalog = default_catalog()
    assert gpu_price_usd(catalog, "H100 SXM 80GB") == 33_750  # DGX H100, below HGX H100's $39,375
    assert rent_factor_by_price(catalog, {"dgx-b200": 8}) == pytest.approx(B200)
    plan = _plan("dgx-b200")
    cost = evaluate(plan, catalog).sections["cost"].to_json()
    assert cost["rent_gpu_factor"] == pytest.approx(B200, abs=1e-6)
    gpus = cost["rented_gpus"]
    # the job's GPUs x 730 h x $3.15 x 1.8519 x 1.15 a month at the reserved 1-yr rate
    assert cost["rent_usd_per_month"]["reserved_1yr"] == pytest.approx(gpus * 730 * 3.15 * B200 * 1.15, abs=0.01)
    assert cost["cost_per_gpu_hour"]["on_demand"] == pytest.approx(3.50 * B200 * 1.15, abs=1e-4)


def test_a_ratio_the_user_sets_replaces_the_one_by_price():
    plan = _plan("dgx-b200", rent_gpu_factor=1.7)
    cost = evaluate(plan, default_catalog()).sections["cost"].to_json()
    assert cost["rent_gpu_factor"] == 1.7
    assert cost["cost_per_gpu_hour"]["spot"] == pytest.approx(2.10 * 1.7 * 1.15, abs=1e-4)


def test_a_plan_of_two_gpu_systems_weighs_each_by_its_gpus():
    # 8 H100 at 1.0 and 8 B200 at 1.8519: 1.4259
    assert rent_factor_by_price(default_catalog(), {"dgx-h100": 1, "dgx-b200": 1}) == pytest.approx((1 + B200) / 2)


def test_the_training_run_and_the_serving_cost_rent_the_plans_gpus_too():
    plan = _plan("dgx-b200")
    report = evaluate(plan, default_catalog())
    work = report.sections["workload"].to_json()
    h100 = evaluate(_plan("dgx-b200", rent_gpu_factor=1.0), default_catalog()).sections["workload"].to_json()
    for key, value in work["run_cost_usd"].items():
        if key.startswith("rent_"):
            assert value == pytest.approx(h100["run_cost_usd"][key] * B200, rel=1e-6), key


def test_the_workbook_reads_the_ratio_and_recalculates_to_the_report(tmp_path):
    soffice = find_soffice()
    plan = _plan("dgx-b200")
    catalog = default_catalog()
    report = evaluate(plan, catalog)
    cost = report.sections["cost"].to_json()
    path = tmp_path / "b200.xlsx"
    write_workbook(plan, catalog, path, report)
    wb = recalc(soffice, path, tmp_path)
    assert error_cells(wb) == []
    assert named(wb, "rent_gpu_factor") == pytest.approx(B200, abs=1e-6)
    for option, rent in cost["rent_usd_per_month"].items():
        assert named(wb, f"rent_month_{option}") == pytest.approx(rent, abs=0.005), option
