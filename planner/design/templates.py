"""Reference designs (the archetypes of N. Dixit, "The GPU Cluster That Actually Works for
Deep Learning in 2026", SIVARO, "the guide" below, and NVIDIA DGX SuperPOD scalable units),
each an intent passed through the design function.

A template file (``resources/templates/NAME.json``) is an intent with a name, title and
description: the GPU system, how many, the racks it goes into, settings that differ from
the defaults, and which infrastructure to add. Resizing a template (``nodes``) resizes the
whole design: storage is sized again from the write target, the parallelism re-chosen.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from pydantic import Field, ValidationError

from planner.design.build import DesignError, _merge, design
from planner.design.intent import Intent
from planner.design.racks import liquid_load, set_rows, switch_label  # noqa: F401  (planner.sweep lays out with them)
from planner.hardware.catalog import Catalog, default_catalog
from planner.paths import resources_dir
from planner.plan.model import Plan
from planner.settings.refusal import bound_text
from planner.workload.moe import expert_ranks


class TemplateError(DesignError):
    """A template that cannot be found or designed; an intent field's error names the field
    first, as ``DesignError`` does (the CLI gives its flag, the New plan dialog its label)."""


class Template(Intent):
    name: str
    title: str
    description: str
    nodes: int = Field(ge=0, le=100_000)


@lru_cache(maxsize=None)
def _template_files() -> dict[str, str]:
    folder = resources_dir() / "templates"
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.json"))}


def template_names() -> list[str]:
    return list(_template_files())


def get_template(name: str) -> Template:
    files = _template_files()
    if name not in files:
        raise TemplateError(f"there is no template '{name}' (templates: {', '.join(files)})")
    return Template.model_validate(json.loads(files[name]))


def list_templates() -> list[Template]:
    return [get_template(n) for n in template_names()]


def template_intent(name: str, *, nodes: int | None = None, power_basis: str | None = None,
                    settings: dict[str, Any] | None = None, **changes: Any) -> Intent:
    """The template's intent, resized to ``nodes`` (storage then sized from the write target)
    and with ``changes`` (intent fields) and ``settings`` (section -> fields) over it."""
    t = get_template(name)
    data = t.model_dump(exclude={"name", "title", "description"})
    if nodes is not None and nodes != t.nodes:
        data["nodes"] = nodes
        if data["storage"] is not None:
            data["storage"]["count"] = None
    if power_basis is not None:
        changes["power_basis"] = power_basis
    data["settings"] = _merge(data["settings"], settings or {})
    if changes.get("gpus") is not None and "nodes" not in changes:
        data["nodes"] = None
        if data["storage"] is not None:  # resized by its GPUs: storage sized for them, as for nodes
            data["storage"]["count"] = None
    serving = (changes.get("inference") or data.get("inference")
               or (data["settings"].get("workload") or {}).get("inference"))
    if nodes is None and changes.get("gpus") is None and changes.get("requests_per_s") is not None and serving:
        # an inference target without a GPU count: the design sizes the GPUs for it (the
        # template's own count would serve whatever rate it serves), and storage with them
        data["nodes"] = data["gpus"] = None
        data["inference"] = True
        if data["storage"] is not None:
            data["storage"]["count"] = None
    new_system = changes.get("system")
    if new_system is not None and new_system != t.system and changes.get("cooling") in (None, "auto"):
        # the template's GPU racks cooled as its own system needs: another system's needs instead
        own = default_catalog().get(t.system)
        if own is not None and (data.get("gpu_rack") or {}).get("cooling") == own.cooling:
            data["gpu_rack"]["cooling"] = None
    data.update({k: v for k, v in changes.items() if v is not None})
    return Intent.model_validate(data)


def build_template(name: str, *, nodes: int | None = None, power_basis: str | None = None,
                   catalog: Catalog | None = None, settings: dict[str, Any] | None = None) -> Plan:
    """A plan designed from a template's intent (``template_intent``)."""
    return design_template(name, nodes=nodes, power_basis=power_basis, catalog=catalog, settings=settings).plan


def design_template(name: str, *, nodes: int | None = None, catalog: Catalog | None = None, **changes: Any):
    catalog = catalog or default_catalog()
    if nodes is not None and not 0 <= nodes <= 100_000:
        raise TemplateError("--nodes takes 0 to 100,000 nodes")
    t = get_template(name)
    intent = template_intent(name, nodes=nodes, **changes)
    resized = intent.nodes != t.nodes or intent.system != t.system
    title = resized_title(t, intent, catalog) if resized else t.title
    # resized, the template's description (its system, its node count) no longer tells the plan
    description = (f"Designed from the intent of template {t.name}, with "
                   f"{intent_words(changes, catalog) or f'{intent.nodes} nodes'}." if resized else t.description)
    try:
        return design(intent, catalog, title=title, description=description)
    except DesignError as exc:  # the intent field first, as without a template: the form and CLI name it
        raise TemplateError(str(exc)) from None


