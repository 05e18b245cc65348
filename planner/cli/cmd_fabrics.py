"""cluster-planner fabrics: the plan's training workload on every fabric technology."""

from __future__ import annotations

from planner.cli import load_catalog_arg, print_json
from planner.report.network_section import FabricRow
from planner.report.evaluate import evaluate
from planner.plan.fileio import open_plan
from planner.settings import GUIDE
from planner.workload.advisor import SHARDING_TITLES
from planner.workload.models import model_shape
from planner.workload.search import split_text


def register(sub) -> None:
    p = sub.add_parser("fabrics", help="compare the plan's workload on every compute fabric technology")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    report = evaluate(plan, catalog)
    network = report.network
    rows = list(network.fabrics) if network is not None else []
    fabric = network.fabric if network is not None else None
    if not rows:
        # A usable plan with nothing to compare: say so, exit 0 (nothing wrong); if the
        # workload has errors, exit 1 as 'check' does for a plan with errors.
        problems = [f.message for f in report.findings if f.code.startswith("workload.") and f.severity == "error"]
        reason = problems[0] if problems else "the plan has no training workload on GPUs to compare"
        if args.json:
            print_json({"plan": plan.name, "fabric": fabric, "fabrics": [],
                        "note": f"no fabric comparison: {reason}"})
        else:
            print(f"no fabric comparison: {reason}")
        return 1 if problems else 0
    if args.json:
        print_json({"plan": plan.name, "fabric": fabric, "fabrics": [r.to_json() for r in rows]})
    else:
        print(render_text(plan, rows, fabric))
    return 0


def _gbs(value: float | None, fmt: str) -> str:
    return "-" if value is None else f"{value:{fmt}} GB/s"


def render_text(plan, rows: list[FabricRow], current: str | None) -> str:
    w = plan.settings.workload
    lines = [
        f"{plan.name}: {model_shape(w).params / 1e9:g}B parameters, {split_text(w)}, {SHARDING_TITLES.get(w.sharding, w.sharding)}, "
        f"{w.global_batch_tokens:,} tokens per step",
        "",
        f"  {'':<38}{'':>12}{'effective':>12}{'effective':>12}{'NCCL busbw':>12}{'':>10}",
        f"  {'fabric':<38}{'all-reduce':>12}{'per GPU':>12}{'per node':>12}{'per GPU':>12}{'GPU idle':>10}"
        f"{'tokens/s':>12}",
    ]
    for r in rows:
        mark = "*" if r.fabric == current else " "
        title = r.title + (" + SHARP" if r.sharp else "")
        eff = _gbs(r.effective_bandwidth_gbs, ",.1f")
        node_eff = _gbs(r.node_effective_bandwidth_gbs, ",.0f")
        bus = _gbs(r.bus_bandwidth_gbs, ",.1f")
        lines.append(f"{mark} {title:<38}{r.allreduce_ms:>9,.1f} ms{eff:>12}{node_eff:>12}{bus:>12}"
                     f"{r.gpu_idle_pct:>9.1f}%{r.tokens_per_s:>12,.0f}")
    lines += ["", "* the plan's fabric. All-reduce: the gradient synchronisation per step. Effective: bytes each "
              "GPU actually sends / time (never above the line rate). NCCL busbw: nccl-tests' ring-relative bus "
              "bandwidth, comparable between fabrics without SHARP but above the line rate with it. GPU idle: "
              "exposed communication / step time."]
    if any(r.sharp for r in rows):
        lines.append("SHARP (in-network reduction) cuts the bytes on the InfiniBand rows; turn it off in the fabric "
                     f"settings to compare every row on the same bytes, as the fabric table of {GUIDE}, does.")
    return "\n".join(lines)
