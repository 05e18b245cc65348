"""The plan-wide sections of a report, registered in the order they are computed."""

from __future__ import annotations

from planner.evaluate import register_section
from planner.network_section import evaluate_network

register_section("network", evaluate_network)
from planner.cost_section import evaluate_cost  # noqa: E402

register_section("cost", evaluate_cost)
