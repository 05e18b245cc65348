"""cluster-planner sweep: a grid of design choices over a base plan, each point laid out and evaluated."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from planner.cli import UsageError, load_catalog_arg
from planner.numbers import counted
from planner.plan.fileio import open_plan
from planner.plan.variants import resolve_variant
from planner.report.compare import METRIC
from planner.safefile import write_file
from planner.save_target import check_target, save_failure
from planner.sweep import AXES, available_cores, default_axes, load_grid, pareto_front, rows_to_csv, run_sweep


def register(sub) -> None:
    p = sub.add_parser("sweep", help="evaluate a grid of design choices over a base plan; a CSV of the points",
                       description="Lay out and evaluate every point of a grid (GPU system, node count, fabric, "
                       "GPU rack, power basis) over a base plan, in parallel worker processes; write one CSV row "
                       "per point with the figures check --json prints and whether it is on the Pareto front.")
    p.add_argument("file", metavar="BASE", help="the base plan file (.json)")
    p.add_argument("--grid", required=True, metavar="GRID", help="the grid file (.json): the values of each axis")
    p.add_argument("-o", "--output", required=True, metavar="CSV", help="where to write the results (.csv)")
    p.add_argument("--variant", metavar="NAME", help="sweep over this variant of the base plan")
    p.add_argument("--workers", type=int, metavar="N",
                   help="worker processes (default and at most: one per core available)")
    p.add_argument("--engine", choices=("process", "ray"), default="process",
                   help="where the points run: local worker processes (default), or Ray tasks on a Ray cluster "
                   "(needs the cluster extra: pip install -e \".[cluster]\")")
    p.add_argument("--address", metavar="ADDR",
                   help="with --engine ray: the Ray cluster to run on (as ray.init takes it, e.g. "
                   "ray://head:10001); without it a local Ray is started for the sweep")
    p.add_argument("--pareto", nargs=2, metavar=("X", "Y"),
                   help=f"the two figures of the Pareto front (default capex_usd and time_to_train_days); one of "
                   f"{', '.join(METRIC)}")
    p.set_defaults(run=run)


def check_folder(target) -> None:
    """Before the first point: the folder of ``target`` takes a file (it exists, may be
    written to, is not on a read-only disk). A file no other process sees is made and dropped."""
    try:
        with tempfile.TemporaryFile(dir=target.parent):
            pass
    except OSError as exc:
        raise save_failure(target, exc) from None


def run(args) -> int:
    target = check_target(args.output, [args.file, args.grid, *args.catalog])
    check_folder(target)
    cores = available_cores()
    if args.address is not None and args.engine != "ray":
        raise UsageError("--address names a Ray cluster: use it with --engine ray")
    if args.engine == "ray":
        from planner.sweep_ray import import_ray

        import_ray(args.address)  # before any work: says how to install Ray when it is missing
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers takes 1 to {cores} (the cores available), not {args.workers}")
    if args.workers is not None and args.workers > cores:
        print(f"note: --workers {args.workers}: {counted(cores, 'core')} available, so {cores} "
              f"worker{'s' if cores != 1 else ''} (more would only share them)", file=sys.stderr)
        args.workers = cores
    for key in args.pareto or ():
        if key not in METRIC:
            raise UsageError(f"--pareto: '{key}' is not a figure of the comparison ({', '.join(METRIC)})")
    if args.pareto and args.pareto[0] == args.pareto[1]:
        raise UsageError(f"--pareto takes two different figures, not {args.pareto[0]} twice")
    catalog = load_catalog_arg(args)
    base = open_plan(args.file, catalog)
    if args.variant is not None:
        base = resolve_variant(base, args.variant)
    grid = load_grid(args.grid, catalog)
    if not grid.axes:  # a file naming nothing to sweep is a mistake, not a request for the base alone
        raise UsageError(f"{Path(args.grid).name}: the grid names no axis to sweep ({', '.join(AXES)})")
    last = [-1]

    def progress(done: int, total: int) -> None:
        percent = done * 100 // total
        if sys.stderr.isatty() and percent != last[0]:
            last[0] = percent
            print(f"\r{done:,} of {total:,} points", end="", file=sys.stderr, flush=True)

    if args.engine == "ray":
        from planner.sweep_ray import run_sweep_ray

        result = run_sweep_ray(base, grid, address=args.address, catalog_files=args.catalog, workers=args.workers,
                               progress=progress)
    else:
        result = run_sweep(base, grid, catalog_files=args.catalog, workers=args.workers, progress=progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    x, y = args.pareto or default_axes(result.rows)
    front = pareto_front(result.rows, x, y)
    write_file(args.output, rows_to_csv(result.rows, front).encode("utf-8"), kind="", inputs=[args.file, args.grid])
    problems = sum(1 for r in result.rows if r["problem"])
    n = len(result.rows)
    if problems == n:  # nothing to rank: say so, and exit as a check with errors does
        which = "the one point" if n == 1 else f"none of the {n:,} points"
        print(f"wrote {args.output}: {which} could {'not ' if n == 1 else ''}be laid out (see the problem column)")
        return 1
    names = [METRIC[a].label if a in METRIC else a for a in (x, y)]
    print(f"wrote {args.output}: {counted(n, 'point')}, {len(front)} on the Pareto front of {names[0]} and {names[1]}"
          + (f", {problems} that could not be laid out (see the problem column)" if problems else ""))
    return 0
