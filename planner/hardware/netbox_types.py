"""Device types from NetBox's community device-type library (YAML) as catalog entries.

The library's schema (netbox-community/devicetype-library, ``schema/devicetype.json``) holds
manufacturer, model, slug, part_number, u_height, is_full_depth, airflow, weight and
weight_unit, ``power-ports`` with ``maximum_draw``/``allocated_draw`` (W) and ``interfaces``
with NetBox interface types (``400gbase-x-osfp``, ``infiniband-ndr``). What it maps:

- U height (a whole number of units, 1 or more: the planner places whole units);
- weight in kg (from kg, g, lb or oz);
- nameplate power = the sum of the power ports' ``maximum_draw``, typical = the sum of their
  ``allocated_draw`` (NetBox adds the ports up the same way for a feed's load); no
  ``allocated_draw`` -> typical = nameplate, marked;
- NICs from the data interfaces (management-only and virtual ones left out): the fastest
  speed are the compute NICs, slower ones storage NICs;
- a device with 16 or more data ports is a switch (a server has a handful of NICs).

NetBox does not hold GPUs or prices: a server becomes a GPU server only with a GPU named by
the user (``--gpu "H100 SXM 80GB:8"``, the GPU's figures from the built-in catalog), otherwise
category "other"; the price is 0 and marked to fill in. Every gap is written in ``notes``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import yaml
from pydantic import ValidationError

from planner.errors import PlannerError, describe_validation_error, quote
from planner.hardware.catalog import (CATALOG_SCHEMA_VERSION, Catalog, DeviceType, GpuBlock, NicBlock, SwitchBlock,
                                      read_catalog_file)
from planner.readfile import YamlLimitError, read_limited, safe_yaml
from planner.safefile import write_file

MAX_YAML_BYTES = 1024 * 1024
SWITCH_MIN_PORTS = 16
KG_PER = {"kg": 1.0, "g": 0.001, "lb": 0.45359237, "oz": 0.028349523125}
INFINIBAND_GBPS = {"sdr": 10, "ddr": 20, "qdr": 40, "fdr10": 40, "fdr": 56, "edr": 100, "hdr": 200, "ndr": 400,
                   "xdr": 800}
TO_COMPLETE = "NetBox's device type does not hold"


class DeviceTypeImportError(PlannerError):
    """A device-type file that cannot be used: one line naming the file and the reason."""


def interface_speed(kind: str) -> tuple[str, float] | None:
    """(technology, Gb/s) of a NetBox interface type; None for virtual, wireless or unknown types."""
    kind = kind.lower()
    if m := re.match(r"^infiniband-([a-z0-9]+)$", kind):
        gbps = INFINIBAND_GBPS.get(m.group(1))
        return ("infiniband", gbps) if gbps else None
    if m := re.match(r"^(\d+(?:\.\d+)?)gbase-", kind):
        return "ethernet", float(m.group(1))
    if m := re.match(r"^(\d+)base-", kind):  # 1000base-t, 100base-tx: Mb/s
        return "ethernet", int(m.group(1)) / 1000
    return None


def parse_gpu_option(text: str, catalog: Catalog) -> GpuBlock:
    """ "H100 SXM 80GB:8" -> that GPU's block from the catalog with count 8; ValueError otherwise."""
    model, sep, count = text.rpartition(":")
    if not sep or not count.strip().isdigit() or int(count) < 1:
        raise ValueError(f"--gpu takes MODEL:COUNT (e.g. 'H100 SXM 80GB:8'), not '{text}'")
    blocks = {d.gpu.model.lower(): d.gpu for d in catalog if d.gpu}
    wanted = model.strip().lower()
    matches = [blocks[wanted]] if wanted in blocks else [b for m, b in blocks.items() if wanted and wanted in m]
    names = ", ".join(sorted(b.model for b in blocks.values()))
    if not matches:
        raise ValueError(f"--gpu: no GPU '{model.strip()}' in the catalog (GPUs: {names})")
    if len(matches) > 1:
        raise ValueError(f"--gpu: '{model.strip()}' could be {' or '.join(sorted(b.model for b in matches))}")
    found = matches[0]
    return found.model_copy(update={"count": int(count)})


