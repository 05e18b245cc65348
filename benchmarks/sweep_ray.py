"""Points per second of a 10,000-point sweep: the process pool against Ray; one JSON line.

    python benchmarks/sweep_ray.py [--nodes N]   (needs the cluster extra: pip install -e ".[cluster]")

The grid: 5 GPU systems x 100 node counts x 2 fabrics x 5 GPU rack power caps x 2 power
bases = 10,000 points over `medium`. Runs it with the process pool at one worker per core,
then on a local Ray of 1 and of 2 CPUs. Ray's figures are taken with the local Ray already
started, as on a cluster that is up (`ray start`, then `--address`); the time a sweep takes to
start a local Ray of its own is printed beside them (`ray_start_s`).
Target: on 2 cores, Ray at 2 CPUs reaches at least 0.75 x the pool's points/s.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from planner.design.templates import build_template  # noqa: E402
from planner.hardware.catalog import default_catalog  # noqa: E402
from planner.sweep import available_cores, parse_grid, run_sweep  # noqa: E402
from planner.sweep_ray import import_ray, run_sweep_ray  # noqa: E402

GRID = {
    "gpu_system": ["hgx-h100-8", "hgx-b300-8", "dgx-h100", "dgx-b200", "amd-mi355x-8"],
    "nodes": list(range(8, 408, 4)),
    "fabric": ["ib400", {"technology": "spx400", "switch_device": "sn5600-400"}],
    "rack": [{"power_cap_kw": kw} for kw in (20, 30, 40, 50, 60)],
    "power_basis": ["typical", "nameplate"],
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=100, help="node counts on the grid (100: 10,000 points)")
    args = ap.parse_args()
    ray = import_ray()
    catalog = default_catalog()
    base = build_template("medium", catalog=catalog)
    grid = parse_grid({**GRID, "nodes": GRID["nodes"][:args.nodes]}, catalog)
    out = {"benchmark": "sweep_ray", "base": "medium", "points": grid.size, "cores": available_cores()}

    t0 = time.perf_counter()
    pool = run_sweep(base, grid)
    out["pool_points_per_s"] = round(grid.size / (time.perf_counter() - t0), 1)
    for cpus in (1, 2):
        t0 = time.perf_counter()
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
        out[f"ray_start_s_{cpus}"] = round(time.perf_counter() - t0, 1)
        try:
            t0 = time.perf_counter()
            result = run_sweep_ray(base, grid)
            out[f"ray_{cpus}_points_per_s"] = round(grid.size / (time.perf_counter() - t0), 1)
        finally:
            ray.shutdown()
        if result.rows != pool.rows:
            raise SystemExit("Ray's rows differ from the pool's")
    out["ray_2_over_pool"] = round(out["ray_2_points_per_s"] / out["pool_points_per_s"], 2)
    out["target_ratio"] = 0.75
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
