"""cluster-planner export: the vendor pack (.pdf), rack elevations (.svg, .png), the workbook (.xlsx)
or, with --netbox, NetBox bulk-import CSV files into a folder.

The drawings are made with Qt; the program's entry point (``cluster_planner``) lends them
to the command line. No display is needed (the offscreen platform is selected internally).
"""

from __future__ import annotations

import sys

from pathlib import Path

from planner.cli import UsageError, load_catalog_arg
from planner.report.evaluate import evaluate
from planner.export.xlsx import write_workbook
from planner.plan.fileio import open_plan
from planner.plan.variants import resolve_variant
from planner.save_target import check_target

FORMATS = (".pdf", ".svg", ".png", ".xlsx")


def register(sub) -> None:
    p = sub.add_parser("export", help="export the vendor pack (PDF), rack elevations (SVG, PNG) or workbook (XLSX)")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="where to write: .pdf vendor pack, .svg or .png rack elevations, .xlsx workbook; "
                        "with --netbox a folder")
    p.add_argument("--netbox", action="store_true",
                   help="write NetBox 4.x bulk-import CSV files (sites, racks, device types, devices, power "
                        "feeds, cables ...) into the folder OUT, numbered in import order")
    p.add_argument("--prefix", metavar="TEXT", default="",
                   help="with --netbox: put TEXT before every device name ('a' makes node-1 'a-node-1'), so the "
                        "devices of several plans have names unique in one NetBox")
    p.add_argument("--chunk-rows", type=int, metavar="N", default=None,
                   help="with --netbox: at most N rows per file, longer files split into numbered parts "
                        "(default 100: about a minute's import, under a web server's 120 s timeout)")
    p.add_argument("--netbox-has", nargs="+", metavar="EXPORT", default=(),
                   help="with --netbox: NetBox's own exports of what it already holds (device types as YAML "
                        "'All data' or CSV, manufacturers, device roles as CSV); only what is missing is written")
    p.add_argument("--paper", choices=["A4", "Letter"], default="A4", help="PDF paper size (landscape); default A4")
    p.add_argument("--with-prices", action="store_true",
                   help="include unit prices, capex, opex and TCO in the PDF vendor pack (left out by default; "
                        "the workbook always has them)")
    p.add_argument("--compare-with", nargs="+", metavar="PLAN",
                   help="workbook / vendor pack: add a Compare sheet (pages) of FILE against these plan files")
    p.add_argument("--compare-variants", nargs="+", metavar="NAME",
                   help="workbook / vendor pack: add a Compare sheet (pages) of these variants of FILE (the first is the "
                        "reference)")
    p.set_defaults(run=run)


def run(args) -> int:
    out = Path(args.output)
    if args.netbox:
        return _netbox(args, out)
    suffix = out.suffix.lower()
    if out.is_dir():
        raise UsageError(f"{args.output} is a folder: name a file in it ending .pdf, .svg, .png or .xlsx (or give "
                         "--netbox to write NetBox import files into a folder)")
    if suffix not in FORMATS:
        raise UsageError(f"{out.name}: cannot export to '{suffix or 'no extension'}'; "
                         "use .pdf, .svg, .png or .xlsx")
    inputs = [args.file, *args.catalog]
    check_target(out, inputs)  # refuse a bad target (its own input, a device, read-only) before any work
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    report = evaluate(plan, catalog)
    if (args.compare_with or args.compare_variants) and suffix not in (".xlsx", ".pdf"):
        raise UsageError("--compare-with and --compare-variants add a Compare sheet to the workbook (.xlsx) or "
                         "Compare pages to the vendor pack (.pdf)")
    comparison = _comparison(args, plan, catalog)
    if comparison is not None and args.compare_variants:
        plan = resolve_variant(plan, args.compare_variants[0])
        report = evaluate(plan, catalog)
    inputs += list(args.compare_with or ())
    if suffix == ".xlsx":
        write_workbook(plan, catalog, out, report=report, inputs=inputs, comparison=comparison)
    else:
        draw = getattr(args, "frontends", None) and args.frontends.export_drawing
        if not draw:
            raise UsageError(f"{out.name}: drawings are exported by 'cluster-planner' (or 'python -m cluster_planner')")
        draw(plan, catalog, out, report, paper=args.paper, with_prices=args.with_prices, inputs=inputs,
             **({"comparison": comparison} if comparison is not None else {}))
    print(f"wrote {out}")
    return 0


