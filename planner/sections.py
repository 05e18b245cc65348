"""The plan-wide sections of a report, registered in the order they are computed."""

from __future__ import annotations

from planner.cost_section import evaluate_cost
from planner.evaluate import register_section
from planner.network_section import evaluate_network
from planner.storage_section import evaluate_storage

register_section("network", evaluate_network)
register_section("storage", evaluate_storage)
register_section("cost", evaluate_cost)
