"""The vendor pack has a power dynamics page for the utility and the facility engineer: the
load's peak, trough, swing and period, the grid's limits and the smoothing with its size and
cost, as the report gives them (the medium template's figures are worked by hand in
tests/planner/test_power_dynamics.py)."""

from __future__ import annotations

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from tests.ui.test_pack_text_fit import render_placed

TITLE = "Power dynamics: the load the grid sees"


def test_power_dynamics_page_gives_the_swing_the_limit_and_the_battery(tmp_path):
    catalog = default_catalog()
    plan = build_template("medium", catalog=catalog)
    plan.settings.facility = plan.settings.facility.model_copy(
        update={"grid_max_swing_mw": 0.03, "power_smoothing": "site_battery"})
    placed, _ = render_placed(plan, catalog, tmp_path / "pack.pdf")
    texts = [t.text for t in placed]
    assert any(TITLE in t for t in texts)
    # the unsmoothed swing 62.72 kW, the grid's 30 kW, the 30 kW left after the battery, its 27.4 kW over
    # the step's 34.6 s (a plan under a megawatt reads in kW; the battery's size follows the step's
    # compute and wait times, worked in tests/planner/test_power_dynamics.py)
    for figure in ("62.7 kW", "30.0 kW", "27.4 kW", "site battery", "34.6 s"):
        assert any(figure in t for t in texts), figure
    assert not [t for t in placed if not t.fits and TITLE in t.text]
    assert not any("Capex of the smoothing" in t for t in texts)  # prices stay with the user
    priced, _ = render_placed(plan, catalog, tmp_path / "priced.pdf", with_prices=True)
    assert any("Capex of the smoothing" in t.text for t in priced)


def test_no_training_step_no_page(tmp_path):
    catalog = default_catalog()
    plan = build_template("medium", catalog=catalog)
    plan.settings.workload = plan.settings.workload.model_copy(update={"enabled": False})
    placed, _ = render_placed(plan, catalog, tmp_path / "pack.pdf")
    assert not any(TITLE in t.text for t in placed)


def test_the_page_gives_a_ramped_stop_and_its_gpu_time(tmp_path):
    catalog = default_catalog()
    plan = build_template("medium", catalog=catalog)
    plan.settings.facility = plan.settings.facility.model_copy(
        update={"grid_max_ramp_mw_per_s": 0.1, "power_smoothing": "site_battery", "job_ramps": True})
    placed, _ = render_placed(plan, catalog, tmp_path / "pack.pdf", with_prices=True)
    texts = [t.text for t in placed]
    # the drop ramped over the set minute, the row of its time and the GPU time it costs
    for figure in ("Time the stop and restart are ramped over", "60.0 s", "GPU time the ramped restarts lose"):
        assert any(figure in t for t in texts), figure
    assert not any("Rack energy storage of the job's GPUs" in t for t in texts)  # HGX H100 has none
    assert not [t for t in placed if not t.fits and TITLE in t.text]
