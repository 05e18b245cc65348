"""The compute and storage fabric a design runs on: the fabric a named switch speaks, the one
a system's NICs speak at their rate, the NIC links run at a slower fabric's port rate, and
a storage switch as fast as the storage NICs. Each choice the intent leaves open is made
here, and said as an info finding where it differs from the default."""

from __future__ import annotations

from planner.design.intent import DesignError, Intent
from planner.findings import Finding
from planner.hardware.catalog import Catalog, DeviceType
from planner.network.technologies import TECHNOLOGIES, fabric_at_nic_rate, links_to, speaks, switches_for
from planner.settings import Settings


def default_switch(catalog: Catalog, tech_id: str, nic_lane_gbps: float | None = None) -> str | None:
    """The first catalog switch that speaks the fabric technology at its line rate (and links to
    NICs of ``nic_lane_gbps`` lanes)."""
    found = switches_for(catalog, tech_id, nic_lane_gbps)
    return found[0].id if found else None


def switch_for_nic_lanes(settings: Settings, intent: Intent, system: DeviceType, catalog: Catalog,
                         findings: list[Finding]) -> None:
    """A fabric switch whose ports run the system's NIC lanes: where the one chosen cannot (an
    HDR ConnectX-6 on an NDR200 port's 2 x 100G lanes), the first of the fabric's switches that
    can, said as a note; a switch the intent names is kept (the check's network.nic.lanes says
    why it cannot link, with the switch that can as its fix)."""
    lane = system.compute_nic_lane_gbps
    switch = catalog.get(settings.fabric.switch_device)
    if (links_to(switch, lane) or intent.switch is not None
            or "switch_device" in intent.settings.get("fabric", {})):
        return
    fits = default_switch(catalog, settings.fabric.technology, lane)
    if fits is None:
        return
    settings.fabric = settings.fabric.model_copy(update={"switch_device": fits})
    findings.append(Finding(
        "info", "design.fabric.lanes",
        f"fabric: {system.model}'s compute NICs signal at {lane:g} Gb/s a lane, which {switch.title}'s ports do not "
        f"run: the fabric is built of {catalog[fits].title}"))


_TRANSPORT_ORDER = {"ib": 0, "roce": 1, "tcp": 2}


def switch_speaks_fabric(switch: DeviceType, fabric: str | None, catalog: Catalog) -> None:
    """A switch the intent names must speak the fabric it names (or, named alone, some fabric):
    a 800G Ethernet switch on a 400G InfiniBand fabric is refused with the switches that fit."""
    sw = switch.switch
    if fabric is None:
        if fabric_for_switch(catalog, switch.id) is None:
            raise DesignError(f"switch: {switch.title} ({sw.gbps_per_port:g} Gb/s {sw.technology} ports) runs none "
                              "of the planner's compute fabrics; name the fabric (--fabric) and one of its switches")
        return
    tech = TECHNOLOGIES[fabric]
    if not speaks(switch, fabric):
        fits = ", ".join(d.id for d in switches_for(catalog, fabric)) or "none in the catalog"
        raise DesignError(f"switch: {switch.title} has {sw.gbps_per_port:g} Gb/s {sw.technology} ports, the fabric "
                          f"asked ({tech.title}) runs {tech.line_rate_gbps:g} Gb/s {tech.switch_technology}: name one "
                          f"of its switches ({fits}) or leave the switch out")


def fabric_for_switch(catalog: Catalog, switch_id: str) -> str | None:
    """The fabric technology a switch speaks at its port rate, named alone (``new --switch``):
    InfiniBand, else plain RoCE before Spectrum-X, RoCE before TCP; None for an unknown switch
    or one no technology matches."""
    d = catalog.get(switch_id)
    fits = [t for t in TECHNOLOGIES.values() if speaks(d, t.id)]
    fits.sort(key=lambda t: (_TRANSPORT_ORDER.get(t.transport, 3), t.id.startswith("spx")))
    return fits[0].id if fits else None