def _kind(value: object) -> str:
    """What a YAML value is, in words, without formatting it (it may be very large)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, list):
        return "a list"
    return "a mapping" if isinstance(value, dict) else f"a {type(value).__name__}"  # a date, bytes


def _number(data: dict, key: str, where: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        shown = quote(value, 40) if isinstance(value, str) else _kind(value)
        raise ValueError(f"{where}{key} is {shown}, not a number")
    try:
        return float(value)
    except OverflowError:  # an integer of hundreds of digits
        raise ValueError(f"{where}{key} is a number of {len(str(abs(value))):,} digits, too large") from None


def _text(data: dict, key: str, where: str = "") -> str | None:
    """A text field; YAML reads ``model: 7050`` as a number, which is still the name "7050"."""
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"{where}{key} is {_kind(value)}, not text")


def _block(kind, what: str, **fields):
    """A NIC or switch block; ValueError in one line naming the interfaces it came from."""
    try:
        return kind(**fields)
    except ValidationError as exc:
        raise ValueError(f"{what}: {describe_validation_error(exc, fields)}") from None


def device_type_from_yaml(data: object, origin: str, gpu: GpuBlock | None = None) -> DeviceType:
    """One catalog entry from one parsed device-type document; ValueError naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("not a device type (expected a mapping of manufacturer, model, u_height, ...)")
    text = {key: _text(data, key) for key in ("manufacturer", "model", "slug", "part_number", "airflow", "weight_unit")}
    for key in ("manufacturer", "model", "u_height"):
        if data.get(key) is None or data[key] == "":
            raise ValueError(f"'{key}' is missing")
    u = _number(data, "u_height", "")
    if u is None or u < 1 or not u.is_integer():
        raise ValueError(f"u_height {u:g} cannot be placed: the planner places whole rack units, 1 or more")
    marks: list[str] = []
    weight = _number(data, "weight", "")
    unit = (text["weight_unit"] or "kg").lower()
    if weight is not None and unit not in KG_PER:
        raise ValueError(f"weight_unit {quote(unit, 20)} is not one of {', '.join(KG_PER)}")
    if weight is None:
        marks.append("weight")
    weight_kg = round((weight or 0.0) * KG_PER[unit], 3)

    ports = data.get("power-ports") or []
    if not isinstance(ports, list):
        raise ValueError("power-ports is not a list")
    max_w = alloc_w = 0.0
    alloc_known = bool(ports)
    for i, port in enumerate(ports):
        if not isinstance(port, dict):
            raise ValueError(f"power-ports[{i}] is not a mapping")
        name = _text(port, "name", f"power-ports[{i}] ")
        where = f"power port {quote(name, 40)}: " if name else f"power-ports[{i}] "
        m, a = _number(port, "maximum_draw", where), _number(port, "allocated_draw", where)
        if m is None:
            raise ValueError(f"{where}maximum_draw is missing")
        if a is not None and a > m:
            raise ValueError(f"{where}allocated_draw {a:g} W is above its maximum_draw {m:g} W")
        max_w += m
        if a is None:
            alloc_known = False
        else:
            alloc_w += a
    if not ports:
        marks.append("power (no power-ports)")
    elif not alloc_known:
        alloc_w = max_w
        marks.append("typical power (no allocated_draw: typical = nameplate)")

    speeds: Counter = Counter()
    skipped = 0
    interfaces = data.get("interfaces") or []
    if not isinstance(interfaces, list):
        raise ValueError("interfaces is not a list")
    for i, iface in enumerate(interfaces):
        if not isinstance(iface, dict):
            raise ValueError("interfaces holds an entry that is not a mapping")
        speed = interface_speed(_text(iface, "type", f"interfaces[{i}] ") or "")
        if iface.get("mgmt_only") or speed is None or speed[1] < 10:
            skipped += 1
            continue
        speeds[speed] += 1
    data_ports = sum(speeds.values())
    fastest = max(speeds, key=lambda s: (s[1], speeds[s])) if speeds else None
    switch = None
    nics: list[NicBlock] = []
    if fastest and data_ports >= SWITCH_MIN_PORTS:
        switch = _block(SwitchBlock, f"{speeds[fastest]:,} {fastest[1]:g}G interfaces as a switch's ports",
                        ports=speeds[fastest], gbps_per_port=fastest[1], technology=fastest[0])
        category = "switch"
    else:
        for (tech, gbps), n in sorted(speeds.items(), key=lambda kv: -kv[0][1]):
            nics.append(_block(NicBlock, f"{n:,} {gbps:g}G interfaces as NICs", count=n, gbps=gbps, technology=tech,
                               purpose="compute" if (tech, gbps) == fastest else "storage"))
        category = "gpu_server" if gpu is not None else "other"
        if gpu is None:
            marks.append("GPU count and model (import with --gpu MODEL:COUNT to make it a GPU server)")
    marks.append("price")
    slug = text["slug"] or f"{text['manufacturer']}-{text['model']}"
    device_id = re.sub(r"[^a-z0-9._-]+", "-", slug.lower()).strip("-._")[:64] or "device"
    facts = [f"part number {text['part_number']}" if text["part_number"] else "",
             "full depth" if data.get("is_full_depth", True) else "half depth",
             f"airflow {text['airflow']}" if text["airflow"] else "",
             f"{skipped} management or slow interfaces left out" if skipped else ""]
    entry = {
        "id": device_id, "vendor": text["manufacturer"], "model": text["model"], "category": category,
        "u_height": int(u), "weight_kg": weight_kg, "power_max_w": max_w, "power_typical_w": alloc_w,
        "cooling": "air", "gpu": gpu if category == "gpu_server" else None, "nics": tuple(nics), "switch": switch,
        "price_usd": 0, "price_source": f"{TO_COMPLETE} a price: enter one",
        "source": f"NetBox device-type library file {origin}" + "".join(f"; {f}" for f in facts if f)
                  + (f"; GPU figures: the catalog's {gpu.model}, {gpu.count} per server as given on import"
                     if category == "gpu_server" else ""),
        "notes": f"{TO_COMPLETE}: {', '.join(marks)}.",
    }
    try:
        return DeviceType.model_validate(entry)
    except ValidationError as exc:
        raise ValueError(describe_validation_error(exc, entry)) from None


