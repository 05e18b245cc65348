"""The plan-wide sections of a report, in the order they are computed (later ones may read
earlier ones' results from ``ctx.sections``)."""

from __future__ import annotations

from planner.costs.section import evaluate_cost
from planner.facility.section import evaluate_facility
from planner.goodput.section import evaluate_goodput
from planner.report.context import SectionFn
from planner.report.network_section import evaluate_network
from planner.storage.section import evaluate_storage
from planner.workload.section import evaluate_workload_section

SECTIONS: list[tuple[str, SectionFn]] = [
    ("facility", evaluate_facility),
    ("network", evaluate_network),
    ("storage", evaluate_storage),
    ("cost", evaluate_cost),
    ("workload", evaluate_workload_section),  # after cost: it prices the training run
    ("goodput", evaluate_goodput),  # after workload: its figures with failures
]


# Sections whose result follows from the device counts, the settings and the catalog alone,
# and from the sections named (the same objects): the evaluator keeps them across edits that
# leave those unchanged (a device moved between racks). The others are computed on every
# evaluation (facility reads the racks' power, cost the PDUs).
KEPT_SECTIONS: dict[str, tuple[str, ...]] = {"network": (), "storage": (), "workload": ("cost",),
                                             "goodput": ("network", "storage", "workload", "cost")}


def register_section(name: str, fn: SectionFn, kept_with: tuple[str, ...] | None = None) -> None:
    """Add a section (or replace the one of that name), computed after the others; with
    ``kept_with`` (the sections it reads), kept while the counts, settings and those stay."""
    SECTIONS[:] = [(n, f) for n, f in SECTIONS if n != name] + [(name, fn)]
    KEPT_SECTIONS.pop(name, None)
    if kept_with is not None:
        KEPT_SECTIONS[name] = tuple(kept_with)
