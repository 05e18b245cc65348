"""The report's facility section: UPS and generator capacity, and facility water.

The UPS carries the IT load at nameplate (design load); the generators carry the whole
facility at design load, IT nameplate x PUE. Each is built from units of the set size
with its redundancy: N = ceil(load / unit), N+1 = one more, 2N = twice N (Uptime
Institute tiers). Facility water: Q = P / (c_p x rho x delta T) over all racks' design
heat to liquid (``planner.facility.heat``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from planner.facility.heat import water_l_min
from planner.report.model import Finding


def units_for(load_kw: float, unit_kw: float, redundancy: str) -> int:
    """Units of ``unit_kw`` that carry ``load_kw`` with the redundancy (N, N+1 or 2N)."""
    if load_kw <= 0:
        return 0
    n = math.ceil(load_kw / unit_kw - 1e-9)
    return {"N": n, "N+1": n + 1, "2N": 2 * n}[redundancy]


@dataclass(slots=True)
class FacilitySection:
    ups_load_kw: float
    ups_units: int
    ups_module_kw: float
    ups_redundancy: str
    generator_load_kw: float
    generator_units: int
    generator_unit_kw: float
    generator_redundancy: str
    heat_liquid_kw: float
    heat_air_kw: float
    water_l_min: float
    rack_pdus: int
    committed_kw: float

    @property
    def ups_kw(self) -> float:
        return self.ups_units * self.ups_module_kw

    @property
    def generator_kw(self) -> float:
        return self.generator_units * self.generator_unit_kw

    def to_json(self) -> dict[str, Any]:
        return {
            "ups_kw": round(self.ups_kw, 3),
            "ups_units": self.ups_units,
            "ups_load_kw": round(self.ups_load_kw, 3),
            "ups_redundancy": self.ups_redundancy,
            "generator_kw": round(self.generator_kw, 3),
            "generator_units": self.generator_units,
            "generator_load_kw": round(self.generator_load_kw, 3),
            "generator_redundancy": self.generator_redundancy,
            "heat_liquid_kw": round(self.heat_liquid_kw, 3),
            "heat_air_kw": round(self.heat_air_kw, 3),
            "water_l_min": round(self.water_l_min, 3),
            "rack_pdus": self.rack_pdus,
            "committed_kw": round(self.committed_kw, 3),
        }


def evaluate_facility(ctx) -> tuple[FacilitySection, list[Finding]]:
    s = ctx.plan.settings
    t = ctx.totals
    it_kw = t.it_power_nameplate_kw
    gen_load = it_kw * s.facility.pue
    liquid_kw = t.liquid_heat_kw
    section = FacilitySection(
        ups_load_kw=it_kw, ups_units=units_for(it_kw, s.power.ups_module_kw, s.power.ups_redundancy),
        ups_module_kw=s.power.ups_module_kw, ups_redundancy=s.power.ups_redundancy,
        generator_load_kw=gen_load,
        generator_units=units_for(gen_load, s.power.generator_kw, s.power.generator_redundancy),
        generator_unit_kw=s.power.generator_kw, generator_redundancy=s.power.generator_redundancy,
        heat_liquid_kw=liquid_kw, heat_air_kw=it_kw - liquid_kw, water_l_min=water_l_min(liquid_kw, s.facility),
        rack_pdus=t.pdus, committed_kw=t.cap_mw / 1e6)
    return section, []
