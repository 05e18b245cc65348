"""What a plan-wide report section sees while it is computed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from planner.facility.rack_result import RackResult
from planner.facility.rack_sums import RackSums
from planner.findings import Finding
from planner.hardware.catalog import Catalog
from planner.plan.model import Plan
from planner.report.memo import Memo
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
    # the evaluator's memo: a section keeps what it works out from part of its inputs there,
    # under what that part reads (the cost section: the cable schedule, under the layout)
    memo: Memo = field(default_factory=Memo)
    # each data hall's sums of its racks' results, by hall id in campus order (read them, never change them)
    halls: dict[str, RackSums] = field(default_factory=dict)
    # each hall's racks, floor and fabric switches (``planner.costs.campus_tiers.hall_fabric``)
    hall_fabric: dict[str, Any] = field(default_factory=dict)
    # each hall's storage network, the memo input "storage networks"
    # (``planner.network.ports.hall_storage_networks``; None: storage has no switches of its own)
    storage_networks: dict[str, Any] | None = None
    # of those, what the cost estimate reads of the leaf-spines, the memo input "storage trunks"
    # (``planner.network.ports.storage_trunks``)
    storage_trunks: dict[str, Any] = field(default_factory=dict)


SectionFn = Callable[[EvalContext], tuple[Any, list[Finding]]]
