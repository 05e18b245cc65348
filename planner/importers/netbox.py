"""A plan from NetBox's exports of one site (``cluster-planner import-netbox``).

Reads what ``planner.importers.netbox_files`` reads (sites, racks, devices, cables, device
types; power feeds, power ports and interfaces when they are there) and builds:

- the site's locations as the plan's buildings, data halls and rows
  (``planner.importers.netbox_locations``);
- one rack per NetBox rack: its name, location (its hall and row), height ("42U"), weight
  rating ("1360 kg"); cooling and power cap from the description the planner's own export
  writes ("liquid-cooled, 30 kW cap"), else the rack's primary feeds' power (V x A, x sqrt 3
  for three-phase, x the feed's maximum utilisation) and the cooling its devices need;
- one device per NetBox device with a rack and a position, at that U, its name the label;
- device types matched to the catalog by slug (= catalog id), then part number (a catalog id
  or a word of a catalog model), then manufacturer and model; a type the catalog does not
  have goes through the device-type import (``planner.hardware.netbox_types``), completed
  with the power ports and interfaces of one of its devices when the type has none;
- the plan's settings from the block the planner's export writes into the site's comments
  (``planner.plan.settings_text``); without one, the fabric, power and workload settings the
  cables, feeds and GPUs show, and the aisle share a design gives racks heavier than the
  floor carries under them (``planner.importers.netbox_settings``).

Names keep what NetBox holds, but control characters and text-direction overrides, which no
name of a plan may hold, are written as their escapes ("GPU\\u202e01"): visible, never refused.

A plan holds no cables (it sizes them from its devices and settings): the cables NetBox holds
are counted, and those between two devices of the plan on the compute fabric are compared
with what the plan sizes. What cannot be mapped (a device without rack or position, a type
that neither matches nor imports, a cable whose end is not a device of the plan) is reported,
never guessed.

Why it is long: the report of what was and was not mapped, then one step per NetBox object
(device types, racks, devices, cables) in the order they refer to each other, and the write
of the plan with the device types it needs.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from planner.errors import describe_validation_error, quote
from planner.hardware.catalog import CATALOG_SCHEMA_VERSION, Catalog, DeviceType
from planner.hardware.netbox_types import device_type_from_yaml
from planner.importers.netbox_files import (
    DEVICE_TYPES, OPTIONAL, REQUIRED, NetBoxReadError, Row, interface_kind, number, read_csv, read_device_types,
    weight_kg,
)
from planner.importers.netbox_locations import Campus, read_campus
from planner.importers.netbox_settings import fabric_switch, inferred_settings, spread_floor
from planner.plan.fileio import save_plan
from planner.plan.model import Placement, Plan, Rack, size_problem
from planner.plan.settings_text import read_settings_block
from planner.safefile import write_file
from planner.save_target import check_target
from planner.text import escaped_name

PLANNER_RACK_DESCRIPTION = re.compile(r"(air|liquid|hybrid)-cooled, ([0-9]+(?:\.[0-9]+)?) kW cap")
MAX_LISTED = 5


@dataclass(frozen=True, slots=True)
class Unmapped:
    """An object NetBox holds that the plan does not, and why."""

    name: str
    reason: str


@dataclass(slots=True)
class NetBoxImport:
    """The plan, the device types it needs beyond the catalog, and what could not be mapped."""

    plan: Plan
    new_types: list[DeviceType] = field(default_factory=list)  # from the device-type import
    type_map: dict[str, str] = field(default_factory=dict)  # NetBox "manufacturer model" -> catalog id
    how_mapped: dict[str, str] = field(default_factory=dict)  # NetBox "manufacturer model" -> how
    unmapped_types: list[Unmapped] = field(default_factory=list)
    skipped_devices: list[Unmapped] = field(default_factory=list)
    cables: int = 0  # rows of cables.csv
    cables_between_devices: int = 0  # both ends devices of the plan
    fabric_cables: int = 0  # of those, compute-fabric links (server-switch, switch-switch)
    unknown_cables: list[Unmapped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def sentences(self) -> list[str]:
        """What was imported and what was not, as a person reads it."""
        plan = self.plan
        out = [f"{plan.name}: {len(plan.racks):,} racks, {len(plan.placements):,} devices; "
               f"{self.cables:,} cables in NetBox, {self.cables_between_devices:,} between devices of the plan, "
               f"{self.fabric_cables:,} of them compute-fabric links"]
        counts = Counter(self.how_mapped.values())
        out.append("device types: " + ", ".join(f"{n} by {how}" for how, n in counts.items()) if counts
                   else "device types: none mapped")
        for t in self.unmapped_types:
            out.append(f"device type {quote(t.name)} not mapped: {t.reason}")
        out += _listed([(quote(x.name), x.reason) for x in self.skipped_devices], "device", "not imported")
        out += _listed([(x.name, x.reason) for x in self.unknown_cables], "cable", "not counted")
        return out + self.notes

    def to_json(self) -> dict:
        def items(xs):
            return [{"name": x.name, "reason": x.reason} for x in xs]
        return {
            "site": self.plan.name, "racks": len(self.plan.racks), "devices": len(self.plan.placements),
            "cables": {"in_netbox": self.cables, "between_devices": self.cables_between_devices,
                       "fabric": self.fabric_cables},
            "device_types": {"mapped": dict(self.type_map), "how": dict(self.how_mapped),
                             "imported": [d.id for d in self.new_types], "unmapped": items(self.unmapped_types)},
            "skipped_devices": items(self.skipped_devices), "unknown_cables": items(self.unknown_cables),
            "notes": list(self.notes),
        }


def _listed(items: list[tuple[str, str]], what: str, verb: str) -> list[str]:
    lines = [f"{what} {name} {verb}: {reason}" for name, reason in items[:MAX_LISTED]]
    if len(items) > MAX_LISTED:
        lines.append(f"... and {len(items) - MAX_LISTED:,} more {what}s {verb} (see --json)")
    return lines


def import_netbox(folder: str | Path, catalog: Catalog) -> NetBoxImport:
    """The plan NetBox's exports in ``folder`` describe; NetBoxReadError for a file that cannot be used."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NetBoxReadError(f"{folder}: not a folder; give the folder of NetBox's exported CSV files")
    if not (folder / "sites.csv").exists() and (folder / "01-sites.csv").exists():
        raise NetBoxReadError(
            f"{folder}: holds the planner's NetBox import files (01-sites.csv, ...), which go into NetBox; to read "
            "a plan back, import them into NetBox, then export its Sites, Racks, Devices and Cables lists (Export "
            "> All data) into a folder and give that")
    files = {name: read_csv(folder, name, columns) for name, columns in REQUIRED.items()}
    for name, columns in OPTIONAL.items():
        files[name] = read_csv(folder, name, columns) if (folder / name).exists() else []
    docs = read_device_types(folder)
    sites = files["sites.csv"]
    if len(sites) != 1:
        raise NetBoxReadError(f"sites.csv: {len(sites)} sites; export one site (the Sites list filtered to it)")
    site = sites[0]
    out = NetBoxImport(plan=Plan(name=escaped_name(site["Name"] or "NetBox site")[:200],
                                 description=site["Description"][:5000]))
    types, refused = _map_types(docs, files, catalog, out)
    known = _known_catalog(catalog, out.new_types)
    campus = read_campus(files["locations.csv"])
    if campus.unplaced:
        out.notes.append("buildings and halls without a position in their description stand at the origin: "
                         "set their positions in the plan for the cable runs between them")
    racks, starts = _racks(files["racks.csv"], files["power-feeds.csv"], files["devices.csv"], types, known, campus,
                           out)
    placements = _placements(files["devices.csv"], racks, starts, types, refused, out)
    too_big = size_problem(len(racks), len(placements))
    if too_big:
        raise NetBoxReadError(f"{folder.name}: {too_big}")
    data = out.plan.model_dump() | {"buildings": campus.buildings, "racks": [r.model_dump() for r in racks.values()],
                                    "placements": placements}
    try:
        out.plan = Plan.model_validate(data)
    except ValidationError as exc:
        raise NetBoxReadError(f"{folder.name}: {describe_validation_error(exc, data)}") from None
    by_label = {p.label: p for p in out.plan.placements if p.label}
    _count_cables(files["cables.csv"], by_label, known, out)
    saved, why = read_settings_block(site["Comments"])
    if saved is not None:
        out.plan.settings = saved
        out.notes.append("settings: the plan's own, from the planner's block in the site's comments")
        return out
    if why:
        out.notes.append(f"settings: the site's comments hold a block of planner settings that cannot be read "
                         f"({why}): the settings are inferred from the site instead")
    out.plan.settings = inferred_settings(out.plan, files, by_label, known, out.notes)
    out.plan.settings.floor = spread_floor(out.plan, known, out.notes)
    return out


