"""The power chain as NetBox holds it: panel -> feed -> rack PDU -> device power port.

NetBox computes a rack's power utilisation from its power feeds: the allocated draw of the
power ports cabled to them, over their available power (``Rack.get_power_utilization``). A
feed takes one cable, so each feed goes to one rack PDU, a device with an input power port
(no draw of its own: NetBox then adds up what its outlets feed) and outlets (C13 and C19 as
the catalog's ``pdu`` block gives them, each fed by the input). Every powered device's power
port is cabled to an outlet of a PDU on feed A, to the PDU carrying the least typical draw so
far that has an outlet of the kind the device needs (C19 when its cords are C19).

The feed -> PDU cables import into NetBox 4.5.8 or later (its cable import form takes a power
feed by ``side_a_power_panel``); NetBox 4.4 cannot import a cable to a power feed, so they are
their own file, last.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from planner.export.netbox_text import COMPONENT_NAME, DESCRIPTION, DEVICE_NAME, NAME, fit, unique_name
from planner.facility.power import evaluate_rack
from planner.hardware.catalog import Catalog, DeviceType
from planner.plan.model import Plan

# Rack feeds: NetBox wants voltage and amperage. A catalog PDU with a 'pdu' block gives its
# circuit; one with a rated kW only is taken on the planner's default circuit, 3-phase 415 V, with
# A = kW / (sqrt(3) x V x derating).
FEED_VOLTAGE_V = 415
PDU_INPUT = "input"
OUTLET_TYPES = {"c13": "iec-60320-c13", "c19": "iec-60320-c19"}


@dataclass(slots=True)
class _Pdu:
    name: str
    outlets: dict[str, list[str]]  # kind -> free outlet names
    load_w: float = 0.0


@dataclass(slots=True)
class PowerChain:
    """What the chain made: PDU devices per rack, and the devices left without an outlet."""

    pdus: int = 0
    cabled: int = 0
    uncabled: list[str] = field(default_factory=list)


def pdu_outlets(pdu: DeviceType, wanted: int) -> dict[str, int]:
    """Outlets per kind of one PDU: the catalog's C13 and C19 counts, or ``wanted`` C19 without them."""
    if pdu.pdu is not None and pdu.pdu.outlets_c13 + pdu.pdu.outlets_c19:
        return {"c13": pdu.pdu.outlets_c13, "c19": pdu.pdu.outlets_c19}
    return {"c13": 0, "c19": max(1, wanted)}


def _needs(d: DeviceType) -> str:
    return "c19" if d.power_inlets is not None and d.power_inlets.c19 else "c13"


