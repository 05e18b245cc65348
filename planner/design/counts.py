"""How many nodes a design places: the intent's GPUs in whole systems (or the GPUs its
inference target needs), and the hot spares beside them."""

from __future__ import annotations

import math

from planner.design.intent import DesignError, Intent
from planner.findings import Finding
from planner.goodput.model import Parts, interruptions_by_part, nodes_in_repair, spares_to_cover
from planner.hardware.catalog import Catalog, DeviceType
from planner.network.checks import summarise_nodes
from planner.settings import Settings
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
            f"{intent.gpus:,} GPUs asked for; a {system.model} holds {system.gpus}, so the plan has {nodes:,} "
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
        f"{intent.requests_per_s:,g} requests/s of {settings.workload.prompt_tokens:,} "
        f"prompt and {settings.workload.output_tokens:,} output tokens need {res.gpus_needed:,} GPUs "
        f"({res.requests_per_s_per_replica:,.2f} requests/s a replica): {nodes:,} x {system.model}"))
    return nodes


def hot_spares(intent: Intent, settings: Settings, system: DeviceType, nodes: int,
               findings: list[Finding]) -> int:
    """Hot spares beyond the job's nodes: the intent's count, or enough for the nodes the
    goodput model expects in repair at once (GPU and host interruptions per day x the repair
    time), so that the job keeps its GPUs while failed nodes are repaired. A rack-scale
    system is one node of the goodput model (a failed tray takes its NVLink domain out of
    the job), so its spares are whole systems; its hosts, the trays, are what fail."""
    rel = settings.reliability
    asked = intent.spare_nodes if intent.spare_nodes is not None else intent.settings.get(
        "reliability", {}).get("spare_nodes")
    if asked is None:
        job = Parts(gpus=nodes * system.gpus, nodes=nodes, hosts=nodes * system.hosts)
        down = nodes_in_repair(interruptions_by_part(job, rel), rel)
        spares = spares_to_cover(down)
        if spares:
            unit = "rack-scale systems" if system.is_rack_scale else "nodes"
            findings.append(Finding(
                "info", "design.spares",
                f"Hot spares: {down:,.1f} of the job's {nodes:,} {unit} are expected in repair at once "
                f"({rel.repair_days:g}-day repair): {spares:,} more {system.model} placed as hot spares, so the "
                f"job keeps {nodes:,} ({nodes * system.gpus:,} GPUs)"
                + ("; whole systems, as a failed tray takes its NVLink domain out of the job"
                   if system.is_rack_scale else "")))
    else:
        spares = asked
    settings.reliability = rel.model_copy(update={"spare_nodes": spares})
    return spares