def _comparison(args, plan, catalog):
    """The Compare sheet's comparison, if one is asked for."""
    from planner.report.compare import compare_plans

    if args.compare_with and args.compare_variants:
        raise UsageError("give --compare-with or --compare-variants, not both")
    if args.compare_with:
        return compare_plans([Path(args.file).name, *(Path(f).name for f in args.compare_with)],
                             [plan, *(open_plan(f, catalog) for f in args.compare_with)], catalog)
    if args.compare_variants:
        if len(args.compare_variants) < 2:
            raise UsageError("--compare-variants needs two variant names or more")
        return compare_plans(args.compare_variants, [resolve_variant(plan, v) for v in args.compare_variants],
                             catalog)
    return None


class RowsProgress:
    """The NetBox export's rows written, on ``stream``: one line kept up to date on a terminal
    (every report), else a line every ``LINE_EVERY`` rows (a log); nothing for an export
    shorter than that. Ctrl+C stops the export with nothing written."""

    LINE_EVERY = 1_000_000

    def __init__(self, stream) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.shown = 0

    def __call__(self, rows: int, total: int, what: str) -> None:
        if self.tty:
            line = f"{what}: {rows:,} rows written (Ctrl+C cancels)"
            status = getattr(self.stream, "status", None)  # the command line's terminal-safe stderr
            if status is not None:
                status(line)
            else:
                self.stream.write("\r" + line)
                self.stream.flush()
            self.shown = rows
        elif rows // self.LINE_EVERY > self.shown // self.LINE_EVERY:
            print(f"{what}: {rows:,} rows written", file=self.stream, flush=True)
            self.shown = rows

    def done(self) -> None:
        if self.tty and self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _netbox(args, out: Path) -> int:
    from planner.export.netbox import CHUNK_ROWS, FILES, NetBoxOptions, check_export_folder, file_names, write_netbox
    from planner.export.netbox_existing import ExistingExportError, read_existing

    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: --netbox writes a folder of CSV files; {out.name} is a file")
    chunk = CHUNK_ROWS if args.chunk_rows is None else args.chunk_rows
    if chunk < 1:
        raise UsageError(f"--chunk-rows takes a whole number of rows, 1 or more, not {chunk}")
    check_export_folder(out)  # replaced whole: refused if it holds anything else (the plan, a catalog), before any work
    try:
        existing = read_existing(args.netbox_has) if args.netbox_has else None
    except ExistingExportError as exc:
        raise UsageError(f"--netbox-has: {exc}") from None
    catalog = load_catalog_arg(args)
    options = NetBoxOptions(prefix=args.prefix, chunk_rows=chunk, existing=existing)
    progress = RowsProgress(sys.stderr)
    try:
        export = write_netbox(open_plan(args.file, catalog), catalog, out, options, progress=progress)
    except KeyboardInterrupt:  # the hidden folder is removed; the earlier export, if any, stays whole
        progress.done()
        print(f"cancelled: nothing written to {out}", file=sys.stderr)
        return 130
    progress.done()
    names = file_names(export, chunk)
    counts = ", ".join(f"{export.count(name):,} {name[:-4]}" for name in FILES if export.count(name))
    print(f"wrote {len(names)} NetBox import files to {out}, numbered in import order "
          f"(files over {chunk:,} rows in parts): {counts}")
    for note in export.notes:
        print(f"note: {note}")
    return 0
