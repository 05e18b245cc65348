"""What NetBox's cables and power feeds say about a plan's settings (``import-netbox``).

- the fabric switch: the switch model GPU servers are cabled to most (management switches,
  1 Gb/s, left out), else the fabric switch model placed most; its technology (the planner's
  default when the switch speaks it, else the first technology of its kind and line rate);
- rail-optimised when every such switch meets one port name of the servers (rail k of every
  server on one leaf: NetBox names a server's NICs alike from server to server), else fat tree;
  the oversubscription is the server links over the links between those switches;
- the storage switch: another fabric-speed switch model placed;
- feed redundancy 2N when a feed is of type Redundant, else N; the catalog PDU on the feeds'
  most common circuit (voltage, phases, breaker);
- the workload's parallelism chosen for the GPUs placed, as a design does
  (``planner.design.parallelism``): NetBox holds no workload;
- the floor: NetBox holds no floor rating or aisle share; racks heavier than the default
  rating carries on their footprint spread their load over the aisle share a design gives
  them (``planner.facility.floor.aisle_share_to_carry_mm``), and the import says so.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from planner.design.parallelism import choose_parallelism
from planner.facility.floor import aisle_share_to_carry_mm
from planner.facility.power import evaluate_rack
from planner.hardware.catalog import Catalog, DeviceType
from planner.importers.netbox_files import Row, number
from planner.network.ports import MANAGEMENT_GBPS, MANAGEMENT_SWITCHES
from planner.hardware.nodes import summarise_nodes
from planner.network.technologies import TECHNOLOGIES
from planner.plan.model import Placement, Plan
from planner.settings import FloorSettings, Settings


def _is_fabric_switch(d: DeviceType | None) -> bool:
    return (d is not None and d.switch is not None and d.id not in MANAGEMENT_SWITCHES
            and d.switch.gbps_per_port > MANAGEMENT_GBPS)


def fabric_switch(rows: list[Row], by_label: dict[str, Placement], catalog: Catalog) -> str | None:
    """The fabric switch model: the one GPU servers are cabled to most, else the most placed."""
    cabled: Counter = Counter()
    for row in rows:
        a, b = by_label.get(row["Device A"]), by_label.get(row["Device B"])
        if a is None or b is None:
            continue
        for server, switch in ((a, b), (b, a)):
            if catalog[server.device].gpu is not None and _is_fabric_switch(catalog[switch.device]):
                cabled[switch.device] += 1
    if cabled:
        return cabled.most_common(1)[0][0]
    placed = Counter(p.device for p in by_label.values() if _is_fabric_switch(catalog[p.device]))
    return placed.most_common(1)[0][0] if placed else None


def inferred_settings(plan: Plan, files: dict, by_label: dict[str, Placement], catalog: Catalog,
                      notes: list[str]) -> Settings:
    """The plan's settings: the defaults with what the cables, feeds and GPUs say (see the module)."""
    defaults = Settings()
    fabric: dict = {}
    switch_id = fabric_switch(files["cables.csv"], by_label, catalog)
    if switch_id is not None:
        switch = catalog[switch_id].switch
        fabric["switch_device"] = switch_id
        tech = TECHNOLOGIES[defaults.fabric.technology]
        if (tech.switch_technology, tech.line_rate_gbps) != (switch.technology, switch.gbps_per_port):
            match = next((t.id for t in TECHNOLOGIES.values()
                          if (t.switch_technology, t.line_rate_gbps) == (switch.technology, switch.gbps_per_port)), None)
            if match:
                fabric["technology"] = match
            else:
                notes.append(f"fabric: no fabric technology of the planner runs {switch.technology} at "
                                 f"{switch.gbps_per_port:g} Gb/s; technology left at {tech.title}")
        fabric |= _topology(files["cables.csv"], by_label, catalog, switch_id)
        others = Counter(p.device for p in plan.placements if _is_fabric_switch(catalog[p.device]) and
                         p.device != switch_id)
        if others:
            fabric["storage_switch_device"] = others.most_common(1)[0][0]
    power = _power_settings(files["power-feeds.csv"], catalog, defaults)
    settings = Settings.model_validate(defaults.model_dump() | {
        "fabric": defaults.fabric.model_dump() | fabric, "power": defaults.power.model_dump() | power})
    nodes = summarise_nodes(dict(Counter(p.device for p in plan.placements)), catalog)
    if settings.workload.enabled and nodes.gpus:
        settings.workload, findings = choose_parallelism(settings.workload, settings.fabric, nodes)
        notes += [f"workload: {f.message}" for f in findings]
    return settings


