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

from planner.facility.heat import water_l_min
from planner.figures import Figures, figure
from planner.findings import Finding


def units_for(load_kw: float, unit_kw: float, redundancy: str) -> int:
    """Units of ``unit_kw`` that carry ``load_kw`` with the redundancy (N, N+1 or 2N)."""
    if load_kw <= 0:
        return 0
    n = math.ceil(load_kw / unit_kw - 1e-9)
    return {"N": n, "N+1": n + 1, "2N": 2 * n}[redundancy]


@dataclass(frozen=True, slots=True)
class FacilitySection(Figures):
    ups_kw: float = figure(0.0, title="UPS capacity installed", unit="kW")
    ups_units: int = figure(0, title="UPS modules")
    ups_load_kw: float = figure(0.0, title="UPS load (IT nameplate)", unit="kW")
    ups_redundancy: str = figure("N+1", title="UPS redundancy", unit="name")
    generator_kw: float = figure(0.0, title="Generator capacity installed", unit="kW")
    generator_units: int = figure(0, title="Generator sets")
    generator_load_kw: float = figure(0.0, title="Generator load (IT nameplate x PUE)", unit="kW")
    generator_redundancy: str = figure("N+1", title="Generator redundancy", unit="name")
    heat_liquid_kw: float = figure(0.0, title="Design heat to liquid", unit="kW")
    heat_air_kw: float = figure(0.0, title="Design heat to air", unit="kW")
    water_l_min: float = figure(0.0, title="Facility water flow", unit="l/min")
    rack_pdus: int = figure(0, title="Rack PDUs (circuits)")
    committed_kw: float = figure(0.0, title="Committed power (racks' caps)", unit="kW")


def evaluate_facility(ctx) -> tuple[FacilitySection, list[Finding]]:
    s = ctx.plan.settings
    t = ctx.totals
    it_kw = t.it_power_nameplate_kw
    gen_load = it_kw * s.facility.pue
    liquid_kw = t.liquid_heat_kw
    ups = units_for(it_kw, s.power.ups_module_kw, s.power.ups_redundancy)
    gens = units_for(gen_load, s.power.generator_kw, s.power.generator_redundancy)
    section = FacilitySection(
        ups_kw=round(ups * s.power.ups_module_kw, 3), ups_units=ups, ups_load_kw=round(it_kw, 3),
        ups_redundancy=s.power.ups_redundancy,
        generator_kw=round(gens * s.power.generator_kw, 3), generator_units=gens,
        generator_load_kw=round(gen_load, 3), generator_redundancy=s.power.generator_redundancy,
        heat_liquid_kw=round(liquid_kw, 3), heat_air_kw=round(it_kw - liquid_kw, 3),
        water_l_min=round(water_l_min(liquid_kw, s.facility), 3),
        rack_pdus=t.pdus, committed_kw=round(t.cap_mw / 1e6, 3))
    return section, []