def power_rows(plan: Plan, catalog: Catalog, out, site: str, location: dict[str, str], rack_name: dict[str, str],
               device_name: dict[str, str], names: Counter, prefix: str, pdu_role: str, pdu_maker: str,
               pdu_model: str) -> PowerChain:
    """Panels, feeds, PDUs with their outlets and the cables of the chain, added to ``out``
    (``location``: each rack's NetBox location by rack id)."""
    chain = PowerChain()
    power = plan.settings.power
    pdu = catalog.get(power.pdu_device)
    if pdu is None or not pdu.pdu_kw(power.continuous_derating):
        out.notes.append(f"no power feeds: the rack PDU '{power.pdu_device}' has no rated capacity in the catalog")
        return chain
    pdu_kw = pdu.pdu_kw(power.continuous_derating)
    if pdu.pdu is not None:
        voltage, amps = pdu.pdu.voltage_v, pdu.pdu.breaker_a
        phase = "three-phase" if pdu.pdu.phases == 3 else "single-phase"
    else:  # a rated kW only: the planner's default circuit, 3-phase 415 V
        voltage, phase = FEED_VOLTAGE_V, "three-phase"
        amps = round(pdu_kw * 1000 / (math.sqrt(3) * FEED_VOLTAGE_V * power.continuous_derating))
    panels = ("A",) if power.feed_redundancy == "N" else ("A", "B")
    for panel in panels:
        out.add("power-panels.csv", site=site, name=f"PP-{panel}", description=f"feed {panel}")
    for r in plan.racks:
        # the rack's own devices (a walk of every device for each rack took campus-1m's export
        # 14 minutes)
        powered = sorted((p for p in plan.rack_members(r.id).values() if p.id in device_name
                          and catalog[p.device].power_max_w > 0), key=lambda p: p.u)
        feed_a: list[_Pdu] = []
        for feed in evaluate_rack(plan, r, catalog).feeds:
            for i in range(1, feed.pdus + 1):
                feed_name = fit(f"{rack_name[r.id]}-{feed.name}{i}", NAME)
                out.add("power-feeds.csv", site=site, power_panel=f"PP-{feed.name}", location=location[r.id],
                        rack=rack_name[r.id], name=feed_name, status="planned",
                        type="primary" if feed.name == "A" else "redundant", supply="ac", phase=phase,
                        voltage=f"{voltage:g}", amperage=f"{amps:g}",
                        max_utilization=round(power.continuous_derating * 100),
                        description=fit(f"{pdu.title}: {pdu_kw:.1f} kW", DESCRIPTION))
                made = _pdu_device(out, site, r, rack_name[r.id], location[r.id], f"{feed.name}{i}", names, prefix,
                                   pdu, -(-len(powered) // feed.pdus), pdu_role, pdu_maker, pdu_model)
                chain.pdus += 1
                out.add("power-feed-cables.csv", side_a_site=site, side_a_power_panel=f"PP-{feed.name}",
                        side_a_type="dcim.powerfeed", side_a_name=feed_name, side_b_site=site, side_b_device=made.name,
                        side_b_type="dcim.powerport", side_b_name=PDU_INPUT, type="power", status="planned",
                        label=f"feed {feed.name}")
                if feed.name == "A":
                    feed_a.append(made)
        for p in powered:
            d = catalog[p.device]
            kind = _needs(d)
            free = [u for u in feed_a if u.outlets[kind]] or [u for u in feed_a if any(u.outlets.values())]
            if not free:
                chain.uncabled.append(device_name[p.id])
                continue
            target = min(free, key=lambda u: u.load_w)
            outlet = (target.outlets[kind] or next(o for o in target.outlets.values() if o)).pop(0)
            target.load_w += d.power_typical_w
            out.add("power-cables.csv", side_a_site=site, side_a_device=target.name, side_a_type="dcim.poweroutlet",
                    side_a_name=outlet, side_b_site=site, side_b_device=device_name[p.id],
                    side_b_type="dcim.powerport", side_b_name="PSU", type="power", status="planned", label="power",
                    length="", length_unit="")
            chain.cabled += 1
    if chain.uncabled:
        out.notes.append(f"power: {len(chain.uncabled):,} devices have no free PDU outlet and are not cabled "
                         f"({', '.join(chain.uncabled[:5])}{' ...' if len(chain.uncabled) > 5 else ''})")
    return chain


def _pdu_device(out, site: str, rack, rack_label: str, location: str, tag: str, names: Counter, prefix: str, pdu: DeviceType,
                wanted: int, role: str, maker: str, model: str) -> _Pdu:
    """One PDU: the device in its rack (no position: mounted at the side), its input, its outlets."""
    name = unique_name(names, f"{prefix}{rack_label}-PDU-{tag}", f"{rack.id}-{tag}", DEVICE_NAME)
    out.add("devices.csv", name=name, role=role, manufacturer=maker, device_type=model, status="planned", site=site,
            location=location, rack=rack_label, position="", face="",
            description=fit(f"{pdu.title}, feed {tag}", DESCRIPTION))
    out.add("power-ports.csv", device=name, name=PDU_INPUT, maximum_draw="", allocated_draw="",
            description="the PDU's input: NetBox adds up the draw of what its outlets feed")
    outlets: dict[str, list[str]] = {}
    for kind, count in pdu_outlets(pdu, wanted).items():
        outlets[kind] = [fit(f"{kind.upper()}-{k}", COMPONENT_NAME) for k in range(1, count + 1)]
        for outlet in outlets[kind]:
            out.add("power-outlets.csv", device=name, name=outlet, type=OUTLET_TYPES[kind], power_port=PDU_INPUT,
                    description=f"{kind.upper()} outlet")
    return _Pdu(name, outlets)
