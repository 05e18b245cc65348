"""How many nodes a design places: the intent's GPUs in whole systems (or the GPUs its
inference target needs), and the spares: hot ones beside them on the fabric's free ports,
the rest stocked."""

from __future__ import annotations

import math

from planner.design.intent import DesignError, Intent
from planner.findings import Finding
from planner.goodput.model import Parts, interruptions_by_part, nodes_in_repair, spares_to_cover
from planner.hardware.catalog import Catalog, DeviceType
from planner.hardware.nodes import summarise_nodes
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.numbers import counted
from planner.settings import FabricSettings, Settings
from planner.text import with_article
from planner.vocabulary import plain_number
from planner.workload.checks import evaluate_workload


def node_count(intent: Intent, system: DeviceType, findings: list[Finding], settings: Settings,
               catalog: Catalog) -> int:
    """The job's nodes: as given, the GPUs rounded up to whole systems (and said), or sized
    from the inference target."""
    if intent.nodes is not None:
        return intent.nodes
    if intent.gpus is None:  # an inference target alone: the GPUs its requests need
        return inference_nodes(intent, system, findings, settings, catalog)
    nodes = math.ceil(intent.gpus / system.gpus)
    if nodes * system.gpus != intent.gpus:
        findings.append(Finding(
            "info", "design.gpus.rounded",
            f"{intent.gpus:,} GPUs asked for; {with_article(system.model)} holds {system.gpus}, so the plan has {nodes:,} "
            f"of them ({nodes * system.gpus:,} GPUs)"))
    return nodes


def inference_nodes(intent: Intent, system: DeviceType, findings: list[Finding], settings: Settings,
                    catalog: Catalog) -> int:
    """Nodes for the intent's requests per second: the GPUs the inference sizing of one
    node's replicas says they need (``size_inference``), in whole nodes."""
    out = evaluate_workload(settings.workload, settings.fabric, summarise_nodes({system.id: 1}, catalog))
    res = out.inference
    if res is None or not res.fits or res.gpus_needed is None:
        raise DesignError(f"requests_per_s: the model does not fit a replica on {system.model}: give a GPU count")
    nodes = max(1, math.ceil(res.gpus_needed / system.gpus))
    findings.append(Finding(
        "info", "design.inference.sized",
        f"{plain_number(intent.requests_per_s)} requests/s of {settings.workload.prompt_tokens:,} "
        f"prompt and {settings.workload.output_tokens:,} output tokens need {counted(res.gpus_needed, 'GPU')} "
        f"({res.requests_per_s_per_replica:,.2f} requests/s a replica): {nodes:,} x {system.model}"))
    return nodes


