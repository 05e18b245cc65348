"""The racks of one design, filled: GPU systems by auto-place within each rack's power cap
(the plan's basis), the air-cooling limit, the rack's weight rating and the floor's rating;
the compute-fabric switches the nodes need (``plan_fabric``, the fat-tree rules) in
air-cooled network racks; storage appliances for the checkpoint write target and capacity;
storage and management switches; CDUs by the plan's CDU policy; the halls of a campus.
``planner.design.build`` (the design function), the grow and replace commands and the
remedies lay out with it.

Why it is long: every part of the plan is laid out against one state, the racks being
filled (``Layout``): compute, network, storage, CDUs and the plant each add to the racks the
others filled, so split by part each piece would reach into that state.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from planner.design.campus import assign_halls, set_hall_rows
from planner.design.intent import DesignError, Intent, RackSpec
from planner.design.rack_cap import refuse_over_cap
from planner.design.racks import liquid_load, racks_with_room, set_rows, switch_label, system_rack_cooling
from planner.facility.cooling import cdus_needed
from planner.facility.heat import capture_fraction
from planner.facility.floor import aisle_share_to_carry_mm, floor_load_kg_m2
from planner.findings import Finding
from planner.hardware.catalog import Catalog, DeviceType
from planner.hardware.nodes import NodeSummary, summarise_nodes
from planner.network.ports import (MANAGEMENT_SWITCHES, management_switches_needed, storage_network, storage_ports,
                                   storage_switches_needed)
from planner.network.fabric import FabricSize, FabricSizingError, plan_fabric
from planner.network.technologies import switches_for
from planner.network.wiring import placed_devices
from planner.plan.autoplace import AutoPlace, air_limit_kw, enclosure_weight_kg, pdu_feeds_kw, pdus_carrying
from planner.plan.changes import ChangeSet
from planner.plan.commands import CommandError
from planner.plan.model import Placement, Plan, Rack
from planner.plan.names import LabelSeries
from planner import vocabulary
from planner.storage.sizing import model_checkpoint_gb, node_storage_gbs, storage_switch_of
from planner.workload.section import job_nodes

# Storage for a plan whose checkpoint interval is automatic (Young's, from the interval
# between failures) is sized as for an hourly checkpoint within the stall limit. Planner
# assumption: the interval is not known until the storage is; an hour is the fixed interval
# such plans had before, and the goodput section says when the automatic one is too short.
SIZING_INTERVAL_MIN = 60.0


class Layout:
    """Racks for one design, filled by auto-place on the plan's policies."""

    def __init__(self, plan: Plan, catalog: Catalog, intent: Intent, system: DeviceType, nodes: int, *,
                 spares: int = 0):
        # ``nodes``: the job's (storage is sized on them); ``spares`` placed beside them
        self.plan, self.catalog, self.intent, self.system, self.nodes = plan, catalog, intent, system, nodes
        self.spares = spares
        self.net: list[str] = []
        self.findings: list[Finding] = []
        self.done: list[AutoPlace] = []  # in order, for undo
        self.series: dict[str, LabelSeries] = {}  # label prefix -> its series: only this design labels in it
        self.changes = ChangeSet()
        self.fabric_size: FabricSize | None = None  # the compute fabric, once sized
        self.designing = False  # a new design (``build``), not a plan grown or mended

    def build(self) -> None:
        self.designing = True
        gpu_spec = self._gpu_spec()
        if self.nodes + self.spares:
            fields = self.rack_fields(gpu_spec)
            asked = gpu_spec.power_cap_kw or self.plan.settings.facility.default_rack_cap_kw
            by_air = gpu_spec.rack_type is None and fields["cooling"] == "air" and fields["power_cap_kw"] < asked - 1e-9
            refuse_over_cap(self.system, fields["power_cap_kw"], self.plan.settings.facility.power_basis,
                            self.catalog, by_air=by_air)
        if self.nodes:
            self._spread_for_floor(gpu_spec)
        try:
            gpu_racks = self.place(self.system.id, self.nodes + self.spares, gpu_spec, None, "node-")
        except DesignError as exc:  # past what a plan holds: named by what asked for so many
            _, _, why = str(exc).partition(": ")
            if self.spares > self.nodes:
                raise DesignError(f"spare_nodes: {self.spares:,} hot spares beside the job's {self.nodes:,} nodes: "
                                  f"{why}; ask fewer, or stock them (--set reliability.spares_stocked=N)") from None
            if self.intent.inference and self.intent.requests_per_s:
                raise DesignError(f"requests_per_s: {self.intent.requests_per_s:,.0f} requests a second take "
                                  f"{self.nodes:,} nodes of {self.system.model}: {why}; ask fewer, or serve them "
                                  "from several plans") from None
            raise
        campus = self.intent.campus
        self.complete(gpu_racks, hall_switches=campus is not None)
        if campus is not None:
            assign_halls(self.plan, campus, self.catalog)
            self.hall_switches(management=False)  # before the CDUs: their racks' rear doors are liquid heat
            if self.intent.cdus:
                self.hall_cdus()
            self.hall_switches(storage=False)  # after the CDUs: they have management ports too
            set_hall_rows(self.plan, campus)
        else:
            set_rows(self.plan)

    def complete(self, gpu_racks: list[str], *, hall_switches: bool = False) -> None:
        """Add what the placed GPU nodes need and the plan lacks: fabric switches, storage,
        storage and management switches (with ``hall_switches``, left for ``hall_switches``),
        CDUs (each ``need - placed``)."""
        i, plan, settings = self.intent, self.plan, self.plan.settings
        counts = gpu_counts(plan, self.catalog)
        if i.fabric_switches and counts:
            size = self._size_fabric(counts)
            if size is not None:
                sw = settings.fabric.switch_device
                self.top_up(sw, size.switches, self._net_spec(), switch_label(self.catalog, sw))
                self.fabric_size = size
        storage = self._storage_count()
        if storage:
            self.top_up(i.storage.device, storage, i.storage_rack, "pfs-", fill=False)
        sw = self._storage_switch()
        if sw is not None and not hall_switches:
            ports = storage_ports(Counter(p.device for p in plan.placements), self.catalog)
            # on the fabric's own model (an Ethernet fabric of one switch) they come on top of its switches
            fabric = len(self._fabric_switches()) if sw.id == settings.fabric.switch_device else 0
            need = self._storage_switches(ports, sw)
            # a storage leaf-spine stands together (its switch-to-switch runs stay in a rack): in
            # the first network rack with room for all of it, else in racks of its own, as each
            # hall's does (``hall_switches``); one switch fills a network rack's free space (and
            # those of the fabric's model, as before, follow the fabric's switches in plan order)
            self.top_up(sw.id, need + fabric, self._net_spec(), "stor-sw-", together=need > 1 and not fabric)
        for extra in i.management:
            self.top_up(extra.device, extra.count or 0, self._net_spec(), "mgmt-srv-")
        if i.cdus:
            self._cdus(gpu_racks)
        if not hall_switches:
            self.management_switches()

    def _fabric_switches(self) -> list[Placement]:
        """The compute fabric's switches that take its roles: the first it needs, in plan order
        (``planner.network.wiring``)."""
        if self.fabric_size is None:
            return []
        device = self.plan.settings.fabric.switch_device
        return [p for p, d in placed_devices(self.plan, self.catalog) if d.id == device][:self.fabric_size.switches]

    def _storage_switch(self) -> DeviceType | None:
        """The storage network's switch, when the intent asks for one and there are nodes."""
        sw = self.catalog.get(self.plan.settings.fabric.storage_switch_device)
        ok = self.intent.storage_switches and sw is not None and sw.switch and gpu_counts(self.plan, self.catalog)
        return sw if ok else None

    def _storage_switches(self, ports: int, switch: DeviceType) -> int:
        """The storage network's switches for ``ports`` (``planner.network.ports``: a leaf-spine
        once one switch cannot hold them)."""
        return storage_switches_needed(ports, switch.switch.ports, self.plan.settings.fabric.storage_oversubscription)

    def _wants_management(self) -> bool:
        return self.intent.management_switch and sum(gpu_counts(self.plan, self.catalog).values()) > 1

    def management_switches(self) -> None:
        """One out-of-band port per powered device (BMC) but the management switches, 48 a
        switch (``planner.network.ports``)."""
        if self._wants_management():
            devices = Counter(p.device for p in self.plan.placements)
            self.top_up(MANAGEMENT_SWITCHES[0], management_switches_needed(devices, self.catalog), self._net_spec(),
                        "mgmt-")

    def hall_switches(self, *, storage: bool = True, management: bool = True) -> None:
        """Each hall's storage and management switches (those asked for), in that hall's
        network racks, for the hall's own ports (``planner.network.ports``): each of those
        networks is wired within its hall (``planner.network.cables``: a device to its own
        hall's switches first)."""
        plan = self.plan
        storage = self._storage_switch() if storage else None
        management = management and self._wants_management()
        # storage switches of the fabric's own model: those past the fabric's are the storage
        # network's, so they stand in racks of their own after the fabric's (roles go by plan order)
        shared = storage is not None and storage.id == plan.settings.fabric.switch_device
        fabric = Counter(plan.rack(p.rack).hall for p in self._fabric_switches()) if shared else Counter()
        net = set(self.net)

        def placed(racks: list[str]) -> Counter:
            return Counter(p.device for r in racks for p in plan.rack_members(r).values())

        for hall_id, racks in self._by_hall().items():
            if storage is not None:
                devices = placed(racks)
                network = self._storage_switches(storage_ports(devices, self.catalog), storage)
                need = network - (devices[storage.id] - fabric[hall_id])
                # one switch fills a network rack's free space; a leaf-spine stands together, in
                # one of them with room for all of it, else in racks of its own
                self._hall_top_up(hall_id, racks, net, storage.id, need, "stor-sw-",
                                  fill=not shared, together=not shared and network > 1)
            if management:
                devices = placed(racks)
                need = (management_switches_needed(devices, self.catalog)
                        - sum(devices[d] for d in MANAGEMENT_SWITCHES))
                self._hall_top_up(hall_id, racks, net, MANAGEMENT_SWITCHES[0], need, "mgmt-")

    def _hall_top_up(self, hall_id: str, racks: list[str], net: set[str], device: str, need: int, label: str,
                     *, fill: bool = True, together: bool = False) -> None:
        """``need`` more ``device`` in the hall's network racks (with ``fill``; ``together``: all
        in one of them with room for all), then in new network racks of the hall."""
        targets = [r for r in racks if r in net] if fill else None
        if together:  # beside the ones placed when they have room (a leaf-spine grown)
            holding = set(self.plan.in_rack_order(p.rack for p in self.plan.placements if p.device == device))
            targets = sorted(targets or [], key=lambda r: r not in holding)
        for rack_id in self.place(device, need, self._net_spec(), targets, label, together=together):
            self.plan.rack(rack_id).hall = hall_id
            racks.append(rack_id)
            net.add(rack_id)
            self.net.append(rack_id)

    def _by_hall(self) -> dict[str, list[str]]:
        """Each hall's racks, in plan order."""
        by_hall: dict[str, list[str]] = {hall_id: [] for hall_id in self.plan.hall_ids()}
        for r in self.plan.racks:
            by_hall[r.hall].append(r.id)
        return by_hall

    def _size_fabric(self, counts: dict[str, int]):
        """The fabric the nodes need (``plan_fabric``); when the switch cannot hold them and the
        intent names none, the next larger switch that speaks the same fabric."""
        fabric = self.plan.settings.fabric
        try:
            return plan_fabric(counts, self.catalog, fabric)
        except FabricSizingError as exc:
            error = exc
        if self.intent.switch is None and "switch_device" not in self.intent.settings.get("fabric", {}):
            lane = summarise_nodes(counts, self.catalog).nic_lane_gbps
            for sw in switches_for(self.catalog, fabric.technology, lane):
                try:
                    size = plan_fabric(counts, self.catalog, fabric.model_copy(update={"switch_device": sw.id}))
                except FabricSizingError:
                    continue
                self.plan.settings.fabric = fabric.model_copy(update={"switch_device": sw.id})
                self.findings.append(Finding(
                    "info", "design.fabric.switch",
                    f"fabric: {fabric.switch_device} cannot hold {sum(counts.values()):,} nodes in "
                    f"{'two tiers, as asked' if fabric.tiers == '2' else 'three tiers'}; "
                    f"the fabric is built of {sw.title} ({sw.switch.ports} ports)"))
                return size
        raise DesignError(f"fabric at {sum(counts.values()):,} nodes: {error}") from None

    def top_up(self, device: str, need: int, spec: RackSpec, label: str, *, fill: bool = True,
               together: bool = False) -> None:
        """Place ``need`` less those already placed; network devices fill the network racks first
        (``together``: all in one network rack with room for them all, else in new racks)."""
        missing = need - sum(1 for p in self.plan.placements if p.device == device)
        holding = self.plan.in_rack_order(p.rack for p in self.plan.placements if p.device == device)
        if together:  # beside the ones placed when they have room (a leaf-spine grown), else a network rack's
            self.net += self.place(device, missing, spec, holding + [r for r in self.net if r not in holding], label,
                                   together=True)
        elif fill:
            self.net += self.place(device, missing, spec, self.net, label)
        else:  # storage: into the racks already holding it, then racks of its own
            self.place(device, missing, spec, holding, label)

    def _gpu_spec(self) -> RackSpec:
        spec = self.intent.gpu_rack
        if self.system.is_rack_scale and spec.rack_type is None and self.system.rack_type:
            spec = spec.model_copy(update={"rack_type": self.system.rack_type})  # the system is its rack
        elif self.intent.cooling != "auto":
            spec = spec.model_copy(update={"cooling": system_rack_cooling(self.intent.cooling, self.system)})
        elif spec.cooling is None:
            spec = spec.model_copy(update={"cooling": "liquid" if self.system.cooling == "liquid" else "air"})
        if not self.system.is_rack_scale and spec.cooling is not None:
            spec = spec.model_copy(update={"cooling": system_rack_cooling(spec.cooling, self.system)})
        if self.system.is_rack_scale:
            return self._rack_scale_door(spec)
        return self._pdu_cap(self._rear_door(spec))

    def _pdu_cap(self, spec: RackSpec) -> RackSpec:
        """Conventional GPU racks whose cap is above what their PDU positions carry at nameplate
        (``pdu_feeds_kw``) are capped at that: auto-place fills no rack past its PDUs, and a cap
        above them is power committed, and paid for at a colocation's rate, that no device draws."""
        facility = self.plan.settings.facility
        feeds = pdu_feeds_kw(self.plan, self.catalog)
        cap = spec.power_cap_kw or facility.default_rack_cap_kw
        if spec.cooling == "air":
            cap = min(cap, air_limit_kw(facility, spec.rear_door_hx))
        if spec.rack_type is not None or feeds is None or cap <= feeds + 1e-9:
            return spec
        power = self.plan.settings.power
        pdu = self.catalog[power.pdu_device]
        per_feed = pdus_carrying(power)
        capped = math.floor(feeds * 10) / 10
        feeds_text = ("N+1 over both feeds" if power.feed_redundancy == "N+1"
                      else f"a feed, {power.feed_redundancy} feeds")
        field = "rack_kw" if self.intent.rack_kw is not None else "racks"
        self.findings.append(Finding(
            "warning", "design.power.pdus",
            f"{field}: a {cap:g} kW cap is more than GPU racks' PDUs carry at nameplate ({per_feed} PDUs of "
            f"{pdu.pdu_kw(power.continuous_derating):.1f} kW ({pdu.id}) {feeds_text}: {feeds:.1f} kW): the racks "
            f"are capped at {capped:g} kW, so no power is committed that they cannot draw; more PDU positions "
            f"(--set power.max_pdus_per_feed=N, a wider rack) or a larger PDU (--set power.pdu_device=ID) carry more"))
        return spec.model_copy(update={"power_cap_kw": capped})

    def _rack_scale_door(self, spec: RackSpec) -> RackSpec:
        """A rack-scale system whose air share (what its cold plates leave) is above the
        air-cooling limit gets a rear-door heat exchanger."""
        facility = self.plan.settings.facility
        share = capture_fraction(self.system, True, facility)  # the check's rule: no cold plates, none to liquid
        air_kw = self.system.power_w(facility.power_basis) * (1 - share) / 1000
        if air_kw <= facility.air_cooling_limit_kw + 1e-9:
            return spec
        self.findings.append(Finding(
            "info", "design.cooling.rear_door",
            f"A {self.system.model} puts {air_kw:.1f} kW ({facility.power_basis}) into the air, above the "
            f"{facility.air_cooling_limit_kw:g} kW air-cooling limit: each gets a {facility.rear_door_kw:g} kW "
            "rear-door heat exchanger"))
        return spec.model_copy(update={"rear_door_hx": True})

    def _rear_door(self, spec: RackSpec) -> RackSpec:
        """Air-cooled GPU racks asked (rack_kw) above the air-cooling limit get a rear-door heat exchanger."""
        facility = self.plan.settings.facility
        cap = self.intent.rack_kw
        if spec.cooling != "air" or spec.rack_type is not None or cap is None or cap <= facility.air_cooling_limit_kw:
            return spec
        door = air_limit_kw(facility, True)
        self.findings.append(Finding(
            "info", "design.cooling.rear_door",
            f"rack_kw: {cap:g} kW air-cooled racks are above the {facility.air_cooling_limit_kw:g} kW air-cooling "
            f"limit: each GPU rack gets a {facility.rear_door_kw:g} kW rear-door heat exchanger"))
        if cap > door + 1e-9:
            self.findings.append(Finding(
                "warning", "design.cooling.intent",
                f"rack_kw: {cap:g} kW is more than air plus a rear door removes ({door:g} kW): the air-cooled "
                f"racks are filled to {door:g} kW; liquid-cooled systems would take more"))
        return spec.model_copy(update={"rear_door_hx": True})

    def _spread_for_floor(self, spec: RackSpec) -> None:
        """When one system with its enclosure is heavier than the floor carries under its
        footprint and aisle share, the racks stand further apart: the aisle share each rack
        spreads its load over grows (to whole 50 mm) until it fits."""
        floor = self.plan.settings.floor
        fields = self.rack_fields(spec)
        width_mm = fields.get("width_mm", Rack.model_fields["width_mm"].default)
        depth_mm = fields.get("depth_mm", Rack.model_fields["depth_mm"].default)
        # a rack-scale system is its own rack, its weight the whole of it (as the check counts it)
        enclosure = enclosure_weight_kg(floor, self.system.is_rack_scale)
        total_kg = self.system.weight_kg + enclosure
        if floor_load_kg_m2(total_kg, width_mm, depth_mm, floor.aisle_share_mm) <= floor.floor_rating_kg_m2 + 1e-9:
            return
        aisle = aisle_share_to_carry_mm(total_kg, width_mm, depth_mm, floor.floor_rating_kg_m2)
        most = max(m.le for m in type(floor).model_fields["aisle_share_mm"].metadata if hasattr(m, "le"))
        if aisle > most:  # no aisle spreads it: a floor too weak for the system, or a rating mistyped
            raise DesignError(
                f"floor_rating_kg_m2: one {self.system.model} weighs {total_kg:,.0f} kg: a floor rated "
                f"{floor.floor_rating_kg_m2:,g} kg/m2 would carry it only spread over {aisle / 1000:,.1f} m of aisle, "
                f"more than the {most / 1000:g} m an aisle share may be: choose a lighter system for this floor, or "
                f"give the floor's rating from its structural engineer (TIA-942 Rated-3: 1,224 kg/m2)")
        self.plan.settings.floor = floor.model_copy(update={"aisle_share_mm": aisle})
        on_footprint = floor_load_kg_m2(total_kg, width_mm, depth_mm, floor.aisle_share_mm)
        # an aisle share stated (a --set, a template's) is widened, never silently: a warning naming it
        stated = "aisle_share_mm" in self.intent.settings.get("floor", {})
        self.findings.append(Finding(
            "warning" if stated else "info", "design.floor.spread",
            f"floor_rating: one {self.system.model} weighs {total_kg:,.0f} kg"
            + (f" with its {enclosure:,.0f} kg enclosure" if enclosure else ", its rack included")
            + f", {on_footprint:,.0f} kg/m² on its {width_mm:,.0f} x {depth_mm + floor.aisle_share_mm:,.0f} "
            f"mm, more than the floor's {floor.floor_rating_kg_m2:,.0f} kg/m² rating: each rack spreads its load "
            f"over a {aisle:,.0f} mm aisle share"
            + (f", raised from the {floor.aisle_share_mm:,g} mm set (the racks stand further apart than asked; a "
               "floor rated for the racks keeps it)" if stated else "")))

    def _net_spec(self) -> RackSpec:
        """Switches are air-cooled, so network racks are air-cooled: a liquid-cooled one would
        still put all their heat into the air. A hybrid network rack asked denser than the air
        limit is an air-cooled rack with a rear-door heat exchanger."""
        spec = self.intent.infra_rack
        facility = self.plan.settings.facility
        cap = spec.power_cap_kw or facility.default_rack_cap_kw
        door = spec.cooling == "hybrid" and cap > facility.air_cooling_limit_kw
        return spec.model_copy(update={"cooling": "air", "rear_door_hx": spec.rear_door_hx or door})

    def _storage_count(self) -> int:
        s = self.intent.storage
        if s is None or not self.nodes:
            return 0
        if s.count is not None:
            return s.count
        d = self.catalog.get(s.device)
        if d is None or d.storage is None:
            raise DesignError(f"storage: the catalog has no storage appliance '{s.device}'")
        write = self._write_gbs_needed()
        by_write = math.ceil(write / d.storage.write_gbs - 1e-9)
        if self.designing:
            self._storage_uplinks_for(write, d, max(by_write, 1))
        capacity = self.intent.storage_capacity_tb
        return max(by_write, math.ceil(capacity / d.storage.capacity_tb - 1e-9) if capacity else 0)

    def _write_gbs_needed(self) -> float:
        """The write bandwidth the plan's storage rules ask for: the per-node target with every
        node (host) writing, a checkpoint (parameters x bytes per parameter) written within the stall
        limit of the checkpoint interval, and within the intent's checkpoint write time."""
        st, w = self.plan.settings.storage, self.plan.settings.workload
        # the storage rule counts every node writing, a node being a host (an NVL72's 18 trays): the
        # job's, not its hot spares (idle until one takes a failed node's place)
        need = self.nodes * self.system.hosts * st.min_write_gbs_per_node
        if w.enabled:
            checkpoint_gb = model_checkpoint_gb(w, st)
            interval_min = st.checkpoint_interval_min or SIZING_INTERVAL_MIN
            need = max(need, checkpoint_gb / (st.max_stall_pct / 100 * interval_min * 60))
            if self.intent.checkpoint_write_s is not None:
                need = max(need, self._write_target_gbs(checkpoint_gb, self.intent.checkpoint_write_s))
        return need

    def _storage_uplinks_for(self, write_gbs: float, appliance: DeviceType, appliances: int) -> None:
        """A write the nodes' storage links carry only unshared: on a separate storage network
        that ``appliances`` of ``appliance`` and the nodes make a leaf-spine
        (``planner.network.ports``), where every node writing at once through its leaves at
        their oversubscription r gets less than ``write_gbs`` in all (each storage NIC at most
        the storage switch's port rate), and the intent sets no oversubscription of its own, the
        storage network is non-blocking (1:1), with an info finding. Only for a new design: a
        plan grown or mended keeps the setting its user has."""
        fabric = self.plan.settings.fabric
        r = fabric.storage_oversubscription
        switch = self.catalog.get(fabric.storage_switch_device)
        if (r <= 1 or fabric.storage_fabric != "separate" or switch is None or switch.switch is None
                or not self.intent.storage_switches
                or "storage_oversubscription" in self.intent.settings.get("fabric", {})):
            return
        nodes = self.nodes + self.spares
        ports = storage_ports({self.system.id: nodes, appliance.id: appliances}, self.catalog)
        size = storage_network(ports, switch.switch.ports, r)
        if size is not None and size.tiers < 2:
            return  # one switch: nothing shared above the hosts' links
        links_gbs = self._storage_links_gbs()
        if not links_gbs or write_gbs <= links_gbs / r + 1e-9:
            return
        self.plan.settings.fabric = fabric.model_copy(update={"storage_oversubscription": 1.0})
        self.findings.append(Finding(
            "info", "design.storage.non_blocking",
            f"storage: the checkpoints' {write_gbs:,.0f} GB/s of write is more than the nodes' {links_gbs:,.0f} GB/s of "
            f"storage links carry at a {r:g}:1 storage network with every node writing ({links_gbs / r:,.0f} GB/s): "
            f"the storage network is non-blocking (1:1)"))

    def _storage_links_gbs(self) -> float:
        """What the job's nodes' storage links carry, GB/s, as the check counts them: each NIC at
        most its switch port's rate (``node_storage_gbs``)."""
        shared = self.plan.settings.fabric.storage_fabric == "shared"
        switch = storage_switch_of(self.plan, self.catalog)
        port = switch.switch.gbps_per_port if switch is not None else None
        return self.nodes * (node_storage_gbs({self.system.id: 1}, self.catalog, shared, port) or 0.0)

    def _write_target_gbs(self, checkpoint_gb: float, target_s: float) -> float:
        """The filesystem write a checkpoint needs to be written in ``target_s``; when the job's
        nodes cannot send it that fast through their storage links, what they can (and a
        warning naming the intent's target)."""
        need = checkpoint_gb / target_s
        links_gbs = self._storage_links_gbs()
        if links_gbs and need > links_gbs:
            self.findings.append(Finding(
                "warning", "design.storage.write_time",
                f"checkpoint_write_s: a {checkpoint_gb:,.0f} GB checkpoint in {target_s:g} s needs {need:,.0f} GB/s, "
                f"but the {self.nodes:,} nodes' storage links carry {links_gbs:,.0f} GB/s: it takes "
                f"{vocabulary.text(checkpoint_gb / links_gbs, 's')} however much storage is placed"))
            return links_gbs
        return need

    def _cdus(self, gpu_racks: list[str]) -> None:
        facility = self.plan.settings.facility
        liquid_nodes, liquid_kw = liquid_load(self.plan, self.catalog)
        need = cdus_needed(liquid_nodes, liquid_kw, facility, self.catalog)
        need -= sum(1 for p in self.plan.placements if p.device == facility.cdu_device)
        self.add_cdus(gpu_racks, need)

    def hall_cdus(self) -> None:
        """The CDUs each hall's own heat to liquid needs beyond those in it, in CDU racks of
        that hall (a CDU's loop serves its own hall)."""
        plan, facility = self.plan, self.plan.settings.facility
        for hall_id, racks in self._by_hall().items():
            need = cdus_needed(*liquid_load(plan, self.catalog, racks), facility, self.catalog)
            need -= sum(1 for r in racks for p in plan.rack_members(r).values() if p.device == facility.cdu_device)
            for rack_id in self.place(facility.cdu_device, need, self.intent.cdu_rack, None, "cdu-"):
                plan.rack(rack_id).hall = hall_id

    def add_cdus(self, gpu_racks: list[str], need: int) -> None:
        if need <= 0:
            return
        facility = self.plan.settings.facility
        # One CDU in each liquid-cooled GPU rack with room for it, the rest in row-end CDU racks.
        room = racks_with_room(self.plan, self.catalog, gpu_racks, facility.cdu_device)[:need]
        self.place(facility.cdu_device, len(room), self.intent.cdu_rack, room, "cdu-", max_per_rack=1)
        # the plan's row-end CDU racks first (a fix after CDUs were removed finds theirs empty);
        # on a campus a CDU serves its own hall's loop, so there a hall's CDUs are placed by it
        one_hall = len({r.hall for r in self.plan.racks}) <= 1
        cdu_racks = [r.id for r in self.plan.racks if one_hall and r.name.startswith(f"{self.intent.cdu_rack.prefix}-")
                     and all(m.device == facility.cdu_device for m in self.plan.rack_members(r.id).values())]
        self.place(facility.cdu_device, need - len(room), self.intent.cdu_rack, cdu_racks or None, "cdu-")

    def rack_fields(self, spec: RackSpec) -> dict[str, Any]:
        facility = self.plan.settings.facility
        if spec.rack_type is not None:
            rt = self.catalog.rack_type(spec.rack_type)
            if rt is None:
                raise DesignError(f"racks: the catalog has no rack type '{spec.rack_type}'")
            fields = rt.rack_fields(facility.default_rack_cap_kw)
            fields["rear_door_hx"] = spec.rear_door_hx
            if self.intent.rack_kw is not None:  # the cap the user set holds for racks of a type too
                fields["power_cap_kw"] = min(fields["power_cap_kw"], self.intent.rack_kw)
        else:
            cap = spec.power_cap_kw or facility.default_rack_cap_kw
            cooling = spec.cooling or "air"
            fields = {"cooling": cooling, "height_u": spec.height_u, "power_cap_kw": cap}
            if cooling == "air":  # air-cooled racks stay within the air-cooling limit (and a rear door's)
                fields["rear_door_hx"] = spec.rear_door_hx
                fields["power_cap_kw"] = min(cap, air_limit_kw(facility, spec.rear_door_hx))
        return fields

    def place(self, device: str, count: int, spec: RackSpec, fill: list[str] | None, label: str,
              max_per_rack: int | None = None, together: bool = False) -> list[str]:
        if count <= 0:
            return []
        before = len(self.plan.racks)  # auto-place adds its racks at the end
        if label and label not in self.series:
            self.series[label] = LabelSeries(self.plan, label)
        command = AutoPlace(device, count, racks=fill, new_rack_prefix=spec.prefix, new_rack_fields=self.rack_fields(spec),
                            label_prefix=label, max_per_rack=max_per_rack, labels=self.series.get(label),
                            together=together)
        try:
            self.changes = self.changes | command.do(self.plan, self.catalog)
            self.done.append(command)
        except CommandError as exc:
            raise DesignError(f"rack_kw / racks: {exc}") from None
        return [r.id for r in self.plan.racks[before:]]


def plan_system(plan: Plan, catalog: Catalog) -> str | None:
    """The GPU system the plan holds most nodes of (the first placed of a tie), or None."""
    counts = gpu_counts(plan, catalog)
    return max(counts, key=counts.__getitem__) if counts else None


def gpu_counts(plan: Plan, catalog: Catalog) -> dict[str, int]:
    """GPU nodes placed, by device type."""
    counts: dict[str, int] = {}
    for p in plan.placements:
        d = catalog.get(p.device)
        if d is not None and d.gpu is not None:
            counts[p.device] = counts.get(p.device, 0) + 1
    return counts


def job_summary(plan: Plan, catalog: Catalog) -> NodeSummary:
    """The nodes the job runs on, as the check counts them: every GPU node placed less the
    plan's hot spares (``job_nodes``); what a parallelism must cover."""
    return job_nodes(summarise_nodes(gpu_counts(plan, catalog), catalog), plan.settings.reliability.spare_nodes)
