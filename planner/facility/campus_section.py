"""The facility figures of each data hall and each building of the campus.

A hall's figures are the sums of its racks (``planner.facility.rack_sums``, kept rack by
rack by the evaluator): IT power typical and nameplate, design heat to liquid (nameplate x
capture) and to air, facility water Q = P / (c_p x rho x delta T) (ASHRAE Handbook
Fundamentals, the sensible heat equation), CDUs by the plan's policy counted on the hall's
own liquid-cooled nodes and heat (a CDU's loop serves its hall, so the halls' CDUs may add up
to more than the plan-wide figure), and the floor area under its racks. A building's are
its halls' sums, with its own plant sized on its own load by the facility section's rules
(``planner.facility.plant``): UPS modules on the IT nameplate, generator sets on the design
load (IT nameplate x PUE), each with the power settings' redundancy and the building's unit
sizes where it gives them; transformers (when the building gives their rating) carry the
design load in kVA at the power factor below, with the generators' redundancy (one
transformer per generator line-up); and its utility feed, when given, must carry the design
load.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.facility.cooling import cdus_needed
from planner.facility.heat import water_l_min
from planner.facility.plant import unit_size_kw, units_for
from planner.facility.rack_sums import RackSums
from planner.figures import Figures, figure
from planner.findings import Finding
from planner.numbers import counted
from planner.plan.campus import campus_of

# kW = kVA x power factor. Planner assumption: 0.9, the least the 80 PLUS specification
# (CLEAResult, 80 PLUS program requirements) lets a server power supply have at 50% load.
POWER_FACTOR = 0.9


@dataclass(frozen=True, slots=True)
class _SpaceFigures(Figures):
    """What a hall and a building both report: the sums of their racks."""

    id: str = figure("", title="Id", unit="name")
    name: str = figure("", title="Name", unit="name")
    racks: int = figure(0, title="Racks")
    gpus: int = figure(0, title="GPUs")
    nodes: int = figure(0, title="Nodes")
    it_power_typical_kw: float = figure(0.0, title="IT power, typical", unit="kW")
    it_power_nameplate_kw: float = figure(0.0, title="IT power, nameplate", unit="kW")
    heat_liquid_kw: float = figure(0.0, title="Design heat to liquid", unit="kW")
    heat_air_kw: float = figure(0.0, title="Design heat to air", unit="kW")
    water_l_min: float = figure(0.0, title="Facility water flow", unit="l/min")
    cdus: int = figure(0, title="CDUs needed", description="a building's: its halls' added up")
    cdus_placed: int = figure(0, title="CDUs placed")
    floor_area_m2: float = figure(0.0, title="Floor area under the racks", unit="m²",
                                  description="the racks' footprints, aisles not counted")


@dataclass(frozen=True, slots=True)
class HallFigures(_SpaceFigures):
    building: str = figure("", title="Building", unit="name", description="the building's id")
    gpu_racks: int = figure(0, title="Racks with GPUs")
    it_power_kw: float = figure(0.0, title="IT power on the plan's basis", unit="kW")
    power_limit_kw: float | None = figure(None, title="Hall power limit", unit="kW", none="no limit")
    floor_rating_kg_m2: float = figure(0.0, title="Floor rating", unit="kg/m²",
                                       description="the hall's own, else the floor settings'")
    racks_over_floor_rating: int = figure(0, title="Racks above the hall's own floor rating")


@dataclass(frozen=True, slots=True)
class BuildingFigures(_SpaceFigures):
    halls: int = figure(0, title="Halls")
    facility_power_kw: float = figure(0.0, title="Design load (IT nameplate x PUE)", unit="kW")
    ups_units: int = figure(0, title="UPS modules")
    ups_unit_kw: float = figure(0.0, title="UPS module size", unit="kW")
    ups_kw: float = figure(0.0, title="UPS capacity installed", unit="kW")
    generator_units: int = figure(0, title="Generator sets")
    generator_unit_kw: float = figure(0.0, title="Generator set size", unit="kW")
    generator_kw: float = figure(0.0, title="Generator capacity installed", unit="kW")
    utility_feed_kw: float | None = figure(None, title="Utility feed", unit="kW", none="not checked")
    transformer_units: int = figure(0, title="Transformers",
                                    description=f"the design load in kVA at power factor {POWER_FACTOR:g} "
                                    "(80 PLUS: server supplies at least 0.9 at 50% load), with the generators' "
                                    "redundancy; 0 when the building gives no transformer rating")
    transformer_unit_kva: float | None = figure(None, title="Transformer rating", unit="kVA", none="not sized")
    transformer_kva: float = figure(0.0, title="Transformer capacity installed", unit="kVA")


# what a hall's and a building's figures read besides their halls' sums ("hall <id>")
_READS = ("settings.facility", "settings.power", "settings.floor")


def campus_figures(ctx) -> tuple[tuple[BuildingFigures, ...], tuple[HallFigures, ...], list[Finding]]:
    """Every building's and every hall's figures (campus order) and the limits they exceed.
    Each is kept in the evaluator's memo under the sums of its own halls: after a move only
    the halls whose racks changed, and their buildings, are worked out again."""
    campus = campus_of(ctx.plan)
    several = len(campus.halls) > 1
    halls: list[HallFigures] = []
    buildings: list[BuildingFigures] = []
    findings: list[Finding] = []
    empty = RackSums()
    for b in campus.buildings:
        mine = []
        for h in b.halls:
            sums = ctx.halls.get(h.id, empty)
            fig, found = ctx.memo.get(("hall", h.id), (f"hall {h.id}",) + _READS, _hall_entry, ctx, b, h, sums,
                                      several)
            mine.append((fig, sums))
            findings += found
        fig, found = ctx.memo.get(("building", b.id), tuple(f"hall {h.id}" for h in b.halls) + _READS,
                                  _building_entry, ctx, b, mine)
        buildings.append(fig)
        findings += found
        halls += [fig for fig, _ in mine]
    return tuple(buildings), tuple(halls), findings


def _hall_entry(ctx, b, h, sums: RackSums, several: bool) -> tuple[HallFigures, list[Finding]]:
    fig = _hall(ctx, b.id, h, sums)
    return fig, _hall_findings(b, h, fig, ctx.plan.settings.facility.power_basis, several)


def _building_entry(ctx, b, halls: list[tuple[HallFigures, RackSums]]) -> tuple[BuildingFigures, list[Finding]]:
    fig = _building(ctx, b, halls)
    return fig, _building_findings(b, fig, ctx.plan.settings.facility.pue)


def _cdus_placed(ctx, counts: dict[str, int]) -> int:
    return ctx.catalog.placed(counts, "cdu")


def _space(ctx, place, sums: RackSums, cdus: int, cdus_placed: int) -> dict:
    """The figures a hall and a building share, from the sums of their racks."""
    s = ctx.plan.settings
    nameplate, liquid = sums.nameplate_milliwatts / 1e6, sums.liquid_heat_milliwatts / 1e6
    return dict(id=place.id, name=place.name, racks=sums.racks, gpus=sums.gpus, nodes=sums.nodes,
                it_power_typical_kw=round(sums.typical_milliwatts / 1e6, 3), it_power_nameplate_kw=round(nameplate, 3),
                heat_liquid_kw=round(liquid, 3), heat_air_kw=round(nameplate - liquid, 3),
                water_l_min=round(water_l_min(liquid, s.facility), 3), cdus=cdus, cdus_placed=cdus_placed,
                floor_area_m2=round(sums.footprint_mm2 / 1e6, 3))


def _hall(ctx, building_id: str, h, sums: RackSums) -> HallFigures:
    s = ctx.plan.settings
    cdus = cdus_needed(sums.liquid_nodes, sums.liquid_heat_milliwatts / 1e6, s.facility, ctx.catalog)
    basis_mw = sums.nameplate_milliwatts if s.facility.power_basis == "nameplate" else sums.typical_milliwatts
    return HallFigures(
        **_space(ctx, h, sums, cdus, _cdus_placed(ctx, sums.counts)), building=building_id,
        gpu_racks=sums.gpu_racks, it_power_kw=round(basis_mw / 1e6, 3), power_limit_kw=h.power_limit_kw,
        floor_rating_kg_m2=h.floor_rating_kg_m2 if h.floor_rating_kg_m2 is not None else s.floor.floor_rating_kg_m2,
        racks_over_floor_rating=sums.floor_over)


def _building(ctx, b, halls: list[tuple[HallFigures, RackSums]]) -> BuildingFigures:
    s = ctx.plan.settings
    p = s.power
    sums = RackSums.total((x for _, x in halls), counts=False)  # its figures read no device counts
    nameplate = sums.nameplate_milliwatts / 1e6
    design = nameplate * s.facility.pue
    ups_unit = unit_size_kw(nameplate, b.ups_module_kw or p.ups_module_kw, p.plant_sizing)
    gen_unit = unit_size_kw(design, b.generator_kw or p.generator_kw, p.plant_sizing)
    ups = units_for(nameplate, ups_unit, p.ups_redundancy)
    gens = units_for(design, gen_unit, p.generator_redundancy)
    trafos = units_for(design / POWER_FACTOR, b.transformer_kva, p.generator_redundancy) if b.transformer_kva else 0
    return BuildingFigures(
        **_space(ctx, b, sums, sum(h.cdus for h, _ in halls), sum(h.cdus_placed for h, _ in halls)),
        halls=len(halls), facility_power_kw=round(design, 3),
        ups_units=ups, ups_unit_kw=ups_unit, ups_kw=round(ups * ups_unit, 3),
        generator_units=gens, generator_unit_kw=gen_unit, generator_kw=round(gens * gen_unit, 3),
        utility_feed_kw=b.utility_feed_kw, transformer_units=trafos, transformer_unit_kva=b.transformer_kva,
        transformer_kva=round(trafos * (b.transformer_kva or 0.0), 3))


def _hall_findings(b, h, fig: HallFigures, basis: str, several: bool) -> list[Finding]:
    """The hall's limits exceeded; with several halls also CDUs short in the hall (a plan of
    one hall has the plan-wide CDU check)."""
    out = []
    if several and fig.cdus_placed < fig.cdus:
        out.append(Finding(
            "warning", "facility.hall.cdu_short",
            f"{h.name} ({b.name}) needs {counted(fig.cdus, 'CDU')} for its {fig.heat_liquid_kw:,.1f} "
            f"kW of design heat to liquid; {fig.cdus_placed} placed in it: a CDU's loop serves its own hall"))
    if h.power_limit_kw is not None and fig.it_power_kw > h.power_limit_kw + 1e-9:
        out.append(Finding(
            "error", "facility.hall.power_limit",
            f"{h.name} ({b.name}) draws {fig.it_power_kw:,.1f} kW of IT power ({basis}), above its limit of "
            f"{h.power_limit_kw:,.1f} kW: move racks to another hall or raise the hall's limit"))
    if fig.racks_over_floor_rating:
        n = fig.racks_over_floor_rating
        out.append(Finding(
            "error", "facility.hall.floor_rating",
            f"{h.name} ({b.name}): {n} rack{'s load' if n != 1 else ' loads'} the floor above the hall's rating of "
            f"{fig.floor_rating_kg_m2:,.0f} kg/m²: spread the load or move {'them' if n != 1 else 'it'} to a hall "
            "with a stronger floor"))
    return out


def _building_findings(b, fig: BuildingFigures, pue: float) -> list[Finding]:
    if b.utility_feed_kw is None or fig.facility_power_kw <= b.utility_feed_kw + 1e-9:
        return []
    return [Finding(
        "error", "facility.building.utility_feed",
        f"{b.name} needs {fig.facility_power_kw:,.1f} kW at design load (IT nameplate "
        f"{fig.it_power_nameplate_kw:,.1f} kW x PUE {pue:g}), more than its utility feed of "
        f"{b.utility_feed_kw:,.1f} kW")]
