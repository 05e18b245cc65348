"""One rack's figures as an evaluation leaves them: power, weight, heat, feeds and findings
(made by ``planner.facility.power.evaluate_rack``, summed into the report's totals)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from planner.findings import Finding


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
    typical_milliwatts: int = 0
    nameplate_milliwatts: int = 0
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
    heat_liquid_milliwatts: int = 0  # cold plates and a rear-door heat exchanger: to the water loop
    heat_air_milliwatts: int = 0  # to the room's air
    water_l_min: float = 0.0
    # floor (``planner.facility.floor``)
    enclosure_kg: float = 0.0
    own_rack: bool = False  # it holds a rack-scale system, which is its own rack: no enclosure bought
    rear_door: bool = False  # it carries a rear-door heat exchanger (bought with the racks)
    footprint_m2: float = 0.0
    floor_load_kg_m2: float = 0.0
    # for the rack-level checks (``planner.facility.power.rack_findings``): heat into the
    # room's air on the plan's basis, and whether power shelves feed a bus bar
    air_basis_milliwatts: int = 0
    busbar: bool = False

    @property
    def power_typical_kw(self) -> float:
        return self.typical_milliwatts / 1e6

    @property
    def power_nameplate_kw(self) -> float:
        return self.nameplate_milliwatts / 1e6

    @property
    def power_kw(self) -> float:
        return (self.nameplate_milliwatts if self.basis == "nameplate" else self.typical_milliwatts) / 1e6

    @property
    def weight_kg(self) -> float:
        return self.weight_g / 1e3

    @property
    def pdus(self) -> int:
        """Rack PDUs on all feeds; each is one circuit from the facility."""
        return sum(f.pdus for f in self.feeds)

    @property
    def liquid_heat_milliwatts(self) -> int:
        """Design heat to the water loop (the CDUs' load from this rack)."""
        return self.heat_liquid_milliwatts

    @property
    def heat_liquid_kw(self) -> float:
        return self.heat_liquid_milliwatts / 1e6

    @property
    def heat_air_kw(self) -> float:
        return self.heat_air_milliwatts / 1e6

    @property
    def total_weight_kg(self) -> float:
        """Equipment and the enclosure itself: what stands on the floor."""
        return self.weight_g / 1e3 + self.enclosure_kg

    @property
    def load_fraction(self) -> float:
        return self.power_kw / self.cap_kw if self.cap_kw else 0.0

    def load_on(self, basis: str) -> float:
        """Power on ``basis`` ("typical" or "nameplate") as a fraction of the cap."""
        mw = self.nameplate_milliwatts if basis == "nameplate" else self.typical_milliwatts
        return mw / 1e6 / self.cap_kw if self.cap_kw else 0.0

    @property
    def worst_load_fraction(self) -> float:
        """The higher of the typical and nameplate loads: what a rack's colour warns of."""
        return max(self.load_on("typical"), self.load_on("nameplate"))

    def over_cap(self, basis: str | None = None) -> bool:
        """Power on ``basis`` (default the plan's) above the rack's cap: the rule of
        ``planner.facility.power.evaluate_rack`` (an error on the plan's basis)."""
        mw = self.nameplate_milliwatts if (basis or self.basis) == "nameplate" else self.typical_milliwatts
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
