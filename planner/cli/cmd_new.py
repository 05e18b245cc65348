"""cluster-planner new: write a plan from a template."""

from planner.cli import load_catalog_arg
from planner.design.templates import build_template
from planner.plan.fileio import save_plan
from planner.safefile import check_target


def _nodes(text: str) -> int:
    import argparse

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of nodes") from None
    if not 0 <= n <= 100_000:
        raise argparse.ArgumentTypeError("--nodes takes 0 to 100,000")
    return n


def register(sub) -> None:
    p = sub.add_parser("new", help="write a new plan from a template")
    p.add_argument("--template", "-t", default="medium", help="template name (see 'templates'); default medium")
    p.add_argument("--nodes", type=_nodes, help="resize the template's GPU node count")
    p.add_argument("--power-basis", choices=["typical", "nameplate"], help="lay racks out on this power basis")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the plan (.json)")
    p.set_defaults(run=run)


def run(args) -> int:
    check_target(args.output, args.catalog)  # refuse a bad target before building anything
    catalog = load_catalog_arg(args)
    plan = build_template(args.template, nodes=args.nodes, power_basis=args.power_basis, catalog=catalog)
    save_plan(plan, args.output, inputs=args.catalog)
    racks, devices = len(plan.racks), len(plan.placements)
    print(f"wrote {args.output}: {plan.name}, {racks} rack{'' if racks == 1 else 's'}, "
          f"{devices} device{'' if devices == 1 else 's'}")
    return 0
