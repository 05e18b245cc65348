"""The plan-wide sections of a report, in the order they are computed (later ones may read
earlier ones' results from ``ctx.sections``)."""

from __future__ import annotations

from planner.costs.section import evaluate_cost
from planner.facility.section import evaluate_facility
from planner.network.section import evaluate_network
from planner.report.context import SectionFn
from planner.storage.section import evaluate_storage
from planner.workload.section import evaluate_workload_section

SECTIONS: list[tuple[str, SectionFn]] = [
    ("facility", evaluate_facility),
    ("network", evaluate_network),
    ("storage", evaluate_storage),
    ("cost", evaluate_cost),
    ("workload", evaluate_workload_section),  # after cost: it prices the training run
]


def register_section(name: str, fn: SectionFn) -> None:
    """Add a section (or replace the one of that name), computed after the others."""
    SECTIONS[:] = [(n, f) for n, f in SECTIONS if n != name] + [(name, fn)]
