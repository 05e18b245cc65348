"""Plan -> Report, incrementally.

Per-rack figures are cached and recomputed only for the racks a change set names; the
plan-wide sections (cooling, network, storage, cost) work on aggregate device counts,
which are kept up to date by subtracting a rack's old counts and adding its new ones.
All sums are integers (milliwatts, grams, counts), kept per data hall
(``planner.facility.rack_sums``), so an incremental evaluation equals a full one exactly.
The plan-wide sections are kept in one memo (``planner.report.memo``) under what each
declares it reads (``planner.report.sections``): a change set, or counts, totals or hall
sums that differ, make the sections that read them run again.
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from types import MappingProxyType

from planner.collector import held_off
from planner.costs.campus_tiers import hall_fabric
from planner.network.ports import hall_storage_networks, storage_trunks
from planner.costs.hall_tiers import hall_kinds
from planner.costs.parts import fabric_node
from planner.hardware.catalog import Catalog
from planner.hardware.power_limit import plan_catalog
from planner.plan.changes import ChangeSet
from planner.facility.cooling import evaluate_cooling
from planner.plan.model import Plan, Rack
from planner.facility.power import evaluate_rack, rack_findings
from planner.report.context import EvalContext
from planner.findings import Finding, Remedy
from planner.facility.rack_result import RackResult
from planner.facility.rack_sums import RackSums
from planner.plan.campus import campus_of
from planner.report.memo import Memo
from planner.report.model import Report, Totals
from planner.report.sections import SECTIONS, register_section

__all__ = ["EvalContext", "Evaluator", "SECTIONS", "evaluate", "register_section"]


class Evaluator:
    def __init__(self, plan: Plan, catalog: Catalog):
        self.plan = plan
        self.catalog = catalog
        self._catalog = catalog  # the plan's GPU power limit applied (``planner.hardware.power_limit``)
        self._racks: dict[str, RackResult] = {}
        # what reports see of them: the evaluator's own, read-only and live (a report's rack
        # results are current until the evaluator's next evaluation). A copy for each report
        # cost campus-1m's incremental evaluation (22,582 racks; 2-core machine, 2026-12-02) a
        # p95 of 2.9-3.6 ms against 1.8-2.1 ms without (target 2 ms): the copy, and the young
        # collector walking it
        self._results = MappingProxyType(self._racks)
        self._campus = campus_of(plan)
        self._halls = self._empty_halls()  # each hall's sums, rack by rack
        self._hall_of: dict[str, str] = {}  # rack id -> the hall its result is summed in
        self._touched: set[str] = set()  # the halls whose racks changed since the last report
        self._hall_fabric: tuple[tuple | None, dict] = (None, {})  # ((the fabric switch, node), ``hall_fabric``)
        # ((what sizes them), each hall's storage network, ``planner.network.ports.hall_storage_networks``,
        # and ``storage_trunks`` of it)
        self._storage: tuple[tuple | None, dict | None, dict] = (None, None, {})
        self._node: tuple[str] | None = None  # the fabric's node type
        # the totals: the halls' sums added up by a full evaluation, then kept rack by rack
        self._agg = RackSums()
        self._rack_order: tuple[str, ...] = ()
        self.memo = Memo()
        self.report: Report | None = None

    def evaluate(self, changes: ChangeSet | None = None) -> Report:
        """Full evaluation when ``changes`` is None, else only what the change touched."""
        plan = self.plan
        if changes is None or changes.needs_full:
            self.memo = Memo()  # anything may have changed: nothing is kept
            # a change of the facility settings (the power limit) is a full evaluation (ChangeSet.needs_full)
            self._catalog = plan_catalog(plan, self.catalog)
            self._racks = {}
            self._results = MappingProxyType(self._racks)
            self._campus = campus_of(plan)  # a change of the buildings or halls is a full evaluation
            self._halls, self._hall_of = self._empty_halls(), {}
            self._touched = set(self._halls)
            self._hall_fabric = (None, {})  # every hall's again (the halls may be others)
            self._storage = (None, None, {})
            with held_off():  # its results all live on (``planner.collector``)
                self._evaluate_all()
            self._rack_order = tuple(r.id for r in plan.racks)
        else:
            self.memo.note(changes)
            for rack_id in changes.racks:
                self._set_rack(rack_id)
            self._agg.floor_over = sum(h.floor_over for h in self._halls.values())  # each against its own rating
            if changes.structure or len(self._rack_order) != len(plan.racks):
                self._rack_order = tuple(r.id for r in plan.racks)
        self.report = self._finish()
        return self.report

    def _evaluate_all(self) -> None:
        """Every rack's result, each shape worked out once (``_Shapes``), and the sums: the
        ``n`` racks of one shared shape in a hall add ``n`` times its figures at once."""
        shapes = _Shapes(self.plan, self._catalog)
        hall_id, halls = self._campus.hall_id, self._halls
        alike: dict[tuple[str, _Shape], int] = {}  # (hall, shape) -> racks of it there
        for rack in self.plan.racks:
            res, shape = shapes.result(rack)
            self._racks[rack.id] = res
            hall = self._hall_of[rack.id] = hall_id(rack)
            if shape is None:
                halls[hall].add(res)
            else:
                alike[hall, shape] = alike.get((hall, shape), 0) + 1
        for (hall, shape), n in alike.items():
            halls[hall].add(shape.first, n)
        self._agg = RackSums.total(halls.values())

    def _set_rack(self, rack_id: str) -> None:
        """The rack's result after an edit, and its hall's sums and the totals."""
        rack = self.plan.rack(rack_id)
        res = None if rack is None else evaluate_rack(self.plan, rack, self._catalog)
        old = self._racks.get(rack_id)
        if old is not None:
            hall = self._hall_of.pop(rack_id)
            self._halls[hall].remove(old)
            self._touched.add(hall)
            self._agg.remove(old)
        if res is None:
            self._racks.pop(rack_id, None)
            return
        # replaced in place: a key removed and added again leaves a hole in the dict, and a
        # copy of a dict with holes (``dict(report.rack_results)``) inserts its entries one
        # by one -- 0.2 ms instead of 0.025 ms at campus-400k's 8,481 racks
        self._racks[rack_id] = res
        hall = self._hall_of[rack_id] = self._campus.hall_id(rack)
        self._halls[hall].add(res)
        self._touched.add(hall)
        self._agg.add(res)

    def _storage_networks(self, touched: set[str]) -> None:
        """Each hall's storage network (its storage ports on switches of its own): those of the
        halls whose racks changed, every hall's when the storage settings did; the memo input
        "storage networks" (None where storage has no switches of its own), changed only when
        one differs."""
        fabric = self.plan.settings.fabric
        switch = self._catalog.get(fabric.storage_switch_device)
        if fabric.storage_fabric != "separate" or switch is None or switch.switch is None:
            self._storage = (None, None, {})
            self.memo.set("storage networks", None)
            self.memo.set("storage trunks", {})
            return
        key = (switch.id, fabric.storage_oversubscription)
        old = self._storage[1] if self._storage[0] == key else None
        halls = self._halls if old is None else {h: self._halls[h] for h in touched}
        mine = hall_storage_networks(halls, self._catalog, switch, fabric.storage_oversubscription)
        if old is not None and all(old.get(h) == n for h, n in mine.items()):
            return  # most drops leave every hall's as it was: nothing to compare or derive again
        networks = mine if old is None else {**old, **mine}
        self._storage = (key, networks, storage_trunks(networks))  # the trunks: what the cost estimate reads
        self.memo.set("storage networks", networks)
        self.memo.set("storage trunks", self._storage[2])

    def _empty_halls(self) -> dict[str, RackSums]:
        return {hall_id: RackSums(hall.floor_rating_kg_m2) for hall_id, (_, hall) in self._campus.halls.items()}

    def _finish(self) -> Report:
        plan = self.plan
        facility = plan.settings.facility
        agg = self._agg
        counts = {k: v for k, v in agg.counts.items() if v}
        cooling, findings = evaluate_cooling(agg.liquid_nodes, agg.liquid_heat_milliwatts, counts, facility, self._catalog)
        totals = Totals(
            gpus=agg.gpus, nodes=agg.nodes, racks=len(plan.racks), gpu_racks=agg.gpu_racks,
            typical_milliwatts=agg.typical_milliwatts, nameplate_milliwatts=agg.nameplate_milliwatts, weight_g=agg.weight_g,
            liquid_nodes=agg.liquid_nodes, liquid_heat_milliwatts=agg.liquid_heat_milliwatts,
            basis=facility.power_basis, pue=facility.pue, cdus=cooling.cdus, cdus_placed=cooling.cdus_placed,
            cdu_capacity_kw=cooling.cdu_capacity_kw, cdus_short=cooling.short, pdus=agg.pdus, cap_milliwatts=agg.cap_milliwatts,
            own_racks=agg.own_racks, rear_doors=agg.rear_doors,
        )
        memo = self.memo
        if memo.set("counts", counts) or self._node is None:
            node = fabric_node(counts, self._catalog)  # the fabric's node type, read by the fabric estimate
            self._node = (node.id if node is not None else "",)
        memo.set_fields("totals", totals)
        # only the halls whose racks changed are compared: each hall's figures are kept under
        # its own sums (``planner.facility.campus_section``)
        touched = self._touched
        halls_changed = bool([h for h in touched if memo.set(f"hall {h}", self._halls[h].key())])
        if halls_changed:
            memo.changed(("halls",))
        self._storage_networks(touched)
        self._touched = set()
        # each hall's fabric switches, stacking and floor: those of the halls whose racks changed
        # (all of them when the fabric's switch or node did), O(halls) only when one differs
        switch, node = plan.settings.fabric.switch_device, self._node[0]
        old = self._hall_fabric[1]
        if self._hall_fabric[0] != (switch, node):
            fabric, changed = hall_fabric(self._halls, switch, node), True
        else:
            mine = hall_fabric({h: self._halls[h] for h in touched}, switch, node) if touched else {}
            changed = any(old.get(h) != f for h, f in mine.items())
            fabric = {**old, **mine} if changed else old
        if changed:
            self._hall_fabric = ((switch, node), fabric)
            memo.set("hall fabric", fabric)
            memo.set("hall kinds", hall_kinds(fabric))
            memo.set("hall floor", {h: (f.racks, f.footprint_mm2) for h, f in fabric.items()})
        ctx = EvalContext(plan, self._catalog, totals, counts, racks=self._racks, memo=memo, halls=self._halls,
                          hall_fabric=self._hall_fabric[1], storage_networks=self._storage[1],
                          storage_trunks=self._storage[2])
        for s in SECTIONS:
            section, section_findings = memo.get(s.name, s.reads, s.fn, ctx, cutoff=s.cutoff)
            if section is not None:
                ctx.sections[s.name] = section
            findings.extend(section_findings)
        return Report(
            plan_name=plan.name,
            power_basis=facility.power_basis,
            totals=totals,
            rack_order=self._rack_order,
            rack_results=self._results,
            global_findings=findings,
            sections=ctx.sections,
            rack_severity_counts=dict(agg.severities),
            counts=counts,
        )


# Racks of the same shape (the same properties and the same device types at the same
# heights) have the same figures and the same rack-level checks (``rack_findings``), whose
# texts differ only by the rack's name: a full evaluation works out each shape once, with
# its checks' texts for a stand-in named by a placeholder, and gives every other rack of the
# shape a copy of the figures (sharing its device counts) and the texts with its own name.
# Big plans repeat a few shapes thousands of times. campus-400k (8,354 racks; CPU time on a
# shared 2-core machine, 2026-12-01), target 200 ms: evaluating every rack 245-510 ms;
# sharing the figures but checking each rack again under its own name 150-180 ms; with the
# placeholder 90-135 ms. What a rack's result reads (a change to it is a full evaluation):
RACK_READS = ("settings.facility", "settings.power", "settings.floor")
_NAME = "\x00rack\x00"  # the stand-in's name, in the checks' texts
_RACK_KEY = attrgetter("height_u", "cooling", "power_cap_kw", "max_weight_kg", "width_mm", "depth_mm", "rear_door_hx")
_MEMBER_KEY = attrgetter("u", "device")


class _Shape:
    """The first rack of a shape: its result, and its checks as (severity, code, text with
    the placeholder, remedy); ``checks`` None when it has a finding of one of its devices (which
    names the device): then its shape is not shared."""

    __slots__ = ("first", "checks")

    def __init__(self, plan: Plan, rack: Rack, catalog: Catalog) -> None:
        res = self.first = evaluate_rack(plan, rack, catalog)
        self.checks: list[tuple[str, str, str, Remedy | None]] | None = None
        if any(f.where != rack.id for f in res.findings):
            return
        stand_in = rack.model_copy(update={"name": _NAME, "id": _NAME})
        checks = [(f.severity, f.code, f.message, f.remedy) for f in rack_findings(plan, stand_in, res, catalog)]
        if len(checks) == len(res.findings):
            self.checks = checks


class _Shapes:
    """The racks of one full evaluation, by shape."""

    def __init__(self, plan: Plan, catalog: Catalog) -> None:
        self.plan, self.catalog = plan, catalog
        self._seen: dict[tuple, _Shape] = {}

    def result(self, rack: Rack) -> tuple[RackResult, _Shape | None]:
        """The rack's result, and its shape when it shares the shape's figures."""
        plan = self.plan
        key = (_RACK_KEY(rack), tuple(sorted(map(_MEMBER_KEY, plan.rack_members(rack.id).values()))))
        shape = self._seen.get(key)
        if shape is None:
            shape = self._seen[key] = _Shape(plan, rack, self.catalog)
            return shape.first, (shape if shape.checks is not None else None)
        checks = shape.checks
        if checks is None:
            return evaluate_rack(plan, rack, self.catalog), None
        res = RackResult(*_FIELDS(shape.first))  # the counts shared: no result's are changed
        res.id, res.name = rack.id, rack.name
        res.findings = [Finding(severity, code, message.replace(_NAME, rack.name), rack.id, _retarget(remedy, rack))
                        for severity, code, message, remedy in checks]
        return res, shape


def _retarget(remedy: Remedy | None, rack: Rack) -> Remedy | None:
    """The stand-in's remedy for ``rack``: its name in the label, its id in the figures."""
    if remedy is None:
        return None
    return Remedy(remedy.kind, remedy.label.replace(_NAME, rack.name),
                  tuple((k, rack.id if v == _NAME else v) for k, v in remedy.figures))


_FIELDS = attrgetter(*(f.name for f in fields(RackResult)))  # a result's fields, in __init__ order


def evaluate(plan: Plan, catalog: Catalog) -> Report:
    """One full evaluation."""
    return Evaluator(plan, catalog).evaluate()
