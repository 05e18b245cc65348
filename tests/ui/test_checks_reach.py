"""A campus too large to route every cable run shows a core run beyond every optic's reach
in the Checks list, as `check --json` does, and the row goes when the buildings move back."""

from __future__ import annotations

import pytest
import planner.costs.section as cost_section
from planner.design.build import design
from planner.design.intent import CampusSpec, Intent
from planner.plan.hall_commands import SetBuildings
from planner.report.evaluate import evaluate
from tests.ui.conftest import close_window, open_window


@pytest.fixture
def campus_window(qtbot, catalog, monkeypatch):
    # priced per fabric tier, as a campus of over 20,000 links is
    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)
    # 72 DGX B300 on 36-port Q3200 in three tiers, one hall in each of two buildings
    intent = Intent(system="dgx-b300", nodes=72, spare_nodes=0, fabric="ib800", switch="q3200", tiers="3",
                    infra_rack={"prefix": "NET", "power_cap_kw": 4},
                    campus=CampusSpec(buildings=2, halls_per_building=1))
    w = open_window(qtbot, design(intent, catalog).plan, catalog)
    yield w
    close_window(w)


def test_a_core_run_beyond_reach_is_an_error_row_of_the_checks_list(campus_window, catalog):
    doc, checks = campus_window.doc, campus_window.checks
    assert not [m for m in checks.messages("error") if "beyond" in m]
    # building 2 moved 12 km away: its 288 spine-to-core runs (16 leaves x 18 uplinks in
    # building 1's hall) pass the 10 km of the catalog's longest 800G optic (LR4)
    buildings = [b.model_dump() for b in doc.plan.buildings]
    buildings[1].update(x_m=9000.0, y_m=3000.0)
    assert doc.apply(SetBuildings(buildings))
    rows = [m for m in checks.messages("error") if "beyond" in m]
    assert len(rows) == 1 and rows[0].startswith("288 spine-core links at 800G run up to 12,083 m")
    # the same finding as the core's evaluation (and so `check --json`) gives
    core = [f.message for f in evaluate(doc.plan, catalog).findings if f.code == "network.cable.beyond_reach"]
    assert rows == core
    doc.undo_stack.undo()
    assert not [m for m in checks.messages("error") if "beyond" in m]
