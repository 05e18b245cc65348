"""cluster-planner fabrics: the plan's training workload on every fabric technology."""

from __future__ import annotations

import json

from planner.cli import load_catalog_arg
from planner.errors import PlannerError
from planner.evaluate import evaluate
from planner.fileio import open_plan


def register(sub) -> None:
    p = sub.add_parser("fabrics", help="compare the plan's workload on every compute fabric technology")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    report = evaluate(plan, catalog)
    network = report.sections.get("network") or {}
    rows = network.get("fabrics") or []
    if not rows:
        problems = [f.message for f in report.findings if f.code.startswith("workload.") and f.severity == "error"]
        reason = problems[0] if problems else "the plan has no training workload on GPUs to compare"
        raise PlannerError(f"no fabric comparison: {reason}")
    if args.json:
        print(json.dumps({"plan": plan.name, "fabric": network.get("fabric"), "fabrics": rows}, indent=1))
    else:
        print(render_text(plan, rows, network.get("fabric")))
    return 0


def render_text(plan, rows: list[dict], current: str | None) -> str:
    w = plan.settings.workload
    lines = [
        f"{plan.name}: {w.model_params_b:g}B parameters, TP {w.tp} x PP {w.pp} x DP {w.dp}, {w.sharding}, "
        f"{w.global_batch_tokens:,} tokens per step",
        "",
        f"  {'fabric':<38}{'all-reduce':>12}{'bus bw/GPU':>12}{'bus bw/node':>13}{'GPU idle':>10}{'tokens/s':>12}",
    ]
    for r in rows:
        mark = "*" if r["fabric"] == current else " "
        title = r["title"] + (" + SHARP" if r["sharp"] else "")
        bw = "-" if r["bus_bandwidth_gbs"] is None else f"{r['bus_bandwidth_gbs']:,.1f} GB/s"
        node_bw = "-" if r["node_bus_bandwidth_gbs"] is None else f"{r['node_bus_bandwidth_gbs']:,.0f} GB/s"
        lines.append(f"{mark} {title:<38}{r['allreduce_ms']:>9,.1f} ms{bw:>12}{node_bw:>13}"
                     f"{r['gpu_idle_pct']:>9.1f}%{r['tokens_per_s']:>12,.0f}")
    lines += ["", "* the plan's fabric. All-reduce: the gradient synchronisation per step; bus bandwidth as "
              "nccl-tests defines it; GPU idle: exposed communication / step time."]
    if any(r["sharp"] for r in rows):
        lines.append("SHARP (in-network reduction) cuts the bytes on the InfiniBand rows; turn it off in the fabric "
                     "settings to compare every row on the same bytes, as the guide's table does.")
    return "\n".join(lines)
