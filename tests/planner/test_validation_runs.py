"""The planner against published training runs (the README's validation table)."""

from __future__ import annotations

import re

import pytest

from tests.planner.validation_runs import RUNS, predict, table


def test_at_least_five_published_runs_with_citations():
    assert len(RUNS) >= 5
    for run in RUNS:
        assert re.search(r"\b20\d\d\b", run.citation) and run.published > 0 and 0 < run.tolerance <= 0.35, run.name


@pytest.mark.parametrize("run", RUNS, ids=[r.name for r in RUNS])
def test_prediction_within_the_stated_tolerance(run):
    got = predict(run)
    assert got == pytest.approx(run.published, rel=run.tolerance), (
        f"{run.name}: planner {got:.4g} vs published {run.published:.4g} (±{run.tolerance:.0%})")


def test_readme_shows_the_table():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for row in table().splitlines()[2:]:
        name = row.split("|")[1].strip()
        assert name in readme, name
