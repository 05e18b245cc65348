"""The remedy of a pipeline bubble above a quarter of the step (``workload.pipeline.bubble``).

Three ways shrink it (Narayanan et al. 2021, section 2.2: bubble (p-1)/(v m + p-1), m
micro-batches, p stages, v model chunks per stage):

- raise the global batch: the fewest micro-batches per replica that bring the bubble to a
  quarter, m = ceil(3 (p-1) / v) (a multiple of p under the interleaved schedule);
- lower PP: the next smaller divisor of PP, DP taking the GPUs it frees (same GPU count),
  when the batch still splits evenly over the replicas;
- the interleaved schedule: v chunks per stage, the fewest (a divisor of the stage's
  layers) that bring the bubble to a quarter, else the most, when m is a multiple of p.

Each is evaluated by the step model with the memory fit the evaluation uses
(``fit_training``: the least recompute, then sharding, that fits); the one whose bubble is
smallest and still fits wins; a tie goes to the schedule, then PP, then the batch (the
schedule changes neither the batch nor the parallelism).
"""

from __future__ import annotations

import math

from pydantic import ValidationError

from planner.findings import Remedy
from planner.settings import FabricSettings, WorkloadSettings
from planner.workload.fit import fit_training
from planner.workload.memory import micro_batches
from planner.workload.models import ModelShape
from planner.workload.pipeline import interleaved_allows
from planner.workload.training import JobShape, model_step

TARGET = 0.25  # the finding's threshold, a planner assumption: a bubble above a quarter of the step


def bubble_remedy(w: WorkloadSettings, fabric: FabricSettings, shape: JobShape, model: ModelShape,
                  bubble: float, available_gb: float | None) -> Remedy | None:
    """The change of ``w`` that shrinks its bubble most and still fits; None when none shrinks it."""
    best: tuple[float, int, str, dict[str, int | str]] | None = None
    for order, (what, change) in enumerate(_candidates(w, model)):
        try:
            cand = WorkloadSettings.model_validate({**w.model_dump(), **change})
        except ValidationError:
            continue
        domain = max(1, shape.local_gpus // cand.tp)
        fit = fit_training(cand, model, available_gb=available_gb, domain_ranks=domain)
        if fit.fits is False:
            continue
        new = model_step(fit.settings, fabric, shape, model=model).bubble
        if new < bubble - 1e-12 and (best is None or (new, order) < best[:2]):
            best = (new, order, what, change)
    if best is None:
        return None
    new, _, what, change = best
    return Remedy("set_workload", f"{what}: pipeline bubble {bubble:.0%} to {new:.0%}",
                  tuple(sorted(change.items())))


def _candidates(w: WorkloadSettings, model: ModelShape) -> list[tuple[str, dict[str, int | str]]]:
    p, m = w.pp, micro_batches(w)
    out: list[tuple[str, dict[str, int | str]]] = []
    chunks = _chunks(w, model, p, m)
    if chunks is not None:
        out.append((f"Use the interleaved schedule with {chunks} virtual stages",
                    {"pp_schedule": "interleaved", "virtual_stages": chunks}))
    lower = max((d for d in range(1, p) if p % d == 0), default=None)
    if lower is not None:
        dp = w.dp * p // lower
        sequences = w.global_batch_tokens // w.seq_len
        if sequences % (dp * w.micro_batch_size) == 0:
            out.append((f"Lower PP to {lower} (DP {dp})", {"pp": lower, "dp": dp}))
    v = w.virtual_stages if w.pp_schedule == "interleaved" else 1
    need = math.ceil(3 * (p - 1) / v)
    if w.pp_schedule == "interleaved":
        need = math.ceil(need / p) * p
    if need > m:
        sequences = need * w.dp * w.micro_batch_size
        out.append((f"Raise the global batch to {sequences:,} sequences",
                    {"global_batch_tokens": sequences * w.seq_len}))
    return out


def _chunks(w: WorkloadSettings, model: ModelShape, p: int, m: int) -> int | None:
    """Virtual stages for the interleaved schedule: divisors of the layers per stage above
    the ones set, the fewest that bring the bubble to a quarter, else the most."""
    if not interleaved_allows(p, m) or model.layers % p:
        return None
    now = w.virtual_stages if w.pp_schedule == "interleaved" else 1
    options = [v for v in range(now + 1, model.layers // p + 1) if (model.layers // p) % v == 0]
    if not options:
        return None
    return next((v for v in options if (p - 1) / (v * m + p - 1) <= TARGET), options[-1])
