"""The plan as NetBox 4.x bulk-import CSV files, one per object type, in import order.

Column names are the field names of NetBox's import forms (``netbox/dcim/forms/bulk_import.py``:
``SiteImportForm``, ``RackImportForm``, ``DeviceImportForm``, ``PowerFeedImportForm``,
``CableImportForm`` ...); choice values are NetBox's (``netbox/dcim/choices.py``). Objects refer
to each other by name, as those forms look them up.

Into a NetBox in use (``NetBoxOptions``): a prefix makes device names unique across plans
(NetBox's interface, power-port and outlet import finds a device by name alone; cables name
each end's site too), and what NetBox already holds (``planner.export.netbox_existing``) is
used, not written again. The power chain (PDUs, outlets, their cables) is
``planner.export.netbox_power``; text is fitted to NetBox's field lengths (``netbox_text``).

Writing (``write_netbox``): rows stream straight into the files of a hidden folder beside the
target (``planner.export.netbox_files``, in parts of ``chunk_rows`` rows), which replaces the
target folder only once every file is complete, so an error or a full disk leaves the
previous export whole and the folder never mixes two plans.

Why it is long: one builder per NetBox object type (sites, racks, device types, devices,
interfaces, the cable schedule's cables, optics), in import order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from planner.costs.parts import end_modules
from planner.export.netbox_existing import Existing, slugify
from planner.export.netbox_files import (  # noqa: F401 - the export's file layout, named from here too
    CHUNK_ROWS, FILES, NetBoxExport, StreamedExport, check_export_folder, file_names,
)
from planner.export.netbox_locations import location_rows
from planner.export.netbox_power import power_rows
from planner.export.rack_columns import NETBOX_RACKS
from planner.export.netbox_text import DESCRIPTION, DEVICE_NAME, NAME, PART_ID, fit, unique_name
from planner.hardware.catalog import CATEGORY_TITLES, Catalog, DeviceType
from planner.hardware.power_limit import plan_catalog
from planner.network.cables import build_schedule
from planner.network.ports import MANAGEMENT_PORTS, MANAGEMENT_SWITCHES, has_management_port
from planner.plan.model import Plan
from planner.plan.settings_text import settings_block
from planner.report import palette
from planner.safefile import write_folder

# the app's palette, as NetBox's 6-digit hex (lower case, no '#')
ROLE_COLORS = {category: color.lstrip("#").lower() for category, color in palette.CATEGORY_COLORS.items()}

# NetBox interface types (dcim.choices.InterfaceTypeChoices) by technology and line rate.
INTERFACE_TYPES: dict[tuple[str, float], str] = {
    ("infiniband", 200): "infiniband-hdr", ("infiniband", 400): "infiniband-ndr",
    ("infiniband", 800): "infiniband-xdr",
    ("ethernet", 1): "1000base-t", ("ethernet", 10): "10gbase-x-sfpp", ("ethernet", 25): "25gbase-x-sfp28",
    ("ethernet", 100): "100gbase-x-qsfp28", ("ethernet", 200): "200gbase-x-qsfp56",
    ("ethernet", 400): "400gbase-x-osfp", ("ethernet", 800): "800gbase-x-osfp",
}


def interface_type(technology: str, gbps: float) -> str:
    return INTERFACE_TYPES.get((technology, gbps), "other")


@dataclass(frozen=True, slots=True)
class NetBoxOptions:
    """How to export: a prefix making device names unique across plans, rows per file, and what
    the NetBox already holds (``planner.export.netbox_existing``)."""

    prefix: str = ""
    chunk_rows: int = CHUNK_ROWS
    existing: Existing | None = None

    @property
    def name_prefix(self) -> str:
        """"a" -> "a-"; a prefix ending in a separator is used as given."""
        return self.prefix if not self.prefix or self.prefix[-1] in "-_./ " else f"{self.prefix}-"


def build_netbox(plan: Plan, catalog: Catalog, out: NetBoxExport | None = None,
                 options: NetBoxOptions = NetBoxOptions()) -> NetBoxExport:
    """Every object of the plan as NetBox import rows, kept in memory (or streamed into ``out``)."""
    out = NetBoxExport() if out is None else out
    have = options.existing or Existing()
    prefix = options.name_prefix
    site = out.site = fit(plan.name, NAME)
    out.add("sites.csv", name=site, slug=slugify(site), status="planned",
            description=fit(plan.description, DESCRIPTION), comments=settings_block(plan.settings))
    location = location_rows(plan, out, site)  # rack id -> its row's or hall's location
    out.tell("the cable schedule")  # campus-1m: 5 s, then 2 s for its optics, before the racks' rows
    schedule = build_schedule(plan, catalog)
    out.tell("the transceivers")
    optics = end_modules(schedule, catalog)
    used = [catalog[i] for i in dict.fromkeys(p.device for p in plan.placements) if i in catalog]
    # the device types are the hardware's (datasheet power); each device's draw and the feeds
    # carrying it are as it runs, under the plan's GPU power limit (as the check counts them)
    running = plan_catalog(plan, catalog)
    pdu = catalog.get(plan.settings.power.pdu_device)
    if pdu is not None and pdu not in used and plan.racks:
        used.append(pdu)
    types = {d.id: have.device_type(d.id, d.vendor, d.model) for d in used}
    makers = {d.id: t.manufacturer if (t := types[d.id]) else have.manufacturers.get(slugify(d.vendor),
                                                                                      fit(d.vendor, NAME))
              for d in used}
    models = {d.id: t.model if (t := types[d.id]) else fit(d.model, NAME) for d in used}
    roles = {c: have.roles.get(slugify(CATEGORY_TITLES[c]), CATEGORY_TITLES[c]) for c in {d.category for d in used}}
    optic_makers = {m.vendor: have.manufacturers.get(slugify(m.vendor), fit(m.vendor, NAME))
                    for m, _ in optics.values() if m is not None}  # the transceivers' makers, as NetBox names them
    for vendor in dict.fromkeys([makers[d.id] for d in used] + list(optic_makers.values())):
        if slugify(vendor) not in have.manufacturers:
            out.add("manufacturers.csv", name=vendor, slug=slugify(vendor))
    for category in dict.fromkeys(d.category for d in used):
        if slugify(roles[category]) not in have.roles:
            out.add("device-roles.csv", name=roles[category], slug=slugify(roles[category]),
                    color=ROLE_COLORS[category])
    for d in used:
        if types[d.id] is None:
            out.add("device-types.csv", manufacturer=makers[d.id], model=models[d.id], slug=slugify(d.id),
                    u_height=d.u_height, is_full_depth="true", airflow="front-to-rear" if d.cooling == "air" else "",
                    weight=f"{d.weight_kg:g}", weight_unit="kg", comments=f"Source: {d.source}")
    reused = sorted({f"{t.manufacturer} {t.model}" for t in types.values() if t})
    if reused:
        out.notes.append(f"device types NetBox already holds, used as they are: {', '.join(reused)}")

    rack_names: dict[str, Counter] = {}
    rack_name: dict[str, str] = {}
    for r in plan.racks:
        name = unique_name(rack_names.setdefault(location[r.id], Counter()), r.name, r.id, NAME)
        rack_name[r.id] = name
        out.add("racks.csv", **{c.name: c.value(r, site, location[r.id], name) for c in NETBOX_RACKS})

    device_names: Counter = Counter()
    device_name: dict[str, str] = {}
    fabric_switch = catalog.get(plan.settings.fabric.switch_device)
    fabric_tech = fabric_switch.switch.technology if fabric_switch is not None and fabric_switch.switch else None
    for p in plan.placements:
        d = catalog.get(p.device)
        if d is None:
            continue
        rack = plan.rack(p.rack)
        name = unique_name(device_names, prefix + (p.label or f"{rack.name}-U{p.u}"), p.id, DEVICE_NAME)
        device_name[p.id] = name
        made = types[d.id].components if types[d.id] else frozenset()
        out.add("devices.csv", name=name, role=roles[d.category], manufacturer=makers[d.id],
                device_type=models[d.id], status="planned", site=site, location=location[rack.id],
                rack=rack_name[rack.id],
                position=p.u, face="front", description=fit(d.title, DESCRIPTION))
        if d.power_max_w > 0 and ("power-ports", "PSU") not in made:
            drawn = running[d.id]  # the device as it runs, under the plan's GPU power limit
            out.add("power-ports.csv", device=name, name="PSU", maximum_draw=round(drawn.power_max_w),
                    allocated_draw=round(drawn.power_typical_w), description="the device's draw, all supplies together")
        ports = [(port, interface_type(*nic), kind) for port, kind, nic in _ports(d, catalog, fabric_tech)]
        if d.id in MANAGEMENT_SWITCHES:
            ports += [(f"swp{i}", "1000base-t", "management switch port, 1 Gb/s")
                      for i in range(1, MANAGEMENT_PORTS + 1)]
        elif has_management_port(d):
            ports.append((MANAGEMENT_PORT, "1000base-t", "management (BMC) port, 1 Gb/s"))
        for port, kind, what in ports:
            if ("interfaces", port) not in made:  # else NetBox makes it from the type's templates
                out.add("interfaces.csv", device=name, name=port, type=kind, description=what)
    if not options.prefix:
        out.notes.append("device names are unique within this plan only: give --prefix to import a second plan "
                         "into the same NetBox (its interface and power-port import finds devices by name alone)")

    if pdu is not None:
        power_rows(plan, running, out, site, location, rack_name, device_name, device_names, prefix,
                   roles.get(pdu.category, ""), makers.get(pdu.id, ""), models.get(pdu.id, ""))
    else:
        out.notes.append(f"no power feeds: the rack PDU '{plan.settings.power.pdu_device}' is not in the catalog")
    # a schedule site (rack name, U, label) -> its device's NetBox name
    at_site = {(plan.rack(p.rack).name, p.u, p.label or p.id): device_name[p.id]
               for p in plan.placements if p.id in device_name}
    _scheduled_cables(plan, schedule, out, at_site)
    _transceivers(schedule, optics, out, at_site, optic_makers)
    return out


def _ports(d: DeviceType, catalog: Catalog, fabric_tech: str | None) -> list[tuple[str, str, tuple[str, float]]]:
    """(interface name, what it is for, (technology, Gb/s)) of a device's network ports; a
    compute NIC that runs the compute fabric's technology (a VPI adapter) in that mode."""
    ports = []
    counters: Counter = Counter()
    for nic in d.nics:
        prefix = "gpu" if nic.purpose == "compute" else "stor"
        tech = nic.technology
        if nic.purpose == "compute" and fabric_tech in catalog.nic_link_layers(nic):
            tech = fabric_tech
        for _ in range(nic.count):
            counters[prefix] += 1
            ports.append((f"{prefix}{counters[prefix]}", f"{nic.purpose} NIC, {nic.gbps:g} Gb/s", (tech, nic.gbps)))
    if d.switch:
        for i in range(1, d.switch.ports + 1):
            ports.append((f"swp{i}", f"switch port, {d.switch.gbps_per_port:g} Gb/s",
                          (d.switch.technology, d.switch.gbps_per_port)))
    return ports


