"""cluster-planner import-netbox: a plan from NetBox's exports of one site (``planner.importers.netbox``)."""

from __future__ import annotations

from pathlib import Path

from planner.cli import load_catalog_arg, print_json
from planner.importers.netbox import import_netbox, write_import


def register(sub) -> None:
    p = sub.add_parser("import-netbox", help="make a plan from NetBox's exports of one site",
                       description="Read NetBox's exports of one site from DIR: the list views' Export > All data "
                       "CSV files (sites, racks, devices, cables; power feeds, power ports and interfaces when there) "
                       "and the device types' YAML export (device-types.yaml), and write the plan they describe. "
                       "Device types are matched to the catalog by slug, part number or model; others go through "
                       "the device-type import into NAME.types.json beside the plan. What cannot be mapped "
                       "(devices without rack or position, cables to devices the plan lacks) is reported.")
    p.add_argument("folder", metavar="DIR", help="the folder of NetBox's exported files")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the plan (.json)")
    p.add_argument("--json", action="store_true", help="print what was imported and what was not as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    result = import_netbox(args.folder, catalog)
    exports = sorted(Path(args.folder).iterdir())  # never written over: they are the input
    types_path = write_import(result, args.output, inputs=[*args.catalog, *exports])
    catalogs = [*args.catalog, *([str(types_path)] if types_path else [])]
    check = " ".join(["cluster-planner", *(f"--catalog {c}" for c in catalogs), "check", args.output])
    if args.json:
        print_json({"plan": args.output, "types_file": str(types_path) if types_path else None, "check": check,
                    **result.to_json()})
        return 0
    print(f"wrote {args.output}")
    if types_path:
        print(f"wrote {types_path}: {len(result.new_types)} device types the catalog does not have")
    for line in result.sentences():
        print(f"  {line}")
    print(f"evaluate it with: {check}")
    return 0
