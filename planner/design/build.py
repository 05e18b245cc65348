"""Design from intent: one function that turns an ``Intent`` into a whole plan.

The job's nodes and the hot spares beside them (``planner.design.counts``); the fabric
the intent leaves open (``planner.design.fabric_choice``); the racks, filled
(``planner.design.layout``); the parallelism for the workload by search
(``planner.design.parallelism``) or the inference replica (``planner.design.replica``);
hot spares placed where stocked ones would fail the goodput goal; the restart path. The
templates are intents passed through the same function.

Why it is long: the design's order of steps and the refusals of an intent it cannot build
(size, NICs, cooling asked against the system), each worded for the flag that asked; one
concern, turning an intent into a plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from planner.design.counts import adds_a_tier, hot_spares, node_count
from planner.design.fabric_choice import (default_switch, fabric_for_switch, match_fabric, match_storage_switch,
                                          switch_for_nic_lanes, switch_speaks_fabric)
from planner.design.intent import DesignError, Intent
from planner.design.layout import Layout
from planner.design.racks import system_rack_cooling
from planner.design.parallelism import choose_layout
from planner.design.replica import choose_replica
from planner.findings import Finding
from planner.numbers import counted
from planner.hardware.catalog import Catalog, DeviceType, default_catalog
from planner.hardware.rent import rent_factor_by_price
from planner.hardware.nodes import summarise_nodes
from planner.network.technologies import TECHNOLOGIES
from planner.plan.model import MAX_RACKS, Plan, size_problem
from planner.goodput.recovery import job_of, simplest_reaching
from planner.report.evaluate import evaluate
from planner import vocabulary
from planner.text import escaped_name
from planner.settings import Settings
from planner.settings.refusal import describe_error
from planner.settings.reliability import RESTART_PATHS
from planner.workload.kernels import has_fp8
from planner.workload.models import model_shape
from planner.workload.search import Candidate


@dataclass(slots=True)
class Design:
    """The plan designed and what the design has to say about the intent (info: what was
    rounded or chosen; warning: a part of the intent that cannot hold)."""

    plan: Plan
    findings: list[Finding] = field(default_factory=list)
    layouts: tuple[Candidate, ...] = ()  # the training layouts the search found, best (the plan's) first


def _refuse_tray(tray: DeviceType, catalog: Catalog) -> None:
    """A compute tray of a rack-scale system is no system of its own: its GPUs are one NVLink
    domain only with the rack's NVLink switch trays, power shelves and manifold. The design
    names the whole system to plan with instead."""
    whole = [d for d in catalog if d.is_rack_scale and d.rack_type == tray.rack_type and d.gpu is not None
             and tray.gpu is not None and d.gpu.model == tray.gpu.model]
    instead = f"; plan with the {whole[0].model} ({whole[0].id})" if whole else ""
    raise DesignError(f"system: the {tray.model} is one part of a rack-scale system: its GPUs make an NVLink "
                      f"domain only in their rack, with its NVLink switch trays and power shelves{instead}")


def design(intent: Intent, catalog: Catalog | None = None, *, title: str | None = None,
           description: str = "") -> Design:
    catalog = catalog or default_catalog()
    system = catalog.get(intent.system)
    if system is None or system.gpu is None:
        systems = ", ".join(d.id for d in catalog if d.is_gpu_system)
        raise DesignError(f"system: the catalog has no GPU system '{intent.system}' (GPU systems: {systems})")
    if system.is_tray:
        _refuse_tray(system, catalog)
    switch = catalog.get(intent.switch) if intent.switch is not None else None
    if intent.switch is not None and (switch is None or switch.switch is None):
        switches = ", ".join(d.id for d in catalog if d.switch is not None)
        raise DesignError(f"switch: the catalog has no switch '{intent.switch}' (switches: {switches})")
    if switch is not None:
        switch_speaks_fabric(switch, intent.fabric or intent.settings.get("fabric", {}).get("technology"), catalog)
    findings: list[Finding] = []
    settings = intent_settings(intent, catalog)
    match_fabric(settings, intent, system, catalog, findings)
    switch_for_nic_lanes(settings, intent, system, catalog, findings)
    if settings.workload.inference:
        findings += _serve_as_published(settings, intent, system)
    if settings.workload.inference and "inference_gpus_per_replica" not in intent.settings.get("workload", {}):
        settings.workload, notes = choose_replica(
            settings.workload, settings.fabric, summarise_nodes({system.id: 1}, catalog), settings.costs,
            settings.costs.gpu_factor(rent_factor_by_price(catalog, {system.id: 1})))
        findings += notes
    nodes = node_count(intent, system, findings, settings, catalog)
    _refuse_training_without_nics(settings, system, nodes, catalog, "nodes" if intent.nodes is not None else "gpus")
    match_storage_switch(settings, intent, system, catalog)
    gpus = nodes * system.gpus
    spares = hot_spares(intent, settings, system, nodes, findings, catalog)
    name = escaped_name(title or f"{nodes:,} x {system.model} ({gpus:,} GPUs)")[:200]  # a catalog's model: any text
    plan = Plan(name=name, description=description, settings=settings)
    findings += _cooling_findings(intent, system)
    layout = Layout(plan, catalog, intent, system, nodes, spares=spares)
    layout.build()
    _refuse_over_size(plan, system)
    findings += layout.findings
    if settings.workload.enabled and gpus:
        stated = {"tp", "pp", "dp", "cp"} & set(intent.settings.get("workload", {}))
        w, notes, layouts = choose_layout(settings.workload, settings.fabric,
                                          summarise_nodes({system.id: nodes}, catalog), keep_holding=bool(stated))
        plan.settings.workload = w
        findings += notes
        report = evaluate(plan, catalog)  # the design checks what it made, once
        hot = _hot_spares_instead(plan, intent, system, catalog, report)
        if hot is not None:  # spares on the fabric, not in stock: the plan again with them placed
            again = design(intent.model_copy(update={"spare_nodes": hot}), catalog, title=title,
                           description=description)
            rel = plan.settings.reliability
            # the spares are the design's, placed for the restart: not a count the user gave to change
            again.findings[:] = [f for f in again.findings if f.code != "design.spares.fabric"]
            again.findings.insert(0, Finding(
                "info", "design.spares.hot",
                f"Hot spares: {hot:,} {system.model} placed and cabled into the fabric (it grows for them), not "
                f"{rel.spares_stocked:,} stocked: waiting for a node at each GPU or host failure (a stocked spare's "
                f"{rel.swap_spare_min:g}-min swap or the pool's {rel.replace_node_min:g} min, whichever is sooner) "
                f"would ask a faster restart of the training software to reach the lowest acceptable ETTR, "
                f"{rel.min_ettr:.0%}"))
            return again
        findings += choose_recovery(plan, intent, report)
        return Design(plan, findings, layouts)
    return Design(plan, findings)


def _refuse_training_without_nics(settings: Settings, system: DeviceType, nodes: int, catalog: Catalog,
                                  field: str) -> None:
    """Nodes of a system whose NICs the catalog lists, none for compute (a workstation made to
    stand alone), cannot train one job across nodes: refused with what to change (the check's
    ``network.nics.none`` for a plan edited that way)."""
    w = settings.workload
    if not w.enabled or w.inference or nodes <= 1 or not system.lacks_compute_nics:
        return
    # systems with a compute NIC a GPU (the guide's rule for training), its own GPU first
    others = [d for d in catalog if d.is_gpu_system and not d.is_tray and d.gpu.ecc
              and d.compute_nic_count >= d.gpus]
    named = ", ".join(d.id for d in sorted(others, key=lambda d: (d.gpu.model != system.gpu.model, d.id))[:3])
    more = ", ..." if len(others) > 3 else ""
    instead = "choose a GPU system with compute NICs" + (f" ({named}{more})" if named else "")
    raise DesignError(f"{field}: the {system.model} has no compute NIC (its NICs are for storage): {nodes:,} of them "
                      f"cannot train one job, nothing carries its traffic between nodes; keep the job on one node "
                      f"({counted(system.gpus, 'GPU')}), or {instead}")


def _refuse_over_size(plan: Plan, system: DeviceType) -> None:
    """A plan past the size limits is refused as what to change, before anything evaluates it
    (the save would refuse it later): by the rack cap where racks are too many, by the system
    where devices are."""
    too_big = size_problem(len(plan.racks), len(plan.placements))
    if too_big is None:
        return
    spares = plan.settings.reliability.spare_nodes
    job = sum(1 for p in plan.placements if p.device == system.id) - spares
    if spares > job:  # the spares asked make it too big, not the job
        raise DesignError(f"spare_nodes: {too_big}: {spares:,} hot spares beside the job's {job:,} nodes; ask "
                          "fewer, or stock them (--set reliability.spares_stocked=N)")
    denser = (f"choose a denser system than the {system.model}, such as a rack-scale NVL72, or start from the "
              "campus-1m template (a million GPUs within the limits)")
    if len(plan.racks) > MAX_RACKS:
        raise DesignError(f"rack_kw: {too_big}: raise the rack cap to fit more nodes a rack, {denser}")
    raise DesignError(f"system: {too_big}: {denser}")


def _serve_as_published(settings: Settings, intent: Intent, system: DeviceType) -> list[Finding]:
    """A model whose weights are published in FP8 (DeepSeek-V3, Kimi K2) served in FP8 on a GPU
    with FP8 tensor cores, unless the intent states a precision; a note saying so."""
    w = settings.workload
    shape = model_shape(w)
    stated = "precision" in intent.settings.get("workload", {})
    fp8 = system.gpu is not None and has_fp8(system.gpu.kernel_curves)
    if stated or w.model == "custom" or shape.weights_precision != "fp8" or w.precision == "fp8" or not fp8:
        return []
    settings.workload = w.model_copy(update={"precision": shape.weights_precision})
    title = vocabulary.choice_title(w.model)
    return [Finding("info", "design.inference.precision",
                    f"{title} is served in {shape.weights_precision.upper()}, the precision its weights are "
                    f"published in (its model card), its weights half their {w.precision.upper()} size in a replica; "
                    f"--set workload.precision={w.precision} serves it in {w.precision.upper()}")]


def _hot_spares_instead(plan: Plan, intent: Intent, system: DeviceType, catalog: Catalog, report) -> int | None:
    """The spares to place hot when the design stocked some that the fabric had no free port
    for, and with them placed a simpler restart path reaches the lowest acceptable ETTR (a
    swap from stock is a wait at every GPU or host failure); None otherwise, or when the
    intent states its spares or restart path. Spares are fabric a design buys before it asks
    the training software for more (a warm restart, then one by replica), but not a fabric
    tier: a tier more for a few spares re-cables every leaf's uplinks and buys a layer of
    switches, where a faster restart is software (``adds_a_tier``)."""
    rel = plan.settings.reliability
    stated = intent.settings.get("reliability", {})
    g, storage = report.sections.get("goodput"), report.sections.get("storage")
    if (system.is_rack_scale or not rel.spares_stocked or intent.spare_nodes is not None or "spare_nodes" in stated
            or "restart_path" in stated or g is None or not g.recovery or storage is None):
        return None
    placed_nodes = sum(1 for p in plan.placements if p.device == system.id)
    if intent.fabric_switches and adds_a_tier(system.id, placed_nodes, rel.spares_stocked, catalog,
                                              plan.settings.fabric):
        return None
    job = job_of(g, storage, plan.settings.storage.checkpoint_interval_min)
    placed = rel.model_copy(update={"spare_nodes": rel.spare_nodes + rel.spares_stocked, "spares_stocked": 0})
    stocked_path, _ = simplest_reaching(job, rel, rel.min_ettr)
    placed_path, reaches = simplest_reaching(job, placed, rel.min_ettr)
    if reaches and RESTART_PATHS.index(placed_path) < RESTART_PATHS.index(stocked_path):
        return placed.spare_nodes
    return None


def choose_recovery(plan: Plan, intent: Intent, report) -> list[Finding]:
    """The simplest restart path (cold, warm, replica) whose ETTR, as the check works it out
    for the plan (``report``), reaches the lowest acceptable (``planner.goodput.recovery``);
    the intent's own path is kept. Cold, the default, says nothing."""
    rel = plan.settings.reliability
    if "restart_path" in intent.settings.get("reliability", {}):
        return []
    recovery = (report.sections["goodput"].recovery or {})
    by_path = recovery.get("ettr_by_path")
    if not by_path:
        return []
    path = next((p for p in RESTART_PATHS if by_path[p] >= rel.min_ettr), max(RESTART_PATHS, key=by_path.get))
    if path == rel.restart_path:
        return []
    plan.settings.reliability = rel.model_copy(update={"restart_path": path})
    reaches = by_path[path] >= rel.min_ettr
    return [Finding(
        "info" if reaches else "warning", "design.recovery",
        f"Recovery {path}: ETTR {by_path[path]:.1%} " + ("reaches" if reaches else "is the best of the restart "
                                                         "paths modelled, short of")
        + f" the lowest acceptable {rel.min_ettr:.0%}, where a cold restart of the whole job gives "
        f"{by_path['cold']:.1%}" + (f" and a warm one {by_path['warm']:.1%}" if path == "replica" else ""))]