def fabric_for_nics(system: DeviceType, catalog: Catalog) -> str | None:
    """The fabric technology the system's compute NICs speak at their line rate, with a catalog
    switch for it: InfiniBand for InfiniBand NICs; for Ethernet NICs plain RoCE before
    Spectrum-X (which needs NVIDIA SuperNICs), RoCE before TCP. None for a system without
    compute NICs, or whose NICs no catalog switch serves."""
    nics = system.compute_nics()
    if not nics or len({(n.technology, n.gbps) for n in nics}) != 1:
        return None
    tech, rate = nics[0].technology, nics[0].gbps
    fits = [t for t in TECHNOLOGIES.values() if t.switch_technology == tech and t.line_rate_gbps == rate
            and default_switch(catalog, t.id, system.compute_nic_lane_gbps)]
    fits.sort(key=lambda t: (_TRANSPORT_ORDER.get(t.transport, 3), t.id.startswith("spx")))
    return fits[0].id if fits else None


def match_fabric(settings: Settings, intent: Intent, system: DeviceType, catalog: Catalog,
                  findings: list[Finding]) -> None:
    """A compute fabric the system's NICs speak, at their rate, unless the intent names the
    fabric or its switch: the default 400G InfiniBand would leave 800G NICs trained down
    (network.nic.faster_than_switch) or Ethernet NICs on InfiniBand switches (network.nic.technology)."""
    named = intent.settings.get("fabric", {})
    cannot = _nics_cannot_run(settings, system, catalog)
    if cannot and (intent.fabric is not None or intent.switch is not None):  # the user's own fabric: say why not
        fits = fabric_for_nics(system, catalog)
        asked = TECHNOLOGIES[settings.fabric.technology].title
        raise DesignError(
            f"fabric: {system.model}'s compute NICs are {cannot} only and cannot run the switches of {asked}: "
            + (f"choose a fabric they speak ({fits}: {TECHNOLOGIES[fits].title}) or leave --fabric out"
               if fits else "choose a system whose NICs speak it"))
    if not cannot and (intent.fabric is not None or intent.switch is not None or "technology" in named
                       or "switch_device" in named):
        if (intent.fabric is None and intent.switch is not None and "technology" not in named
                and settings.fabric.technology != fabric_for_nics(system, catalog)):  # not what the NICs speak
            tech, switch = TECHNOLOGIES[settings.fabric.technology], catalog.get(intent.switch)
            nics = system.compute_nics()
            slower = [n.gbps for n in nics if n.gbps < tech.line_rate_gbps]
            findings.append(Finding(
                "info", "design.fabric.from_switch",
                f"fabric: {switch.title if switch else intent.switch} speaks {tech.title}: the compute fabric is "
                "that, the switch's own" + (f"; {system.model}'s {min(slower):g} Gb/s compute NICs run at their "
                                           "own rate on its ports" if slower else "")))
        nics_at_switch_rate(settings, system, catalog, findings)
        if intent.switch is None and "switch_device" not in named:
            fabric_at_nics_rate(settings, system, catalog, findings)
        return
    # unnamed, or a template's fabric these NICs cannot run: the fabric the NICs speak
    current = TECHNOLOGIES[settings.fabric.technology]
    nics = system.compute_nics()
    if not nics or all(n.technology == current.switch_technology and n.gbps == current.line_rate_gbps for n in nics):
        return
    tech = fabric_for_nics(system, catalog)
    if tech is None:
        return
    switch = catalog[default_switch(catalog, tech, system.compute_nic_lane_gbps)]
    settings.fabric = settings.fabric.model_copy(update={"technology": tech, "switch_device": switch.id,
                                                         "sharp": TECHNOLOGIES[tech].sharp_capable})
    findings.append(Finding(
        "info", "design.fabric.nics",
        f"fabric: {system.model}'s compute NICs are {nics[0].gbps:g} Gb/s {nics[0].technology}: the compute fabric "
        f"is {TECHNOLOGIES[tech].title} on {switch.title} switches, the fabric those NICs speak at their rate "
        f"(not the {'template' if 'technology' in named or 'switch_device' in named else 'default'} "
        f"{current.title}" + (", which they cannot run)" if cannot else ")")))


def _nics_cannot_run(settings: Settings, system: DeviceType, catalog: Catalog) -> str | None:
    """The technology of the system's compute NICs when they cannot run the fabric switch's
    (Ethernet-only NICs on InfiniBand: network.nic.technology); None when they can, or
    either is unknown."""
    switch = catalog.get(settings.fabric.switch_device)
    nics = system.compute_nics()
    if switch is None or switch.switch is None or not nics:
        return None
    if all(switch.switch.technology in catalog.nic_link_layers(n) for n in nics):
        return None
    return ", ".join(sorted({n.technology for n in nics}))


