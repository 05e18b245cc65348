"""Designs side by side: each one's totals, and how each differs from the first.

The comparison works on the reports as ``check --json`` prints them (``Report.to_json``), so
every total and every difference is the one a user gets by subtracting two ``check --json``
reports. Each metric says which direction is better (``better``: "lower", "higher" or None
for a figure that is neither), so every view colours a difference the same way.

The bill of materials is compared line by line (category and item): lines added, removed
and changed, with the quantity and cost differences; the project costs on top of the
hardware (spares, installation, shipping, tax, contingency) are lines of their own, so the
cost differences add up to the capex difference. Findings are compared by severity, code
and message: those gained and those lost.

Why it is long: the metrics table (each figure with its direction and what it depends on)
and the comparison it drives, totals, bill-of-materials lines and the workloads' likeness,
are one concern: what a user gets by setting two reports side by side.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from planner.report.model import Report
from planner.vocabulary import choice_title, rounds_to_zero

Better = Literal["lower", "higher"] | None


@dataclass(frozen=True, slots=True)
class Metric:
    key: str
    label: str
    unit: str
    path: tuple[str, ...]  # where check --json has it
    better: Better
    why: str  # why that direction is better (the views' tooltip)
    on_basis: bool = False  # a power figure: read on the comparison's power basis (totals.<key>_<basis>_kw)
    of_workload: bool = False  # a figure of the training job: comparable only when the workloads agree
    none_path: tuple[str, ...] = ()  # where check --json says in words why the figure is missing

    def none_text(self, report_json: dict[str, Any]) -> str | None:
        """What the report says in the figure's place when it has none ("not within 36 months")."""
        node: Any = report_json
        for part in self.none_path:
            if not isinstance(node, dict):
                return None
            node = node.get(part)
        return node if self.none_path and isinstance(node, str) and node else None

    @property
    def from_prices(self) -> bool:
        """Worked out from prices (the cost section: money, and the break-even month): left out
        where prices are (a vendor pack without them)."""
        return self.path[0] == "cost"

    def path_on(self, basis: str | None) -> tuple[str, ...]:
        if self.on_basis and basis in ("typical", "nameplate"):
            return (*self.path[:-1], self.path[-1].removesuffix("_kw") + f"_{basis}_kw")
        return self.path

    def value(self, report_json: dict[str, Any], basis: str | None = None) -> float | None:
        node: Any = report_json
        for part in self.path_on(basis):
            if not isinstance(node, dict):
                return None
            node = node.get(part)
        return node if isinstance(node, (int, float)) and not isinstance(node, bool) else None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "unit": self.unit, "path": ".".join(self.path),
                "better": self.better}


