"""What an evaluation produces: per-rack figures, totals, findings and per-concern sections.

Dataclasses (slotted; the report's value types); ``to_json`` gives the report
contract printed by ``cluster-planner check --json``.

Why it is long: the report's records (racks, feeds, totals, findings, the report) each with
the JSON keys of the ``check --json`` contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # the section models import this module (Finding)
    from planner.costs.section import CostSection
    from planner.facility.section import FacilitySection
    from planner.network.section import NetworkSection
    from planner.storage.section import StorageSection
    from planner.workload.section import WorkloadSection

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True, slots=True)
class Finding:
    severity: Severity
    code: str
    message: str
    where: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "code": self.code, "message": self.message, "where": self.where}


@dataclass(slots=True)
class RackResult:
    """One rack's figures. Powers are kept in integer milliwatts and weights in grams so
    that totals summed incrementally equal totals summed from scratch, exactly."""

    id: str
    name: str
    height_u: int
    cooling: str
    cap_kw: float
    max_weight_kg: float
    used_u: int = 0
    nodes: int = 0
    gpus: int = 0
    typical_mw: int = 0
    nameplate_mw: int = 0
    weight_g: int = 0
    liquid_nodes: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    basis: str = "typical"
    # power distribution (``planner.facility.distribution``), sized on the nameplate
    feeds: tuple[Any, ...] = ()
    pdu_model: str = ""
    power_shelves: int = 0
    # heat at nameplate (design heat) split by where it goes, integer mW
    heat_liquid_mw: int = 0  # cold plates and a rear-door heat exchanger: to the water loop
    heat_air_mw: int = 0  # to the room's air
    water_l_min: float = 0.0
    # floor (``planner.facility.floor``)
    enclosure_kg: float = 0.0
    footprint_m2: float = 0.0
    floor_load_kg_m2: float = 0.0
    # for the rack-level checks (``planner.facility.power.rack_findings``): heat into the
    # room's air on the plan's basis, and whether power shelves feed a bus bar
    air_basis_mw: int = 0
    busbar: bool = False

    @property
    def power_typical_kw(self) -> float:
        return self.typical_mw / 1e6

    @property
    def power_nameplate_kw(self) -> float:
        return self.nameplate_mw / 1e6

    @property
    def power_kw(self) -> float:
        return (self.nameplate_mw if self.basis == "nameplate" else self.typical_mw) / 1e6

    @property
    def weight_kg(self) -> float:
        return self.weight_g / 1e3

    @property
    def pdus(self) -> int:
        """Rack PDUs on all feeds; each is one circuit from the facility."""
        return sum(f.pdus for f in self.feeds)

    @property
    def liquid_heat_mw(self) -> int:
        """Design heat to the water loop (the CDUs' load from this rack)."""
        return self.heat_liquid_mw

    @property
    def heat_liquid_kw(self) -> float:
        return self.heat_liquid_mw / 1e6

    @property
    def heat_air_kw(self) -> float:
        return self.heat_air_mw / 1e6

    @property
    def total_weight_kg(self) -> float:
        """Equipment and the enclosure itself: what stands on the floor."""
        return self.weight_g / 1e3 + self.enclosure_kg

    @property
    def load_fraction(self) -> float:
        return self.power_kw / self.cap_kw if self.cap_kw else 0.0

    def load_on(self, basis: str) -> float:
        """Power on ``basis`` ("typical" or "nameplate") as a fraction of the cap."""
        mw = self.nameplate_mw if basis == "nameplate" else self.typical_mw
        return mw / 1e6 / self.cap_kw if self.cap_kw else 0.0

    @property
    def worst_load_fraction(self) -> float:
        """The higher of the typical and nameplate loads: what a rack's colour warns of."""
        return max(self.load_on("typical"), self.load_on("nameplate"))

    def over_cap(self, basis: str | None = None) -> bool:
        """Power on ``basis`` (default the plan's) above the rack's cap: the rule of
        ``planner.facility.power.evaluate_rack`` (an error on the plan's basis)."""
        mw = self.nameplate_mw if (basis or self.basis) == "nameplate" else self.typical_mw
        return mw / 1e6 > self.cap_kw + 1e-9

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "height_u": self.height_u,
            "used_u": self.used_u,
            "nodes": self.nodes,
            "gpus": self.gpus,
            "power_kw": round(self.power_kw, 6),
            "power_typical_kw": round(self.power_typical_kw, 6),
            "power_nameplate_kw": round(self.power_nameplate_kw, 6),
            "cap_kw": self.cap_kw,
            "cooling": self.cooling,
            "weight_kg": round(self.weight_kg, 3),
            "feeds": [f.to_json() for f in self.feeds],
            "pdu_model": self.pdu_model,
            "circuits": self.pdus,
            "power_shelves": self.power_shelves,
            "heat_liquid_kw": round(self.heat_liquid_kw, 6),
            "heat_air_kw": round(self.heat_air_kw, 6),
            "water_l_min": round(self.water_l_min, 3),
            "enclosure_kg": self.enclosure_kg,
            "total_weight_kg": round(self.total_weight_kg, 3),
            "footprint_m2": round(self.footprint_m2, 4),
            "floor_load_kg_m2": round(self.floor_load_kg_m2, 1),
        }