def nics_at_switch_rate(settings: Settings, system: DeviceType, catalog: Catalog, findings: list[Finding]) -> None:
    """On a fabric the intent names whose switch ports are slower than the system's compute
    NIC links (of a technology the NICs run: VPI adapters run InfiniBand and Ethernet), the NIC links run at the ports' rate, one link a
    NIC: the fabric, its cables and optics and the step model are at that rate, and no port
    is left training down (network.nic.faster_than_switch)."""
    switch = catalog.get(settings.fabric.switch_device)
    nics = system.compute_nics()
    if switch is None or switch.switch is None or not nics or settings.fabric.nic_link_gbps is not None:
        return
    port = switch.switch.gbps_per_port
    link = max(n.plane_gbps for n in nics)
    if link <= port or any(switch.switch.technology not in catalog.nic_link_layers(n) for n in nics):
        return
    settings.fabric = settings.fabric.model_copy(update={"nic_link_gbps": port})
    per = "NIC plane" if max(n.planes for n in nics) > 1 else "NIC"
    findings.append(Finding(
        "info", "design.fabric.nic_rate",
        f"fabric: {system.model}'s {link:g} Gb/s compute NIC links run at {port:g} Gb/s, the rate of the "
        f"{switch.model} ports of the fabric asked: one link a {per}, with cables and optics for {port:g} Gb/s; "
        f"{1 - port / link:.0%} of the NICs' bandwidth is left unused"))


def fabric_at_nics_rate(settings: Settings, system: DeviceType, catalog: Catalog, findings: list[Finding]) -> None:
    """On a fabric the intent names (not its switch) whose ports are faster than the system's
    compute NIC links, the same kind of fabric at the links' rate where a switch of it holds
    more links (an 800G InfiniBand fabric for 400G NICs: Quantum-X800 split to 288 x 400G,
    half the switches of 144 x 800G ports each carrying one 400G link); the check's
    network.nic.slower_than_switch otherwise."""
    switch = catalog.get(settings.fabric.switch_device)
    nics = system.compute_nics()
    if switch is None or switch.switch is None or not nics:
        return
    # a NIC's whole rate: a ConnectX-8 (two 400G planes) runs one 800G link on an XDR port
    link = max(n.gbps for n in nics)
    if settings.fabric.nic_link_gbps is not None:
        link = min(link, settings.fabric.nic_link_gbps)
    if link >= switch.switch.gbps_per_port:
        return
    found = fabric_at_nic_rate(catalog, settings.fabric.technology, link, switch, system.compute_nic_lane_gbps)
    if found is None:
        return
    tech, best = found
    asked = TECHNOLOGIES[settings.fabric.technology]
    settings.fabric = settings.fabric.model_copy(update={
        "technology": tech.id, "switch_device": best.id, "sharp": settings.fabric.sharp and tech.sharp_capable})
    findings.append(Finding(
        "info", "design.fabric.nics_slower",
        f"fabric: {system.model}'s compute NIC links are {link:g} Gb/s, slower than the "
        f"{asked.line_rate_gbps:g} Gb/s ports of {asked.title}: the fabric runs as {tech.title} on {best.title}, "
        f"{best.switch.ports:,} ports a switch each carrying one link, where {switch.model} carries one on each of "
        f"its {switch.switch.ports:,}; name the switch (--switch) to keep it"))


def match_storage_switch(settings: Settings, intent: Intent, system: DeviceType, catalog: Catalog) -> None:
    """A storage switch whose ports run as fast as the system's storage NICs, unless the intent
    names one (a slower switch would train the links down: storage.nic.faster_than_switch)."""
    if "storage_switch_device" in intent.settings.get("fabric", {}):
        return
    nics = system.storage_nics()
    current = catalog.get(settings.fabric.storage_switch_device)
    if not nics or current is None or current.switch is None:
        return
    rate = max(n.gbps for n in nics)
    if current.switch.gbps_per_port >= rate:
        return
    for d in catalog:
        if d.switch and d.switch.technology == "ethernet" and d.switch.gbps_per_port == rate:
            settings.fabric = settings.fabric.model_copy(update={"storage_switch_device": d.id})
            return