METRICS: tuple[Metric, ...] = (
    Metric("gpus", "GPUs", "", ("totals", "gpus"), None, "More GPUs is a bigger design, not a better one"),
    Metric("it_power_kw", "IT power", "kW", ("totals", "it_power_kw"), "lower", "Less power to supply and pay for",
           on_basis=True),
    Metric("facility_power_kw", "Facility power", "kW", ("totals", "facility_power_kw"), "lower",
           "Less power to supply and pay for", on_basis=True),
    Metric("racks", "Racks", "", ("totals", "racks"), "lower", "Less floor space"),
    Metric("cdus", "CDUs needed", "", ("totals", "cdus"), "lower", "Less cooling equipment to buy and place"),
    Metric("cdus_placed", "CDUs placed", "", ("totals", "cdus_placed"), None,
           "What the plan buys; fewer than needed is an error the checks list"),
    Metric("capex_usd", "Capex", "$", ("cost", "capex_usd"), "lower", "Less money up front"),
    Metric("opex_usd_per_month", "Opex", "$/month", ("cost", "opex_usd_per_month"), "lower",
           "Less to pay every month"),
    Metric("tco_usd", "TCO", "$", ("cost", "tco_usd"), "lower", "Less to pay over the horizon"),
    Metric("tokens_per_s", "Training throughput", "tokens/s", ("workload", "tokens_per_s"), "higher",
           "More tokens trained per second", of_workload=True),
    Metric("time_to_train_days", "Time to train if nothing failed", "days", ("workload", "time_to_train_days"), "lower",
           "The model is trained sooner", of_workload=True),
    Metric("ettr", "Effective training time ratio", "share", ("goodput", "ettr"), "higher",
           "Less of the time lost to interruptions, checkpoints and restarts"),
    Metric("goodput_tokens_per_s", "Goodput (throughput with failures)", "tokens/s",
           ("goodput", "goodput_tokens_per_s"), "higher", "More tokens trained per second, failures counted",
           of_workload=True),
    Metric("time_to_train_with_failures_days", "Time to train with failures", "days", ("goodput", "time_to_train_days"),
           "lower", "The model is trained sooner, failures counted", of_workload=True),
    Metric("interruptions_per_day", "Interruptions", "per day", ("goodput", "interruptions_per_day"), "lower",
           "The job stops less often"),
    Metric("served_tokens_per_s", "Inference output served", "tokens/s",
           ("workload", "inference_output_tokens_per_s"), "higher", "More output tokens served per second"),
    Metric("decode_tokens_per_s", "Inference decode per GPU", "tokens/s", ("workload", "decode_tokens_per_s"), "higher",
           "More tokens a GPU decodes per second (decode steps alone; a serving efficiency, not the plan's output)"),
    Metric("break_even_months", "Break-even vs on-demand rent", "months", ("cost", "break_even_months", "on_demand"),
           "lower", "Building pays for itself sooner", none_path=("cost", "break_even_text", "on_demand")),
)
METRIC = {m.key: m for m in METRICS}


NOT_COMPARABLE = "not comparable"
# What a training figure depends on besides the cluster: (check --json key, how it reads)
_WORKLOAD_TERMS = (("model", "model"), ("params_b", "parameters (B)"), ("train_tokens_b", "tokens to train (B)"),
                   ("seq_len", "sequence length"), ("global_batch_tokens", "global batch (tokens)"))


