"""Core figures of the frontier-100k template (12,500 nodes, 100,000 GPUs); prints one JSON line.

Template generation; save + load + full evaluation; incremental evaluation after a move
(median and p95 over 1,000 random valid moves); Excel export; peak memory (ru_maxrss).
Targets (issue "Scale: a 100,000-GPU plan stays live", 2-core machine): generation < 5 s,
full evaluation < 500 ms, incremental p95 < 5 ms, Excel export < 20 s, peak memory < 1 GB.

    python3 benchmarks/frontier_core.py [--moves N]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.plan.commands import MoveDevice  # noqa: E402
from planner.report.evaluate import Evaluator  # noqa: E402
from planner.export.xlsx import write_workbook  # noqa: E402
from planner.plan.fileio import open_plan, save_plan  # noqa: E402
from planner.plan.space import lowest_free_u  # noqa: E402
from planner.plan.templates import build_template  # noqa: E402

TEMPLATE = "frontier-100k"


def _ms(seconds: float) -> float:
    return round(seconds * 1e3, 3)


def incremental_times(plan, catalog, moves: int, seed: int = 1) -> list[float]:
    """Seconds of each incremental evaluation after a random valid move (a device to the
    lowest free slot of a random rack), as the app does after a drop."""
    ev = Evaluator(plan, catalog)
    ev.evaluate()
    rng = random.Random(seed)
    ids = [p.id for p in plan.placements]
    racks = [r.id for r in plan.racks]
    times: list[float] = []
    while len(times) < moves:
        p = plan.placement(rng.choice(ids))
        rack = plan.rack(rng.choice(racks))
        u = lowest_free_u(plan, catalog, rack, catalog[p.device].u_height)
        if u is None:
            continue
        changes = MoveDevice(p.id, rack.id, u).do(plan, catalog)
        t0 = time.perf_counter()
        ev.evaluate(changes)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=1000)
    args = ap.parse_args()
    catalog = default_catalog()

    t0 = time.perf_counter()
    plan = build_template(TEMPLATE, catalog=catalog)
    generate_s = time.perf_counter() - t0

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "frontier.json"
        t0 = time.perf_counter()
        save_plan(plan, path)
        save_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        loaded = open_plan(path, catalog)
        load_s = time.perf_counter() - t0
        file_bytes = path.stat().st_size
        t0 = time.perf_counter()
        report = Evaluator(loaded, catalog).evaluate()
        full_s = time.perf_counter() - t0

        times = sorted(incremental_times(loaded, catalog, args.moves))
        p95 = times[max(0, round(0.95 * len(times)) - 1)]

        out = Path(folder) / "frontier.xlsx"
        t0 = time.perf_counter()
        write_workbook(plan, catalog, out)
        xlsx_s = time.perf_counter() - t0
        xlsx_bytes = out.stat().st_size

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB
    figures = {
        "benchmark": "frontier_core",
        "template": TEMPLATE,
        "gpus": report.totals.gpus,
        "nodes": report.totals.nodes,
        "racks": len(plan.racks),
        "devices": len(plan.placements),
        "errors": report.counts_by_severity()["error"],
        "generate_s": round(generate_s, 3),
        "save_s": round(save_s, 3),
        "load_s": round(load_s, 3),
        "full_evaluate_ms": _ms(full_s),
        "save_load_evaluate_s": round(save_s + load_s + full_s, 3),
        "file_bytes": file_bytes,
        "incremental_moves": len(times),
        "incremental_median_ms": _ms(statistics.median(times)),
        "incremental_p95_ms": _ms(p95),
        "incremental_max_ms": _ms(times[-1]),
        "xlsx_s": round(xlsx_s, 3),
        "xlsx_bytes": xlsx_bytes,
        "peak_memory_mb": round(peak_mb, 1),
    }
    figures["ok"] = (generate_s < 5 and full_s < 0.5 and p95 < 0.005 and xlsx_s < 20 and peak_mb < 1024)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