@dataclass(frozen=True, slots=True)
class Totals:
    gpus: int = 0
    nodes: int = 0
    racks: int = 0
    gpu_racks: int = 0
    typical_mw: int = 0
    nameplate_mw: int = 0
    weight_g: int = 0
    liquid_nodes: int = 0
    liquid_heat_mw: int = 0  # design heat (nameplate) to the water loop, all racks
    basis: str = "typical"
    pue: float = 1.0
    pdus: int = 0
    cap_mw: int = 0  # sum of the racks' power caps: the committed kW of a colocation contract
    cdus: int = 0
    cdus_placed: int = 0
    cdu_capacity_kw: float = 0.0  # rated heat removal of the placed CDUs (catalog cdu_capacity_kw)
    cdus_short: bool = False  # fewer CDUs than the policy asks, or less capacity than the heat

    @property
    def it_power_typical_kw(self) -> float:
        return self.typical_mw / 1e6

    @property
    def it_power_nameplate_kw(self) -> float:
        return self.nameplate_mw / 1e6

    @property
    def it_power_kw(self) -> float:
        return (self.nameplate_mw if self.basis == "nameplate" else self.typical_mw) / 1e6

    @property
    def facility_power_kw(self) -> float:
        return self.it_power_kw * self.pue

    @property
    def weight_kg(self) -> float:
        return self.weight_g / 1e3

    @property
    def liquid_heat_kw(self) -> float:
        """Heat to the water loop at nameplate (design heat): each device's capture fraction
        plus rear-door heat exchangers. The CDUs are sized on it."""
        return self.liquid_heat_mw / 1e6

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
            "cdus": self.cdus,
            "cdus_placed": self.cdus_placed,
            "liquid_heat_kw": round(self.liquid_heat_kw, 6),
            "cdu_capacity_kw": round(self.cdu_capacity_kw, 6),
            "cdus_short": self.cdus_short,
            "weight_kg": round(self.weight_kg, 3),
        }


@dataclass(slots=True)
class Report:
    plan_name: str
    power_basis: str
    totals: Totals
    rack_order: tuple[str, ...]  # rack ids in plan order (shared between reports: never mutate)
    rack_results: dict[str, RackResult]
    global_findings: list[Finding]
    sections: dict[str, Any] = field(default_factory=dict)
    # findings of all racks by severity, kept by the evaluator as it adds and removes racks
    # (None: count them from the racks)
    rack_severity_counts: dict[str, int] | None = None
    _findings: list[Finding] | None = field(default=None, repr=False, compare=False)

    @property
    def racks(self) -> list[RackResult]:
        results = self.rack_results
        return [results[r] for r in self.rack_order]

    def rack(self, rack_id: str) -> RackResult | None:
        return self.rack_results.get(rack_id)

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
            "findings": [f.to_json() for f in self.findings],
        }
        for name, section in self.sections.items():
            out[name] = section.to_json()
        return out
