"""What an evaluation produces: totals, the report and its per-concern sections.

Dataclasses (slotted; the report's value types); ``to_json`` gives the report
contract printed by ``cluster-planner check --json``. A rack's figures
(``planner.facility.rack_result``) and a finding (``planner.findings``) are made by the
concerns below the report, so they live below it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from planner.facility.rack_result import RackResult
from planner.findings import Finding
from planner.report.finding_groups import FindingGroup, group_findings

if TYPE_CHECKING:
    from planner.costs.section import CostSection
    from planner.facility.section import FacilitySection
    from planner.report.network_section import NetworkSection
    from planner.storage.section import StorageSection
    from planner.workload.section import WorkloadSection


@dataclass(frozen=True, slots=True)
class Totals:
    gpus: int = 0
    nodes: int = 0
    racks: int = 0
    gpu_racks: int = 0
    typical_milliwatts: int = 0
    nameplate_milliwatts: int = 0
    weight_g: int = 0
    liquid_nodes: int = 0
    liquid_heat_milliwatts: int = 0  # design heat (nameplate) to the water loop, all racks
    basis: str = "typical"
    pue: float = 1.0
    pdus: int = 0
    cap_milliwatts: int = 0  # sum of the racks' power caps: the committed kW of a colocation contract
    cdus: int = 0
    cdus_placed: int = 0
    cdu_capacity_kw: float = 0.0  # rated heat removal of the placed CDUs (catalog cdu_capacity_kw)
    cdus_short: bool = False  # fewer CDUs than the policy asks, or less capacity than the heat
    own_racks: int = 0  # racks that are a rack-scale system's own (an NVL72): no enclosure bought
    rear_doors: int = 0  # racks with a rear-door heat exchanger

    @property
    def it_power_typical_kw(self) -> float:
        return self.typical_milliwatts / 1e6

    @property
    def it_power_nameplate_kw(self) -> float:
        return self.nameplate_milliwatts / 1e6

    @property
    def it_power_kw(self) -> float:
        return (self.nameplate_milliwatts if self.basis == "nameplate" else self.typical_milliwatts) / 1e6

    @property
    def facility_power_kw(self) -> float:
        return self.it_power_kw * self.pue

    def facility_power_on(self, basis: str) -> float:
        """Facility power (IT x PUE) on ``basis``, "typical" or "nameplate", whatever the plan's basis."""
        return (self.nameplate_milliwatts if basis == "nameplate" else self.typical_milliwatts) / 1e6 * self.pue

    @property
    def weight_kg(self) -> float:
        return self.weight_g / 1e3

    @property
    def liquid_heat_kw(self) -> float:
        """Heat to the water loop at nameplate (design heat): each device's capture fraction
        plus rear-door heat exchangers. The CDUs are sized on it."""
        return self.liquid_heat_milliwatts / 1e6

    def to_json(self) -> dict[str, Any]:
        return {
            "gpus": self.gpus,
            "nodes": self.nodes,
            "racks": self.racks,
            "gpu_racks": self.gpu_racks,
            "it_power_kw": round(self.it_power_kw, 6),
            "it_power_typical_kw": round(self.it_power_typical_kw, 6),
            "it_power_nameplate_kw": round(self.it_power_nameplate_kw, 6),
            "facility_power_kw": round(self.facility_power_kw, 6),
            "facility_power_typical_kw": round(self.facility_power_on("typical"), 6),
            "facility_power_nameplate_kw": round(self.facility_power_on("nameplate"), 6),
            "cdus": self.cdus,
            "cdus_placed": self.cdus_placed,
            "liquid_heat_kw": round(self.liquid_heat_kw, 6),
            "cdu_capacity_kw": round(self.cdu_capacity_kw, 6),
            "cdus_short": self.cdus_short,
            "weight_kg": round(self.weight_kg, 3),
            "rear_doors": self.rear_doors,
        }


