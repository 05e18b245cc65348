"""The plan-wide sections of a report, registered in the order they are computed."""

from __future__ import annotations

from planner.costs.section import evaluate_cost
from planner.report.evaluate import register_section
from planner.network.section import evaluate_network
from planner.storage.section import evaluate_storage
from planner.workload.section import evaluate_workload_section

register_section("network", evaluate_network)
register_section("storage", evaluate_storage)
register_section("cost", evaluate_cost)
register_section("workload", evaluate_workload_section)