def _topology(rows: list[Row], by_label: dict[str, Placement], catalog: Catalog, switch_id: str) -> dict:
    """Rail-optimised when every fabric switch the servers reach meets one port name of theirs
    (rail k of every server on one leaf); the oversubscription from down- and uplinks."""
    seen: dict[str, set] = defaultdict(set)
    up = down = 0
    for row in rows:
        a, b = by_label.get(row["Device A"]), by_label.get(row["Device B"])
        if a is None or b is None:
            continue
        ends = ((a, row["Termination A"]), (b, row["Termination B"]))
        for (p, port), (q, _) in (ends, ends[::-1]):
            if catalog[p.device].gpu is not None and q.device == switch_id:
                seen[q.label].add(port)
                down += 1
        if a.device == b.device == switch_id:
            up += 1
    if not seen:
        return {}
    out = {"topology": "rail_optimized" if all(len(ports) == 1 for ports in seen.values()) else "fat_tree"}
    if up and down > up:
        out["oversubscription"] = min(16.0, round(down / up, 2))
    return out


def _power_settings(feeds: list[Row], catalog: Catalog, defaults: Settings) -> dict:
    """Feed redundancy (a redundant feed: 2N) and the catalog PDU on the feeds' circuit."""
    if not feeds:
        return {}
    out = {"feed_redundancy": "2N" if any(f["Type"].lower() == "redundant" for f in feeds) else "N"}
    circuits = Counter((number(f, "Voltage"), 3 if "three" in f["Phase"].lower() else 1, number(f, "Amperage"))
                       for f in feeds)
    circuit = circuits.most_common(1)[0][0]
    pdus = [d.id for d in catalog if d.pdu is not None and (d.pdu.voltage_v, d.pdu.phases, d.pdu.breaker_a) == circuit]
    if pdus and defaults.power.pdu_device not in pdus:
        out["pdu_device"] = pdus[0]
    return out


def spread_floor(plan: Plan, catalog: Catalog, notes: list[str]) -> FloorSettings:
    """The floor settings with the aisle share the heaviest rack needs for the floor rating to
    carry it (its weight as the floor check counts it: devices, and the enclosure unless the
    rack is a rack-scale system's own), as a design spreads racks; unchanged when every rack fits."""
    floor = plan.settings.floor
    need = {r.name: aisle_share_to_carry_mm(evaluate_rack(plan, r, catalog).total_weight_kg, r.width_mm, r.depth_mm,
                                            floor.floor_rating_kg_m2) for r in plan.racks}
    heavy = [name for name, mm in need.items() if mm > floor.aisle_share_mm + 1e-9]
    if not heavy:
        return floor
    aisle = max(need.values())
    notes.append(f"floor: {len(heavy):,} racks ({', '.join(heavy[:5])}{' ...' if len(heavy) > 5 else ''}) weigh "
                 f"more than a {floor.floor_rating_kg_m2:,.0f} kg/m² floor carries under them: each rack spreads its "
                 f"load over a {aisle:,.0f} mm aisle share, as a design would; NetBox holds no floor rating or "
                 "aisle share: set both from the structural engineer")
    return floor.model_copy(update={"aisle_share_mm": aisle})
