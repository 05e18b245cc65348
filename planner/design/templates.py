"""Reference designs (the archetypes of N. Dixit, "The GPU Cluster That Actually Works for
Deep Learning in 2026", SIVARO, "the guide" below, and NVIDIA DGX SuperPOD scalable units),
built into plans by auto-place.

A template file (``resources/templates/NAME.json``) names the GPU node, how many, the
rack it goes into, settings that differ from the defaults, and which infrastructure to
add (fabric switches sized from the nodes, storage, CDUs by policy).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from planner.hardware.catalog import Catalog, default_catalog
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import CommandError
from planner.facility.cooling import cdus_needed
from planner.facility.heat import capture_fraction
from planner.errors import PlannerError
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.paths import resources_dir
from planner.plan.model import Plan
from planner.plan.rack_types import type_letter
from planner.settings import Settings


class TemplateError(PlannerError):
    pass


class RackSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    prefix: str
    cooling: Literal["air", "liquid", "hybrid"] = "air"
    power_cap_kw: float | None = None
    height_u: int = 42
    rack_type: str | None = None  # a catalog rack type: its height, cooling, cap and rating win


class StorageSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    device: str
    count: int = Field(ge=0)


class Template(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    title: str
    description: str
    node: str
    nodes: int = Field(ge=0)
    gpu_rack: RackSpec
    infra_rack: RackSpec = RackSpec(prefix="NET")
    storage_rack: RackSpec = RackSpec(prefix="STOR")
    cdu_rack: RackSpec = RackSpec(prefix="CDU", cooling="liquid")
    settings: dict[str, Any] = Field(default_factory=dict)
    fabric_switches: bool = True
    storage: StorageSpec | None = None
    storage_switches: bool = False
    management_switch: bool = True
    cdus: bool = True
    management: list[StorageSpec] = Field(default_factory=list)  # UFM, head nodes: in the infrastructure racks


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


def build_template(name: str, *, nodes: int | None = None, power_basis: str | None = None,
                   catalog: Catalog | None = None, settings: dict[str, Any] | None = None) -> Plan:
    """A plan laid out from a template: nodes by auto-place on the power basis, then the
    fabric switches the nodes need, storage, storage switches and CDUs by policy; the
    racks stand in rows. ``settings`` overrides the template's settings (section -> fields)."""
    catalog = catalog or default_catalog()
    t = get_template(name)
    n_nodes = t.nodes if nodes is None else nodes
    if not 0 <= n_nodes <= 100_000:
        raise TemplateError("--nodes takes 0 to 100,000 nodes")
    settings = Settings.model_validate(_merge(_merge(Settings().model_dump(), t.settings), settings or {}))
    if power_basis is not None:
        settings.facility = settings.facility.model_copy(update={"power_basis": power_basis})
    title = t.title if nodes is None or nodes == t.nodes else resized_title(t, n_nodes, catalog)
    plan = Plan(name=title, description=t.description, settings=settings)
    if nodes is not None and nodes != t.nodes and settings.workload.enabled:
        rescale_workload(plan, catalog, t.node, n_nodes)

    def rack_fields(spec: RackSpec) -> dict[str, Any]:
        if spec.rack_type is not None:
            rt = catalog.rack_type(spec.rack_type)
            if rt is None:
                raise TemplateError(f"template '{name}': the catalog has no rack type '{spec.rack_type}'")
            return rt.rack_fields(settings.facility.default_rack_cap_kw)
        cap = spec.power_cap_kw or settings.facility.default_rack_cap_kw
        if spec.cooling == "air":  # templates keep air-cooled racks within the air-cooling limit
            cap = min(cap, settings.facility.air_cooling_limit_kw)
        return {"cooling": spec.cooling, "height_u": spec.height_u, "power_cap_kw": cap}

    infra: list[str] = []

    def place(device: str, count: int, spec: RackSpec, fill: list[str] | None, label: str) -> list[str]:
        if count <= 0:
            return []
        before = {r.id for r in plan.racks}
        try:
            AutoPlace(device, count, racks=fill, new_rack_prefix=spec.prefix, new_rack_fields=rack_fields(spec),
                      label_prefix=label).do(plan, catalog)
        except CommandError as exc:
            raise TemplateError(f"template '{name}': {exc}") from None
        return [r.id for r in plan.racks if r.id not in before]

    gpu_racks = place(t.node, n_nodes, t.gpu_rack, None, "node-")
    counts: dict[str, int] = {t.node: n_nodes}
    if t.fabric_switches and n_nodes:
        try:
            size = plan_fabric(counts, catalog, settings.fabric)
        except FabricSizingError as exc:
            raise TemplateError(f"template '{name}' at {n_nodes:,} nodes: {exc}") from None
        if size is not None:
            infra += place(settings.fabric.switch_device, size.switches, t.infra_rack, infra,
                           switch_label(catalog, settings.fabric.switch_device))
    storage_racks: list[str] = []
    if t.storage and t.storage.count:
        storage_racks += place(t.storage.device, t.storage.count, t.storage_rack, None, "pfs-")
    if t.storage_switches:
        ports = _storage_ports(catalog, t, n_nodes)
        sw = catalog.get(settings.fabric.storage_switch_device)
        if sw and sw.switch and ports:
            infra += place(sw.id, math.ceil(ports / sw.switch.ports), t.infra_rack, infra, "stor-sw-")
    for extra in t.management:
        infra += place(extra.device, extra.count, t.infra_rack, infra, "mgmt-srv-")
    if t.cdus:
        liquid_nodes, liquid_kw = liquid_load(plan, catalog)
        need = cdus_needed(liquid_nodes, liquid_kw, settings.facility, catalog)
        if rack_fields(t.infra_rack)["cooling"] != "air":  # liquid-cooled infrastructure racks: CDUs go there
            infra += place(settings.facility.cdu_device, need, t.infra_rack, infra, "cdu-")
        else:
            # One CDU in each liquid-cooled GPU rack with room for it, the rest in row-end CDU racks.
            room = _racks_with_room(plan, catalog, gpu_racks, settings.facility.cdu_device)[:need]
            for rid in room:
                place(settings.facility.cdu_device, 1, t.cdu_rack, [rid], "cdu-")
            place(settings.facility.cdu_device, need - len(room), t.cdu_rack, None, "cdu-")
    if t.management_switch and n_nodes > 1:
        # One out-of-band port per device (BMC), 48 per management switch.
        place("mgmt-1g-48", math.ceil(len(plan.placements) / 48), t.infra_rack, infra or None, "mgmt-")
    set_rows(plan)
    return plan


