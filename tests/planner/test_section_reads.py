"""Each report section reads only the inputs it declares: the evaluator keeps a section's
result while those stay the same, so an input read but not declared would leave a stale
figure after an edit of it."""

from __future__ import annotations

import pytest

from planner.costs.campus_tiers import hall_fabric
from planner.costs.parts import fabric_node
from planner.costs.section import SCHEDULE_READS
from planner.facility.power import evaluate_rack
from planner.facility.rack_sums import RackSums
from planner.goodput.section import CURVE_READS, plan_curve
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule
from planner.network.ports import hall_storage_networks, storage_trunks
from planner.plan.campus import campus_of
from planner.design.templates import build_template
from planner.report.evaluate import RACK_READS, evaluate
from planner.report.memo import Memo
from planner.report.sections import SECTIONS

CATALOG = default_catalog()
LAYOUT = {"racks", "placements", "rack", "rack_members", "placement", "rows", "floor"}


class _Settings:
    def __init__(self, settings, reads: set[str]):
        self._settings, self._reads = settings, reads

    def __getattr__(self, name):
        self._reads.add(f"settings.{name}")
        return getattr(self._settings, name)


class _Plan:
    """The plan, noting which of the memo's inputs each attribute read is."""

    def __init__(self, plan, reads: set[str]):
        self._plan, self._reads = plan, reads

    def __getattr__(self, name):
        if name == "settings":
            return _Settings(self._plan.settings, self._reads)
        if name == "price_overrides":
            self._reads.add("settings.costs")  # their command's change set names the costs settings
        elif name in LAYOUT:
            self._reads.add("layout")
        elif name in ("name", "info"):
            self._reads.add("plan")
        elif name == "buildings":
            pass  # like the catalog: a change of the campus is a full evaluation (ChangeSet.campus)
        else:
            self._reads.add(f"plan.{name}")  # none of the memo's inputs: never declared
        return getattr(self._plan, name)


class _Sections(dict):
    def __init__(self, sections, reads: set[str]):
        super().__init__(sections)
        self._reads = reads

    def get(self, key, default=None):
        if key == "network" and key in self:
            return self[key]
        self._reads.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        if key == "network":
            return _Network(super().__getitem__(key), self._reads)
        self._reads.add(key)
        return super().__getitem__(key)


class _Network:
    """The network section, noting which of its memo entries each figure read comes from: its
    fabric links (``"fabric links"``), the optics the cabling buys (the section itself,
    ``"network"``) or the fabric and workload model (``"network fabric"``). The section
    changes whenever either entry does: a section that declares ``"network"`` reads them all."""

    OWN = {"transceivers", "transceivers_per_tier", "transceivers_estimated"}

    def __init__(self, section, reads: set[str]):
        self._section, self._reads = section, reads

    def _note(self, name: str) -> None:
        self._reads.add("fabric links" if name in ("optical_links", "copper_links") else
                        "network" if name in self.OWN or name.startswith("_") else "network fabric")

    def __getattr__(self, name):
        self._note(name)
        return getattr(self._section, name)

    def __getitem__(self, name):
        self._note(name)
        return self._section[name]


class _Totals:
    def __init__(self, totals, reads: set[str]):
        self._totals, self._reads = totals, reads

    def __getattr__(self, name):
        # the numbers of GPUs and nodes follow from the device counts; the rest from the racks,
        # each field an input of its own ("totals.pdus"); a property reads the fields it reads
        derived = getattr(type(self._totals), name, None)
        if isinstance(derived, property):
            return derived.fget(self)
        self._reads.add("counts" if name in ("gpus", "nodes") else f"totals.{name}")
        return getattr(self._totals, name)


class _Halls:
    """Each hall's sums: one hall's is the input "hall <id>", all of them "halls"."""

    def __init__(self, sums: dict, reads: set[str]):
        self._sums, self._reads = sums, reads

    def __getitem__(self, hall_id):
        self._reads.add(f"hall {hall_id}")
        return self._sums[hall_id]

    def get(self, hall_id, default=None):
        self._reads.add(f"hall {hall_id}")
        return self._sums.get(hall_id, default)

    def __getattr__(self, name):  # items(), values(), len() ...: every hall's
        self._reads.add("halls")
        return getattr(self._sums, name)

    def __iter__(self):
        self._reads.add("halls")
        return iter(self._sums)

    def __len__(self):
        self._reads.add("halls")
        return len(self._sums)


