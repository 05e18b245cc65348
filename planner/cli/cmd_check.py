"""cluster-planner check: evaluate a plan and print the report."""

from __future__ import annotations


from planner.cli import aligned, load_catalog_arg, print_json
from planner.export.table_columns import TableColumn, headers
from planner.numbers import counted
from planner.remedies.fix import no_fix_reason
from planner.report.compare import report_json
from planner.report.evaluate import evaluate
from planner.plan.fileio import open_plan
from planner.plan.variants import resolve_variant
from planner.report.labels import INFERENCE_LINES, TRAINING_ONLY, describe
from planner.report.model import Report
from planner.schedule.model import PART_NAMES
from planner.report.schedule_text import training_run_line
from planner.schedule.section import energized_text
from planner.vocabulary import kw, text

SEVERITY_MARK = {"error": "ERROR", "warning": "WARN ", "info": "info "}


def register(sub) -> None:
    p = sub.add_parser("check", help="evaluate a plan: power, cooling, network, storage, cost and findings")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--variant", metavar="NAME", help="evaluate this variant of the plan (default: the one it was "
                   "saved on)")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    if args.variant is not None:
        plan = resolve_variant(plan, args.variant)
    report = evaluate(plan, catalog)
    if args.json:  # routes every run: a plan too large to route on each edit may gain reach errors
        out = report_json(plan, catalog, report)
        print_json(out)
        return 1 if any(f["severity"] == "error" for f in out["findings"]) else 0
    else:
        print(render_text(report, catalog))
    return 1 if report.has_errors else 0


def render_text(report: Report, catalog=None) -> str:
    """The report as a person reads it: totals, racks, each section's figures with labels
    and units (``planner.report.labels``), then the findings."""
    t = report.totals
    lines = [
        f"{report.plan_name}  (power on the {report.power_basis} basis)",
        "",
        f"{counted(t.gpus, 'GPU')} in {counted(t.nodes, 'node')}, "
        f"{counted(t.racks, 'rack')} ({t.gpu_racks:,} with GPUs); "
        f"CDUs: {t.cdus} needed, {t.cdus_placed} placed",
        f"IT power {kw(t.it_power_kw)} (typical {kw(t.it_power_typical_kw)}, nameplate "
        f"{kw(t.it_power_nameplate_kw)}); facility {kw(t.facility_power_kw)} at PUE {t.pue:g}",
        *energized_lines(report),
        f"{findings_count(report)} (listed at the end)",
        *campus_lines(report),
        "",
        *rack_lines(report),
    ]
    for name, section in report.sections.items():
        lines += ["", name.replace("_", " ").capitalize()]
        serving = name == "workload" and getattr(section, "inference", None) is not None
        for meta, value in section.figures():
            if name == "workload" and meta.name == "inference":
                lines += inference_lines(value)
                continue
            if serving and (value is None or meta.name in TRAINING_ONLY):
                continue  # a serving plan: the training step's figures are empty or not its own
            if isinstance(value, (list, tuple)) or hasattr(value, "to_json") or meta.name in (
                    "curves", "break_even_months"):
                continue  # tables, the sizing detail and figures written in words: in --json, the workbook, the app
            if isinstance(value, dict) and not all(v is None or isinstance(v, (int, float, str)) for v in value.values()):
                continue
            label, text = describe(name, meta.name, value, catalog)
            lines.append(f"  {label:<50} {text}")
    groups = report.finding_groups
    total = sum(report.counts_by_severity().values())
    lines += ["", findings_count(report) + (f", in {counted(len(groups), 'line')}: alike "
                                           "findings share one" if len(groups) < total else "")]
    for g in groups:  # findings of one cause and one remedy: one line that counts them
        lines.append(f"  {SEVERITY_MARK[g.severity]} {g.code:<30} {g.message}")
        if g.count > 1:
            lines.append(f"    {places_line(report, g.places)}")
        if g.severity != "info":  # errors and warnings say what would mend them, or that nothing will
            lines.append(f"    {fix_line(g)}")
    return "\n".join(lines)


# What a serving plan is judged by, of the inference sizing (workload.inference in --json).
def inference_lines(inference) -> list[str]:
    """The serving figures of an inference plan, one a line; none for a training plan."""
    if inference is None:
        return []
    data = inference.to_json()
    return [f"  {label:<50} {text(data[key], unit)}" for key, label, unit in INFERENCE_LINES
            if data.get(key) is not None]


PLACES_NAMED = 6  # the places a grouped finding names; check --json lists them all


def places_line(report: Report, places: tuple[str, ...]) -> str:
    """Where a grouped finding is: the first few racks (or devices) by name, and how many more."""
    names = [r.name if (r := report.rack(p)) is not None else p for p in places[:PLACES_NAMED]]
    more = len(places) - len(names)
    return "Where: " + ", ".join(names) + (f" and {more:,} more (check --json lists them under finding_groups)"
                                            if more else "")


