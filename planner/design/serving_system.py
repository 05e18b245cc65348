"""The GPU system for a serving intent that names none: a search by the check's own model.

`new --inference --requests-per-s R` without a system used to start from the medium
template's HGX H100, whatever the model and targets. For each GPU system of the catalog the
replica search (``planner.design.replica.search_replicas``) sizes the replica that meets the
latency targets with the most output per GPU; the system kept is the one whose whole
systems for R requests/s cost least per hour at the rental rates (the reserved 1-year rate
of each system's GPUs: the H100 rate x their price ratio, ``planner.hardware.rent``, with
the uplift): a plan buys whole systems, so a 72-GPU rack for a few requests counts its 72
GPUs. A model whose weights are published in FP8 is served in FP8 on GPUs that run it, as
the design serves it, unless the intent states a precision.

GeForce systems are left out: NVIDIA's GeForce driver licence does not license datacenter
deployment ("No Datacenter Deployment", NVIDIA GeForce software licence agreement).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pydantic import ValidationError

from planner.design.build import design, intent_settings
from planner.design.intent import Intent
from planner.design.replica import Replica, search_replicas
from planner.design.templates import design_from, intent_refusal, intent_words
from planner.findings import Finding
from planner.hardware.catalog import Catalog, DeviceType
from planner.hardware.rent import rent_factor_by_price
from planner.hardware.nodes import summarise_nodes
from planner.numbers import counted
from planner.settings import CostSettings, FabricSettings, WorkloadSettings
from planner.vocabulary import plain_number
from planner.workload.kernels import has_fp8
from planner.workload.models import model_shape

SHOWN = 3  # systems the note names besides the one chosen


@dataclass(frozen=True, slots=True)
class Candidate:
    system: DeviceType
    replica: Replica
    replicas: int  # replicas for the requests
    systems: int  # whole systems holding them
    usd_per_hour: float  # those systems' GPUs at the rental rate with the uplift


def _datacenter(d: DeviceType) -> bool:
    return d.is_gpu_system and d.gpu is not None and "geforce" not in d.gpu.model.lower()


def serving_candidates(w: WorkloadSettings, costs: CostSettings, catalog: Catalog, *,
                       precision_stated: bool = False) -> list[Candidate]:
    """Every datacenter GPU system whose replica meets the targets, cheapest per hour first
    for ``w.requests_per_s`` (module docstring)."""
    shape = model_shape(w)
    fabric = FabricSettings()
    out = []
    for d in catalog:
        if not _datacenter(d):
            continue
        run = w
        if not precision_stated and shape.weights_precision == "fp8" and has_fp8(d.gpu.kernel_curves):
            run = w.model_copy(update={"precision": "fp8"})
        found = [c for c in search_replicas(run, fabric, summarise_nodes({d.id: 1}, catalog)) if c.meets_targets]
        if not found:
            continue
        best = found[0]
        replica_gpus = best.gpus * best.stages
        replicas = math.ceil(w.requests_per_s / best.result.requests_per_s_per_replica - 1e-9)
        systems = max(1, math.ceil(replicas * replica_gpus / d.gpus - 1e-9))
        factor = costs.gpu_factor(rent_factor_by_price(catalog, {d.id: 1}))
        rate = costs.rental_rates(factor)["reserved_1yr"] * (1.0 + costs.rent_uplift)
        out.append(Candidate(d, best, replicas, systems, systems * d.gpus * rate))
    return sorted(out, key=lambda c: (c.usd_per_hour, c.system.id))


def choose_serving_system(w: WorkloadSettings, costs: CostSettings, catalog: Catalog, *,
                          precision_stated: bool = False) -> tuple[str | None, list[Finding]]:
    """The system to serve ``w`` on and a note saying why, with the next cheapest; (None, [])
    when no system's replica meets the targets (the caller keeps its default)."""
    found = serving_candidates(w, costs, catalog, precision_stated=precision_stated)
    if not found:
        return None, []

    def text(c: Candidate) -> str:
        return (f"{c.system.model} ({c.system.id}), {counted(c.systems, 'system')} holding "
                f"{counted(c.replicas, c.replica.text + ' replica')} of "
                f"{c.replica.result.requests_per_s_per_replica:,.2f} requests/s each, ${c.usd_per_hour:,.0f} an hour")

    best = found[0]
    others = "; ".join(text(c) for c in found[1:1 + SHOWN])
    return best.system.id, [Finding(
        "info", "design.inference.system",
        f"GPU system for {plain_number(w.requests_per_s)} requests/s: the cheapest per hour of the catalog's systems whose "
        f"replica meets the {w.latency_ms_per_token:g} ms per token and {w.ttft_target_ms:g} ms first-token "
        f"targets, at the reserved 1-year rental rate of each one's GPUs: {text(best)}"
        + (f". Next: {others}" if others else "") + "; --system chooses another")]


def design_serving(catalog: Catalog, **changes):
    """A serving intent without a system (``design_from``'s fields): the system chosen above,
    then the design of it, its note first; the medium template's when no system's replica
    meets the targets (its check then says by how much)."""
    fields = {k: v for k, v in changes.items() if v is not None}
    try:
        intent = Intent.model_validate({**fields, "system": "none"})
    except ValidationError as exc:
        raise intent_refusal(exc) from None
    settings = intent_settings(intent, catalog)
    stated = "precision" in (changes.get("settings") or {}).get("workload", {})
    system, notes = choose_serving_system(settings.workload, settings.costs, catalog, precision_stated=stated)
    if system is None:
        return design_from("medium", catalog, **changes)
    words = intent_words(changes, catalog)
    result = design(intent.model_copy(update={"system": system}), catalog,
                    description=f"Designed from the intent{': ' + words if words else ''}, on the GPU system a "
                    f"search of the catalog chose ({catalog[system].model}).")
    result.findings[:0] = notes
    return result
