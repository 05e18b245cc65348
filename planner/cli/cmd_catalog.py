"""cluster-planner catalog: every device type with all its fields; ``catalog import`` reads
NetBox device-type YAML into a catalog file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from planner.cli import UsageError, load_catalog_arg, print_json
from planner.hardware.catalog import CATEGORY_TITLES, read_catalog_file
from planner.hardware.netbox_types import KINDS, PSU_RULES, TO_COMPLETE, import_into_catalog_file, parse_gpu_option


def register(sub) -> None:
    p = sub.add_parser("catalog", help="list the device types in the catalog, or import NetBox device types")
    p.add_argument("--json", action="store_true", help="print JSON with every field")
    p.set_defaults(run=run)
    actions = p.add_subparsers(dest="catalog_command", metavar="ACTION")
    imp = actions.add_parser("import", help="read NetBox device-type YAML files (the community devicetype-library "
                                            "schema) into a catalog file")
    imp.add_argument("files", nargs="+", metavar="FILE.yaml", help="device-type files")
    imp.add_argument("-o", "--output", required=True, metavar="CATALOG.json",
                     help="the catalog file to write; an existing one keeps its other device types")
    imp.add_argument("--gpu", metavar="MODEL:COUNT",
                     help="make the servers GPU servers with COUNT of this catalog GPU (e.g. 'H100 SXM 80GB:8'); "
                          "NetBox's device types hold no GPUs")
    imp.add_argument("--as", dest="as_kind", choices=KINDS, default="auto",
                     help="what the files describe: switch, server or other (default auto: from the console ports, "
                          "a BMC port, the port names; never from the port count)")
    imp.add_argument("--psu-redundancy", choices=PSU_RULES, default="auto",
                     help="how identical power supplies share the load: N+N (half carry it), N+1 (all but one), "
                          "none (all carry it); default auto: N+N for an even count, N+1 for an odd one")
    imp.set_defaults(run=run_import)
    show = actions.add_parser("show", help="every field of one device type, rack type or component, with its source")
    show.add_argument("id", metavar="ID", help="its catalog id, as 'catalog' lists them (e.g. dgx-h100)")
    # after the id too ('catalog show dgx-h100 --json'); not given, the catalog's own --json stands
    show.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print its JSON")
    show.set_defaults(run=run_show)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    if args.json:
        # One list: device types (placed in racks), then rack types and components, each
        # entry saying which it is in "kind" and carrying its source.
        entries = [{"kind": "device", **d.model_dump(mode="json")} for d in catalog]
        entries += [{"kind": "rack_type", **r.model_dump(mode="json")} for r in catalog.rack_types.values()]
        entries += [{"kind": "component", "component": c.kind, **{k: v for k, v in c.model_dump(mode="json").items()
                                                               if k != "kind"}} for c in catalog.components.values()]
        print_json(entries)
        return 0
    print(f"  {'id':<18} {'device type':<58} {'U':>3} {'typical/max kW':<14}  {'price':>10}  what it holds")
    for category, title in CATEGORY_TITLES.items():
        devices = catalog.by_category(category)
        if not devices:
            continue
        print(title)
        for d in devices:
            extra = ""
            if d.gpu:
                extra = f"  {d.gpu.count} x {d.gpu.model}"
            elif d.switch:
                extra = f"  {d.switch.ports} x {d.switch.gbps_per_port:g}G {d.switch.technology}"
            elif d.storage:
                extra = f"  {d.storage.capacity_tb:g} TB, {d.storage.write_gbs:g} GB/s write"
            print(f"  {d.id:<18} {d.title:<58} {d.u_height:>2}U {d.power_typical_w / 1000:>5.2f}/"
                  f"{d.power_max_w / 1000:<5.2f} kW  ${d.price_usd:>9,.0f}{extra}")
    if catalog.rack_types:
        print("Rack types")
        for r in catalog.rack_types.values():
            cap = f"{r.power_cap_kw:g} kW" if r.power_cap_kw is not None else "plan default cap"
            print(f"  {r.id:<18} {r.title:<58} {r.height_u:>2}U {r.width_mm}x{r.depth_mm} mm, {r.max_weight_kg:g} kg, "
                  f"{r.cooling}, {cap}")
    if catalog.components:
        print("Components (NICs, transceivers, cables)")
        for c in catalog.components.values():
            print(f"  {c.id:<24} {c.title:<58} {c.kind:<11} {c.ports} x {c.gbps:g}G  {c.power_w:g} W  "
                  f"${c.price_usd:>7,.0f}")
    return 0


def run_show(args) -> int:
    """One catalog entry, field by field ("gpu.model  H100 SXM 80GB"), or as JSON with --json."""
    catalog = load_catalog_arg(args)
    entry = catalog.get(args.id) or catalog.rack_types.get(args.id) or catalog.components.get(args.id)
    if entry is None:
        raise UsageError(f"the catalog has no device type, rack type or component '{args.id}'; "
                         "'cluster-planner catalog' lists them")
    data = entry.model_dump(mode="json")
    if args.json:
        print_json(data)
        return 0
    lines = list(_field_lines(data))
    width = max(len(name) for name, _ in lines)
    for name, value in lines:
        print(f"{name:<{width}}  {value}")
    return 0


def _field_lines(data, prefix: str = ""):
    """(dotted name, value) of every field, nested blocks and lists flattened ("nics[0].gbps")."""
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _field_lines(value, name + ".")
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for i, item in enumerate(value):
                yield from _field_lines(item, f"{name}[{i}].")
        else:
            text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            yield name, "none" if value is None else text or "-"


def run_import(args) -> int:
    """Every file is read; a file that cannot be used is named (one line each) and the others are
    written; status 2 when none could be used, 1 when some could not."""
    gpu = None
    if args.gpu:
        try:
            gpu = parse_gpu_option(args.gpu, load_catalog_arg(args))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    out = Path(args.output)
    before = {d.id for d in read_catalog_file(out)} if out.exists() else set()  # a bad target: one line
    entries, problems = import_into_catalog_file(args.files, out, gpu=gpu, as_kind=args.as_kind,
                                                 psu_redundancy=args.psu_redundancy)
    if not entries:
        if len(args.files) == 1:
            print(f"cluster-planner: {problems[0]}; nothing written", file=sys.stderr)
            return 2
        for line in problems:
            print(f"cluster-planner: {line}", file=sys.stderr)
        print(f"cluster-planner: nothing written: none of the {len(args.files)} files can be used", file=sys.stderr)
        return 2
    for line in problems:
        print(f"cluster-planner: {line}; not imported", file=sys.stderr)
    kept = before - {d.id for d in entries}
    for d in entries:
        what = (f"{d.gpu.count} x {d.gpu.model}" if d.gpu else
                f"{d.switch.ports} x {d.switch.gbps_per_port:g}G ports" if d.switch else d.category)
        nics = ", ".join(f"{n.count} x {n.gbps:g}G {n.technology} ({n.purpose})" for n in d.nics)
        print(f"{d.id}: {d.category}, {d.u_height}U, {d.power_max_w:,.0f} W nameplate, {d.power_typical_w:,.0f} W "
              f"typical, {d.weight_kg:g} kg; {what}{'; NICs ' + nics if nics else ''}")
        for fact in d.source.split("; "):
            if fact.startswith(("nameplate ", "classed ")):  # the rules the import applied
                print(f"  {fact}")
        print(f"  to complete: {d.notes.removeprefix(TO_COMPLETE + ': ').rstrip('.')}")
    print(f"wrote {out}: {len(entries)} device type{'' if len(entries) == 1 else 's'} imported"
          f"{f', {len(kept)} kept' if kept else ''}"
          f"{f', {len(problems)} of {len(args.files)} files not imported' if problems else ''}; "
          f"use it with --catalog {out}")
    return 1 if problems else 0
