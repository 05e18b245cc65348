"""What a drop would do, before it happens: the rack's checks with one device more (or moved).

``placement_consequence`` answers with a ``Consequence``: ``problem`` when the device cannot
be placed there at all (overlap, outside the rack, a liquid-cooled device in an air-cooled
rack), otherwise the checks that would fail once it is placed, with their figures
("GPU-01 would draw 35.0 / 30 kW"). The rules are the report's own
(``planner.facility.power.evaluate_rack`` and the fabric's port count).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from planner.facility.power import evaluate_rack
from planner.hardware.catalog import Catalog, DeviceType
from planner.hardware.power_limit import plan_catalog
from planner.network.checks import fabric_switches_placed
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.plan.model import Placement, Plan
from planner.plan.space import fit_reason

TRIAL_ID = "what-if"


@dataclass(frozen=True, slots=True)
class Consequence:
    problem: str | None = None
    """Why the device cannot be placed there (the drop is refused), or None."""
    failing: tuple[str, ...] = ()
    """The checks that would fail once it is placed, each a short sentence with its figures."""
    words: tuple[str, ...] = ()
    """The outcome in a few words each, for the label beside the drag ghost ("38.0 / 30 kW (typical)")."""

    @property
    def label(self) -> str:
        """What the ghost's label says: "fits", the failing figures, or why it cannot go there."""
        if self.words:
            return "; ".join(self.words)
        return "cannot place here" if self.problem else "fits"

    @property
    def state(self) -> str:
        """"blocked", "warning" or "ok" (the ghost's red, amber or green)."""
        return "blocked" if self.problem else "warning" if self.failing else "ok"

    def sentence(self) -> str:
        if self.problem:
            return f"Cannot place: {self.problem}"
        if self.failing:
            return "Can place, but " + "; ".join(self.failing)
        return ""


def rack_consequence(plan: Plan, catalog: Catalog, rack_id: str, u: int, device: DeviceType,
                     moving: str | None = None) -> Consequence:
    """The rack-level answer: space and cooling (blocked), then power, nameplate, air limit and weight,
    at the draw the plan's GPU power limit leaves (as the check counts it)."""
    catalog = plan_catalog(plan, catalog)
    device = catalog.get(device.id) or device
    ignore = frozenset({moving}) if moving else frozenset()
    reason = fit_reason(plan, catalog, rack_id, u, device, ignore)  # space and cooling
    if reason:  # the label's few words say the reason the status bar gives in full
        problem, words = reason
        return Consequence(problem=problem, words=(words,) if words else ())
    rack = plan.rack(rack_id)
    facility = plan.settings.facility
    before = evaluate_rack(plan, rack, catalog, facility)
    members = [p for p in plan.rack_members(rack_id).values() if p.id != moving]
    members.append(Placement(id=TRIAL_ID, device=device.id, rack=rack_id, u=u))
    after = evaluate_rack(plan, rack, catalog, facility, members)
    was = {f.code for f in before.findings}

    def fails(code: str, figure) -> bool:
        """The check fails after the drop, and newly or by more than it did (a move within a rack
        that already warns is not news)."""
        return code in {f.code for f in after.findings} and (code not in was or figure(after) > figure(before))

    failing, words = [], []
    if fails("rack.power.over_cap", lambda r: r.power_kw):
        words.append(f"{after.power_kw:.1f} / {rack.power_cap_kw:g} kW ({after.basis})")
        failing.append(f"{rack.name} would draw {words[-1]}")
    if fails("rack.power.nameplate_over_cap", lambda r: r.power_nameplate_kw):
        words.append(f"{after.power_nameplate_kw:.1f} / {rack.power_cap_kw:g} kW (nameplate)")
        failing.append(f"{rack.name}'s nameplate would be {after.power_nameplate_kw:.1f} / {rack.power_cap_kw:g} kW")
    if fails("rack.cooling.air_limit", lambda r: r.air_basis_milliwatts):
        air = after.air_basis_milliwatts / 1e6  # the heat into the room, after a rear door (the check's)
        words.append(f"{air:.1f} / {facility.air_cooling_limit_kw:g} kW air limit")
        failing.append(f"air-cooled {rack.name} would put {air:,.1f} kW into the air, over the "
                       f"{facility.air_cooling_limit_kw:g} kW air-cooling limit")
    if fails("rack.weight.over_limit", lambda r: r.weight_kg):
        words.append(f"{after.weight_kg:,.0f} / {rack.max_weight_kg:g} kg")
        failing.append(f"{rack.name} would carry {words[-1]}")
    return Consequence(failing=tuple(failing), words=tuple(words))


def port_shortfall(plan: Plan, catalog: Catalog, device: DeviceType) -> str | None:
    """For a new GPU node: the compute fabric's ports it would leave short, or None.

    The report's rule (``network.ports.short``): the placed fabric switches' ports against
    the ports the fabric needs for every GPU node, this one included."""
    if device.gpu is None or not device.compute_nics():
        return None
    fabric = plan.settings.fabric
    switch = catalog.get(fabric.switch_device)
    if switch is None or switch.switch is None:
        return None
    counts = Counter(p.device for p in plan.placements)
    counts[device.id] += 1
    try:
        size = plan_fabric(dict(counts), catalog, fabric)
    except FabricSizingError:
        return None
    nodes = sum(n for d, n in counts.items() if d in catalog and catalog[d].gpu is not None)
    placed = fabric_switches_placed(counts, catalog, fabric) * switch.switch.ports
    if size is None or not size.endpoints or nodes <= 1 or placed >= size.ports_needed:
        return None
    return (f"no free fabric switch port for its NICs: the fabric would need {size.ports_needed:,} ports, "
            f"{placed:,} placed")


def placement_consequence(plan: Plan, catalog: Catalog, rack_id: str, u: int, device: DeviceType,
                          moving: str | None = None) -> Consequence:
    """What placing ``device`` at ``u`` of a rack (or moving placement ``moving`` there) would do."""
    result = rack_consequence(plan, catalog, rack_id, u, device, moving)
    if result.problem or moving:
        return result
    ports = port_shortfall(plan, catalog, device)
    return Consequence(failing=result.failing + ((ports,) if ports else ()))
