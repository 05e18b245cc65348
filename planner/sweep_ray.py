"""Design sweeps on a Ray cluster: the same points, rows and Pareto front as the local
process pool (``planner.sweep.run_sweep``), run as Ray tasks in batches.

Ray is an optional extra (``pip install -e ".[cluster]"``), imported only when a sweep asks
for it. Without an address a local Ray is started for the sweep, on the cores this process
may use, and shut down after it; with one (``ray://host:10001`` or ``host:6379``, as
``ray.init`` takes it) the points run on that cluster, each of whose nodes must have the
planner installed.

- Each task evaluates a batch of points; the base plan and the catalog travel once, through
  the object store (a cluster's nodes need not see this machine's files), and each worker
  keeps the plan it parsed for later batches.
- A worker lost mid-batch (its process killed, its node gone) is retried by Ray
  (``max_retries``); a point that raises is reported in its row's problem column, as with
  the pool, and never stops the sweep.
- Cancel drops the batches not finished and stops the running ones (``ray.cancel`` with
  ``force``). A local Ray is started with Ray's fate sharing: its processes end with this
  one, however it ends; on a cluster, Ray ends a job's tasks when its driver goes.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from typing import Any

from planner.sweep import Grid, SweepError, SweepResult, available_cores, evaluate_point, problem_row

INSTALL_HINT = 'pip install -e ".[cluster]"'
MAX_RETRIES = 3  # a lost worker's batch is run again up to this many times, then its points report the loss
_cache: dict[str, Any] = {}


def ray_installed() -> bool:
    """Whether Ray can be imported, without importing it (a second of start-up)."""
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def import_ray():
    """The ``ray`` module, or a SweepError that says how to install it."""
    try:
        import ray
    except ImportError:
        raise SweepError(f"--engine ray needs Ray, which is not installed; install it with {INSTALL_HINT}") from None
    return ray


def _base(base_json: str):
    """The base plan of this sweep, parsed once per worker process."""
    key = hashlib.sha256(base_json.encode("utf-8")).hexdigest()
    if _cache.get("key") != key:
        from planner.plan.fileio import plan_from_json

        _cache.update(key=key, base=plan_from_json(base_json))
    return _cache["base"]


def run_batch(base_json: str, catalog, points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One Ray task: the rows of ``points``, in order. A point that raises gets its problem
    column instead of stopping the batch."""
    base = _base(base_json)
    rows = []
    for point in points:
        try:
            rows.append(evaluate_point(base, point, catalog))
        except Exception as exc:  # noqa: BLE001 - one point's failure is its row's problem
            rows.append(problem_row(point, f"the point failed: {exc}"))
    return rows


def _first_line(exc: BaseException) -> str:
    """The first line of a Ray error (its message; a remote traceback follows), or its type."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def connect(ray, address: str | None, workers: int | None) -> bool:
    """Join the cluster at ``address``, or start a local Ray of ``workers`` CPUs; True when
    this sweep started it (and so shuts it down)."""
    if ray.is_initialized():
        return False
    options: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=min(max(1, workers or available_cores()), available_cores()), **options)
    except Exception as exc:  # noqa: BLE001 - Ray's own connection and start errors, in one line
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise SweepError(f"could not start the sweep on {where}: {_first_line(exc)}") from None
    return True


def run_sweep_ray(base, grid: Grid, *, address: str | None = None, catalog_files: Sequence[str] = (),
                  workers: int | None = None, progress: Callable[[int, int], None] | None = None,
                  cancelled: Callable[[], bool] | None = None, batch: int | None = None) -> SweepResult:
    """Evaluate every point of ``grid`` as Ray tasks; rows in the grid's order, as
    ``planner.sweep.run_sweep`` gives them (its ``progress`` and ``cancelled`` too)."""
    from planner.hardware.catalog import default_catalog, load_catalog
    from planner.plan.fileio import plan_to_json

    ray = import_ray()
    points = grid.points()
    total = len(points)
    results: dict[int, list[dict[str, Any]]] = {}
    pending: dict[Any, int] = {}
    started = connect(ray, address, workers)
    stopped = False
    try:
        slots = max(1, int(ray.cluster_resources().get("CPU", 1)))
        batch = batch or max(1, min(100, math.ceil(total / (slots * 8))))
        batches = [points[i:i + batch] for i in range(0, total, batch)]
        task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(run_batch)
        base_ref = ray.put(plan_to_json(base))
        catalog_ref = ray.put(load_catalog(list(catalog_files)) if catalog_files else default_catalog())
        for i, b in enumerate(batches):
            pending[task.remote(base_ref, catalog_ref, b)] = i
        done = 0
        while pending:
            finished, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0.1)
            for ref in finished:
                i = pending.pop(ref)
                try:
                    results[i] = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - retries spent: the batch's points say so
                    results[i] = [problem_row(p, f"lost on the Ray cluster: {_first_line(exc)}") for p in batches[i]]
                done += len(results[i])
            if progress is not None and finished:
                progress(done, total)
            if cancelled is not None and cancelled():
                stopped = True
                break
    finally:
        for ref in pending:  # cancelled, Ctrl+C or an error: nothing of this sweep goes on running
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
    rows = [row for i in sorted(results) for row in results[i]]
    return SweepResult(rows, total, stopped)
