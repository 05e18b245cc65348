"""cluster-planner fix: apply every remedy the findings carry and write the mended plan."""

from __future__ import annotations

from planner.cli import load_catalog_arg
from planner.numbers import counted
from planner.plan.commands import History
from planner.plan.fileio import open_plan, save_plan
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate
from planner.save_target import check_target


def register(sub) -> None:
    p = sub.add_parser("fix", help="apply the remedies of a plan's findings (switches, CDUs, parallelism, batch, "
                                   "power smoothing)")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="where to write the fixed plan (.json; never the input)")
    p.set_defaults(run=run)


def run(args) -> int:
    inputs = [args.file, *args.catalog]
    check_target(args.output, inputs)  # refuse a bad target (or the input itself) before any work
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    history = History(plan, catalog)
    result = fix_all(history)
    save_plan(plan, args.output, inputs=inputs)
    for command in result.applied:
        print(f"fixed: {command.label}")
    for command, reason in result.refused:
        print(f"not fixed: {command.label}: {reason}")
    if not result.applied:
        print("nothing to fix automatically")
    if result.stopped:
        print(f"stopped after {len(result.applied) + len(result.refused):,} remedies, the most one run tries on "
              "this plan: run fix again on the plan written")
    report = evaluate(plan, catalog)
    left = [f for f in report.findings if f.severity == "error"]
    for f in left:
        print(f"  ERROR {f.code}: {f.message}")
    print(f"wrote {args.output}: {counted(len(result.applied), 'fix')}, "
          f"{counted(len(left), 'error')} left")
    return 1 if report.has_errors else 0
