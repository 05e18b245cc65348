"""A small campus for the floor view's tests and screenshots: two buildings, three halls.

``medium`` at 48 nodes (17 racks: GPU-01..12 in row A, network, storage and CDU racks in
row B), its racks put in halls with the core's own commands: building "North" (on the campus
at 0, 0) with hall N1 (at 0, 0 in it) holding GPU-01..06 and hall N2 (at 0, 40 m: below N1)
holding GPU-07..12; building "South" 300 m east (at 300, 0) with hall S1 holding row B.
"""

from __future__ import annotations

from planner.design.templates import build_template
from planner.plan.commands import History
from planner.plan.hall_commands import MoveRacksToHall, SetBuildings

BUILDINGS = [
    {"id": "N", "name": "North", "x_m": 0.0, "y_m": 0.0,
     "halls": [{"id": "N1", "name": "Hall N1"}, {"id": "N2", "name": "Hall N2", "y_m": 40.0}]},
    {"id": "S", "name": "South", "x_m": 300.0, "y_m": 0.0, "halls": [{"id": "S1", "name": "Hall S1"}]},
]


def two_building_plan(catalog):
    plan = build_template("medium", nodes=48, catalog=catalog)
    history = History(plan, catalog)
    history.apply(SetBuildings(BUILDINGS))
    names = {r.name: r.id for r in plan.racks}
    history.apply(MoveRacksToHall([names[f"GPU-{i:02d}"] for i in range(7, 13)], "N2"))
    history.apply(MoveRacksToHall([r.id for r in plan.racks if r.row == "B"], "S1"))
    return plan
