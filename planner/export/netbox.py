"""The plan as NetBox 4.x bulk-import CSV files, one per object type, in import order.

Column names are the field names of NetBox's import forms (``netbox/dcim/forms/bulk_import.py``:
``SiteImportForm``, ``RackImportForm``, ``DeviceImportForm``, ``PowerFeedImportForm``,
``CableImportForm`` ...); choice values are NetBox's (``netbox/dcim/choices.py``). Objects refer
to each other by name, as those forms look them up.

Writing (``write_netbox``): rows stream straight into the files of a hidden folder beside the
target, which replaces the target folder only once every file is complete, so an error or a
full disk leaves the previous export whole and the folder never mixes two plans. NetBox
imports cells literally, so a name a spreadsheet would take as a formula (``= + - @``, tab,
carriage return first) is refused, naming the objects, rather than altered (docs/safety.md).

Why it is long: one builder per NetBox object type (sites, racks, device types, devices,
power feeds, cables), in import order, and the one streamed, staged write of their files.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

from planner.costs.bom import parts_bill
from planner.costs.parts import schedule_lines
from planner.facility.power import evaluate_rack
from planner.hardware.catalog import CATEGORY_TITLES, Catalog, DeviceType
from planner.network.cables import MANAGEMENT_PORTS, MANAGEMENT_SWITCHES, build_schedule
from planner.network.fabric import plan_fabric
from planner.plan.model import Plan
from planner.report import palette
from planner.safefile import (
    SaveError, save_failure, write_folder,
)
from planner.text import FORMULA_STARTS, clean_text

# The order NetBox needs them imported in: each file refers only to objects of the files before it.
FILES: dict[str, tuple[str, ...]] = {
    "sites.csv": ("name", "slug", "status", "description"),
    "locations.csv": ("site", "name", "slug", "status", "description"),
    "manufacturers.csv": ("name", "slug"),
    "device-roles.csv": ("name", "slug", "color"),
    "device-types.csv": ("manufacturer", "model", "slug", "u_height", "is_full_depth", "airflow", "weight",
                         "weight_unit", "comments"),
    "racks.csv": ("site", "location", "name", "status", "width", "u_height", "max_weight", "weight_unit",
                  "description"),
    "devices.csv": ("name", "role", "manufacturer", "device_type", "status", "site", "location", "rack",
                    "position", "face", "description"),
    "power-panels.csv": ("site", "name", "description"),
    "power-feeds.csv": ("site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase",
                        "voltage", "amperage", "max_utilization", "description"),
    "power-ports.csv": ("device", "name", "maximum_draw", "allocated_draw", "description"),
    "interfaces.csv": ("device", "name", "type", "description"),
    "cables.csv": ("side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
                   "type", "status", "label", "length", "length_unit"),
}

# the app's palette, as NetBox's 6-digit hex (lower case, no '#')
ROLE_COLORS = {category: color.lstrip("#").lower() for category, color in palette.CATEGORY_COLORS.items()}

# Rack feeds: NetBox wants voltage and amperage. A catalog PDU with a 'pdu' block gives its
# circuit; one with a rated kW only is taken on the planner's default circuit, 3-phase 415 V, with
# A = kW / (sqrt(3) x V x derating).
FEED_VOLTAGE_V = 415

# NetBox interface types (dcim.choices.InterfaceTypeChoices) by technology and line rate.
INTERFACE_TYPES: dict[tuple[str, float], str] = {
    ("infiniband", 200): "infiniband-hdr", ("infiniband", 400): "infiniband-ndr",
    ("infiniband", 800): "infiniband-xdr",
    ("ethernet", 1): "1000base-t", ("ethernet", 10): "10gbase-x-sfpp", ("ethernet", 25): "25gbase-x-sfp28",
    ("ethernet", 100): "100gbase-x-qsfp28", ("ethernet", 200): "200gbase-x-qsfp56",
    ("ethernet", 400): "400gbase-x-osfp", ("ethernet", 800): "800gbase-x-osfp",
}


def slugify(text: str) -> str:
    """NetBox slugs: letters, digits, hyphens and underscores."""
    return re.sub(r"[^a-z0-9_]+", "-", text.lower()).strip("-")[:100] or "item"


def interface_type(technology: str, gbps: float) -> str:
    return INTERFACE_TYPES.get((technology, gbps), "other")


@dataclass(slots=True)
class NetBoxExport:
    """Rows per file name, and notes on what the plan could not say."""

    rows: dict[str, list[dict]] = field(default_factory=lambda: {name: [] for name in FILES})
    notes: list[str] = field(default_factory=list)

    def add(self, file: str, /, **row) -> None:
        self.rows[file].append(row)

    def count(self, file: str) -> int:
        """How many rows ``file`` has."""
        return len(self.rows[file])

    def csv_text(self, name: str) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=FILES[name], lineterminator="\n", extrasaction="raise")
        writer.writeheader()
        writer.writerows(self.rows[name])
        return out.getvalue()


def _unique(names: Counter, wanted: str, fallback: str, limit: int) -> str:
    """``wanted`` unless it is taken (NetBox names are unique per site), then ``wanted-fallback``;
    at most ``limit`` characters (NetBox's field length)."""
    wanted = wanted[:limit]
    name = wanted if wanted and not names[wanted] else f"{(wanted or 'device')[:limit - len(fallback) - 1]}-{fallback}"
    names[name] += 1
    return name


def build_netbox(plan: Plan, catalog: Catalog, out: NetBoxExport | None = None) -> NetBoxExport:
    """Every object of the plan as NetBox import rows, kept in memory (or streamed into ``out``)."""
    out = NetBoxExport() if out is None else out
    site = plan.name[:100]
    out.add("sites.csv", name=site, slug=slugify(site), status="planned", description=plan.description[:200])
    rows = sorted({r.row for r in plan.racks if r.row})
    for row in rows:
        out.add("locations.csv", site=site, name=row, slug=slugify(row), status="planned", description="row")
    used = [catalog[i] for i in dict.fromkeys(p.device for p in plan.placements) if i in catalog]
    for vendor in dict.fromkeys(d.vendor for d in used):
        out.add("manufacturers.csv", name=vendor, slug=slugify(vendor))
    for category in dict.fromkeys(d.category for d in used):
        title = CATEGORY_TITLES[category]
        out.add("device-roles.csv", name=title, slug=slugify(title), color=ROLE_COLORS[category])
    for d in used:
        out.add("device-types.csv", manufacturer=d.vendor, model=d.model[:100], slug=slugify(d.id), u_height=d.u_height,
                is_full_depth="true", airflow="front-to-rear" if d.cooling == "air" else "",
                weight=f"{d.weight_kg:g}", weight_unit="kg", comments=f"Source: {d.source}")

    rack_names: dict[str, Counter] = {}
    rack_name: dict[str, str] = {}
    for r in plan.racks:
        name = _unique(rack_names.setdefault(r.row, Counter()), r.name, r.id, 100)
        rack_name[r.id] = name
        out.add("racks.csv", site=site, location=r.row, name=name, status="planned", width=19, u_height=r.height_u,
                max_weight=f"{r.max_weight_kg:g}", weight_unit="kg",
                description=f"{r.cooling}-cooled, {r.power_cap_kw:g} kW cap")

    device_names: Counter = Counter()
    device_name: dict[str, str] = {}
    for p in plan.placements:
        d = catalog.get(p.device)
        if d is None:
            continue
        rack = plan.rack(p.rack)
        name = _unique(device_names, p.label or f"{rack.name}-U{p.u}", p.id, 64)
        device_name[p.id] = name
        out.add("devices.csv", name=name, role=CATEGORY_TITLES[d.category], manufacturer=d.vendor,
                device_type=d.model[:100], status="planned", site=site, location=rack.row, rack=rack_name[rack.id],
                position=p.u, face="front", description=d.title)
        if d.power_max_w > 0:
            out.add("power-ports.csv", device=name, name="PSU", maximum_draw=round(d.power_max_w),
                    allocated_draw=round(d.power_typical_w), description="the device's draw, all supplies together")
        for port, kind, nic in _ports(d):
            out.add("interfaces.csv", device=name, name=port, type=interface_type(nic[0], nic[1]),
                    description=kind)
        if d.id in MANAGEMENT_SWITCHES:
            for i in range(1, MANAGEMENT_PORTS + 1):
                out.add("interfaces.csv", device=name, name=f"swp{i}", type="1000base-t",
                        description="management switch port, 1 Gb/s")
        elif d.power_max_w > 0:
            out.add("interfaces.csv", device=name, name=MANAGEMENT_PORT, type="1000base-t",
                    description="management (BMC) port, 1 Gb/s")

    _power(plan, catalog, out, site, rack_name)
    _cables(plan, catalog, out, device_name)
    _scheduled_cables(plan, catalog, out, device_name)
    return out


def _ports(d: DeviceType) -> list[tuple[str, str, tuple[str, float]]]:
    """(interface name, what it is for, (technology, Gb/s)) of a device's network ports."""
    ports = []
    counters: Counter = Counter()
    for nic in d.nics:
        prefix = "gpu" if nic.purpose == "compute" else "stor"
        for _ in range(nic.count):
            counters[prefix] += 1
            ports.append((f"{prefix}{counters[prefix]}", f"{nic.purpose} NIC, {nic.gbps:g} Gb/s",
                          (nic.technology, nic.gbps)))
    if d.switch:
        for i in range(1, d.switch.ports + 1):
            ports.append((f"swp{i}", f"switch port, {d.switch.gbps_per_port:g} Gb/s",
                          (d.switch.technology, d.switch.gbps_per_port)))
    return ports


def _power(plan: Plan, catalog: Catalog, out: NetBoxExport, site: str, rack_name: dict[str, str]) -> None:
    """Panels A (and B with two feeds); per rack and feed, one power feed per PDU the rack's
    distribution sizes on its nameplate (``planner.facility.distribution``), at the PDU's
    circuit voltage, phase and breaker."""
    power = plan.settings.power
    pdu = catalog.get(power.pdu_device)
    if pdu is None or not pdu.pdu_kw(power.continuous_derating):
        out.notes.append(f"no power feeds: the rack PDU '{power.pdu_device}' has no rated capacity in the catalog")
        return
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
        res = evaluate_rack(plan, r, catalog)
        for feed in res.feeds:
            for i in range(1, feed.pdus + 1):
                out.add("power-feeds.csv", site=site, power_panel=f"PP-{feed.name}", location=r.row,
                        rack=rack_name[r.id], name=f"{rack_name[r.id]}-{feed.name}{i}", status="planned",
                        type="primary" if feed.name == "A" else "redundant", supply="ac", phase=phase,
                        voltage=f"{voltage:g}", amperage=f"{amps:g}",
                        max_utilization=round(power.continuous_derating * 100),
                        description=f"{pdu.title}: {pdu_kw:.1f} kW")


def _cables(plan: Plan, catalog: Catalog, out: NetBoxExport, device_name: dict[str, str]) -> None:
    """The compute fabric as cables, tier by tier as ``plan_fabric`` sizes it: node NICs rail by
    rail into the leaf switches, each leaf's uplinks over the spines of its pod, each spine's
    uplinks over the cores. Switches take their tier in the order they are placed (rack, then U)."""
    fabric = plan.settings.fabric
    switch = catalog.get(fabric.switch_device)
    counts = Counter(p.device for p in plan.placements)
    size = plan_fabric(counts, catalog, fabric) if switch is not None else None
    if size is None or size.leaf_switches == 0:
        out.notes.append("no fabric cables: the plan has no compute fabric to cable")
        return
    order = {r.id: i for i, r in enumerate(plan.racks)}
    placed = sorted((p for p in plan.placements if p.device == switch.id), key=lambda p: (order[p.rack], p.u))
    nodes = [p for p in sorted(plan.placements, key=lambda p: (order[p.rack], p.u))
             if (d := catalog.get(p.device)) is not None and d.gpu is not None and d.compute_nics()]
    leaves = [device_name[p.id] for p in placed[:size.leaf_switches]]
    spines = [device_name[p.id] for p in placed[size.leaf_switches:size.leaf_switches + size.spine_switches]]
    cores = [device_name[p.id] for p in placed[size.leaf_switches + size.spine_switches:size.switches]]
    cable = "mmf" if switch.switch.gbps_per_port >= 100 else "cat6"
    next_port: Counter = Counter()
    nics = {p.id: sum(n.count for n in catalog[p.device].compute_nics()) for p in nodes}
    ends = [(device_name[p.id], f"gpu{rail}") for rail in range(1, max(nics.values(), default=0) + 1)
            for p in nodes if rail <= nics[p.id]]
    down = _shares(size.leaf_down_ports, size.leaf_switches)
    cabled = {"node-leaf": 0, "leaf-spine": 0, "spine-core": 0}
    i = 0
    for leaf, quota in zip(leaves, down):
        for node, nic in ends[i:i + quota]:
            next_port[leaf] += 1
            _cable(out, node, nic, leaf, f"swp{next_port[leaf]}", cable, "node-leaf")
        cabled["node-leaf"] += len(ends[i:i + quota])
        i += quota
    pods = max(1, size.pods)
    cabled["leaf-spine"] = _uplinks(out, leaves, spines, size.leaf_spine_links, size.spine_down_ports, pods,
                                    next_port, cable, "leaf-spine")
    cabled["spine-core"] = _uplinks(out, spines, cores, size.spine_core_links, size.core_ports, 1, next_port, cable,
                                    "spine-core")
    wanted = size.cables_by_tier()
    if cabled != wanted:
        done = ", ".join(f"{cabled[t]:,} of {wanted[t]:,} {t}" for t in wanted if wanted[t])
        out.notes.append(f"cables: {done} links (the plan places {len(placed):,} of the {size.switches:,} fabric "
                         "switches); the storage and management links follow, from the cable schedule")
    else:
        out.notes.append("cables: the compute fabric, then the storage and management links of the cable "
                         "schedule with their lengths")


MANAGEMENT_PORT = "mgmt"
# NetBox cable types (dcim.choices.CableTypeChoices) of the schedule's media
CABLE_TYPES = {"DAC": "dac-passive", "ACC": "dac-active", "AOC": "aoc", "MMF": "mmf-om4", "SMF": "smf-os2",
               "Cat6A": "cat6a"}


def _scheduled_cables(plan: Plan, catalog: Catalog, out: NetBoxExport, device_name: dict[str, str]) -> None:
    """The storage and management links of the cable schedule (``planner.network.cables``), each
    with its medium and stock length: storage NICs ("stor1", ...) and management ports ("mgmt")
    to the switches' ports in the schedule's order. A storage network shared with the compute
    fabric is left out (its ports are the fabric's)."""
    by_site = {(plan.rack(p.rack).name, p.u, p.label or p.id): p.id for p in plan.placements}
    networks = {"management"} | ({"storage"} if plan.settings.fabric.storage_fabric == "separate" else set())
    schedule = build_schedule(plan, catalog)
    # NetBox imports optics as modules in module bays, which the device types do not declare:
    # the export says what the bill of parts buys for these cables instead
    modules = parts_bill(schedule_lines(schedule, catalog, plan.settings.costs), {}, catalog)["transceivers"]
    if modules:
        out.notes.append("transceivers to fit (not imported): " + ", ".join(
            f"{n:,} x {catalog.components[i].model if i in catalog.components else i}" for i, n in modules.items()))
    for link in schedule.links:
        if link.network not in networks:
            continue
        a = device_name.get(by_site.get((link.a.rack, link.a.u, link.a.device), ""))
        b = device_name.get(by_site.get((link.b.rack, link.b.u, link.b.device), ""))
        if a is None or b is None:
            continue
        a_port = MANAGEMENT_PORT if link.network == "management" else f"stor{link.a.port}"
        _cable(out, a, a_port, b, f"swp{link.b.port}", CABLE_TYPES[link.medium.name], link.tier,
               length_m=link.medium.stock_m)


def _shares(total: int, n: int) -> list[int]:
    """``total`` split over ``n`` as evenly as whole numbers go (the first ones take the remainder)."""
    return [total // n + (1 if k < total % n else 0) for k in range(n)] if n else []


def _uplinks(out: NetBoxExport, lower: list[str], upper: list[str], links: int, upper_ports: int, pods: int,
             next_port: Counter, cable: str, label: str) -> int:
    """Cable each lower switch's share of ``links`` round-robin over the upper switches of its pod
    that still have a free down port (when a pod's run out, over any that have); returns the cables made."""
    if not lower or not upper or not links:
        return 0
    capacity = dict(zip(upper, _shares(upper_ports, len(upper))))
    rings = [deque(u for k, u in enumerate(upper) if k * pods // len(upper) == pod and capacity[u] > 0)
             for pod in range(pods)]
    spare = deque(u for u in upper if capacity[u] > 0)
    made = 0
    for k, (name, quota) in enumerate(zip(lower, _shares(links, len(lower)))):
        ring = rings[k * pods // len(lower)]
        for _ in range(quota):
            target = _take(ring, capacity) or _take(spare, capacity)
            if target is None:
                break
            next_port[name] += 1
            next_port[target] += 1
            _cable(out, name, f"swp{next_port[name]}", target, f"swp{next_port[target]}", cable, label)
            made += 1
    return made


def _take(ring: deque, capacity: dict[str, int]) -> str | None:
    """The next switch in ``ring`` with a free port (taken), turning the ring; None when none has."""
    while ring:
        target = ring[0]
        ring.rotate(-1)
        if capacity[target] > 0:
            capacity[target] -= 1
            return target
        ring.pop()  # full: it was rotated to the end
    return None


def _cable(out: NetBoxExport, a: str, a_port: str, b: str, b_port: str, kind: str, label: str,
           length_m: float | None = None) -> None:
    out.add("cables.csv", side_a_device=a, side_a_type="dcim.interface", side_a_name=a_port, side_b_device=b,
            side_b_type="dcim.interface", side_b_name=b_port, type=kind, status="planned", label=label,
            length="" if length_m is None else f"{length_m:g}", length_unit="" if length_m is None else "m")


def file_names(export: NetBoxExport) -> list[str]:
    """The files to write, numbered in import order ("01-sites.csv"); types with no rows are left out."""
    return [f"{i:02d}-{name}" for i, name in enumerate(FILES, 1) if export.count(name)]


NUMBERED = {f"{i:02d}-{name}" for i, name in enumerate(FILES, 1)}
MAX_NAMED = 5


def _some(items: list[str]) -> str:
    """The first few of ``items`` and how many more, for a one-line message."""
    more = f" and {len(items) - MAX_NAMED:,} more" if len(items) > MAX_NAMED else ""
    return ", ".join(items[:MAX_NAMED]) + more


class StreamedExport(NetBoxExport):
    """Rows written to their files in ``folder`` as they are made (a file opens at its first
    row), never held; a cell a spreadsheet would execute is noted, not written."""

    def __init__(self, folder: Path) -> None:
        super().__init__(rows={})
        self.folder = folder
        self.counts: dict[str, int] = dict.fromkeys(FILES, 0)
        self.unsafe: list[str] = []
        self._files: dict[str, tuple] = {}

    def add(self, file: str, /, **row) -> None:
        for column, value in row.items():
            if isinstance(value, str) and value[:1] in FORMULA_STARTS:
                self.unsafe.append(f"{file[:-4]} {column} {clean_text(value, 'line')[:60]!r}")
        self.counts[file] += 1
        if self.unsafe:
            return
        if file not in self._files:
            numbered = f"{list(FILES).index(file) + 1:02d}-{file}"
            handle = open(self.folder / numbered, "w", encoding="utf-8", newline="")
            writer = csv.DictWriter(handle, fieldnames=FILES[file], lineterminator="\n", extrasaction="raise")
            writer.writeheader()
            self._files[file] = (handle, writer)
        self._files[file][1].writerow(row)

    def count(self, file: str) -> int:
        return self.counts[file]

    def finish(self) -> None:
        """Close every file, durably; SaveError naming the objects a spreadsheet would execute."""
        for handle, _ in self._files.values():
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
        self._files.clear()
        if self.unsafe:
            raise SaveError(f"cannot export to NetBox: {_some(self.unsafe)} begin with "
                            "= + - @, a tab or a return, which a spreadsheet runs as a formula and NetBox stores "
                            "as typed; rename them (nothing was written)")

    def abandon(self) -> None:
        """Close what is still open, after a failure (the files are removed with their folder)."""
        for handle, _ in self._files.values():
            try:
                handle.close()
            except OSError:
                pass  # the buffered rest cannot be written either (the disk that failed)
        self._files.clear()


def check_export_folder(directory: str | Path) -> Path:
    """The folder an export replaces (through a symbolic link), or SaveError: a file, or a folder
    holding anything but an earlier export's numbered files (a plan or catalog among them)."""
    target = Path(os.path.realpath(directory))
    if target.exists() and not target.is_dir():
        raise SaveError(f"cannot export to {target}: it is a file; NetBox import files go into a folder")
    if target.is_dir():
        try:
            others = sorted(e.name for e in os.scandir(target) if e.name not in NUMBERED)
        except OSError as exc:
            raise save_failure(target / "01-sites.csv", exc) from None
        if others:
            raise SaveError(f"cannot export to {target}: it holds other files ({_some(others)}), which the export would "
                            "replace; choose an empty or new folder (nothing was written)")
    return target


def write_netbox(plan: Plan, catalog: Catalog, directory: str | Path) -> NetBoxExport:
    """Write the files into ``directory`` (created if missing, else replaced whole); SaveError if not.

    The files are made in a hidden sibling folder and renamed into place together, so the
    folder holds either the previous export or this one, never a mix."""
    target = check_export_folder(directory)
    exports: list[StreamedExport] = []

    def fill(staging: Path) -> None:
        exports.append(StreamedExport(staging))
        try:
            build_netbox(plan, catalog, exports[0])
            exports[0].finish()
        finally:
            exports[0].abandon()

    write_folder(target, fill, first_file="01-sites.csv")
    return exports[0]
