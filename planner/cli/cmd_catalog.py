"""cluster-planner catalog: every device type with all its fields."""

import json

from planner.hardware.catalog import CATEGORY_TITLES
from planner.cli import load_catalog_arg


def register(sub) -> None:
    p = sub.add_parser("catalog", help="list the device types in the catalog")
    p.add_argument("--json", action="store_true", help="print JSON with every field")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    if args.json:
        # One list: device types (placed in racks), then rack types and components, each
        # entry saying which it is in "kind" and carrying its source.
        entries = [{"kind": "device", **d.model_dump(mode="json")} for d in catalog]
        entries += [{"kind": "rack_type", **r.model_dump(mode="json")} for r in catalog.rack_types.values()]
        entries += [{"kind": "component", "component": c.kind, **{k: v for k, v in c.model_dump(mode="json").items()
                                                               if k != "kind"}} for c in catalog.components.values()]
        print(json.dumps(entries, indent=1))
        return 0
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