def _known_catalog(catalog: Catalog, new: list[DeviceType]) -> Catalog:
    """The catalog with the imported types in it (the plan is checked against both)."""
    both = Catalog(list(catalog) + new)
    both.rack_types, both.components = catalog.rack_types, catalog.components
    return both


# -- device types --------------------------------------------------------------------------

def _type_key(manufacturer: object, model: object) -> str:
    return f"{manufacturer} {model}".strip()


def _map_types(docs: list[dict], files: dict, catalog: Catalog, out: NetBoxImport) -> tuple[dict[str, str], set[str]]:
    """NetBox "manufacturer model" -> catalog id, for every type of the YAML that maps or imports;
    and the types the device-type import refused."""
    by_model = {(d.vendor.lower(), d.model.lower()): d.id for d in catalog}
    first_device = {}
    for row in files["devices.csv"]:
        first_device.setdefault(_type_key(row["Manufacturer"], row["Type"]), row["Name"])
    taken = set(catalog.ids())
    refused: set[str] = set()
    for doc in docs:
        key = _type_key(doc.get("manufacturer", ""), doc["model"])
        slug, part = str(doc.get("slug") or ""), str(doc.get("part_number") or "").strip()
        model = (str(doc.get("manufacturer", "")).lower(), str(doc["model"]).lower())
        if slug in catalog:
            found, how = slug, "slug"
        elif part and (match := _by_part_number(part, catalog)):
            found, how = match, "part number"
        elif model in by_model:
            found, how = by_model[model], "model"
        else:
            device = first_device.get(key)
            try:
                new = device_type_from_yaml(_completed(doc, device, files), f"{DEVICE_TYPES} ({key})")
            except ValueError as exc:
                out.unmapped_types.append(Unmapped(key, f"the device-type import refuses it: {exc}"))
                refused.add(key)
                continue
            if new.id in taken:
                new = new.model_copy(update={"id": f"netbox-{new.id}"[:64]})
            taken.add(new.id)
            out.new_types.append(new)
            found, how = new.id, "device-type import"
        out.type_map[key], out.how_mapped[key] = found, how
    return dict(out.type_map), refused