MANAGEMENT_PORT = "mgmt"
# NetBox cable types (dcim.choices.CableTypeChoices) of the schedule's media
CABLE_TYPES = {"DAC": "dac-passive", "ACC": "dac-active", "AOC": "aoc", "MMF": "mmf-om4", "SMF": "smf-os2",
               "Cat6A": "cat6a"}


def _scheduled_cables(plan: Plan, schedule, out: NetBoxExport, at_site: dict[tuple, str]) -> None:
    """Every link of the cable schedule (``planner.network.cables``) as a NetBox cable, with its
    medium and stock length, port to port as the schedule routes it: the compute fabric tier by
    tier (node NICs "gpu1", ... to the leaves, leaves to spines, spines to cores), then the
    storage NICs ("stor1", ...) to the storage leaves and those to their spines, and the
    management ports ("mgmt"), switch ports "swp1", ... A
    storage network shared with the compute fabric is left out (its ports are the fabric's)."""
    networks = {"compute", "management"} | ({"storage"} if plan.settings.fabric.storage_fabric == "separate" else set())
    cabled: Counter = Counter()
    for link in schedule.links:
        if link.network not in networks:
            continue
        a = at_site.get((link.a.rack, link.a.u, link.a.device))
        b = at_site.get((link.b.rack, link.b.u, link.b.device))
        if a is None or b is None:
            continue
        a_port = {"management": MANAGEMENT_PORT, "storage": f"stor{link.a.port}", "node-leaf": f"gpu{link.a.port}"}.get(
            link.tier, f"swp{link.a.port}")  # switch to switch (a fabric's or the storage network's): its ports
        _cable(out, a, a_port, b, f"swp{link.b.port}", CABLE_TYPES[link.medium.name], link.tier,
               length_m=link.medium.stock_m)
        cabled[link.network] += 1
    unrouted = {t: n for t, n in schedule.unrouted.items() if n}
    if unrouted:
        out.notes.append("cables: " + ", ".join(f"{n:,} {t} links" for t, n in unrouted.items())
                         + " the plan's switches have no port for are not written (the plan places fewer "
                         "switches than its fabric needs; check lists them)")
    written = [what for key, what in (("compute", "the compute fabric"), ("storage", "storage"),
                                      ("management", "management")) if cabled[key]]
    if written:
        out.notes.append(f"cables: the cable schedule's links ({', '.join(written)}), each with its medium and "
                         "stock length" + ("" if cabled["compute"] else "; no compute fabric to cable"))
    else:
        out.notes.append("no cables: the plan has no links to cable")


