"""The plan-wide sections of a report, in the order they are computed (later ones may read
earlier ones' results from ``ctx.sections``), each with what it reads (the inputs of
``planner.report.memo``): the evaluator keeps a section's result while none of those changed."""

from __future__ import annotations

import operator

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from planner.costs.section import evaluate_cost
from planner.report.power_dynamics_section import DYNAMICS_READS, evaluate_power_dynamics
from planner.facility.section import evaluate_facility
from planner.goodput.section import evaluate_goodput
from planner.report.context import SectionFn
from planner.report.network_section import NETWORK_READS, evaluate_network, same_network
from planner.schedule.section import SCHEDULE_TOTALS, evaluate_schedule
from planner.storage.section import evaluate_storage
from planner.workload.section import evaluate_workload_section


@dataclass(frozen=True, slots=True)
class Section:
    name: str
    fn: SectionFn
    reads: tuple[str, ...] | None  # None: not declared, computed on every evaluation
    # (kept, new) -> whether a result computed again is the kept one for the sections that read it
    cutoff: Callable[[Any, Any], bool] | None = None


COST_TOTALS = tuple(f"totals.{name}" for name in (
    "racks", "own_racks", "rear_doors", "pdus", "cdus", "typical_milliwatts", "nameplate_milliwatts", "basis", "pue",
    "cap_milliwatts"))

SECTIONS: list[Section] = [
    # the halls' sums: each hall's and building's figures (the buildings themselves change only
    # by a full evaluation, ChangeSet.campus)
    # (and the GPU types placed: a GPU power limit is checked against what they accept)
    Section("facility", evaluate_facility, ("totals", "counts", "halls", "settings.facility", "settings.power",
                                            "settings.floor")),
    # the workload model runs on the job's nodes: the placed ones less the hot spares
    # and the optics the cabling buys, which read what the cable schedule or the per-tier
    # estimate reads (``planner.costs.section.CABLING_READS``, added as they are read)
    # (a drop that moves a fabric switch to another hall re-counts a campus's optics, mostly
    # to the same figures: then the sections that read the network's are kept)
    Section("network", evaluate_network, NETWORK_READS, cutoff=same_network),
    # and each hall's storage network (a leaf-spine shares its hosts' links when all write)
    Section("storage", evaluate_storage, ("counts", "storage networks", "settings.storage", "settings.fabric",
                                          "settings.workload", "settings.reliability"), cutoff=operator.eq),
    # a plan small enough is priced from its routed cable schedule: then the cost section also
    # reads what the schedule reads (the layout; ``planner.costs.section.SCHEDULE_READS``); a
    # larger campus's core runs are estimated from each hall's racks, floor and fabric switches
    # and the floor settings. Of the totals it reads racks, PDUs, CDUs and power, not the heat
    # to liquid: a drop between an air and a liquid rack changes that heat and, mostly,
    # nothing it prices; the spares stocked are a line of its bill (settings.reliability)
    Section("cost", evaluate_cost,
            ("counts", *COST_TOTALS, "hall fabric", "storage trunks", "settings.costs", "settings.fabric", "settings.power",
             "settings.facility", "settings.floor", "settings.reliability", "network")),
    # after cost: it prices the training run
    Section("workload", evaluate_workload_section,
            ("counts", "settings.workload", "settings.fabric", "settings.costs", "network", "cost")),
    # after workload: its figures with failures
    Section("goodput", evaluate_goodput,
            ("counts", "settings.reliability", "settings.storage", "settings.workload", "settings.costs",
             "network", "storage", "workload", "cost")),
    # after goodput: the step's phases, the job's GPUs and the checkpoints' stalls
    Section("power_dynamics", evaluate_power_dynamics, DYNAMICS_READS),
    # after cost and workload (last: nothing reads it): its phases share the capex, its training run is the workload's;
    # each hall's sums (a campus's halls are its phases: each phase reads its own hall's, and
    # which halls hold racks it takes from "hall fabric"), the fabric's scalable units (a single hall's,
    # from the totals it reads), the plan's requested go-live; the rental rates and hours per
    # month its training run is priced at. Not the PDUs, floor or findings of the racks, which
    # most drops inside a hall change: campus-400k's 78 scalable units were worked out again
    # on each, a p95 of 2.4-3.6 ms for its incremental evaluation (target 2 ms)
    Section("schedule", evaluate_schedule,
            ("counts", *SCHEDULE_TOTALS, "hall fabric", "settings.schedule", "settings.workload", "settings.costs",
             "network", "cost", "workload", "plan")),
]


def register_section(name: str, fn: SectionFn, reads: tuple[str, ...] | None = None) -> None:
    """Add a section (or replace the one of that name), computed after the others; with
    ``reads`` (the inputs it reads), kept while those stay the same."""
    SECTIONS[:] = [s for s in SECTIONS if s.name != name] + [Section(name, fn, reads)]
