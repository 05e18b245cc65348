"""The report's workload section: memory per GPU, the pipeline, the step split, end-to-end
MFU, tokens/s, time and cost to train the token budget, and inference sizing.

The workload model runs once per evaluation (``workload_outcome``); the network section
reads its fabric figures and this section the rest, after the cost section so that a
training run can be priced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from planner.network.checks import NodeSummary, summarise_nodes
from planner.report.model import Finding
from planner.workload.checks import WorkloadOutcome, evaluate_workload

HOURS_PER_DAY = 24.0


def workload_outcome(ctx, nodes: NodeSummary | None = None) -> WorkloadOutcome:
    cached = ctx.cache.get("workload")
    if cached is None:
        settings = ctx.plan.settings
        nodes = nodes or summarise_nodes(ctx.counts, ctx.catalog)
        cached = ctx.cache["workload"] = evaluate_workload(settings.workload, settings.fabric, nodes)
    return cached


@dataclass(slots=True)
class WorkloadSection:
    outcome: WorkloadOutcome
    gpus: int
    time_to_train_days: float | None = None
    train_tokens_b: float | None = None
    run_cost: dict[str, Any] = field(default_factory=dict)
    _json: dict[str, Any] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        if self._json is None:
            self._json = _to_json(self)
        return self._json

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_json().get(key, default)


def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


def _to_json(sec: WorkloadSection) -> dict[str, Any]:
    o = sec.outcome
    m = o.model
    r = o.step
    fits = o.fits
    runs = r is not None and fits is not False
    mem = o.memory
    inf = o.inference
    out: dict[str, Any] = {
        "model": m.name,
        "params_b": round(m.params / 1e9, 3),
        "active_params_b": round(m.active_params / 1e9, 3),
        "flops_per_token": r.flops_per_token if r else m.training_flops_per_token(0),
        "memory_per_gpu_gb": _r(mem.total_gb if mem else None),
        "memory": mem.to_json() if mem else None,
        "gpu_memory_gb": o.gpu_memory_gb,
        "fits": fits,
        "micro_batches": r.micro_batches if r else None,
        "pipeline_bubble": _r(r.bubble, 4) if r else None,
        "compute_s": _r(r.compute_s, 4) if r else None,
        "bubble_s": _r(r.bubble_s, 4) if r else None,
        "exposed_comm_s": _r(r.exposed_s, 4) if r else None,
        "step_time_s": _r(r.step_s, 4) if runs else None,
        "mfu": _r(r.mfu, 4) if runs else None,
        "tokens_per_s": _r(r.tokens_per_s, 1) if runs else None,
        "tokens_per_s_limit": _r(r.tokens_per_s_limit, 1) if r else None,
        "time_to_train_days": _r(sec.time_to_train_days),
        "train_tokens_b": sec.train_tokens_b,
        "run_cost_usd": sec.run_cost or None,
        "tp_fabric_gb_per_gpu_step": _r(r.tp_fabric_bytes_per_gpu / 1e9) if r else None,
        "ep_fabric_gb_per_gpu_step": _r(r.ep_fabric_bytes_per_gpu / 1e9) if r else None,
        "decode_tokens_per_s": inf.decode_tokens_per_s if inf else None,
        "max_concurrent_sequences": inf.max_concurrent_sequences if inf else None,
        "inference": inf.to_json() if inf else None,
    }
    return out


def evaluate_workload_section(ctx) -> tuple[WorkloadSection, list[Finding]]:
    outcome = workload_outcome(ctx)
    section = WorkloadSection(outcome, ctx.totals.gpus)
    w = ctx.plan.settings.workload
    r = outcome.step
    if r is not None and outcome.fits is not False:
        days = w.train_tokens_b * 1e9 / r.tokens_per_s / 3600.0 / HOURS_PER_DAY
        section.time_to_train_days = days
        section.train_tokens_b = w.train_tokens_b
        section.run_cost = run_cost(ctx, days)
    return section, outcome.findings


def run_cost(ctx, days: float) -> dict[str, Any]:
    """The training run priced two ways: renting the GPUs for its hours at each rental rate
    (with the rental uplift), and building: the capex share of the run's months over the
    cost horizon plus the operating cost of those months."""
    costs = ctx.plan.settings.costs
    hours = days * HOURS_PER_DAY
    gpus = ctx.totals.gpus
    out: dict[str, Any] = {
        f"rent_{name}": round(gpus * hours * rate * (1.0 + costs.rent_uplift), 2)
        for name, rate in costs.rental_rates().items()
    }
    cost = ctx.sections.get("cost")
    if cost is not None:
        months = hours / costs.hours_per_month
        capex, opex = cost["capex_usd"], cost["opex_usd_per_month"]
        out["build"] = round(capex * months / costs.horizon_months + opex * months, 2)
    return out