def _by_part_number(part: str, catalog: Catalog) -> str | None:
    """The catalog type whose id is the part number, or whose model names it as a word."""
    wanted = part.lower()
    if wanted in catalog:
        return wanted
    word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(wanted)}(?![A-Za-z0-9])")
    return next((d.id for d in catalog if word.search(d.model.lower())), None)


def _completed(doc: dict, device: str | None, files: dict) -> dict:
    """The type's document with the power ports and interfaces of one of its devices, when it has
    none itself (a type made by a bulk import has no component templates)."""
    doc = dict(doc)
    if device is None:
        return doc
    if not doc.get("power-ports"):
        ports = [r for r in files["power-ports.csv"] if r["Device"] == device]
        doc["power-ports"] = [{"name": r["Name"] or f"psu{k}",
                               "maximum_draw": number(r, "Maximum draw (W)"),
                               "allocated_draw": number(r, "Allocated draw (W)")} for k, r in enumerate(ports)
                              if r["Maximum draw (W)"]]
    if not doc.get("interfaces"):
        doc["interfaces"] = [{"name": r["Name"], "type": interface_kind(r["Type"]),
                              "mgmt_only": r["Management Only"].lower() == "true"}
                             for r in files["interfaces.csv"] if r["Device"] == device]
    return doc


