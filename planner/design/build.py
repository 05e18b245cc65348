"""Design from intent: one function that turns an ``Intent`` into a whole plan.

GPU systems by auto-place within each rack's power cap (the plan's basis), the air-cooling
limit, the rack's weight rating and the floor's rating; the compute-fabric switches the
nodes need (``plan_fabric``, the fat-tree rules) in air-cooled network racks; storage
appliances for the checkpoint write target; storage and management switches; CDUs by the
plan's CDU policy; the parallelism for the workload; the facility plant from the load.
The templates are intents passed through the same function.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from planner.design.intent import Intent, RackSpec
from planner.design.parallelism import choose_parallelism
from planner.design.racks import liquid_load, racks_with_room, set_rows, switch_label
from planner.errors import PlannerError
from planner.facility.cooling import cdus_needed
from planner.findings import Finding
from planner.hardware.catalog import Catalog, DeviceType, default_catalog
from planner.network.checks import summarise_nodes
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.network.technologies import TECHNOLOGIES
from planner.plan.autoplace import AutoPlace
from planner.plan.commands import CommandError
from planner.plan.model import Plan, Rack
from planner.settings import Settings


class DesignError(PlannerError):
    pass


@dataclass(slots=True)
class Design:
    """The plan designed and what the design has to say about the intent (info: what was
    rounded or chosen; warning: a part of the intent that cannot hold)."""

    plan: Plan
    findings: list[Finding] = field(default_factory=list)


def design(intent: Intent, catalog: Catalog | None = None, *, title: str | None = None,
           description: str = "") -> Design:
    catalog = catalog or default_catalog()
    system = catalog.get(intent.system)
    if system is None or system.gpu is None:
        systems = ", ".join(d.id for d in catalog if d.gpu is not None)
        raise DesignError(f"system: the catalog has no GPU system '{intent.system}' (GPU systems: {systems})")
    findings: list[Finding] = []
    nodes = _node_count(intent, system, findings)
    settings = _settings(intent, catalog)
    gpus = nodes * system.gpus
    plan = Plan(name=title or f"{nodes:,} x {system.model} ({gpus:,} GPUs)", description=description,
                settings=settings)
    findings += _cooling_findings(intent, system)
    _Layout(plan, catalog, intent, system, nodes).build()
    if settings.workload.enabled and gpus:
        w, notes = choose_parallelism(settings.workload, settings.fabric,
                                      summarise_nodes({system.id: nodes}, catalog))
        plan.settings.workload = w
        findings += notes
    return Design(plan, findings)


def _node_count(intent: Intent, system: DeviceType, findings: list[Finding]) -> int:
    if intent.nodes is not None:
        return intent.nodes
    nodes = math.ceil(intent.gpus / system.gpus)
    if nodes * system.gpus != intent.gpus:
        findings.append(Finding(
            "info", "design.gpus.rounded",
            f"{intent.gpus:,} GPUs asked for; a {system.model} holds {system.gpus}, so the plan has {nodes:,} "
            f"of them ({nodes * system.gpus:,} GPUs)"))
    return nodes


def _cooling_findings(intent: Intent, system: DeviceType) -> list[Finding]:
    if intent.cooling == "air" and system.cooling == "liquid":
        return [Finding("warning", "design.cooling.intent",
                        f"cooling: air was asked for, but {system.model} is liquid-cooled; its racks are liquid-cooled")]
    if intent.cooling == "liquid" and system.cooling == "air":
        return [Finding("warning", "design.cooling.intent",
                        f"cooling: liquid racks were asked for, but {system.model} is air-cooled: its heat stays in "
                        "the air of the liquid-cooled racks")]
    return []


def default_switch(catalog: Catalog, tech_id: str) -> str | None:
    """The first catalog switch that speaks the fabric technology at its line rate."""
    tech = TECHNOLOGIES[tech_id]
    for d in catalog:
        s = d.switch
        if s and s.technology == tech.switch_technology and s.gbps_per_port == tech.line_rate_gbps:
            return d.id
    return None


def _settings(intent: Intent, catalog: Catalog) -> Settings:
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
    for key, value in (("tiers", intent.tiers), ("oversubscription", intent.oversubscription)):
        if value is not None:
            fab[key] = value
    if intent.write_gbs_per_node is not None:
        over["storage"]["min_write_gbs_per_node"] = intent.write_gbs_per_node
    for key, value in (("model", intent.model), ("model_params_b", intent.params_b),
                       ("train_tokens_b", intent.train_tokens_b), ("requests_per_s", intent.requests_per_s)):
        if value is not None:
            wl[key] = value
    if intent.inference:
        wl.update(inference=True, enabled=False)
    try:
        return Settings.model_validate(_merge(_merge(Settings().model_dump(), intent.settings), over))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DesignError(f"setting {where}: {first['msg']}") from None


class _Layout:
    """Racks for one design, filled by auto-place on the plan's policies."""

    def __init__(self, plan: Plan, catalog: Catalog, intent: Intent, system: DeviceType, nodes: int):
        self.plan, self.catalog, self.intent, self.system, self.nodes = plan, catalog, intent, system, nodes
        self.net: list[str] = []

    def build(self) -> None:
        i, plan, settings = self.intent, self.plan, self.plan.settings
        gpu_racks = self.place(self.system.id, self.nodes, self._gpu_spec(), None, "node-")
        if i.fabric_switches and self.nodes:
            try:
                size = plan_fabric({self.system.id: self.nodes}, self.catalog, settings.fabric)
            except FabricSizingError as exc:
                raise DesignError(f"fabric at {self.nodes:,} nodes: {exc}") from None
            if size is not None:
                sw = settings.fabric.switch_device
                self.net += self.place(sw, size.switches, self._net_spec(), self.net, switch_label(self.catalog, sw))
        storage = self._storage_count()
        if storage:
            self.place(i.storage.device, storage, i.storage_rack, None, "pfs-")
        if i.storage_switches and self.nodes:
            ports = self._storage_ports(storage)
            sw = self.catalog.get(settings.fabric.storage_switch_device)
            if sw and sw.switch and ports:
                self.net += self.place(sw.id, math.ceil(ports / sw.switch.ports), self._net_spec(), self.net,
                                       "stor-sw-")
        for extra in i.management:
            self.net += self.place(extra.device, extra.count or 0, self._net_spec(), self.net, "mgmt-srv-")
        if i.cdus:
            self._cdus(gpu_racks)
        if i.management_switch and self.nodes > 1:
            # One out-of-band port per device (BMC), 48 per management switch.
            self.place("mgmt-1g-48", math.ceil(len(plan.placements) / 48), self._net_spec(), self.net or None,
                       "mgmt-")
        set_rows(plan)

    def _gpu_spec(self) -> RackSpec:
        spec = self.intent.gpu_rack
        if self.intent.cooling != "auto":
            return spec.model_copy(update={"cooling": self.intent.cooling})
        if spec.cooling is None:
            return spec.model_copy(update={"cooling": "liquid" if self.system.cooling == "liquid" else "air"})
        return spec

    def _net_spec(self) -> RackSpec:
        """Switches are air-cooled: a liquid-cooled network rack would still put all their heat into the air."""
        spec = self.intent.infra_rack
        return spec if spec.cooling in (None, "air", "hybrid") else spec.model_copy(update={"cooling": "air"})

    def _storage_count(self) -> int:
        s = self.intent.storage
        if s is None or not self.nodes:
            return 0
        if s.count is not None:
            return s.count
        d = self.catalog.get(s.device)
        if d is None or d.storage is None:
            raise DesignError(f"storage: the catalog has no storage appliance '{s.device}'")
        need_gbs = self.nodes * self.plan.settings.storage.min_write_gbs_per_node
        return math.ceil(need_gbs / d.storage.write_gbs - 1e-9)

    def _storage_ports(self, storage: int) -> int:
        ports = self.nodes * sum(n.count for n in self.system.storage_nics())
        if storage:
            ports += storage * sum(n.count for n in self.catalog[self.intent.storage.device].nics)
        return ports

    def _cdus(self, gpu_racks: list[str]) -> None:
        facility = self.plan.settings.facility
        liquid_nodes, liquid_kw = liquid_load(self.plan, self.catalog)
        need = cdus_needed(liquid_nodes, liquid_kw, facility, self.catalog)
        # One CDU in each liquid-cooled GPU rack with room for it, the rest in row-end CDU racks.
        room = racks_with_room(self.plan, self.catalog, gpu_racks, facility.cdu_device)[:need]
        for rid in room:
            self.place(facility.cdu_device, 1, self.intent.cdu_rack, [rid], "cdu-")
        self.place(facility.cdu_device, need - len(room), self.intent.cdu_rack, None, "cdu-")

    def rack_fields(self, spec: RackSpec) -> dict[str, Any]:
        facility = self.plan.settings.facility
        if spec.rack_type is not None:
            rt = self.catalog.rack_type(spec.rack_type)
            if rt is None:
                raise DesignError(f"racks: the catalog has no rack type '{spec.rack_type}'")
            fields = rt.rack_fields(facility.default_rack_cap_kw)
        else:
            cap = spec.power_cap_kw or facility.default_rack_cap_kw
            cooling = spec.cooling or "air"
            if cooling == "air":  # air-cooled racks stay within the air-cooling limit
                cap = min(cap, facility.air_cooling_limit_kw)
            fields = {"cooling": cooling, "height_u": spec.height_u, "power_cap_kw": cap}
        fields["max_weight_kg"] = self._weight_limit(fields)
        return fields

    def _weight_limit(self, fields: dict[str, Any]) -> float:
        """The devices' weight a rack may carry: its own rating, and the floor's rating over its
        footprint and aisle share less the enclosure (the floor check's own figures)."""
        floor = self.plan.settings.floor
        default = Rack(id="x", name="x")
        width = fields.get("width_mm", default.width_mm)
        depth = fields.get("depth_mm", default.depth_mm) + floor.aisle_share_mm
        on_floor = floor.floor_rating_kg_m2 * width * depth / 1e6 - floor.enclosure_kg
        return max(1.0, min(fields.get("max_weight_kg", default.max_weight_kg), on_floor))

    def place(self, device: str, count: int, spec: RackSpec, fill: list[str] | None, label: str) -> list[str]:
        if count <= 0:
            return []
        before = {r.id for r in self.plan.racks}
        try:
            AutoPlace(device, count, racks=fill, new_rack_prefix=spec.prefix, new_rack_fields=self.rack_fields(spec),
                      label_prefix=label).do(self.plan, self.catalog)
        except CommandError as exc:
            raise DesignError(f"rack_kw / racks: {exc}") from None
        return [r.id for r in self.plan.racks if r.id not in before]


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
