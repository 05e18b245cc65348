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
- An address nothing answers at is one line within Ray's own connection timeout: Ray
  itself would try its control store 20 times, 30 s and more each (more than ten minutes),
  so the address is first reached as Ray reaches it, within Ray's GCS connection timeout
  (``RAY_gcs_rpc_server_connect_timeout_s``, 5 s unless set), and Ray is then given one try.
- A local Ray keeps its session (logs, sockets) in a folder of its own in the temporary
  directory, removed after the sweep: Ray's default, ``ray/session_*``, stays behind.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

from planner.sweep import Grid, SweepError, SweepResult, available_cores, evaluate_point, problem_row

INSTALL_HINT = 'pip install -e ".[cluster]"'
MAX_RETRIES = 3  # a lost worker's batch is run again up to this many times, then its points report the loss
# Ray's timeout for connecting to a cluster's control store (GCS): gcs_rpc_server_connect_timeout_s,
# 5 s in Ray's ray_config_def.h; Ray reads RAY_gcs_rpc_server_connect_timeout_s, and so does the sweep.
CONNECT_TIMEOUT_ENV = "RAY_gcs_rpc_server_connect_timeout_s"
RAY_CONNECT_TIMEOUT_S = 5.0
_cache: dict[str, Any] = {}


def ray_installed() -> bool:
    """Whether Ray can be imported, without importing it (a second of start-up)."""
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def import_ray(address: str | None = None):
    """The ``ray`` module, or a SweepError that says how to install it. Imported to join the
    cluster at ``address``, Ray waits for its control store as long as for a connection
    (RAY_py_gcs_connect_timeout_s, read as Ray is imported; 30 s unless set), not longer."""
    if address and "ray" not in sys.modules:
        os.environ.setdefault("RAY_py_gcs_connect_timeout_s", f"{connect_timeout_s():g}")
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


def connect_timeout_s() -> float:
    """Ray's GCS connection timeout: RAY_gcs_rpc_server_connect_timeout_s when set to a positive
    number, else Ray's default."""
    try:
        value = float(os.environ.get(CONNECT_TIMEOUT_ENV, ""))
    except ValueError:
        return RAY_CONNECT_TIMEOUT_S
    return value if 0 < value < 3600 else RAY_CONNECT_TIMEOUT_S


def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of "host:port" or "ray://host:port" (IPv6 in brackets); None for "auto" and the like."""
    m = re.fullmatch(r"(?:ray://)?(?:\[([0-9A-Fa-f:.]+)\]|([^\s:/\[\]]+)):([0-9]{1,5})/?", address.strip())
    return (m.group(1) or m.group(2), int(m.group(3))) if m else None


def reach(address: str) -> None:
    """SweepError, in one line, when nothing answers at ``address`` within Ray's connection timeout."""
    target = _host_port(address)
    if target is None:
        return
    timeout = connect_timeout_s()
    try:
        with socket.create_connection(target, timeout=timeout):
            pass
    except TimeoutError:
        why = f"no answer within {timeout:g} s, Ray's connection timeout ({CONNECT_TIMEOUT_ENV})"
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
    else:
        return
    raise SweepError(f"could not start the sweep on the Ray cluster at {address}: nothing answers there ({why})")


@contextmanager
def _one_try(ray):
    """Ray tries a cluster's control store 20 times (RAY_NUM_REDIS_GET_RETRIES), 30 s and more
    each: one try while joining, unless that variable says otherwise, so a wrong address is an
    error, not a hang; Ray's own figure again afterwards (a local Ray started later keeps it)."""
    constants = getattr(getattr(ray, "_private", None), "ray_constants", None)
    if "RAY_NUM_REDIS_GET_RETRIES" in os.environ or not hasattr(constants, "NUM_REDIS_GET_RETRIES"):
        yield
        return
    before, constants.NUM_REDIS_GET_RETRIES = constants.NUM_REDIS_GET_RETRIES, 1
    try:
        yield
    finally:
        constants.NUM_REDIS_GET_RETRIES = before


def connect(ray, address: str | None, workers: int | None) -> str | None:
    """Join the cluster at ``address``, or start a local Ray of ``workers`` CPUs. Returns the
    session folder of the Ray this sweep started (shut down and removed after it, with
    ``disconnect``), "" for a cluster it joined, None when Ray was already running."""
    if ray.is_initialized():
        return None
    options: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    folder = ""
    try:
        if address:
            reach(address)
            with _one_try(ray):
                ray.init(address=address, **options)
        else:
            folder = tempfile.mkdtemp(prefix="ray")  # short: Ray's sockets go in it, 107 bytes a path at most
            ray.init(num_cpus=min(max(1, workers or available_cores()), available_cores()), _temp_dir=folder,
                     **options)
    except SweepError:
        raise
    except Exception as exc:  # noqa: BLE001 - Ray's own connection and start errors, in one line
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise SweepError(f"could not start the sweep on {where}: {_first_line(exc)}") from None
    return folder


def disconnect(ray, started: str | None) -> None:
    """Shut down the Ray this sweep started or joined, and remove a local Ray's session folder."""
    if started is None:
        return
    ray.shutdown()
    if started:
        shutil.rmtree(started, ignore_errors=True)


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
        disconnect(ray, started)
    rows = [row for i in sorted(results) for row in results[i]]
    return SweepResult(rows, total, stopped)
