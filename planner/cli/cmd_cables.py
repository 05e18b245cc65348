"""cluster-planner cables: the cable schedule of a plan, totals and (with --csv) every link."""

from __future__ import annotations

import json

from collections import Counter

from planner.cli import aligned, load_catalog_arg
from planner.costs.bom import parts_bill
from planner.costs.parts import schedule_lines
from planner.network.cables import build_schedule
from planner.plan.fileio import open_plan
from planner.safefile import write_file
from planner.save_target import check_target


def register(sub) -> None:
    p = sub.add_parser("cables", help="the cable schedule: every link rack/U/port to rack/U/port, length and medium")
    p.add_argument("file", metavar="PLAN", help="a plan file (.json)")
    p.add_argument("--csv", metavar="FILE", help="write every link to a CSV file")
    p.add_argument("--json", action="store_true", help="print the totals as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    inputs = [args.file, *args.catalog]
    if args.csv:
        check_target(args.csv, inputs)  # never the plan or a catalog, whatever its extension; before any work
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    sched = build_schedule(plan, catalog)
    parts = schedule_parts(plan, catalog, sched)
    if args.csv:  # checked as CSV (none to check), whatever the name's extension says
        write_file(args.csv, sched.to_csv().encode("utf-8"), kind=".csv", inputs=inputs)
    if args.json:
        print(json.dumps({**sched.totals(), "parts": parts}, indent=1))
    else:
        print(render_text(plan.name, sched, parts, catalog))
        if args.csv:
            print(f"wrote {args.csv}: {len(sched.links):,} links")
    return 0


def schedule_parts(plan, catalog, sched) -> dict[str, dict[str, int]]:
    """Transceivers and cables by catalog id, as the bill of materials buys them for this
    schedule (``planner.costs.parts.schedule_lines``: a module per cage at each fibre end)."""
    bill = parts_bill(schedule_lines(sched, catalog, plan.settings.costs), Counter(), catalog)
    return {"transceivers": bill["transceivers"], "cables": bill["cables"]}


def render_text(name: str, sched, parts: dict | None = None, catalog=None) -> str:
    t = sched.totals()
    lines = [f"{name}: {t['links']:,} cables, {t['length_m']:,.0f} m ({t['inter_rack']:,} between racks)", ""]
    lines += aligned([["medium", "cables", "metres"]] + [[medium, f"{v['count']:,}", f"{v['length_m']:,.0f}"]
                                                         for medium, v in sorted(t["by_medium"].items())], "lrr")
    lines += ["", "By network: " + ", ".join(f"{k} {v:,}" for k, v in t["by_network"].items()),
              "By route: " + ", ".join(f"{k} {v['count']:,}" for k, v in t["by_route"].items() if v["count"]), "",
              f"{'part':<50}{'qty':>8}"]
    if t["beyond_reach"]["links"]:
        lines[-2:-2] = [f"Beyond every reach: {t['beyond_reach']['links']:,} runs, the longest "
                        f"{t['beyond_reach']['longest_m']:,.0f} m (check lists them)"]
    for part, n in t["by_part"].items():
        lines.append(f"{part:<50}{n:>8,}")
    for part, n in t["transceivers"].items():
        lines.append(f"{part + ', fibre ends':<50}{n:>8,}")
    for kind, title in (("transceivers", "Transceivers by module (the bill of materials' count)"),
                        ("cables", "Cables by catalog part")):
        if parts and parts[kind]:
            lines += ["", f"{title}:"]
            for part_id, n in parts[kind].items():
                c = catalog.components.get(part_id) if catalog is not None else None
                lines.append(f"  {(c.title if c else part_id):<54}{n:>8,}")
    pairs = sched.between_racks()
    if pairs:
        lines += ["", "Between racks (busiest first):"]
        for (a, b, medium), n in pairs.most_common(12):
            lines.append(f"  {a} - {b}: {n:,} {medium}" if a != b else f"  inside {a}: {n:,} {medium}")
        if len(pairs) > 12:
            lines.append(f"  ... {len(pairs) - 12:,} more rack pairs (--csv lists every link)")
    if t["unrouted"]:
        lines += ["", "Not routed (switch not placed): " + ", ".join(f"{k} {v:,}" for k, v in t["unrouted"].items())]
    return "\n".join(lines)
