"""Sweeps and comparisons carry the goodput figures, and failure rates are a sweep axis."""

from __future__ import annotations

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.report.compare import METRIC
from planner.sweep import CSV_COLUMNS, SweepError, default_axes, evaluate_point, parse_grid

CAT = default_catalog()


def test_a_failure_rate_axis_changes_ettr_and_the_default_pareto_axes_count_failures():
    grid = parse_grid({"reliability": [{}, {"gpu_failures_per_1000_gpu_days": 30.0}]}, CAT)
    base = build_template("medium")
    rows = [evaluate_point(base, p, CAT) for p in grid.points()]
    plain, failing = rows
    assert failing["reliability"] == '{"gpu_failures_per_1000_gpu_days": 30.0}' and plain["reliability"] == "{}"
    # 128 GPUs x 30 per 1,000 GPU-days = 3.84 more interruptions a day than the defaults' GPU share
    gpu_default = base.settings.reliability.gpu_failures_per_1000_gpu_days
    assert failing["interruptions_per_day"] - plain["interruptions_per_day"] == pytest.approx(
        128 * (30.0 - gpu_default) / 1000, abs=1e-3)
    assert failing["ettr"] < plain["ettr"] < 1
    assert failing["time_to_train_with_failures_days"] > plain["time_to_train_with_failures_days"]
    assert failing["time_to_train_days"] == plain["time_to_train_days"]  # failure-free: unchanged
    # the y axis is the days the window's summary shows: with failures, which the rate moves
    assert default_axes(rows) == ("capex_usd", "time_to_train_with_failures_days")
    assert {"reliability", "ettr", "goodput_tokens_per_s", "interruptions_per_day"} <= set(CSV_COLUMNS)
    assert METRIC["ettr"].better == "higher" and METRIC["interruptions_per_day"].better == "lower"


def test_a_reliability_point_with_an_unknown_field_or_a_bad_rate_is_refused():
    with pytest.raises(SweepError, match="reliability"):
        parse_grid({"reliability": [{"gpu_failure_rate": 1}]}, CAT)
    with pytest.raises(SweepError, match="reliability"):
        parse_grid({"reliability": [{"spare_nodes": -1}]}, CAT)
