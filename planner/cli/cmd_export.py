"""cluster-planner export: the Excel workbook, or a drawing of the racks (PDF, SVG, PNG)."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from planner.cli import load_catalog_arg
from planner.errors import PlannerError
from planner.fileio import open_plan

DRAWING_FORMATS = (".pdf", ".svg", ".png")


def register(sub) -> None:
    p = sub.add_parser("export", help="export a plan: Excel workbook (.xlsx) or rack drawing (.pdf, .svg, .png)")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the file to write; its extension picks the format: .xlsx, .pdf, .svg or .png")
    p.set_defaults(run=run)


def run(args) -> int:
    out = Path(args.output)
    ext = out.suffix.lower()
    if ext != ".xlsx" and ext not in DRAWING_FORMATS:
        raise PlannerError(f"cannot export to '{out.name}': use .xlsx, .pdf, .svg or .png")
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    if ext == ".xlsx":
        from planner.export.xlsx import write_workbook

        write_workbook(plan, catalog, out)
    else:
        try:
            export_drawing = import_module("ui.export.files").export_drawing
        except (ImportError, AttributeError) as exc:
            raise PlannerError(f"exporting {ext} needs the drawing module (ui.export.files), "
                               f"which is not available in this installation ({exc})") from None
        export_drawing(plan, catalog, out)
    print(f"wrote {out}")
    return 0
