"""The cost model against the planning guide's worked figures and hand arithmetic."""

import pytest

from planner.costs.model import break_even_month, energy_usd_per_month, evaluate_costs, opex_usd_per_month, \
    rent_usd_per_month, rental_cost_usd
from planner.report.evaluate import evaluate
from planner.settings import CostSettings
from tests.planner.cost_helpers import guide_server_plan


def test_guide_faq_rental_of_64_gpus_for_90_days():
    # 64 GPUs x (90 x 24 = 2,160 h) x $2.10 x 1.15 = $333,849.60 (the guide's FAQ, "$334,000")
    assert rental_cost_usd(64, 90 * 24, 2.10, 0.15) == pytest.approx(333_849.60, abs=0.005)


def test_guide_break_even_reserved_1yr():
    # $315,000 / (8 GPUs x 730 h x $3.15) = 315,000 / 18,396 = 17.12 -> 17.1 months
    rent = rent_usd_per_month(8, 3.15)
    assert rent == pytest.approx(18_396.0)
    assert break_even_month(315_000, 0, rent) == 17.1


def test_guide_break_even_at_80_percent_utilisation():
    # renting only the hours used: 8 x 730 x 0.8 x $3.15 = $14,716.80 a month;
    # 315,000 / 14,716.80 = 21.40 -> 21.4 months (the guide: "~22")
    rent = rent_usd_per_month(8, 3.15, utilisation=0.8)
    assert rent == pytest.approx(14_716.80)
    assert break_even_month(315_000, 0, rent) == 21.4


def test_break_even_none_beyond_horizon_or_when_rent_is_below_opex():
    assert break_even_month(315_000, 0, 18_396, horizon_months=12) is None  # 17.1 > 12
    assert break_even_month(315_000, 0, 18_396, horizon_months=18) == 17.1
    assert break_even_month(100_000, 5_000, 5_000) is None  # renting never costs more than running
    # opex eats into the saving: 100,000 / (15,000 - 5,000) = 10.0
    assert break_even_month(100_000, 5_000, 15_000) == 10.0
    # 1,000,200 / 27,777.78 = 36.007: past a 36-month horizon, not "36.0" within it
    assert break_even_month(1_000_200, 10_000, 37_777.78, horizon_months=36) is None
    assert break_even_month(1_000_200, 10_000, 37_777.78, horizon_months=37) == 36.0


def test_opex_hand_worked_colocation_and_owned():
    s = CostSettings(electricity_usd_per_kwh=0.10, colocation_usd_per_kw_month=200, staffing_usd_per_year=60_000)
    # energy: 100 kW x 1.5 x 730 h x $0.10 = $10,950; colocation 200 x 100 = $20,000; staffing 60,000/12 = $5,000
    assert energy_usd_per_month(100, 1.5, 0.10) == pytest.approx(10_950)
    assert opex_usd_per_month(s, it_kw=100, pue=1.5, nodes=12) == pytest.approx(35_950)
    owned = s.model_copy(update={"opex_mode": "owned", "owned_facility_usd_per_node_year": 24_000})
    # owned: 12 nodes x $24,000 / 12 = $24,000 a month instead of colocation
    assert opex_usd_per_month(owned, it_kw=100, pue=1.5, nodes=12) == pytest.approx(10_950 + 24_000 + 5_000)


def test_curves_tco_and_cost_per_delivered_gpu_hour():
    s = CostSettings(electricity_usd_per_kwh=0, colocation_usd_per_kw_month=0, staffing_usd_per_year=12_000,
                     rent_uplift=0, utilisation=0.5, horizon_months=10)
    r = evaluate_costs(s, capex_usd=100_000, gpus=8, nodes=1, it_kw=7, pue=1.0)
    assert r.opex_usd_per_month == pytest.approx(1_000)
    assert r.tco_usd == pytest.approx(110_000)  # 100,000 + 1,000 x 10
    assert r.curves["months"] == list(range(11))
    assert r.curves["build"][0] == 100_000 and r.curves["build"][10] == pytest.approx(110_000)
    # spot rent at 50%: 8 x 730 x 0.5 x 2.10 = 6,132 a month
    assert r.curves["spot"][3] == pytest.approx(3 * 6_132)
    # delivered: 8 GPUs x 730 h x 10 months x 0.5 = 29,200 GPU-h; 110,000 / 29,200 = $3.767
    assert r.cost_per_gpu_hour["build"] == pytest.approx(110_000 / 29_200)
    assert r.cost_per_gpu_hour["spot"] == pytest.approx(2.10)
    # break-even at spot: 100,000 / (6,132 - 1,000) = 19.5 months, beyond the 10-month horizon
    assert r.break_even_months["spot"] is None


def test_plan_reproduces_the_guides_break_even():
    plan, catalog = guide_server_plan()
    cost = evaluate(plan, catalog).sections["cost"].to_json()
    assert cost["capex_usd"] == 315_000
    assert cost["opex_usd_per_month"] == 0
    assert cost["break_even_months"]["reserved_1yr"] == 17.1
    plan, catalog = guide_server_plan(utilisation=0.8)
    assert evaluate(plan, catalog).sections["cost"]["break_even_months"]["reserved_1yr"] == 21.4