def set_rows(plan: Plan) -> None:
    """Stand the racks in rows of the floor setting's length, in plan order (GPU racks,
    then network, storage and CDU racks at the end of the last row). A big plan gets longer
    rows, a multiple of the setting, so the hall stays about as wide as it is deep (and the
    setting says so)."""
    per = plan.settings.floor.racks_per_row
    square = math.isqrt(len(plan.racks))
    if square > per:
        per *= math.ceil(square / per)
        plan.settings.floor = plan.settings.floor.model_copy(update={"racks_per_row": per})
    for i, rack in enumerate(plan.racks):
        rack.row = type_letter(i // per)  # rows lettered as floor plans do: A, ..., Z, AA


def liquid_load(plan: Plan, catalog: Catalog) -> tuple[int, float]:
    """Liquid-cooled GPU nodes and the design heat (nameplate x capture fraction, kW) the
    placed devices put into liquid: what the CDUs are sized on."""
    nodes, kw = 0, 0.0
    for p in plan.placements:
        d = catalog.get(p.device)
        rack = plan.rack(p.rack)
        if d is None or rack is None:
            continue
        liquid_rack = rack.cooling != "air"
        if d.gpu is not None and (liquid_rack or d.cooling == "liquid"):
            nodes += 1
        kw += capture_fraction(d, liquid_rack, plan.settings.facility) * d.power_max_w / 1000
    return nodes, kw


def switch_label(catalog: Catalog, device_id: str) -> str:
    """Label prefix of the compute-fabric switches by what they are: "ib-" InfiniBand, "eth-" Ethernet."""
    d = catalog.get(device_id)
    return "ib-" if d is not None and d.switch and d.switch.technology == "infiniband" else "eth-"


def _racks_with_room(plan: Plan, catalog: Catalog, rack_ids: list[str], device_id: str) -> list[str]:
    """The liquid-cooled racks among ``rack_ids`` that take one more ``device_id`` within
    their power cap on both bases (typical and nameplate) and their height. CDUs belong in
    the liquid-cooled racks they serve, but not in a rack already at its cap: there they
    go to a liquid-cooled row-end rack instead (the guide's GPU racks run 28 of 30 kW
    typical, 40.8 kW nameplate)."""
    d = catalog.get(device_id)
    if d is None:
        return []
    out = []
    for rid in rack_ids:
        rack = plan.rack(rid)
        if rack is None or rack.cooling == "air":
            continue
        members = [catalog[p.device] for p in plan.rack_members(rid).values() if p.device in catalog]
        used_u = sum(m.u_height for m in members)
        nameplate_kw = (sum(m.power_w("nameplate") for m in members) + d.power_w("nameplate")) / 1000
        typical_kw = (sum(m.power_w("typical") for m in members) + d.power_w("typical")) / 1000
        if used_u + d.u_height <= rack.height_u and max(nameplate_kw, typical_kw) <= rack.power_cap_kw:
            out.append(rid)
    return out


def resized_title(t: Template, n_nodes: int, catalog: Catalog) -> str:
    """The plan title when --nodes resizes a template: the template's title names its own
    node count, so say the actual one ('4,000-node cluster (32,000 x H100 SXM 80GB), from
    template massive')."""
    node = catalog.get(t.node)
    gpus = f" ({n_nodes * node.gpus:,} x {node.gpu.model})" if node is not None and node.gpu else ""
    return f"{n_nodes:,}-node cluster{gpus}, from template {t.name}"


def _storage_ports(catalog: Catalog, t: Template, n_nodes: int) -> int:
    node = catalog[t.node]
    ports = n_nodes * sum(n.count for n in node.storage_nics())
    if t.storage:
        dev = catalog[t.storage.device]
        ports += t.storage.count * sum(n.count for n in dev.nics)
    return ports


def rescale_workload(plan: Plan, catalog: Catalog, node_id: str, n_nodes: int) -> None:
    """Keep TP x CP x PP x DP equal to the GPU count when --nodes resizes a template: keep TP and CP,
    take the largest pipeline depth up to the template's that divides the rest, DP the rest."""
    gpus = n_nodes * catalog[node_id].gpus
    w = plan.settings.workload
    if not gpus or gpus % (w.tp * w.cp):
        return
    replicas = gpus // (w.tp * w.cp)
    pp = next(p for p in range(min(w.pp, replicas), 0, -1) if replicas % p == 0)
    plan.settings.workload = w.model_copy(update={"pp": pp, "dp": replicas // pp})


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
