"""The report's facility section: UPS and generator capacity, and facility water.

The UPS carries the IT load at nameplate (design load); the generators carry the whole
facility at design load, IT nameplate x PUE. Each is built from units with its
redundancy: N = ceil(load / unit), N+1 = one more, 2N = twice N (Uptime Institute tiers).
By default the units are sized from the load (``unit_size_kw``: N = ceil(load / set size)
units of the load's share rounded up to 50 kW); entered set sizes are used as they are,
with a warning when they install more than twice what the load needs. Facility water: Q = P / (c_p x rho x delta T) over all racks' design
heat to liquid (``planner.facility.heat``). These are the campus's totals; each building's
and each hall's figures, and the limits they exceed, are ``planner.facility.campus_section``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.facility.campus_section import BuildingFigures, HallFigures, campus_figures
from planner.facility.heat import water_l_min
from planner.facility.plant import unit_size_kw, units_for
from planner.figures import Figures, figure
from planner.findings import Finding
from planner.hardware.power_limit import limit_problem


FAR_ABOVE = 2.0  # an entered plant this many times what the load needs is worth a finding


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
    # the campus: the figures above are its totals (``planner.facility.campus_section``)
    buildings: tuple[BuildingFigures, ...] = figure((), title="Buildings")
    halls: tuple[HallFigures, ...] = figure((), title="Data halls")


def evaluate_facility(ctx) -> tuple[FacilitySection, list[Finding]]:
    s = ctx.plan.settings
    t = ctx.totals
    it_kw = t.it_power_nameplate_kw
    gen_load = it_kw * s.facility.pue
    liquid_kw = t.liquid_heat_kw
    sizing = s.power.plant_sizing
    ups_unit = unit_size_kw(it_kw, s.power.ups_module_kw, sizing)
    gen_unit = unit_size_kw(gen_load, s.power.generator_kw, sizing)
    ups = units_for(it_kw, ups_unit, s.power.ups_redundancy)
    gens = units_for(gen_load, gen_unit, s.power.generator_redundancy)
    findings = [f for f in (_far_above("UPS", ups * ups_unit, it_kw, s.power.ups_module_kw, s.power.ups_redundancy,
                                       sizing),
                            _far_above("Generator", gens * gen_unit, gen_load, s.power.generator_kw,
                                       s.power.generator_redundancy, sizing)) if f]
    f = s.facility
    problem = limit_problem((ctx.catalog[k] for k in ctx.counts if k in ctx.catalog), f.gpu_power_limit_w,
                            f.gpu_min_power_limit_share)
    if problem:
        findings.append(Finding("error", "facility.gpu_power_limit.out_of_range",
                                problem + ": the GPUs are evaluated at the nearest limit they accept"))
    buildings, halls, campus_findings = campus_figures(ctx)
    findings += campus_findings
    section = FacilitySection(
        ups_kw=round(ups * ups_unit, 3), ups_units=ups, ups_load_kw=round(it_kw, 3),
        ups_redundancy=s.power.ups_redundancy,
        generator_kw=round(gens * gen_unit, 3), generator_units=gens,
        generator_load_kw=round(gen_load, 3), generator_redundancy=s.power.generator_redundancy,
        heat_liquid_kw=round(liquid_kw, 3), heat_air_kw=round(it_kw - liquid_kw, 3),
        water_l_min=round(water_l_min(liquid_kw, s.facility), 3),
        rack_pdus=t.pdus, committed_kw=round(t.cap_milliwatts / 1e6, 3), buildings=buildings, halls=halls)
    return section, findings


def _far_above(what: str, installed_kw: float, load_kw: float, set_kw: float, redundancy: str,
               sizing: str) -> Finding | None:
    """An entered plant more than twice what units sized to the load would install."""
    if sizing != "entered" or load_kw <= 0:
        return None
    sized_kw = units_for(load_kw, unit_size_kw(load_kw, set_kw, "load"), redundancy) * \
        unit_size_kw(load_kw, set_kw, "load")
    if installed_kw <= FAR_ABOVE * sized_kw + 1e-9:
        return None
    return Finding(
        "warning", f"facility.{what.lower()}.far_above_load",
        f"{what} capacity installed is {installed_kw:,.0f} kW ({redundancy} of {set_kw:,.0f} kW units) for a "
        f"{load_kw:,.1f} kW load: units sized to the load would install {sized_kw:,.0f} kW; set the plant sizing "
        "to 'load' or enter smaller units")