def workload_difference(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """Why two reports' training figures cannot be compared ("the workloads differ in model
    (Llama 3 70B, Llama 3 405B)"), or None when they train the same job."""
    wa, wb = a.get("workload") or {}, b.get("workload") or {}
    differ = [f"{words} ({choice_title(wa.get(key))}, {choice_title(wb.get(key))})" for key, words in _WORKLOAD_TERMS
              if wa.get(key) is not None and wb.get(key) is not None and wa.get(key) != wb.get(key)]
    return f"the workloads differ in {', '.join(differ)}" if differ else None


def verdict(metric: Metric, difference: float | None) -> Literal["better", "worse", "same"] | None:
    """Whether a difference (this side minus the first) is better or worse; None if the
    metric has no better direction or a side lacks the figure."""
    if difference is None or metric.better is None:
        return None
    if rounds_to_zero(difference, metric.unit):  # below what the figure's text shows: "no change"
        return "same"
    return "better" if (difference < 0) == (metric.better == "lower") else "worse"


def finding_verdicts(first: dict[str, int], other: dict[str, int]) -> dict[str, tuple[str | None, str]]:
    """(verdict, why) of ``other``'s errors and warnings against ``first``'s (``Side.finding_counts``):
    fewer errors is better; fewer warnings is better, and more worse, only where the errors did
    not move the other way (four warnings that became four errors on a nameplate basis are not
    four better, nor four errors become warnings four worse): then no verdict is given."""
    errors = other["error"] - first["error"]
    warnings = other["warning"] - first["warning"]

    def by_count(n: int) -> str:
        return "same" if n == 0 else "worse" if n > 0 else "better"

    out = {"error": (by_count(errors), "Errors: fewer is better.")}
    if warnings < 0 < errors:
        out["warning"] = (None, "Warnings: fewer, but the errors rose: some warnings may have become errors, "
                                "so fewer is not better here.")
    elif errors < 0 < warnings:
        out["warning"] = (None, "Warnings: more, but the errors fell: some errors may have become warnings, "
                                "so more is not worse here.")
    else:
        out["warning"] = (by_count(warnings), "Warnings: fewer is better.")
    return out


def _difference(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


@dataclass(slots=True)
class Side:
    name: str
    report: dict[str, Any]  # Report.to_json()

    @property
    def basis(self) -> str:
        return (self.report.get("plan") or {}).get("power_basis", "typical")

    @property
    def totals(self) -> dict[str, float | None]:
        """The figures on this side's own power basis."""
        return self.totals_on(self.basis)

    @property
    def finding_counts(self) -> dict[str, int]:
        """Its errors, warnings and notes, each finding once (as check counts them)."""
        out = {"error": 0, "warning": 0, "info": 0}
        for f in self.report.get("findings") or ():
            out[f["severity"]] = out.get(f["severity"], 0) + 1
        return out

    def totals_on(self, basis: str) -> dict[str, float | None]:
        """The figures with power on ``basis`` (so two sides compare typical with typical)."""
        return {m.key: m.value(self.report, basis) for m in METRICS}

    @property
    def has_errors(self) -> bool:
        return any(f.get("severity") == "error" for f in self.report.get("findings", []))

    def bom_lines(self) -> dict[tuple[str, str], dict[str, float]]:
        """(category, item) -> quantity, unit and total cost; project costs as lines of their own."""
        cost = self.report.get("cost") or {}
        lines: dict[tuple[str, str], dict[str, float]] = {}
        for line in cost.get("bom", []):
            key = (line["category"], line["item"])
            got = lines.setdefault(key, {"quantity": 0, "total_usd": 0.0})
            got["quantity"] += line["quantity"]
            got["total_usd"] += line["total_usd"]
        for name, usd in (cost.get("project_costs_usd") or {}).items():
            if usd:
                lines[("Project costs", name)] = {"quantity": 1, "total_usd": usd}
        return lines

    def findings(self) -> Counter:
        return Counter((f["severity"], f["code"], f["message"]) for f in self.report.get("findings", []))


@dataclass(slots=True)
class BomDifference:
    category: str
    item: str
    change: Literal["added", "removed", "changed"]
    quantity_a: int
    quantity_b: int
    total_usd_a: float
    total_usd_b: float

    @property
    def quantity_difference(self) -> int:
        return self.quantity_b - self.quantity_a

    @property
    def cost_difference_usd(self) -> float:
        return self.total_usd_b - self.total_usd_a

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "item": self.item, "change": self.change,
                "quantity_a": self.quantity_a, "quantity_b": self.quantity_b,
                "quantity_difference": self.quantity_difference, "total_usd_a": round(self.total_usd_a, 2),
                "total_usd_b": round(self.total_usd_b, 2),
                "cost_difference_usd": round(self.cost_difference_usd, 2)}


def bom_differences(a: Side, b: Side) -> list[BomDifference]:
    """Lines added, removed or changed (quantity or cost) from ``a`` to ``b``, in the order
    of ``a``'s bill, then the lines ``b`` adds in its order."""
    la, lb = a.bom_lines(), b.bom_lines()
    out = []
    for key in list(la) + [k for k in lb if k not in la]:
        x, y = la.get(key), lb.get(key)
        if x is not None and y is not None and x == y:
            continue
        change = "added" if x is None else "removed" if y is None else "changed"
        x = x or {"quantity": 0, "total_usd": 0.0}
        y = y or {"quantity": 0, "total_usd": 0.0}
        out.append(BomDifference(key[0], key[1], change, x["quantity"], y["quantity"], x["total_usd"],
                                 y["total_usd"]))
    return out


@dataclass(slots=True)
class FindingDifference:
    severity: str
    code: str
    message: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "code": self.code, "message": self.message, "count": self.count}


def grouped_differences(found: list[FindingDifference]) -> list[FindingDifference]:
    """Findings gained (or lost) of one severity and a code that has a group text (a
    nameplate warning per rack) as one line with their count, as check groups them
    (``finding_groups.GROUP_TEXTS``); the others as they are, in their order."""
    from planner.report.finding_groups import GROUP_TEXTS

    merged: dict[tuple, list[FindingDifference]] = {}
    for f in found:
        key = (f.severity, f.code) if f.code in GROUP_TEXTS else (f.severity, f.code, f.message)
        merged.setdefault(key, []).append(f)
    out = []
    for members in merged.values():
        first, n = members[0], sum(m.count for m in members)
        if len(members) == 1:
            out.append(first)
        else:
            out.append(FindingDifference(first.severity, first.code, GROUP_TEXTS[first.code].format(n=f"{n:,}"), n))
    return out


