"""Device types from NetBox's community device-type library (YAML) as catalog entries.

The library's schema (netbox-community/devicetype-library, ``schema/devicetype.json``) holds
manufacturer, model, slug, part_number, u_height, is_full_depth, airflow, weight and
weight_unit, ``power-ports`` with ``maximum_draw``/``allocated_draw`` (W) and ``interfaces``
with NetBox interface types (``400gbase-x-osfp``, ``infiniband-ndr``). What it maps:

- U height (a whole number of units, 1 or more: the planner places whole units);
- weight in kg (from kg, g, lb or oz);
- nameplate power: the load the power supplies carry. Identical supplies are redundant sets,
  N+N (an even count: half carry the load) or N+1 (an odd count: all but one), unless the
  user says otherwise (``psu_redundancy``), and never fewer than their ``allocated_draw``
  needs; other ports add up. Typical = the sum of ``allocated_draw`` (NetBox adds the ports
  up the same way); without it typical = nameplate, marked. A port without ``maximum_draw``
  (optional in NetBox) is a gap marked to complete, as weight and price are;
- NICs from the data interfaces: management-only, management, BMC and console ones left out
  (``mgmt_only``, or by name or description), front-end and storage ones storage NICs, the
  fastest fabric group the compute NICs;
- switch or server by the kind of device the file describes, never a port count: the user's
  choice (``as_kind``), its console (video/USB or a BMC: a server; a lone serial console: a
  switch), switch-style port names, a GPU given; otherwise "other", marked to tell.

NetBox does not hold GPUs or prices: a server becomes a GPU server only with a GPU named by
the user (``--gpu "H100 SXM 80GB:8"``, the GPU's figures from the built-in catalog), otherwise
category "other"; the price is 0 and marked to fill in. Every gap is written in ``notes``.

Why it is long: reading a library file, classing the device, the power rule and the NIC
groups are the steps of one mapping from a NetBox device type to a catalog entry.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import yaml
from pydantic import ValidationError

from planner.errors import PlannerError, describe_validation_error, quote
from planner.hardware.catalog import (CATALOG_SCHEMA_VERSION, Catalog, DeviceType, GpuBlock, NicBlock, SwitchBlock,
                                      read_catalog_file)
from planner.readfile import YamlLimitError, read_limited, safe_yaml
from planner.safefile import write_file

MAX_YAML_BYTES = 1024 * 1024
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
    try:  # validated as the catalog reads it back (a count past the GPUs a system may hold)
        return type(found).model_validate({**found.model_dump(), "count": int(count)})
    except ValidationError as exc:
        raise ValueError(f"--gpu: '{text.strip()}': {exc.errors()[0]['msg']}") from None


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

PSU_RULES = ("auto", "none", "N+N", "N+1")
KINDS = ("auto", "switch", "server", "other")
# Interfaces that are not fabric data ports, by name or description: management, BMC, console,
# in-band fabric management (NVIDIA's fnm), and front-end / storage networks.
MANAGEMENT_NAME = re.compile(r"(^|[^a-z])(mgmt|management|bmc|ipmi|idrac|ilo|oob|fnm|console)", re.I)
FRONT_END_NAME = re.compile(r"front[- ]?end|frontend|^fe\d|storage|in-?band", re.I)
BMC_NAME = re.compile(r"bmc|ipmi|idrac|ilo", re.I)
SWITCH_PORT_NAME = re.compile(r"^(swp\d+|sw\d+p\d+|p\d+(\.\d+)?|port\d+)$", re.I)
SERVER_CONSOLE = re.compile(r"vga|video|kvm", re.I)  # a server's console; a switch's is serial (rj-45, usb-mini)


def _list(data: dict, key: str) -> list:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise ValueError(f"{key} is not a list")
    return value


def _power(data: dict, marks: list[str], redundancy: str) -> tuple[float, float, str]:
    """(nameplate W, typical W, the rule used) from the power ports; a port without
    ``maximum_draw`` is a gap marked to complete, as NetBox holds it optional.

    Redundant supplies carry the load between them: n identical supplies are taken as N+N (n
    even: n/2 carry it) or N+1 (n odd: n - 1 carry it) unless ``redundancy`` says otherwise
    ("none": all carry it), and never fewer than their allocated draw needs."""
    ports = _list(data, "power-ports")
    rated, missing, alloc, alloc_known = [], [], 0.0, bool(ports)
    for i, port in enumerate(ports):
        if not isinstance(port, dict):
            raise ValueError(f"power-ports[{i}] is not a mapping")
        name = _text(port, "name", f"power-ports[{i}] ")
        where = f"power port {quote(name, 40)}: " if name else f"power-ports[{i}] "
        m, a = _number(port, "maximum_draw", where), _number(port, "allocated_draw", where)
        if m is not None and a is not None and a > m:
            raise ValueError(f"{where}allocated_draw {a:g} W is above its maximum_draw {m:g} W")
        if m is None:
            missing.append(name or f"power-ports[{i}]")
        else:
            rated.append(m)
        if a is None:
            alloc_known = False
        else:
            alloc += a
    if not ports:
        bays = [b.get("name") for b in _list(data, "module-bays") if isinstance(b, dict)
                and re.search(r"psu|power", str(b.get("name", "")), re.I)]
        marks.append(f"power ({len(bays)} power supplies in module bays, no power-ports)" if bays
                     else "power (no power-ports)")
        return 0.0, 0.0, ""
    if missing:
        marks.append(f"nameplate power (no maximum_draw on {', '.join(missing[:4])}"
                     f"{' ...' if len(missing) > 4 else ''})")
    n, rule = len(rated), ""
    max_w = sum(rated)
    if n >= 2 and len(set(rated)) == 1 and rated[0] > 0 and redundancy != "none" and not missing:
        scheme = redundancy if redundancy != "auto" else ("N+N" if n % 2 == 0 else "N+1")
        carry = -(-n // 2) if scheme == "N+N" else n - 1
        if alloc_known:
            carry = max(carry, math.ceil(alloc / rated[0] - 1e-9))
        max_w = carry * rated[0]
        rule = (f"nameplate {max_w:,.0f} W: {n} power supplies of {rated[0]:,.0f} W as {scheme}, {carry} carrying "
                f"the load" + (" (the allocated draw needs them all)" if carry == n else ""))
    elif n >= 2:
        rule = f"nameplate {max_w:,.0f} W: the sum of {n} power ports' maximum_draw"
    if not alloc_known:
        alloc = max_w
        marks.append("typical power (no allocated_draw: typical = nameplate)")
    elif alloc > max_w:  # a port's maximum_draw is missing: the allocated draw is what is known
        max_w = alloc
    return max_w, alloc, rule


def _classify(data: dict, gpu: GpuBlock | None, as_kind: str) -> tuple[str, str, dict, int]:
    """(kind "switch" / "server" / "other", why, {(technology, Gb/s): [role per interface]}, left out).

    Interfaces: management-only, management, BMC and console ones (by ``mgmt_only``, name or
    description) are left out; front-end and storage ones are "front-end"; slower than 10G
    "slow"; the rest "fabric". The kind: the user's choice; else a GPU given on import; else
    the console: a video or USB console or a BMC port is a server's, a lone serial console a
    switch's; else switch-style port names (swp1, sw1p1, P0.1); else a server when a GPU was
    given; else "other", to be told."""
    speeds: dict[tuple[str, float], list[str]] = {}
    skipped, bmc, switch_names, data_ports = 0, False, 0, 0
    for i, iface in enumerate(_list(data, "interfaces")):
        if not isinstance(iface, dict):
            raise ValueError("interfaces holds an entry that is not a mapping")
        name = _text(iface, "name", f"interfaces[{i}] ") or ""
        label = f"{name} {_text(iface, 'description', f'interfaces[{i}] ') or ''}"
        speed = interface_speed(_text(iface, "type", f"interfaces[{i}] ") or "")
        bmc = bmc or bool(BMC_NAME.search(name))
        if iface.get("mgmt_only") or speed is None or MANAGEMENT_NAME.search(label):
            skipped += 1
            continue
        role = "slow" if speed[1] < 10 else "front-end" if FRONT_END_NAME.search(label) else "fabric"
        speeds.setdefault(speed, []).append(role)
        data_ports += 1
        switch_names += bool(SWITCH_PORT_NAME.match(name))
    consoles = [c for c in _list(data, "console-ports") if isinstance(c, dict)]
    server_console = [c for c in consoles if SERVER_CONSOLE.search(str(c.get("name", ""))) or c.get("type") == "usb-a"]
    if as_kind != "auto":
        kind, why = as_kind, "as chosen on import"
    elif server_console or bmc:
        kind, why = "server", ("its video or USB keyboard console" if server_console else "its BMC port")
    elif consoles:
        kind, why = "switch", "a serial console and no video console or BMC"
    elif data_ports and switch_names == data_ports:
        kind, why = "switch", "switch port names on every data interface"
    elif gpu is not None:
        kind, why = "server", "a GPU was given on import"
    else:
        kind, why = "other", "nothing in the file says switch or server"
    if kind != "switch":
        speeds = {s: [r for r in roles if r != "slow"] for s, roles in speeds.items()}
        speeds = {s: roles for s, roles in speeds.items() if roles}
    return kind, why, speeds, skipped


def device_type_from_yaml(data: object, origin: str, gpu: GpuBlock | None = None, *, as_kind: str = "auto",
                          psu_redundancy: str = "auto") -> DeviceType:
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

    max_w, alloc_w, rule = _power(data, marks, psu_redundancy)
    kind, why, speeds, skipped = _classify(data, gpu, as_kind)
    if kind == "other":
        marks.append("what it is (give --as switch or --as server)")
    switch = None
    nics: list[NicBlock] = []
    if kind == "switch":
        if not speeds:
            raise ValueError("classed as a switch, but it has no data interfaces to be its ports")
        group = max(speeds, key=lambda s: (len(speeds[s]), s[1]))  # its ports: the largest group
        switch = _block(SwitchBlock, f"{len(speeds[group]):,} {group[1]:g}G interfaces as a switch's ports",
                        ports=len(speeds[group]), gbps_per_port=group[1], technology=group[0])
        category = "switch"
    else:
        fabric = {s: v for s, v in speeds.items() if any(role == "fabric" for role in v)}
        fastest = max(fabric, key=lambda s: (s[1], len(fabric[s]), s[0] == "infiniband")) if fabric else None
        for (tech, gbps), roles in sorted(speeds.items(), key=lambda kv: (-kv[0][1], kv[0][0])):
            compute = roles.count("fabric") if (tech, gbps) == fastest else 0
            for purpose, n in (("compute", compute), ("storage", len(roles) - compute)):
                if n:
                    nics.append(_block(NicBlock, f"{n:,} {gbps:g}G interfaces as NICs", count=n, gbps=gbps,
                                       technology=tech, purpose=purpose))
        category = "gpu_server" if gpu is not None else "other"
        if gpu is None and kind == "server":
            marks.append("GPU count and model (import with --gpu MODEL:COUNT to make it a GPU server)")
    marks.append("price")
    slug = text["slug"] or f"{text['manufacturer']}-{text['model']}"
    device_id = re.sub(r"[^a-z0-9._-]+", "-", slug.lower()).strip("-._")[:64] or "device"
    facts = [f"part number {text['part_number']}" if text["part_number"] else "",
             "full depth" if data.get("is_full_depth", True) else "half depth",
             f"airflow {text['airflow']}" if text["airflow"] else "",
             f"{skipped} management, console or slow interfaces left out" if skipped else "",
             f"classed {kind}: {why}", rule]
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


def read_device_type(path: str | Path, gpu: GpuBlock | None = None, **how: str) -> DeviceType:
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
        return device_type_from_yaml(data, path.name, gpu, **how)
    except ValueError as exc:
        raise DeviceTypeImportError(f"{path.name}: {exc}") from None


def import_device_types(paths: list[str | Path], gpu: GpuBlock | None = None,
                        **how: str) -> tuple[list[DeviceType], list[str]]:
    """(entries, problems): every file is read; a file with a problem gives one line and no entry.
    ``how``: ``as_kind`` and ``psu_redundancy`` (``device_type_from_yaml``)."""
    entries: list[DeviceType] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for path in paths:
        try:
            d = read_device_type(path, gpu, **how)
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
                             catalog: Catalog | None = None, **how: str) -> tuple[list[DeviceType], list[str]]:
    """Import ``paths`` and write the ones that can be used into the catalog file ``target`` (its
    other device types kept).

    (entries written, problems: one line per file that cannot be used). Nothing is written when
    no file can be used. A ``target`` that is not a catalog raises CatalogError and is left alone."""
    entries, problems = import_device_types(paths, gpu, **how)
    if not entries:
        return entries, problems
    target = Path(target)
    new_ids = {e.id for e in entries}
    kept = [d for d in read_catalog_file(target) if d.id not in new_ids] if target.exists() else []
    data = {"schema_version": CATALOG_SCHEMA_VERSION,
            "devices": [d.model_dump(mode="json", exclude_defaults=True) for d in (*kept, *entries)]}
    write_file(target, (json.dumps(data, indent=1) + "\n").encode("utf-8"), kind="")
    return entries, problems
