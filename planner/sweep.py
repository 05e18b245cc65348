"""Design sweeps: a small grid of choices over a base plan, each point laid out and evaluated.

A grid file (JSON) names the values of each axis; an axis left out keeps the base's choice:

    {"gpu_system": ["hgx-h100-8", "hgx-b300-8"],      # GPU node device types
     "nodes": [8, 16, 24],                            # GPU nodes
     "fabric": ["ib400", {"technology": "spx400", "switch_device": "sn5600-400"}],
     "rack": [{"power_cap_kw": 30}, {"rack_type": "nvl72"}],   # the GPU racks
     "power_basis": ["typical", "nameplate"],
     "reliability": [{}, {"gpu_failures_per_1000_gpu_days": 0.6, "spare_nodes": 2}]}   # failure rates, spares

A fabric is a technology or fabric settings fields; without a ``switch_device`` the base's
switch is kept if it speaks the technology at its line rate, else the catalog's switch that
does with the most ports is taken (``switch_for``). A rack
is a catalog rack type or rack fields over those of the base's first GPU rack.

Each point is laid out from the base as a template is: the base's GPU nodes, compute
fabric switches and CDUs (and on another power basis its storage) are taken out (with the
racks they leave empty), the point's nodes are auto-placed into new GPU racks, the training
workload is resized to the job's GPUs by data parallelism and kept while it holds, else
laid out by the design's search (``choose_parallelism``; the row's layout says which), then the fabric switches the
nodes need, the storage and the CDUs the policy asks for are auto-placed where the old ones
stood (new racks if those are full). The point that asks for what the base is, is the base
as it is (its row is ``check`` of the plan). Points run in worker processes; each row holds
the figures ``check --json`` prints for that plan.

Why it is long: reading and checking the grid file, laying out each point from the base,
running the points in worker processes and finding the Pareto front are steps of one
pipeline.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from planner.errors import PlannerError, describe_validation_error, one_line
from planner.facility.cooling import cdus_needed
from planner import vocabulary
from planner.hardware.catalog import Catalog, default_catalog, load_catalog
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.network.technologies import links_to, speaks, switch_with_most_ports
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import CommandError, RemoveDevices, RemoveRack
from planner.plan.model import Plan, Rack
from planner.readfile import read_limited, strict_json
from planner.design.fabric_choice import nics_at_switch_rate
from planner.design.layout import job_summary
from planner.design.parallelism import choose_parallelism
from planner.design.templates import TemplateError, liquid_load, rescale_workload, set_rows, switch_label
from planner.plan.variants import resolve_variant
from planner.report.compare import METRIC, METRICS
from planner.report.evaluate import evaluate
from planner.settings import FabricSettings, ReliabilitySettings
from planner.workload.search import split_text

MAX_POINTS = 100_000
MAX_GRID_BYTES = 1024 * 1024


class SweepError(PlannerError):
    """A grid that cannot be used; the message is one line."""


class _Grid(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    gpu_system: list[str] = Field(default_factory=list, max_length=100)
    nodes: list[int] = Field(default_factory=list, max_length=1000)
    fabric: list[str | dict[str, Any]] = Field(default_factory=list, max_length=100)
    rack: list[dict[str, Any]] = Field(default_factory=list, max_length=100)
    power_basis: list[Literal["typical", "nameplate"]] = Field(default_factory=list, max_length=2)
    reliability: list[dict[str, Any]] = Field(default_factory=list, max_length=100)


AXES = ("gpu_system", "nodes", "fabric", "rack", "power_basis", "reliability")


@dataclass(frozen=True, slots=True)
class Grid:
    axes: dict[str, list[Any]]  # only the axes given, in AXES order

    @property
    def size(self) -> int:
        return math.prod(len(v) for v in self.axes.values()) if self.axes else 1

    def points(self) -> list[dict[str, Any]]:
        names = list(self.axes)
        return [dict(zip(names, values)) for values in itertools.product(*self.axes.values())]


def parse_grid(data: Any, catalog: Catalog, origin: str = "grid") -> Grid:
    """Check a grid (a dict as read from JSON) against the catalog; SweepError says what is wrong."""
    if not isinstance(data, dict):
        raise SweepError(f"{origin}: a grid is a JSON object of axes ({', '.join(AXES)})")
    try:
        g = _Grid.model_validate(data)
    except ValidationError as exc:
        raise SweepError(f"{origin}: {describe_validation_error(exc, data)}") from None
    empty = [k for k in AXES if isinstance(data.get(k), list) and not data[k]]
    if empty:
        raise SweepError(f"{origin}: the axis {empty[0]} has no values: give them, or leave the axis out")
    for device in g.gpu_system:
        d = catalog.get(device)
        if d is None or d.gpu is None:
            raise SweepError(f"{origin}: gpu_system '{device}' is not a GPU system of the catalog")
    for n in g.nodes:
        if not 1 <= n <= 100_000:
            raise SweepError(f"{origin}: nodes takes 1 to 100,000, not {n}")
    fabrics = []
    for f in g.fabric:
        fields = {"technology": f} if isinstance(f, str) else f
        try:
            FabricSettings.model_validate({**FabricSettings().model_dump(), **fields})
        except ValidationError as exc:
            raise SweepError(f"{origin}: fabric {json.dumps(f)}: {describe_validation_error(exc, fields)}") from None
        switch = fields.get("switch_device")
        if switch is not None and (catalog.get(switch) is None or catalog.get(switch).switch is None):
            raise SweepError(f"{origin}: fabric switch '{switch}' is not a switch of the catalog")
        fabrics.append(fields)
    for r in g.rack:
        unknown = set(r) - {"rack_type", "power_cap_kw", "cooling", "height_u", "max_weight_kg", "rear_door_hx"}
        if unknown:
            raise SweepError(f"{origin}: a rack has no field '{sorted(unknown)[0]}'")
        if "rack_type" in r and not isinstance(r["rack_type"], str):
            raise SweepError(f"{origin}: a rack's rack_type is a catalog rack type's id, not "
                             f"{one_line(json.dumps(r['rack_type']), 60)}")
        if "rack_type" in r and catalog.rack_type(r["rack_type"]) is None:
            raise SweepError(f"{origin}: the catalog has no rack type '{r['rack_type']}'")
        fields = {k: v for k, v in r.items() if k != "rack_type"}
        try:  # as a rack of the plan takes them, so that no point finds out alone
            Rack.model_validate({"id": "sweep", "name": "sweep", **fields})
        except ValidationError as exc:
            raise SweepError(f"{origin}: rack {one_line(json.dumps(r), 100)}: "
                             f"{describe_validation_error(exc, fields)}") from None
    for r in g.reliability:  # failure rates, spares, restart times: the reliability settings' fields
        try:
            ReliabilitySettings.model_validate(r)
        except ValidationError as exc:
            raise SweepError(f"{origin}: reliability {json.dumps(r)}: {describe_validation_error(exc, r)}") from None
    axes = {"gpu_system": g.gpu_system, "nodes": g.nodes, "fabric": fabrics, "rack": g.rack,
            "power_basis": g.power_basis, "reliability": g.reliability}
    grid = Grid({k: v for k, v in axes.items() if v})
    if grid.size > MAX_POINTS:
        raise SweepError(f"{origin}: {grid.size:,} points are more than a sweep takes ({MAX_POINTS:,})")
    return grid


def load_grid(path, catalog: Catalog) -> Grid:
    from pathlib import Path

    name = Path(path).name
    try:
        data = strict_json(read_limited(path, MAX_GRID_BYTES, "grid file"), "grid")
    except PlannerError as exc:
        raise SweepError(str(exc)) from None
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise SweepError(f"{name}: not a valid grid file (JSON error: {exc})") from None
    return parse_grid(data, catalog, name)


# -- laying a point out -------------------------------------------------------------------

def switch_for(technology: str, catalog: Catalog, current: str, nic_lane_gbps: float | None = None) -> str:
    """The fabric switch for ``technology``: ``current`` if it speaks it at its line rate (and
    links to NICs of ``nic_lane_gbps`` lanes), else the catalog's switch that does with the
    most ports (``current`` if none does)."""
    if speaks(catalog.get(current), technology) and links_to(catalog.get(current), nic_lane_gbps):
        return current
    best = switch_with_most_ports(catalog, technology, nic_lane_gbps)
    return best.id if best is not None else current


def base_gpu_system(plan: Plan, catalog: Catalog) -> tuple[str | None, int]:
    """The GPU node type the plan has most of, and how many."""
    counts = Counter(p.device for p in plan.placements if p.device in catalog and catalog[p.device].gpu is not None)
    return counts.most_common(1)[0] if counts else (None, 0)


def _rack_fields(plan: Plan, catalog: Catalog, template: dict[str, Any], choice: dict[str, Any] | None) -> dict:
    fields = dict(template)
    if choice:
        if "rack_type" in choice:
            fields.update(catalog.rack_type(choice["rack_type"]).rack_fields(plan.settings.facility.default_rack_cap_kw))
        fields.update({k: v for k, v in choice.items() if k != "rack_type"})
    return fields


def _is_base(plan: Plan, point: dict[str, Any], catalog: Catalog) -> bool:
    """Whether the point asks for what the (resolved) base already is: then it is the base as
    laid out, its layout included, so its row and ``check`` of the base agree (a plan laid out
    anew places its racks, and so its cables, otherwise); a base whose layout does not hold
    shows it by its findings, as the plan does."""
    s = plan.settings
    system, nodes = base_gpu_system(plan, catalog)
    fabric = point.get("fabric")
    return ("rack" not in point and point.get("gpu_system", system) == system and point.get("nodes", nodes) == nodes
            and point.get("power_basis", s.facility.power_basis) == s.facility.power_basis
            and all(getattr(s.reliability, k) == v for k, v in (point.get("reliability") or {}).items())
            and (fabric is None or all(getattr(s.fabric, k) == v for k, v in fabric.items())))


# What a point's training layout keeps of the base's, beside its data parallelism.
_LAYOUT_FIELDS = ("tp", "cp", "pp", "ep", "expert_tp", "pp_schedule", "virtual_stages", "micro_batch_size",
                  "recompute", "sharding")


def layout_text(plan: Plan, base: Plan) -> str:
    """The point's training layout and where it comes from: the plan's own, the plan's resized
    by data parallelism, or the design's search (the resized one did not hold); empty for a
    plan without a training workload."""
    w, b = plan.settings.workload, base.settings.workload
    if not w.enabled or w.inference:
        return ""
    kept = all(getattr(w, k) == getattr(b, k) for k in _LAYOUT_FIELDS)
    origin = ("the plan's" if w.dp == b.dp else "the plan's, resized by DP") if kept else "designed"
    return f"{split_text(w)}, mb {w.micro_batch_size} ({origin})"


def _fit_workload(plan: Plan, catalog: Catalog, system: str) -> None:
    """The base's training layout for the point's job (its GPUs less the hot spares): resized
    by data parallelism and kept while it holds (every GPU used, whole micro-batches, fits, a
    small bubble), else the layout the design's search chooses, as for a grown plan."""
    summary = job_summary(plan, catalog)
    if not (plan.settings.workload.enabled and summary.gpus):
        return
    rescale_workload(plan, catalog, system, summary.gpus // catalog[system].gpus)
    plan.settings.workload, _ = choose_parallelism(plan.settings.workload, plan.settings.fabric, summary)


def build_point(base: Plan, point: dict[str, Any], catalog: Catalog) -> Plan:
    """The base laid out for one point of the grid (see the module's description); a point
    that asks for what the base is, the base itself."""
    plan = resolve_variant(base, base.current_variant)
    if _is_base(plan, point, catalog):
        return plan
    s = plan.settings
    old_system, old_nodes = base_gpu_system(plan, catalog)
    system = point.get("gpu_system", old_system)
    if "fabric" in point:
        fields = dict(point["fabric"])
        if "switch_device" not in fields:
            lanes = catalog[system].compute_nic_lane_gbps if system in catalog else None
            fields["switch_device"] = switch_for(fields["technology"], catalog, s.fabric.switch_device, lanes)
        s.fabric = FabricSettings.model_validate({**s.fabric.model_dump(), **fields})
    elif system != old_system and system in catalog:  # other nodes: a switch whose ports run their NICs' lanes
        s.fabric = s.fabric.model_copy(update={"switch_device": switch_for(
            s.fabric.technology, catalog, s.fabric.switch_device, catalog[system].compute_nic_lane_gbps)})
    if "power_basis" in point:
        s.facility = s.facility.model_copy(update={"power_basis": point["power_basis"]})
    if "reliability" in point:
        s.reliability = ReliabilitySettings.model_validate({**s.reliability.model_dump(), **point["reliability"]})
    nodes = point.get("nodes", old_nodes)
    if system is None:
        raise SweepError("the base plan has no GPU nodes and the grid names no gpu_system")
    # On another fabric or system the NIC links run as new runs them: at the NICs' rate, or one
    # link a NIC at the rate of slower switch ports (unless the point sets the rate itself).
    if ("fabric" in point or system != old_system) and "nic_link_gbps" not in point.get("fabric", {}):
        s.fabric = s.fabric.model_copy(update={"nic_link_gbps": None})
        nics_at_switch_rate(s, catalog[system], catalog, [])
    fabric_switch = base.settings.fabric.switch_device
    cdu = s.facility.cdu_device
    # The base's compute fabric switches; when its storage switches are the same model, only
    # as many as the base's fabric needs (the rest serve storage and stay).
    switches_out = sum(1 for p in plan.placements if p.device == fabric_switch)
    if fabric_switch == base.settings.fabric.storage_switch_device and old_system is not None:
        try:
            size = plan_fabric({old_system: old_nodes}, catalog, base.settings.fabric)
        except FabricSizingError:
            size = None
        switches_out = min(switches_out, size.switches if size is not None else 0)

    # On another power basis the storage racks the base filled to its cap (on its basis) are
    # laid out again, so that they hold on the point's.
    relay_storage = point.get("power_basis", base.settings.facility.power_basis) != base.settings.facility.power_basis
    storage_out: Counter = Counter()

    def taken_out(p) -> str | None:
        nonlocal switches_out
        d = catalog.get(p.device)
        if d is not None and d.gpu is not None:
            return "gpu"
        if relay_storage and d is not None and d.storage is not None:
            storage_out[d.id] += 1
            return "storage"
        if p.device == fabric_switch and switches_out > 0:
            switches_out -= 1
            return "switch"
        return "cdu" if p.device == cdu else None

    kinds: dict[str, set[str]] = {}
    gpu_rack: dict[str, Any] | None = None
    remove = []
    for p in plan.placements:
        kind = taken_out(p)
        if kind:
            remove.append(p.id)
            kinds.setdefault(kind, set()).add(p.rack)
            if kind == "gpu" and gpu_rack is None:
                gpu_rack = plan.rack(p.rack).model_dump(exclude={"id", "name", "row"})
    RemoveDevices(remove).do(plan, catalog)
    for rack in list(plan.racks):
        if not plan.rack_members(rack.id) and any(rack.id in v for v in kinds.values()):
            RemoveRack(rack.id).do(plan, catalog)
    kept = {k: [r.id for r in plan.racks if r.id in v] for k, v in kinds.items()}
    template = gpu_rack or {"cooling": catalog[system].cooling, "power_cap_kw": s.facility.default_rack_cap_kw}
    try:
        AutoPlace(system, nodes, new_rack_prefix="GPU", label_prefix="node-",
                  new_rack_fields=_rack_fields(plan, catalog, template, point.get("rack"))).do(plan, catalog)
        _fit_workload(plan, catalog, system)
        size = plan_fabric({system: nodes}, catalog, s.fabric)
        infra = kept.get("switch", [])
        if size is not None and size.switches:
            AutoPlace(s.fabric.switch_device, size.switches, racks=infra, new_rack_prefix="NET",
                      new_rack_fields={"cooling": "air"},
                      label_prefix=switch_label(catalog, s.fabric.switch_device)).do(plan, catalog)
        for device, count in storage_out.items():
            AutoPlace(device, count, racks=kept.get("storage", []), new_rack_prefix="STOR",
                      new_rack_fields={"cooling": "air"}, label_prefix="pfs-").do(plan, catalog)
        need = cdus_needed(*liquid_load(plan, catalog), s.facility, catalog)
        if need:
            AutoPlace(cdu, need, racks=kept.get("cdu", []), new_rack_prefix="CDU",
                      new_rack_fields={"cooling": "liquid"}, label_prefix="cdu-").do(plan, catalog)
    except (CommandError, FabricSizingError, TemplateError) as exc:
        raise SweepError(str(exc)) from None
    set_rows(plan)
    return plan


# -- running ----------------------------------------------------------------------------

def rack_choice_text(rack: dict[str, Any] | str, catalog: Catalog | None = None,
                     laid_out_kw: float | str | None = None, laid_out_cooling: str | None = None) -> str:
    """A rack choice of a sweep in words ("30 kW cap, liquid-cooled", a rack type by its
    title), from the dict or from its JSON as the CSV holds it; with ``laid_out_kw`` (the
    row's ``gpu_rack_kw``) below a cap asked for, what the racks were laid out at, and why
    when they are air-cooled (an air-cooled rack holds no more than the air-cooling limit)."""
    if isinstance(rack, str):
        if not rack:
            return ""
        rack = json.loads(rack)
    asked = rack.get("power_cap_kw")
    laid_out_kw = float(laid_out_kw) if laid_out_kw not in (None, "") else None  # a number, or the CSV's text
    if asked is not None and laid_out_kw is not None and laid_out_kw < asked - 1e-9:
        rest = rack_choice_text({k: v for k, v in rack.items() if k != "power_cap_kw"}, catalog)
        laid = (f"{vocabulary.setting_text(asked, 'kW')} cap, laid out at {vocabulary.setting_text(laid_out_kw, 'kW')}"
                + (" (the air-cooling limit)" if laid_out_cooling == "air" else ""))
        return ", ".join(filter(None, [laid, rest]))
    parts = []
    for field, value in rack.items():
        if field == "rack_type":
            kind = catalog.rack_types.get(value) if catalog is not None else None
            parts.append(getattr(kind, "title", None) or f"rack type {value}")
        elif field == "power_cap_kw":
            parts.append(f"{vocabulary.kw(value)} cap")
        elif field == "cooling":
            parts.append(vocabulary.choice_title(value))
        elif field == "height_u":
            parts.append(f"{value}U")
        elif field == "max_weight_kg":
            parts.append(f"rated {vocabulary.text(value, 'kg')}")
        elif field == "rear_door_hx":
            parts.append("rear-door heat exchanger" if value else "no rear-door heat exchanger")
        else:
            parts.append(f"{field.replace('_', ' ')} {value}")
    return ", ".join(parts)


def point_label(point: dict[str, Any]) -> dict[str, Any]:
    """The point's choices as CSV columns."""
    fabric = point.get("fabric")
    rack = point.get("rack")
    return {"gpu_system": point.get("gpu_system", ""), "nodes": point.get("nodes", ""),
            "fabric": "" if fabric is None else fabric.get("technology", ""),
            "switch_device": "" if fabric is None else fabric.get("switch_device", ""),
            "rack": "" if rack is None else json.dumps(rack, sort_keys=True),
            "power_basis": point.get("power_basis", ""),
            "reliability": "" if "reliability" not in point else json.dumps(point["reliability"], sort_keys=True)}


def problem_row(point: dict[str, Any], problem: str) -> dict[str, Any]:
    """The row of a point without figures: its choices and why it has none."""
    return {**point_label(point), "layout": "", **{m.key: None for m in METRICS}, "errors": None, "warnings": None,
            "error_codes": "", "problem": problem}


def gpu_rack(plan: Plan, catalog: Catalog) -> Rack | None:
    """The first rack holding a GPU system: the point's GPU racks share its cap and cooling."""
    for p in plan.placements:
        d = catalog.get(p.device)
        if d is not None and d.gpu is not None:
            return plan.rack(p.rack)
    return None


def evaluate_point(base: Plan, point: dict[str, Any], catalog: Catalog) -> dict[str, Any]:
    """One row: the point's choices, then the figures of ``check --json`` (or the problem)."""
    row: dict[str, Any] = point_label(point)
    try:
        plan = build_point(base, point, catalog)
    except SweepError as exc:
        return problem_row(point, str(exc))
    if "fabric" in point:  # the switch the technology took (``switch_for``)
        row["switch_device"] = plan.settings.fabric.switch_device
    row["layout"] = layout_text(plan, resolve_variant(base, base.current_variant))
    rack = gpu_rack(plan, catalog)
    if rack is not None:  # the GPU racks as laid out, for a spreadsheet: the choice's JSON aside
        row.update(gpu_rack_kw=rack.power_cap_kw, gpu_rack_cooling=rack.cooling)
    report = evaluate(plan, catalog)
    data = report.to_json()
    counts = report.counts_by_severity()
    row.update({m.key: m.value(data) for m in METRICS})
    codes = Counter(f.code for f in report.findings if f.severity == "error")
    row.update(errors=counts["error"], warnings=counts["warning"], problem="",
               error_codes="; ".join(code if n == 1 else f"{code} x {n:,}" for code, n in sorted(codes.items())))
    return row


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


_worker: dict[str, Any] = {}


def _end_with_parent(parent_pid: int) -> None:
    """End this worker once the process that started it is gone: a parent killed with
    SIGKILL (or SIGTERM, which Python does not catch) cannot stop its pool, and the worker
    would run its chunk to the end. The dead parent's children are handed to another."""
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(1)


def _init_worker(base_json: str, catalog_files: Sequence[str], parent_pid: int) -> None:
    from planner.plan.fileio import plan_from_json

    threading.Thread(target=_end_with_parent, args=(parent_pid,), daemon=True, name="end-with-parent").start()
    _worker["catalog"] = load_catalog(list(catalog_files)) if catalog_files else default_catalog()
    _worker["base"] = plan_from_json(base_json)


def _run_chunk(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [evaluate_point(_worker["base"], p, _worker["catalog"]) for p in points]


def start_workers(workers: int, base_json: str, catalog_files: Sequence[str] = ()) -> ProcessPoolExecutor:
    """The pool a sweep runs in: each worker holds the base plan and the catalog, and ends
    when this process ends, however it ends (``_end_with_parent``)."""
    ctx = get_context("spawn")  # never fork a process holding threads (the desktop app)
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                               initargs=(base_json, tuple(map(str, catalog_files)), os.getpid()))


@dataclass(slots=True)
class SweepResult:
    rows: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    cancelled: bool = False


def run_sweep(base: Plan, grid: Grid, *, catalog_files: Sequence[str] = (), workers: int | None = None,
              progress: Callable[[int, int], None] | None = None, cancelled: Callable[[], bool] | None = None,
              chunk: int | None = None) -> SweepResult:
    """Evaluate every point of ``grid`` in worker processes; rows in the grid's order.

    ``progress(done, total)`` is called as points finish; ``cancelled()`` is asked between
    chunks, and once it says True the points not started are dropped (the result holds the
    rows finished so far, in order, and ``cancelled``)."""
    from planner.plan.fileio import plan_to_json

    points = grid.points()
    total = len(points)
    workers = min(max(1, workers or available_cores()), available_cores())  # more only share the cores
    chunk = chunk or max(1, min(50, math.ceil(total / (workers * 8))))
    chunks = [points[i:i + chunk] for i in range(0, total, chunk)]
    results: dict[int, list[dict[str, Any]]] = {}
    done = 0
    stopped = False
    pool = start_workers(min(workers, len(chunks) or 1), plan_to_json(base), catalog_files)
    try:
        pending = {pool.submit(_run_chunk, c): i for i, c in enumerate(chunks)}
        while pending:
            finished, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for f in finished:
                i = pending.pop(f)
                results[i] = f.result()
                done += len(results[i])
            if progress is not None and finished:
                progress(done, total)
            if cancelled is not None and cancelled():
                stopped = True
                for f in pending:
                    f.cancel()
                break
    finally:
        pool.shutdown(wait=not stopped, cancel_futures=True)
    rows = [row for i in sorted(results) for row in results[i]]
    return SweepResult(rows, total, stopped)


# -- the Pareto front -----------------------------------------------------------------------

def pareto_front(rows: Sequence[dict[str, Any]], x: str, y: str) -> list[int]:
    """Indices of the rows no other row beats on both ``x`` and ``y`` (each in its metric's
    better direction; a metric without one counts higher as better). Rows lacking either
    figure, and rows whose plan has errors (not a design one could build), are left out."""
    def signed(key: str) -> Callable[[float], float]:
        better = METRIC[key].better if key in METRIC else "higher"
        return (lambda v: v) if better == "lower" else (lambda v: -v)

    sx, sy = signed(x), signed(y)
    points = [(sx(r[x]), sy(r[y]), i) for i, r in enumerate(rows)
              if isinstance(r.get(x), (int, float)) and isinstance(r.get(y), (int, float)) and not r.get("errors")]
    points.sort()
    front, best_y = [], math.inf
    for px, py, i in points:  # lowest x first; a row is on the front if its y beats all before it
        if py < best_y:
            front.append(i)
            best_y = py
    return sorted(front)


def default_axes(rows: Sequence[dict[str, Any]]) -> tuple[str, str]:
    """Capex against time to train for a training workload (with failures, the figure the
    window's summary shows, where the goodput model gives it), else against inference
    throughput."""
    if any(r.get("time_to_train_with_failures_days") is not None for r in rows):
        return "capex_usd", "time_to_train_with_failures_days"
    if any(r.get("time_to_train_days") is not None for r in rows):
        return "capex_usd", "time_to_train_days"
    return "capex_usd", "served_tokens_per_s" if any(r.get("served_tokens_per_s") for r in rows) else "tokens_per_s"


CSV_COLUMNS = ["point", "gpu_system", "nodes", "fabric", "switch_device", "rack", "gpu_rack_kw", "gpu_rack_cooling",
               "power_basis", "reliability",
               "layout", *[m.key for m in METRICS], "errors", "warnings", "error_codes", "pareto", "problem"]


def rows_to_csv(rows: Sequence[dict[str, Any]], front: Sequence[int]) -> str:
    import csv
    import io

    on_front = set(front)
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    w.writeheader()
    for i, r in enumerate(rows):
        w.writerow({**{k: ("" if v is None else v) for k, v in r.items()}, "point": i + 1,
                    "pareto": "yes" if i in on_front else ""})
    return out.getvalue()