def hot_spares(intent: Intent, settings: Settings, system: DeviceType, nodes: int,
               findings: list[Finding], catalog: Catalog) -> int:
    """The hot spares placed beyond the job's nodes (returned), and the spares stocked
    (``reliability.spares_stocked``): the intent's count, all placed; or spares enough that a
    failing unit finds one free at ``spare_availability`` of failures, the units in repair at
    a failure Poisson with mean GPU and host interruptions per day x the repair time
    (``spares_to_cover``), in the unit the vendor swaps. A rack-scale system's spares are
    compute trays in stock, none placed: a spare rack would hold 18 trays where one is failed,
    and a job on fewer trays a rack would leave a tray of every rack idle (5,556 on
    campus-400k, ten times the 561 kept for the 507 in repair at once on average). An 8-GPU
    server's spares are nodes, placed as hot spares on the free ports of the fabric the job's
    nodes need (``nodes_fitting``), the rest stocked: a spare never opens more fabric by itself
    (the design may place the stocked ones hot after all where a restart needs them:
    ``build._hot_spares_instead``)."""
    rel = settings.reliability
    asked = intent.spare_nodes if intent.spare_nodes is not None else intent.settings.get(
        "reliability", {}).get("spare_nodes")
    job = Parts(gpus=nodes * system.gpus, nodes=nodes, hosts=nodes * system.hosts)
    if asked is not None:
        settings.reliability = rel.model_copy(update={"spare_nodes": asked})
        down = nodes_in_repair(interruptions_by_part(job, rel), rel)  # a rack-scale system's: compute trays
        trays = system.is_rack_scale
        cover = spares_to_cover(down, rel.spare_availability)
        cover = -(-cover // max(1, system.hosts)) if trays else cover
        if asked > max(nodes, cover):
            unit = system.model
            expected = f"{down:.1f} compute trays" if trays else f"{down:.1f} of them"
            findings.append(Finding(
                "warning", "design.spares.many",
                f"{asked:,} hot spares asked for a job of {nodes:,} x {unit}: more spares than the job's nodes, "
                f"where the goodput model expects {expected} in repair at once; the plan places all {asked:,} "
                f"({(nodes + asked) * system.gpus:,} GPUs, {asked * system.gpus:,} of them idle spares) and prices "
                f"them: leave --spares out for the design's count"))
        elif asked and not trays and intent.fabric_switches:
            findings += spares_fabric_findings(system, nodes, asked, catalog, settings.fabric)
        return asked
    down = nodes_in_repair(interruptions_by_part(job, rel), rel)
    need = spares_to_cover(down, rel.spare_availability)
    if system.is_rack_scale:
        placed = 0
    elif intent.fabric_switches:
        placed = nodes_fitting(system.id, nodes, need, catalog, settings.fabric)
    else:
        placed = need
    stocked = need - placed
    settings.reliability = rel.model_copy(update={"spare_nodes": placed, "spares_stocked": stocked})
    if need:
        findings.append(Finding("info", "design.spares", _spares_note(system, nodes, down, placed, stocked, rel)))
    return placed


def _spares_note(system: DeviceType, nodes: int, down: float, placed: int, stocked: int, rel) -> str:
    """What the design keeps as spares and why, in the unit the vendor swaps."""
    gpus = f"{nodes * system.gpus:,} GPUs"
    if system.is_rack_scale:
        return (f"Spares: {down:,.1f} of the job's {nodes * system.hosts:,} compute trays ({nodes:,} x {system.model}) "
                f"are expected in repair at once ({rel.repair_days:g}-day repair): {stocked:,} spare compute trays "
                f"(a failed tray finds one at {rel.spare_availability:.0%} of failures) stocked, not whole racks "
                f"placed; a failed tray is swapped in {rel.swap_spare_min:g} min and the "
                f"job keeps its {nodes:,} racks ({gpus})")
    text = (f"Spares: {down:,.1f} of the job's {nodes:,} nodes are expected in repair at once "
            f"({rel.repair_days:g}-day repair), {placed + stocked:,} spares for {rel.spare_availability:.0%} of "
            "failures: ")
    if placed:
        text += (f"{placed:,} more {system.model} placed as hot spare{'s' if placed != 1 else ''} on the free "
                 f"ports of the job's fabric, so the job keeps {nodes:,} ({gpus})")
    if stocked:
        text += ("; " if placed else "") + (
            f"{stocked:,} stocked (not placed): the fabric the job needs has no free port for "
            f"{'them' if stocked != 1 else 'it'}, and a spare does not open more fabric")
    return text


def spares_fabric_findings(system: DeviceType, nodes: int, asked: int, catalog: Catalog,
                           fabric: FabricSettings) -> list[Finding]:
    """A warning where the hot spares asked for grow the compute fabric past what the job's
    nodes need (``nodes_fitting``: the free ports hold fewer), with the switches they add and
    their price; a tier more is said as such. 2,048 DGX H100 on 64-port switches fill two tiers
    (64 leaves, 32 spines); one spare more takes the fabric to three."""
    fit = nodes_fitting(system.id, nodes, asked, catalog, fabric)
    if fit >= asked:
        return []
    try:
        job = plan_fabric({system.id: nodes}, catalog, fabric)
    except FabricSizingError:
        return []
    switch = catalog.get(fabric.switch_device)
    try:
        grown = plan_fabric({system.id: nodes + asked}, catalog, fabric)
    except FabricSizingError:  # past what the switch holds in the tiers asked: the design takes another switch
        model = switch.model if switch is not None else fabric.switch_device
        return [Finding(
            "warning", "design.spares.fabric",
            f"{counted(asked, 'hot spare')} asked: the fabric the job's {nodes:,} x {system.model} need on {model} has "
            f"{'free ports for ' + counted(fit, 'spare') if fit else 'no free port for a spare'}, and with "
            f"{'it' if asked == 1 else 'them'} it "
            f"needs more than {model} holds in the tiers asked: the design builds it of another switch. Give --spares "
            f"{fit} and keep the rest in stock (--set reliability.spares_stocked={asked - fit}) to keep {model}")]
    if job is None or grown is None:
        return []
    more = grown.switches - job.switches
    price = f", about ${more * switch.price_usd / 1e6:,.1f}M before their cables and optics" if (
        switch is not None and switch.price_usd) else ""

    def shape(s) -> str:
        if s.tiers <= 1:
            return "one switch"
        leaves = "1 leaf" if s.leaf_switches == 1 else f"{s.leaf_switches:,} leaves"
        return f"{leaves}, {counted(s.spine_switches, 'spine')}" + (
            f", {counted(s.core_switches, 'core')}" if s.core_switches else "")

    tier = f"{('two', 'three')[grown.tiers - 2]} tiers, " if grown.tiers > job.tiers and grown.tiers in (2, 3) else ""
    room = (f"its free ports hold {counted(fit, 'spare')}" if fit else "it has no free port for a spare")
    others = "it" if asked - fit == 1 else "the others"
    return [Finding(
        "warning", "design.spares.fabric",
        f"{counted(asked, 'hot spare')} asked: the fabric the job's {nodes:,} x {system.model} need ({shape(job)}) grows "
        f"to {tier}{shape(grown)} for them: {counted(more, 'switch')} more{price}; {room}. "
        f"Give --spares {fit} (and --set reliability.spares_stocked={asked - fit} to keep {others} in stock), or "
        f"leave --spares out for the design's count")]


def adds_a_tier(device_id: str, nodes: int, more: int, catalog: Catalog, fabric: FabricSettings) -> bool:
    """Whether ``more`` nodes beside ``nodes`` of ``device_id`` take the compute fabric to
    another tier: 1,024 MI300X nodes fill a two-tier fabric of 128-port switches (128 x 128 / 2
    = 8,192 ports, one a GPU), and 9 more would make it three tiers of 331 switches where 192
    hold the job."""
    try:
        now, then = (plan_fabric({device_id: n}, catalog, fabric) for n in (nodes, nodes + more))
    except FabricSizingError:
        return True
    return now is not None and then is not None and then.tiers > now.tiers


def nodes_fitting(device_id: str, nodes: int, most: int, catalog: Catalog, fabric: FabricSettings) -> int:
    """How many more nodes of ``device_id`` (at most ``most``) the compute fabric sized for
    ``nodes`` of them holds on its free ports: the same leaves, spines and cores cable them
    (a rail-optimised unit's free slots are cabled as a full unit's, ``size_fabric``). 127
    DGX H100 on 64-port switches: 4 units of 32 nodes x 8 rails, 128 slots, one free; a
    129th node opens a fifth unit. All of ``most`` when there is no fabric switch."""
    def switches(n: int) -> tuple[int, int, int] | None:
        size = plan_fabric({device_id: n}, catalog, fabric)
        return None if size is None else (size.leaf_switches, size.spine_switches, size.core_switches)

    try:
        base = switches(nodes)
    except FabricSizingError:
        return 0
    if base is None:
        return most
    fit = 0
    while fit < most:
        try:
            if switches(nodes + fit + 1) != base:
                break
        except FabricSizingError:
            break
        fit += 1
    return fit