@dataclass(slots=True)
class Report:
    plan_name: str
    power_basis: str
    totals: Totals
    rack_order: tuple[str, ...]  # rack ids in plan order (shared between reports: never mutate)
    # the evaluator's rack results, read-only and live: current until its next evaluation (a
    # figure held across an edit is read before it, or copied)
    rack_results: Mapping[str, RackResult]
    global_findings: list[Finding]
    sections: dict[str, Any] = field(default_factory=dict)
    # findings of all racks by severity, kept by the evaluator as it adds and removes racks
    # (None: count them from the racks)
    rack_severity_counts: dict[str, int] | None = None
    counts: Mapping[str, int] = field(default_factory=dict)  # devices placed by type id (read-only)
    _findings: list[Finding] | None = field(default=None, repr=False, compare=False)
    _groups: list[FindingGroup] | None = field(default=None, repr=False, compare=False)

    @property
    def racks(self) -> list[RackResult]:
        results = self.rack_results
        return [results[r] for r in self.rack_order]

    def rack(self, rack_id: str) -> RackResult | None:
        return self.rack_results.get(rack_id)

    def _rack_name(self, where: str | None) -> str | None:
        rack = self.rack_results.get(where) if where is not None else None
        return rack.name if rack is not None else where

    @property
    def findings(self) -> list[Finding]:
        """Every finding, errors first, then warnings, then info; within a severity, racks in
        plan order and then the plan-wide ones. Built once per report (a stable bucket pass,
        no sort) and shared: do not mutate the list."""
        if self._findings is None:
            buckets: dict[str, list[Finding]] = {"error": [], "warning": [], "info": []}
            results = self.rack_results
            for rid in self.rack_order:
                for f in results[rid].findings:
                    buckets[f.severity].append(f)
            for f in self.global_findings:
                buckets[f.severity].append(f)
            self._findings = buckets["error"] + buckets["warning"] + buckets["info"]
        return self._findings

    @property
    def finding_groups(self) -> list[FindingGroup]:
        """The findings with one cause and one remedy as one line each
        (``planner.report.finding_groups``), in ``findings`` order. Built once per report."""
        if self._groups is None:
            self._groups = group_findings(self.findings)
        return self._groups

    def counts_by_severity(self) -> dict[str, int]:
        counts = {"error": 0, "warning": 0, "info": 0}
        if self.rack_severity_counts is None:
            for r in self.rack_results.values():
                for f in r.findings:
                    counts[f.severity] += 1
        else:
            counts.update(self.rack_severity_counts)
        for f in self.global_findings:
            counts[f.severity] += 1
        return counts

    @property
    def has_errors(self) -> bool:
        return self.counts_by_severity()["error"] > 0

    def section(self, name: str) -> Any:
        return self.sections.get(name)

    # The built-in sections, typed (None when the section did not run).
    @property
    def facility(self) -> FacilitySection | None:
        return self.sections.get("facility")

    @property
    def network(self) -> NetworkSection | None:
        return self.sections.get("network")

    @property
    def storage(self) -> StorageSection | None:
        return self.sections.get("storage")

    @property
    def cost(self) -> CostSection | None:
        return self.sections.get("cost")

    @property
    def workload(self) -> WorkloadSection | None:
        return self.sections.get("workload")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "plan": {"name": self.plan_name, "power_basis": self.power_basis},
            "totals": self.totals.to_json(),
            "racks": [r.to_json() for r in self.racks],
            # ``where`` is a rack's (or device's) id, as the plan file holds it; ``where_name`` the
            # rack's name, as the message says it (a device's id as it is; None: no place)
            "findings": [f.to_json() | {"where_name": self._rack_name(f.where)} for f in self.findings],
            # the same findings, those of one cause and one remedy as one entry (its places in ``where``)
            "finding_groups": [g.to_json() | {"where_names": [self._rack_name(w) for w in g.places]}
                               for g in self.finding_groups],
        }
        for name, section in self.sections.items():
            out[name] = section.to_json()
        return out