class _Context:
    def __init__(self, plan, report, before: dict, reads: set[str]):
        self._report, self._reads = report, reads
        self.plan = _Plan(plan, reads)
        self.catalog = CATALOG  # any change to it is a full evaluation
        self.sections = _Sections(before, reads)
        self.memo = Memo()

    @property
    def totals(self):
        return _Totals(self._report.totals, self._reads)

    @property
    def halls(self):
        plan = self.plan._plan
        campus = campus_of(plan)
        sums = {hall_id: RackSums(hall.floor_rating_kg_m2) for hall_id, (_, hall) in campus.halls.items()}
        for r in plan.racks:
            sums[campus.hall_id(r)].add(self._report.rack_results[r.id])
        return _Halls(sums, self._reads)

    @property
    def hall_fabric(self):
        self._reads.add("hall fabric")  # its own input: the halls' racks, floor and fabric switches
        sums = dict(self.halls._sums)
        node = fabric_node(self.counts, CATALOG)  # as the evaluator reads it: from the device counts
        return hall_fabric(sums, self.plan._plan.settings.fabric.switch_device, node.id if node else None)

    @property
    def storage_networks(self):
        self._reads.add("storage networks")  # its own input: each hall's storage network
        return self._storage_networks()

    @property
    def storage_trunks(self):
        self._reads.add("storage trunks")  # its own input: what the cost estimate reads of the leaf-spines
        return storage_trunks(self._storage_networks())

    def _storage_networks(self):
        fabric = self.plan._plan.settings.fabric
        switch = CATALOG.get(fabric.storage_switch_device)
        if fabric.storage_fabric != "separate" or switch is None or switch.switch is None:
            return None
        return hall_storage_networks(dict(self.halls._sums), CATALOG, switch, fabric.storage_oversubscription)

    @property
    def counts(self):
        self._reads.add("counts")
        counts: dict[str, int] = {}
        for r in self._report.racks:
            for k, v in r.counts.items():
                counts[k] = counts.get(k, 0) + v
        return counts


def _whole_network(reads: set[str], declared: set[str]) -> set[str]:
    """``reads``, without the network section's parts when the whole section is declared."""
    return reads - {"network fabric", "fabric links"} if "network" in declared else reads


@pytest.mark.parametrize("template", ["medium", "massive", "inference", "single-node", "gb200-nvl72-su",
                                      "frontier-100k"])
def test_each_section_reads_only_what_it_declares(template):
    plan = build_template(template, catalog=CATALOG)
    report = evaluate(plan, CATALOG)
    before: dict = {}
    for s in SECTIONS:
        reads: set[str] = set()
        ctx = _Context(plan, report, before, reads)
        section, findings = ctx.memo.get(s.name, s.reads, s.fn, ctx)
        assert section.to_json() == report.sections[s.name].to_json()  # the same inputs: the same figures
        # what it declares, and what the kept values it used declare (the cost section: the cable schedule's)
        kept_under = ctx.memo.reads(s.name)
        reads = {r for r in reads if not (r.startswith("totals.") and "totals" in kept_under)}  # all of them
        reads = _whole_network(reads, kept_under)
        assert reads <= kept_under, f"{s.name} reads {sorted(reads - kept_under)} it does not declare"
        if s.name == "cost":  # where each device is matters only to a plan priced run by run
            assert ("layout" in kept_under) == section.cables_routed
        before[s.name] = section


def test_the_cable_schedule_and_rack_shapes_read_what_they_declare():
    plan = build_template("medium", catalog=CATALOG)
    reads: set[str] = set()
    build_schedule(_Plan(plan, reads), CATALOG)
    assert "layout" in reads and reads <= set(SCHEDULE_READS)
    reads.clear()
    for rack in plan.racks:
        evaluate_rack(_Plan(plan, reads), rack, CATALOG)
    assert reads - {"layout"} <= set(RACK_READS)  # the layout: the shape, the memo's key


@pytest.mark.parametrize("template", ["medium", "frontier-100k"])
def test_the_goodput_curve_reads_what_it_declares_and_not_the_costs(template):
    # kept apart from its section: a drop that changes a rack's PDUs changes the cost, not the curve
    plan = build_template(template, catalog=CATALOG)
    report = evaluate(plan, CATALOG)
    reads: set[str] = set()
    curve = plan_curve(_Context(plan, report, report.sections, reads))
    assert curve == report.sections["goodput"].curve and curve
    assert reads <= set(CURVE_READS)
    assert not {"totals", "cost", "workload", "settings.costs"} & set(CURVE_READS)


def test_a_campus_priced_per_tier_reads_the_halls_not_the_layout(monkeypatch):
    # its core runs are estimated from each hall's racks, floor and fabric switches and the
    # floor settings: declared, and no read of where each rack stands (a move inside a hall
    # keeps the cost section)
    import planner.costs.section as cost_section
    from planner.design.build import design
    from planner.design.intent import CampusSpec, Intent

    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)
    plan = design(Intent(system="dgx-b300", nodes=72, spare_nodes=0, fabric="ib800", switch="q3200", tiers="3",
                         campus=CampusSpec(buildings=2, halls_per_building=1)), CATALOG).plan
    report = evaluate(plan, CATALOG)
    before = {name: report.sections[name] for name in ("network",)}
    cost = next(s for s in SECTIONS if s.name == "cost")
    reads: set[str] = set()
    ctx = _Context(plan, report, before, reads)
    section, _ = ctx.memo.get(cost.name, cost.reads, cost.fn, ctx)
    assert section.to_json() == report.sections["cost"].to_json()
    assert any("spread over the halls" in line.source for line in section.bom)
    assert {"hall fabric", "settings.floor"} <= _whole_network(reads, ctx.memo.reads("cost")) <= ctx.memo.reads("cost")
    assert "layout" not in ctx.memo.reads("cost")
