"""The plan-wide sections of a report, registered in the order they are computed."""

from __future__ import annotations

from planner.costs.section import evaluate_cost
from planner.facility.section import evaluate_facility
from planner.report.evaluate import register_section
from planner.network.section import evaluate_network
from planner.storage.section import evaluate_storage

register_section("facility", evaluate_facility)
register_section("network", evaluate_network)
register_section("storage", evaluate_storage)
register_section("cost", evaluate_cost)
