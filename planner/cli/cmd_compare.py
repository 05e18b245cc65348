"""cluster-planner compare: plans or variants of one plan side by side, with the differences."""

from __future__ import annotations

from pathlib import Path

from planner.cli import UsageError, load_catalog_arg, print_json
from planner.plan.fileio import open_plan
from planner.plan.variants import resolve_variant
from planner.report.compare import METRICS, Comparison, compare_plans, grouped_differences
from planner.vocabulary import difference, setting_text, text


def register(sub) -> None:
    p = sub.add_parser("compare", help="compare plans (or variants of one plan): totals, BOM and findings "
                       "with their differences",
                       description="Compare two or more plan files, or variants of one plan (--variants). "
                       "Differences are each side minus the first.")
    p.add_argument("files", nargs="+", metavar="FILE", help="plan files (.json); one with --variants")
    p.add_argument("--variants", nargs="+", metavar="NAME", help="compare these variants of the one plan FILE")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    if args.variants:
        if len(args.files) != 1:
            raise UsageError("compare --variants takes one plan file")
        if len(args.variants) < 2:
            raise UsageError("compare --variants needs two variant names or more")
        plan = open_plan(args.files[0], catalog)
        plans = [resolve_variant(plan, name) for name in args.variants]
        names = list(args.variants)
    else:
        if len(args.files) < 2:
            raise UsageError("compare needs two plan files or more (or one plan file and --variants)")
        plans = [open_plan(f, catalog) for f in args.files]
        names = [Path(f).name for f in args.files]
    comparison = compare_plans(names, plans, catalog)
    if args.json:
        print_json(comparison.to_json())
    else:
        print(render_text(comparison))
    return 1 if any(side.has_errors for side in comparison.sides) else 0  # as check does


SETTINGS_SHOWN = 20  # settings differences printed per side (the JSON has them all)


MARK = {"better": "better", "worse": "worse", "same": "", None: "", "not comparable": "not comparable"}


def render_text(c: Comparison) -> str:
    names = [s.name for s in c.sides]
    words = [c.none_texts(s) for s in c.sides]  # what a report says where it has no figure

    def shown_text(i: int, m, v) -> str:
        return words[i][m.key] if v is None and m.key in words[i] else text(v, m.unit)

    shown = [m for m in METRICS if any(c.totals(s)[m.key] is not None for s in c.sides)]
    # each column as wide as its widest text and two spaces, so neighbours never run together
    width = max([20, *(len(n) + 2 for n in names),
                 *(len(shown_text(i, m, c.totals(s)[m.key])) + 2 for m in shown for i, s in enumerate(c.sides))])
    dw = max([width + 8, *(len(difference(d.totals[m.key], m.unit)) + len(MARK[d.verdicts[m.key]]) + 3
                           for m in shown for d in c.differences)])  # a difference and its verdict
    head = f"{'':<40}" + "".join(f"{n[:width - 2]:>{width}}" for n in names)
    head += "".join(f"{d.side[:dw - 2] + ' - first':>{dw}}" for d in c.differences) if len(names) > 2 else \
        f"{'difference':>{dw}}"
    lines = [head]
    for m in shown:
        values = [c.totals(s)[m.key] for s in c.sides]
        label = f"{m.label} ({c.basis})" if m.on_basis else m.label
        row = f"{label[:39]:<40}" + "".join(f"{shown_text(i, m, v):>{width}}" for i, v in enumerate(values))
        for d in c.differences:
            mark = MARK[d.verdicts[m.key]]
            row += f"{difference(d.totals[m.key], m.unit) + (' ' + mark if mark else ''):>{dw}}"
        lines.append(row)
    lines += ["", f"Power is compared on the {c.basis} basis (the first plan's) on every side."]
    for d in c.differences:
        for why in dict.fromkeys(d.notes.values()):
            lines.append(f"{d.side}: training throughput and time to train are not comparable: {why}.")
    for d in c.differences:
        if d.settings:
            lines += ["", f"Settings, {d.side} against {d.against}:"]
            lines += [f"  {s.title} ({s.section}): {setting_text(s.first, s.unit)} -> {setting_text(s.side, s.unit)}"
                      for s in d.settings[:SETTINGS_SHOWN]]
            if len(d.settings) > SETTINGS_SHOWN:
                lines.append(f"  and {len(d.settings) - SETTINGS_SHOWN} more (compare --json lists them all)")
        lines += ["", f"Bill of materials, {d.side} against {d.against}:"]
        if not d.bom:
            lines.append("  no differences")
        item_w = max([60, *(len(b.item) for b in d.bom)]) + 1  # an item's whole name, never cut
        for b in d.bom:
            lines.append(f"  {b.change:<8} {b.category[:16]:<17}{b.item:<{item_w}}"
                         f"{b.quantity_difference:>+8,}{difference(b.cost_difference_usd, '$'):>16}")
        if d.bom:
            lines.append(f"  {'':<{item_w + 25}}{'total':>8}"
                         f"{difference(sum(b.cost_difference_usd for b in d.bom), '$'):>16}")
        lines += ["", f"Findings, {d.side} against {d.against}: {sum(f.count for f in d.findings_gained)} gained, "
                  f"{sum(f.count for f in d.findings_lost)} lost"]
        for word, found in (("gained", d.findings_gained), ("lost", d.findings_lost)):
            for f in grouped_differences(found):
                times = f" (x{f.count})" if f.count > 1 else ""
                lines.append(f"  {word:<7}{f.severity:<8}{f.code}{times}: {f.message}")
    lines += ["", "Differences are each side minus the first; 'better'/'worse' follow each figure's direction "
              "(less cost, power and time is better; more throughput is better)."]
    return "\n".join(lines)
