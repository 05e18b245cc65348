"""Time a full evaluation of the `massive` template (384 GPUs, with network and storage
sections) and of the same template at 2,000 nodes; print one JSON line of figures."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.report.evaluate import Evaluator  # noqa: E402
from planner.design.templates import build_template  # noqa: E402


def best_ms(plan, catalog, repeats: int = 20) -> tuple[float, float]:
    """Best full evaluation, and the network + storage sections' share of it, in ms."""
    ev = Evaluator(plan, catalog)
    ev.evaluate()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        ev.evaluate()
        best = min(best, time.perf_counter() - t0)
    from planner.report.evaluate import SECTIONS, EvalContext

    report = ev.report
    ctx = EvalContext(plan, catalog, report.totals, dict(Counter(p.device for p in plan.placements)))
    sections_best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for s in SECTIONS:
            section, _ = s.fn(ctx)
            ctx.sections[s.name] = section
        sections_best = min(sections_best, time.perf_counter() - t0)
    return best * 1e3, sections_best * 1e3


def main() -> None:
    catalog = default_catalog()
    massive = build_template("massive", catalog=catalog)
    big = build_template("massive", nodes=2000, catalog=catalog)
    full_ms, sections_ms = best_ms(massive, catalog)
    big_full_ms, big_sections_ms = best_ms(big, catalog, repeats=5)
    print(json.dumps({
        "load_average": round(os.getloadavg()[0], 2),
        "massive_evaluate_ms": round(full_ms, 3),
        "massive_sections_ms": round(sections_ms, 3),
        "nodes_2000_evaluate_ms": round(big_full_ms, 3),
        "nodes_2000_sections_ms": round(big_sections_ms, 3),
    }))


if __name__ == "__main__":
    main()