# -- racks and devices -----------------------------------------------------------------------

def _racks(rows: list[Row], feeds: list[Row], devices: list[Row], types: dict[str, str], catalog: Catalog,
           campus: Campus, out: NetBoxImport) -> tuple[dict[tuple[str, str], Rack], dict[str, int]]:
    """(location, name) -> the plan's rack; rack id -> its starting unit (NetBox may number from
    another unit than 1: the planner's U1 is the rack's lowest unit)."""
    feed_kw: Counter = Counter()
    for f in feeds:
        if f["Type"].lower() != "redundant" and f["Rack"]:
            feed_kw[f["Rack"]] += _feed_kw(f)
    liquid = {row["Rack"] for row in devices
              if (d := catalog.get(types.get(_type_key(row["Manufacturer"], row["Type"]), ""))) and d.cooling != "air"}
    rack_type = {row["Rack"]: d.rack_type for row in devices
                 if (d := catalog.get(types.get(_type_key(row["Manufacturer"], row["Type"]), "")))
                 and d.rack_type and d.rack_type in catalog.rack_types}
    racks: dict[tuple[str, str], Rack] = {}
    starts: dict[str, int] = {}
    defaulted = []
    default = Rack(id="r0", name="default")
    for i, row in enumerate(rows, 1):
        height = number(row, "Height", unit="U")
        if height is None or not height.is_integer() or not 1 <= height <= 60:
            raise NetBoxReadError(f"{row.where()}: Height {quote(row['Height'], 20)} is not 1U to 60U")
        weight = weight_kg(row, "Max Weight")
        described = PLANNER_RACK_DESCRIPTION.search(row["Description"])
        if described:
            cooling, cap = described.group(1), float(described.group(2))
        else:
            cooling = "liquid" if row["Name"] in liquid else "air"
            cap = round(feed_kw[row["Name"]], 3) or default.power_cap_kw
            if not feed_kw[row["Name"]]:
                defaulted.append(row["Name"])
        key = (row["Location"], row["Name"])
        if key in racks:
            raise NetBoxReadError(f"{row.where()}: a second rack {quote(row['Name'], 40)} in location "
                                  f"{quote(row['Location'], 40)}")
        try:
            racks[key] = Rack(id=f"r{i}", name=escaped_name(row["Name"])[:100] or f"rack-{i}", height_u=int(height),
                              power_cap_kw=min(cap, 1000.0), cooling=cooling,
                              max_weight_kg=weight if weight and weight <= 20000 else default.max_weight_kg,
                              rack_type=rack_type.get(row["Name"], ""), **campus.place(row["Location"]))
        except ValidationError as exc:  # a cap of 0 kW in its description, feeds of no power
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise NetBoxReadError(f"{row.where()}: rack {quote(row['Name'], 40)}: {field} {first['msg'].lower()} "
                                  f"(read {first.get('input')!r} from its description or power feeds)") from None
        start = number(row, "Starting unit") if row["Starting unit"] else 1.0
        if not start.is_integer() or start < 1:
            raise NetBoxReadError(f"{row.where()}: Starting unit {quote(row['Starting unit'], 20)} is not a whole "
                                  "unit, 1 or more")
        starts[f"r{i}"] = int(start)
    if defaulted:
        out.notes.append(f"{len(defaulted):,} racks have no power feeds and no planner description "
                         f"({', '.join(defaulted[:MAX_LISTED])}): power cap {default.power_cap_kw:g} kW, "
                         "the planner's default")
    return racks, starts


def _feed_kw(row: Row) -> float:
    """A feed's usable power: V x A (x sqrt 3 three-phase) x maximum utilisation, in kW."""
    volts, amps = number(row, "Voltage") or 0.0, number(row, "Amperage") or 0.0
    if not (math.isfinite(volts) and math.isfinite(amps)) or volts < 0 or amps < 0:
        raise NetBoxReadError(f"{row.where()}: a power feed of {row['Voltage']} V and {row['Amperage']} A: "
                              "voltage and amperage are 0 or more")
    utilisation = number(row, "Max Utilization", unit="%") if row["Max Utilization"] else 100.0
    phases = math.sqrt(3) if "three" in row["Phase"].lower() else 1.0
    return volts * amps * phases * (utilisation or 0.0) / 100 / 1000


