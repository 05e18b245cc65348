"""cluster-planner catalog: every device type with all its fields."""


from planner.hardware.catalog import CATEGORY_TITLES
from planner.cli import load_catalog_arg, print_json


def register(sub) -> None:
    p = sub.add_parser("catalog", help="list the device types in the catalog")
    p.add_argument("--json", action="store_true", help="print JSON with every field")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    if args.json:
        print_json([d.model_dump(mode="json") for d in catalog])
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
    return 0