def _transceivers(schedule, optics: dict, out: NetBoxExport, at_site: dict[tuple, str],
                  makers: dict[str, str]) -> None:
    """The optics as NetBox inventory items of the devices that hold them, as the bill of parts
    counts them (``planner.costs.parts.end_modules``: the fibre links of one tier and speed at a
    device fill its cages, a twin-port module serving two): ``xcvr1``, ``xcvr2`` ... on each device, with
    the catalog id as the part id. NetBox would hold them as modules only in module bays, which
    the device types do not declare; an inventory item needs none."""
    held: Counter = Counter()
    missing = Counter()
    for (network, site, gbps, _medium, _optic, _tier), (module, n) in optics.items():
        if module is None:
            missing[f"{gbps:g}G {network}"] += n
            continue
        name = at_site.get((schedule.site_rack[site], schedule.site_u[site], schedule.site_device[site]))
        if name is None:
            continue
        for _ in range(n):
            held[name] += 1
            out.add("inventory-items.csv", device=name, name=f"xcvr{held[name]}", manufacturer=makers[module.vendor],
                    part_id=fit(module.id, PART_ID), description=fit(f"{network} transceiver: {module.model}",
                                                                     DESCRIPTION))
    if missing:
        out.notes.append("transceivers without a catalog module (not exported): " + ", ".join(
            f"{n:,} x {what}" for what, n in sorted(missing.items())))