def finding_verdict(severity: str, gained: bool) -> Literal["better", "worse"] | None:
    """An error or warning gained is worse, lost is better; a note (info) is neither."""
    if severity == "info":
        return None
    return "worse" if gained else "better"


def finding_differences(a: Side, b: Side) -> tuple[list[FindingDifference], list[FindingDifference]]:
    """(gained, lost): findings ``b`` has that ``a`` has not, and the other way round."""
    fa, fb = a.findings(), b.findings()

    def listed(counter: Counter) -> list[FindingDifference]:
        order = {"error": 0, "warning": 1, "info": 2}
        return [FindingDifference(s, c, m, n) for (s, c, m), n in
                sorted(counter.items(), key=lambda kv: order.get(kv[0][0], 3))]

    return listed(fb - fa), listed(fa - fb)


@dataclass(frozen=True, slots=True)
class SettingDifference:
    """A setting the two plans hold differently: ``section.name`` and its two values."""

    section: str
    name: str
    title: str
    unit: str
    first: Any
    side: Any

    def to_json(self) -> dict[str, Any]:
        return {"setting": f"{self.section}.{self.name}", "title": self.title, "unit": self.unit,
                "first": self.first, "side": self.side}


def settings_differences(first, other) -> list[SettingDifference]:
    """The settings ``other`` (a plan) holds differently from ``first``, section by section in
    the settings' order: what a user changed between two variants."""
    from pydantic import BaseModel

    from planner.settings import field_meta

    out = []
    for section in type(first.settings).model_fields:
        a, b = getattr(first.settings, section), getattr(other.settings, section)
        if not isinstance(a, BaseModel):
            continue
        for name in type(a).model_fields:
            va, vb = getattr(a, name), getattr(b, name, None)
            if va != vb:
                meta = field_meta(type(a), name)
                out.append(SettingDifference(section, name, meta["title"], meta["unit"], _plain(va), _plain(vb)))
    return out


def _plain(value: Any) -> Any:
    """A setting's value as JSON holds it."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(slots=True)
class Difference:
    """One side against the first."""

    side: str
    against: str
    totals: dict[str, float | None]
    verdicts: dict[str, str | None]
    bom: list[BomDifference]
    findings_gained: list[FindingDifference]
    findings_lost: list[FindingDifference]
    notes: dict[str, str] = field(default_factory=dict)  # metric key -> why it is not comparable
    settings: list[SettingDifference] = field(default_factory=list)  # where the plans are at hand

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "against": self.against,
                "totals": {k: _rounded(v) for k, v in self.totals.items()}, "verdicts": dict(self.verdicts),
                "notes": dict(self.notes), "settings": [d.to_json() for d in self.settings],
                "bom": [d.to_json() for d in self.bom],
                "bom_cost_difference_usd": round(sum(d.cost_difference_usd for d in self.bom), 2),
                "findings": {"gained": [f.to_json() for f in self.findings_gained],
                             "lost": [f.to_json() for f in self.findings_lost]}}


def _rounded(v: float | None) -> float | None:
    return v if v is None or isinstance(v, int) else round(v, 6)


@dataclass(slots=True)
class Comparison:
    sides: list[Side]
    differences: list[Difference] = field(default_factory=list)

    @property
    def basis(self) -> str:
        """The power basis every side's power is read on: the reference's."""
        return self.sides[0].basis

    def totals(self, side: Side) -> dict[str, float | None]:
        """``side``'s figures as the comparison reads them (power on the reference's basis)."""
        return side.totals_on(self.basis)

    def none_texts(self, side: Side) -> dict[str, str]:
        """For ``side``'s missing figures, what its report says instead (by metric key)."""
        return {m.key: t for m in METRICS if (t := m.none_text(side.report)) is not None}

    def to_json(self) -> dict[str, Any]:
        return {
            "metrics": [m.to_json() for m in METRICS],
            "power_basis": self.basis,
            "sides": [{"name": s.name, "totals": self.totals(s)} for s in self.sides],
            "differences": [d.to_json() for d in self.differences],
        }