def fix_line(g) -> str:
    """The remedy of a finding (or a group of one); how many of a group's members carry one."""
    if g.remedy is not None:
        return "Fix: " + g.remedy.label
    mended = sum(1 for f in g.members if f.remedy is not None)
    if mended:
        return f"Fix: each of the {g.count:,} has its own remedy ({mended:,} of them; cluster-planner fix applies them)"
    return no_fix_reason(g.members[0])


RACK_LINES = 100  # racks listed one a line; past that, runs of alike racks one a line


def energized_lines(report: Report) -> list[str]:
    """When the plan is energized and what gates it (``planner.schedule``), one line; the
    training run on that calendar and its cost, another."""
    s = report.section("schedule")
    if s is None or not s.phases:
        return []
    run = training_run_line(report)
    return [f"Energized {energized_text(s)}; {PART_NAMES.get(s.critical_part, 'installation')} gates it",
            *([run] if run else [])]


def findings_count(report: Report) -> str:
    counts = report.counts_by_severity()
    return "Findings: " + ", ".join(f"{counts[k]:,} {k}{'s' if counts[k] != 1 and k != 'info' else ''}"
                                    for k in ("error", "warning", "info"))


def rack_lines(report: Report) -> list[str]:
    """The rack table. A plan of more than ``RACK_LINES`` racks gives each run of racks next to
    each other with the same figures one line ("NVL-01 … NVL-14819 (14,819 racks)"): campus-1m's
    22,583 racks are some 400 lines, not 22,583 before the findings."""
    rows: list[list[str]] = []
    first, run = "", 0
    name, *figure_columns = RACK_COLUMNS
    racks = report.racks  # a new list each time it is read: once, not once a rack
    for r in racks:
        figures = [c.value(r) for c in figure_columns]
        if len(racks) > RACK_LINES and rows and figures == rows[-1][1:]:
            run += 1
            rows[-1][0] = f"{first} … {r.name} ({run:,} racks)"
        else:
            first, run = r.name, 1
            rows.append([name.value(r), *figures])
    return aligned([headers(RACK_COLUMNS), *rows], "".join(c.align[0] for c in RACK_COLUMNS))


# The rack table of ``check``, a rack a row.
RACK_COLUMNS: tuple[TableColumn, ...] = (
    TableColumn("rack", "rack", lambda r: r.name),
    TableColumn("used_u", "U used", lambda r: f"{r.used_u}/{r.height_u}", "U", align="right"),
    TableColumn("nodes", "nodes", lambda r: f"{r.nodes:,}", align="right"),
    TableColumn("gpus", "GPUs", lambda r: f"{r.gpus:,}", align="right"),
    TableColumn("power", "power", lambda r: kw(r.power_kw), "kW", align="right"),
    TableColumn("cap", "cap kW", lambda r: f"{r.cap_kw:g}", "kW", align="right"),
    TableColumn("load", "load", lambda r: f"{r.load_fraction:.0%}", "fraction", align="right"),
    TableColumn("cooling", "cooling", lambda r: r.cooling),
)


def campus_lines(report: Report) -> list[str]:
    """A plan of several halls: one aligned line per building (its halls' sums and its plant)
    and per hall (its sums and its power limit); nothing for one hall."""
    facility = report.sections.get("facility")
    halls = getattr(facility, "halls", ())
    if len(halls) < 2:
        return []
    head = ["", f"Campus: {counted(len(facility.buildings), 'building')}, "
            f"{len(halls)} halls"]
    rows = [["building / hall", "racks", "GPUs", "IT typical", "IT nameplate", "water", "plant / limit"]]

    def row(name: str, f, note: str) -> list[str]:
        return [name, f"{f.racks:,}", f"{f.gpus:,}", kw(f.it_power_typical_kw), kw(f.it_power_nameplate_kw),
                text(f.water_l_min, "l/min"), note]

    for b in facility.buildings:
        feed = f" of {kw(b.utility_feed_kw)} feed" if b.utility_feed_kw is not None else ""
        trafos = (f", {b.transformer_units} x {b.transformer_unit_kva:,g} kVA transformers"
                  if b.transformer_unit_kva else "")
        rows.append(row(b.name, b, f"design {kw(b.facility_power_kw)}{feed}; UPS {b.ups_units} x "
                                   f"{kw(b.ups_unit_kw)}, generators {b.generator_units} x "
                                   f"{kw(b.generator_unit_kw)}{trafos}"))
        for h in (h for h in halls if h.building == b.id):
            limit = f"limit {kw(h.power_limit_kw)} ({report.power_basis})" if h.power_limit_kw is not None else ""
            rows.append(row("  " + h.name, h, limit))
    return head + aligned(rows, "lrrrrrl", indent="  ")