def _cooling_findings(intent: Intent, system: DeviceType) -> list[Finding]:
    racks = system_rack_cooling(intent.cooling, system)
    if intent.cooling == "auto" or racks == intent.cooling:
        return []
    if racks == "liquid":
        return [Finding("warning", "design.cooling.intent",
                        f"cooling: air was asked for, but {system.model} is liquid-cooled; its racks are liquid-cooled")]
    return [Finding("warning", "design.cooling.intent",
                    f"cooling: liquid racks were asked for, but {system.model} is air-cooled (no cold plates): "
                    "its heat goes into the air whatever the rack, so its racks are air-cooled, within the "
                    "air-cooling limit (with a rear-door heat exchanger above it); choose a direct-liquid-cooled "
                    "system for liquid racks")]


def intent_settings(intent: Intent, catalog: Catalog) -> Settings:
    """The plan's settings as the intent states them over the defaults (``DesignError`` naming
    the setting a value does not fit)."""
    over: dict[str, dict[str, Any]] = {"facility": {}, "floor": {}, "fabric": {}, "storage": {}, "workload": {}}
    fac, fab, wl = over["facility"], over["fabric"], over["workload"]
    for key, value in (("default_rack_cap_kw", intent.rack_kw), ("power_basis", intent.power_basis),
                       ("air_cooling_limit_kw", intent.air_cooling_limit_kw)):
        if value is not None:
            fac[key] = value
    if intent.floor_rating_kg_m2 is not None:
        over["floor"]["floor_rating_kg_m2"] = intent.floor_rating_kg_m2
    if intent.fabric is not None:
        fab["technology"] = intent.fabric
        fab["switch_device"] = intent.switch or default_switch(catalog, intent.fabric)
        fab["sharp"] = TECHNOLOGIES[intent.fabric].sharp_capable
    elif intent.switch is not None:
        fab["switch_device"] = intent.switch
        stated = "technology" in intent.settings.get("fabric", {})
        tech = None if stated else fabric_for_switch(catalog, intent.switch)
        if tech is not None:
            fab["technology"] = tech
            fab["sharp"] = TECHNOLOGIES[tech].sharp_capable
    for key, value in (("tiers", intent.tiers), ("oversubscription", intent.oversubscription)):
        if value is not None:
            fab[key] = value
    if intent.write_gbs_per_node is not None:
        over["storage"]["min_write_gbs_per_node"] = intent.write_gbs_per_node
    for key, value in (("model", intent.model), ("model_params_b", intent.params_b),
                       ("train_tokens_b", intent.train_tokens_b), ("seq_len", intent.seq_len),
                       ("global_batch_tokens", intent.batch_tokens), ("attention_kernel", intent.attention_kernel),
                       ("requests_per_s", intent.requests_per_s),
                       ("prompt_tokens", intent.prompt_tokens), ("output_tokens", intent.output_tokens),
                       ("latency_ms_per_token", intent.latency_ms_per_token)):
        if value is not None:
            wl[key] = value
    if intent.inference:
        wl.update(inference=True, enabled=False)
    try:
        return Settings.model_validate(_merge(_merge(Settings().model_dump(), intent.settings), over))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = first["loc"]
        where = ".".join(str(p) for p in loc)
        said = (describe_error(Settings.model_fields[loc[0]].annotation, str(loc[1]), first)
                if len(loc) == 2 and loc[0] in Settings.model_fields else None)
        raise DesignError(f"setting {where}: {said or first['msg']}") from None


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