def _cable(out: NetBoxExport, a: str, a_port: str, b: str, b_port: str, kind: str, label: str,
           length_m: float | None = None) -> None:
    out.add("cables.csv", side_a_site=out.site, side_a_device=a, side_a_type="dcim.interface", side_a_name=a_port,
            side_b_site=out.site, side_b_device=b, side_b_type="dcim.interface", side_b_name=b_port, type=kind,
            status="planned", label=label, length="" if length_m is None else f"{length_m:g}",
            length_unit="" if length_m is None else "m")


def write_netbox(plan: Plan, catalog: Catalog, directory: str | Path,
                 options: NetBoxOptions = NetBoxOptions(), *,
                 progress: Callable[[int, int, str], None] | None = None) -> NetBoxExport:
    """Write the files into ``directory`` (created if missing, else replaced whole); SaveError if not.

    The files are made in a hidden sibling folder and renamed into place together, so the
    folder holds either the previous export or this one, never a mix. ``progress(rows, 0,
    what)`` is told every few thousand rows; an ``ExportCancelled`` it raises stops the
    export with nothing written (the hidden folder is removed)."""
    target = check_export_folder(directory)
    exports: list[StreamedExport] = []

    def fill(staging: Path) -> None:
        exports.append(StreamedExport(staging, options.chunk_rows, progress))
        try:
            build_netbox(plan, catalog, exports[0], options)
            exports[0].finish()
        finally:
            exports[0].abandon()

    write_folder(target, fill)
    return exports[0]