def _placements(rows: list[Row], racks: dict[tuple[str, str], Rack], starts: dict[str, int],
                types: dict[str, str], refused: set[str], out: NetBoxImport) -> list[dict]:
    by_name: dict[str, list[Rack]] = defaultdict(list)
    for (_, name), rack in racks.items():
        by_name[name].append(rack)
    placements, rear = [], 0
    for i, row in enumerate(rows, 1):
        name = row["Name"] or f"device {row['ID'] or i}"
        key = _type_key(row["Manufacturer"], row["Type"])
        rack = racks.get((row["Location"], row["Rack"])) or next(iter(by_name.get(row["Rack"], [])), None)
        position = number(row, "Position") if row["Position"] else None
        if position is not None and rack is not None:
            position -= starts[rack.id] - 1
        reason = None
        if key not in types:
            reason = (f"its device type {quote(key)} could not be mapped" if key in refused
                      else f"its device type {quote(key)} is not in {DEVICE_TYPES}")
        elif not row["Rack"]:
            reason = "it is not in a rack"
        elif rack is None:
            reason = f"its rack {quote(row['Rack'])} is not in racks.csv"
        elif position is None:
            reason = f"it has no position in rack {rack.name} (a child or zero-U device)"
        elif not position.is_integer() or not 1 <= position <= rack.height_u:
            reason = f"its position U{row['Position']} is not a whole unit of rack {rack.name}"
        if reason:
            out.skipped_devices.append(Unmapped(name, reason))
            continue
        rear += row["Rack face"].lower() == "rear"
        placements.append({"id": f"d{i}", "device": types[key], "rack": rack.id, "u": int(position),
                           "label": escaped_name(row["Name"])[:200]})
    if rear:
        out.notes.append(f"{rear:,} devices are mounted at the rear in NetBox: the planner places every device "
                         "from the front, at the same U")
    return placements


# -- cables and settings ----------------------------------------------------------------------

def _count_cables(rows: list[Row], by_label: dict[str, Placement], catalog: Catalog, out: NetBoxImport) -> None:
    out.cables = len(rows)
    fabric = fabric_switch(rows, by_label, catalog)
    for row in rows:
        ends = [by_label.get(row["Device A"]), by_label.get(row["Device B"])]
        missing = [(side, row[f"Device {side}"]) for side, p in zip("AB", ends) if p is None]
        if missing:
            why = [f"end {side} " + (f"{quote(dev)} is not a device of the plan" if dev
                                     else "is not a device's port (a circuit or power feed)") for side, dev in missing]
            out.unknown_cables.append(Unmapped(f"#{row['ID']}", "; ".join(why)))
            continue
        out.cables_between_devices += 1
        kinds = [p.device for p in ends]
        if fabric in kinds and all(k == fabric or catalog[k].gpu is not None for k in kinds):
            out.fabric_cables += 1


def types_file_for(plan_path: str | Path) -> Path:
    """Where the device types the catalog lacks are written: beside the plan, NAME.types.json."""
    plan_path = Path(plan_path)
    return plan_path.with_name(f"{plan_path.stem}.types.json")


def write_import(result: NetBoxImport, plan_path: str | Path, inputs=()) -> Path | None:
    """Save the plan, and the device types it needs beyond the catalog as a catalog file beside it
    (returned; None when it needs none). Both targets are checked before either is written."""
    types_path = types_file_for(plan_path) if result.new_types else None
    for target in (plan_path, types_path):
        if target is not None:
            check_target(target, inputs)
    if types_path is not None:
        write_types(result.new_types, types_path)
    save_plan(result.plan, plan_path, inputs=inputs)
    return types_path


def write_types(types: list[DeviceType], path: str | Path) -> None:
    """The device types as a catalog file (``--catalog FILE``), written safely."""
    data = {"schema_version": CATALOG_SCHEMA_VERSION,
            "devices": [d.model_dump(mode="json", exclude_defaults=True) for d in types]}
    write_file(path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))