def compare_json(named_reports: list[tuple[str, dict[str, Any]]]) -> Comparison:
    """Compare reports given as ``check --json`` dicts; each side against the first."""
    if len(named_reports) < 2:
        raise ValueError("a comparison needs two sides or more")
    sides = [Side(n, r) for n, r in named_reports]
    first = sides[0]
    diffs = []
    for s in sides[1:]:
        # power like with like: both sides on the reference's basis (a basis switch is no physical change)
        ta, tb = first.totals_on(first.basis), s.totals_on(first.basis)
        totals = {m.key: _difference(ta[m.key], tb[m.key]) for m in METRICS}
        verdicts = {m.key: verdict(m, totals[m.key]) for m in METRICS}
        notes = {}
        why = workload_difference(first.report, s.report)
        if why:
            for m in METRICS:
                if m.of_workload and totals[m.key] is not None:
                    verdicts[m.key], notes[m.key] = NOT_COMPARABLE, why
        gained, lost = finding_differences(first, s)
        diffs.append(Difference(s.name, first.name, totals, verdicts, bom_differences(first, s), gained, lost,
                                notes))
    return Comparison(sides, diffs)


def report_json(plan, catalog, report: Report | None = None) -> dict[str, Any]:
    """What ``check --json`` prints for ``plan`` (evaluated here unless ``report`` is given),
    with the workload's best layouts by the design's search (``layout_candidates``).
    Every run is routed here: a plan too large to route on each edit gets the findings about
    runs beyond every reach of its routed runs here, in place of the per-tier estimate's (the
    report's cost section has them for the others)."""
    from planner.costs.parts import end_modules, fabric_modules_per_tier, modules_by_speed
    from planner.network.cables import build_schedule
    from planner.network.routes import BEYOND_REACH, reach_findings
    from planner.report.evaluate import evaluate

    from planner.workload.section import layout_candidates

    report = report or evaluate(plan, catalog)
    out = report.to_json()
    if "workload" in out:  # the search runs here, not on every edit in the app (counts change it)
        out["workload"]["layout_candidates"] = layout_candidates(plan, catalog, report.counts)
    schedule = build_schedule(plan, catalog)
    out["cables"] = cables = schedule.totals()
    # the optics as the bill of materials buys them from this schedule: a module per cage at
    # each fibre end (a twin-port module for two links), all networks by speed, and the
    # fabric's (the network section's count, when the plan is priced run by run); the
    # schedule's fibre ends by speed as well
    optics = end_modules(schedule, catalog)
    cables["fibre_ends"] = cables["transceivers"]
    cables["transceivers"] = modules_by_speed(optics)
    cables["fabric_transceivers"] = sum(fabric_modules_per_tier(schedule, optics).values())
    if not out.get("cost", {}).get("cables_routed", True):  # the routed runs, not the per-tier estimate's
        out["findings"] = [f for f in out["findings"] if f["code"] != BEYOND_REACH] + [
            f.to_json() for f in reach_findings(schedule)]
    out["plan"]["variant"] = plan.current_variant
    return out


def compare_plans(names: list[str], plans: list, catalog) -> Comparison:
    """Evaluate each plan and compare them, each against the first, with the settings each
    holds differently from the first."""
    c = compare_json([(n, report_json(p, catalog)) for n, p in zip(side_names(names), plans)])
    for d, plan in zip(c.differences, plans[1:]):
        d.settings = settings_differences(plans[0], plan)
    return c


def side_names(names: list[str]) -> list[str]:
    """Distinct names for the sides: a name given twice gets (2), (3)."""
    seen: Counter = Counter()
    out = []
    for n in names:
        seen[n] += 1
        out.append(n if seen[n] == 1 else f"{n} ({seen[n]})")
    return out