def design_from(template: str | None, catalog: Catalog | None = None, **changes: Any):
    """A design from intent fields alone (``template`` None: ``system`` and ``gpus`` or
    ``nodes`` needed) or from a template's intent with the fields over it; bad values raise
    a ``DesignError`` naming the field."""
    try:
        if template is None:
            if changes.get("system") is None:
                raise DesignError("system: choose a GPU system or a template")
            return design(Intent.model_validate({k: v for k, v in changes.items() if v is not None}),
                          catalog or default_catalog())
        nodes = changes.pop("nodes", None)
        return design_template(template, nodes=nodes, catalog=catalog, **changes)
    except ValidationError as exc:
        raise intent_refusal(exc) from None


def intent_refusal(exc: ValidationError) -> DesignError:
    """An intent's field that does not validate, named as ``DesignError`` names it."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "intent"
    return DesignError(f"{where}: {bound_text(first) or first['msg']}")


# How an intent's field reads in a plan's description ("Llama 3 70B", "50 requests/s").
_WORDS = {
    "gpus": "{} GPU{s}", "nodes": "{} node{s}", "rack_kw": "{} kW racks", "params_b": "a {}B-parameter model",
    "train_tokens_b": "{}B tokens to train", "seq_len": "{}-token sequences", "batch_tokens": "a {}-token batch",
    "requests_per_s": "{} requests/s", "prompt_tokens": "{}-token prompts", "output_tokens": "{}-token outputs",
    "latency_ms_per_token": "{} ms per output token", "spare_nodes": "{} spare node{s}",
    "oversubscription": "{}:1 oversubscription", "write_gbs_per_node": "{} GB/s checkpoint writes per node",
    "checkpoint_write_s": "checkpoints written in {} s", "storage_capacity_tb": "{} TB of storage",
    "floor_rating_kg_m2": "a {} kg/m² floor", "air_cooling_limit_kw": "a {} kW air-cooling limit",
}


def intent_words(changes: dict[str, Any], catalog: Catalog) -> str:
    """The fields a user set over a template, in words: 'Llama 3 70B, an inference service,
    50 requests/s' (not 'model llama3-70b, inference True, requests_per_s 50.0')."""
    from planner.vocabulary import choice_title, plain_number

    out = []
    for key, value in changes.items():
        if value is None or value is False:
            continue
        if key == "inference":
            out.append("an inference service")
        elif key == "settings" and isinstance(value, dict):
            out.append(f"its own {', '.join(value)} settings")
        elif key == "attention_kernel":
            out.append("each GPU's own attention kernel" if value == "auto" else choice_title(value))
        elif key in ("system", "switch"):
            device = catalog.get(value)
            out.append(device.title if device is not None else str(value))
        elif key in _WORDS and isinstance(value, (int, float)):
            out.append(_WORDS[key].format(plain_number(value), s="" if value == 1 else "s"))
        elif isinstance(value, str):
            out.append(f"{choice_title(value)} {key.replace('_', ' ')}" if key in ("cooling", "power_basis", "tiers")
                       else choice_title(value))
        else:
            out.append(f"{key.replace('_', ' ')} {value}")
    return ", ".join(out)


def resized_title(t: Template, intent: Intent, catalog: Catalog) -> str:
    """The plan title when a template is resized: the template's title names its own node
    count, so say the actual one ('4,000-node cluster (32,000 x H100 SXM 80GB), from template
    massive')."""
    node = catalog.get(intent.system)
    if intent.nodes is None and intent.gpus is None:  # sized by the design for its requests per second
        model = node.model if node is not None else intent.system
        return f"{model} cluster for {intent.requests_per_s:,g} requests/s, from template {t.name}"
    if intent.nodes is not None:
        n_nodes = intent.nodes
    else:
        n_nodes = -(-intent.gpus // node.gpus) if node is not None and node.gpu else 0
    gpus = f" ({n_nodes * node.gpus:,} x {node.gpu.model})" if node is not None and node.gpu else ""
    return f"{n_nodes:,}-node cluster{gpus}, from template {t.name}"


def rescale_workload(plan: Plan, catalog: Catalog, node_id: str, n_nodes: int) -> None:
    """Keep TP x CP x PP x DP equal to the GPU count (the sweep's resized plans): keep TP and CP,
    take the largest pipeline depth up to the plan's that divides the rest, DP the rest, and
    the largest EP up to the plan's that divides the ranks the experts spread over."""
    gpus = n_nodes * catalog[node_id].gpus
    w = plan.settings.workload
    if not gpus or gpus % (w.tp * w.cp):
        return
    replicas = gpus // (w.tp * w.cp)
    pp = next(p for p in range(min(w.pp, replicas), 0, -1) if replicas % p == 0)
    dp = replicas // pp
    ep = math.gcd(w.ep, expert_ranks(w, w.tp, dp))
    plan.settings.workload = w.model_copy(update={"pp": pp, "dp": dp, "ep": ep})
