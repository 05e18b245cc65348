"""cluster-planner import-prices: unit prices edited in an exported workbook become the plan's price overrides."""

from __future__ import annotations

from planner.cli import load_catalog_arg
from planner.costs.prices import import_prices
from planner.numbers import counted
from planner.plan.fileio import open_plan, save_plan
from planner.report.evaluate import evaluate


def register(sub) -> None:
    p = sub.add_parser("import-prices", help="read unit prices edited in an exported workbook into a plan",
                       description="Read the unit prices of the BOM sheet of BOOK (a workbook the planner exported, "
                       "edited in Excel) and keep every changed price in PLAN as a price override whose source "
                       "says it was edited in BOOK on today's date. Rows that match no line of the plan's bill "
                       "of materials are listed and not imported; nothing else in the plan changes.")
    p.add_argument("book", metavar="BOOK", help="the edited workbook (.xlsx)")
    p.add_argument("--into", required=True, metavar="PLAN", help="the plan file (.json) to update")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    plan = open_plan(args.into, catalog)
    report = evaluate(plan, catalog)
    result = import_prices(args.book, plan.price_overrides, list(report.cost.bom) if report.cost is not None else [])
    for line in result.lines():
        print(line)
    if result.changed:
        plan.price_overrides = result.overrides
        save_plan(plan, args.into)
        print(f"{counted(len(result.changed), 'price')} imported into {args.into}")
    else:
        print("no unit price differs from the plan's: nothing imported")
    return 0
