"""What a plan-wide report section sees while it is computed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from planner.facility.rack_result import RackResult
from planner.findings import Finding
from planner.hardware.catalog import Catalog
from planner.plan.model import Plan
from planner.report.model import Totals


@dataclass(slots=True)
class EvalContext:
    """The plan, its catalog, totals, aggregate device counts (device type id -> number
    placed) and the sections computed before this one (read them, never change them)."""

    plan: Plan
    catalog: Catalog
    totals: Totals
    counts: dict[str, int]
    sections: dict[str, Any] = field(default_factory=dict)
    racks: dict[str, RackResult] = field(default_factory=dict)  # cached per-rack results, by rack id
    # results that depend only on the settings, the catalog and the device counts (the
    # workload model, read by the network and workload sections; the fabric's size), shared
    # between sections and kept by the evaluator across edits that leave those unchanged
    # (a device moved between racks); not part of the report
    cache: dict[str, Any] = field(default_factory=dict)
    # results kept from one evaluation to the next by the evaluator (e.g. the cable
    # schedule, recomputed only when the layout changed)
    memo: dict[str, Any] = field(default_factory=dict)


SectionFn = Callable[[EvalContext], tuple[Any, list[Finding]]]