def read_device_type(path: str | Path, gpu: GpuBlock | None = None) -> DeviceType:
    """One YAML file; DeviceTypeImportError with one line naming the file."""
    path = Path(path)
    try:
        raw = read_limited(path, MAX_YAML_BYTES, "device-type file")
        data = safe_yaml(raw.decode("utf-8"))
    except PlannerError as exc:
        raise DeviceTypeImportError(str(exc)) from None
    except YamlLimitError as exc:
        raise DeviceTypeImportError(f"{path.name}: {exc}") from None
    except UnicodeDecodeError:
        raise DeviceTypeImportError(f"{path.name}: not a UTF-8 text file") from None
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" at line {where.line + 1}" if where is not None else ""
        raise DeviceTypeImportError(f"{path.name}: not valid YAML{line}") from None
    try:
        return device_type_from_yaml(data, path.name, gpu)
    except ValueError as exc:
        raise DeviceTypeImportError(f"{path.name}: {exc}") from None


def import_device_types(paths: list[str | Path], gpu: GpuBlock | None = None) -> tuple[list[DeviceType], list[str]]:
    """(entries, problems): every file is read; a file with a problem gives one line and no entry."""
    entries: list[DeviceType] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for path in paths:
        try:
            d = read_device_type(path, gpu)
        except DeviceTypeImportError as exc:
            problems.append(str(exc))
            continue
        if d.id in seen:
            problems.append(f"{Path(path).name}: slug '{d.id}' is also the slug of {seen[d.id]}")
            continue
        seen[d.id] = Path(path).name
        entries.append(d)
    return entries, problems


def import_into_catalog_file(paths: list[str | Path], target: str | Path, *, gpu: GpuBlock | None = None,
                             catalog: Catalog | None = None) -> tuple[list[DeviceType], list[str]]:
    """Import ``paths`` and write them into the catalog file ``target`` (its other device types kept).

    (entries, problems): with any problem nothing is written. A ``target`` that is not a catalog
    raises CatalogError and is left alone."""
    entries, problems = import_device_types(paths, gpu)
    if problems:
        return entries, problems
    target = Path(target)
    new_ids = {e.id for e in entries}
    kept = [d for d in read_catalog_file(target) if d.id not in new_ids] if target.exists() else []
    data = {"schema_version": CATALOG_SCHEMA_VERSION,
            "devices": [d.model_dump(mode="json", exclude_defaults=True) for d in (*kept, *entries)]}
    write_file(target, (json.dumps(data, indent=1) + "\n").encode("utf-8"), kind="")
    return entries, []
