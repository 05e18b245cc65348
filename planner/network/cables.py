"""The cable schedule: every link from rack/U/port to rack/U/port, its length and medium.

Links: the compute fabric (node NIC -> leaf, leaf -> spine, spine -> core, wired as
``planner.network.fabric.size_fabric`` sizes it: rail i of a scalable unit's nodes to that
unit's leaf i, each leaf's uplinks spread over the spines of its pod, each spine's over the
cores), the storage network (nodes' storage NICs and storage appliances to the storage
switches, ports filled in order), and management (one 1 GbE port per powered device to
the management switches). Fabric switches take their roles in plan order: the first placed
are the leaves, then the spines, then the cores.

Length of a run between racks: up from each device's top U to the tray above the racks,
along the row and across the rows (the centre-to-centre distance on the floor,
``planner.facility.floor``), down again, plus slack; within a rack: the U difference plus
slack. Rounded up to the medium's stock length (``planner.network.media``).
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from planner.facility.floor import Spot, floor_spots
from planner.hardware.catalog import Catalog
from planner.network.fabric import FabricSizingError, compute_nics_per_node, plan_fabric
from planner.network.media import Medium, choose_medium
from planner.plan.model import Placement, Plan

U_M = 0.04445  # one rack unit, 1.75 in (EIA-310)
MANAGEMENT_SWITCHES = ("mgmt-1g-48",)
MANAGEMENT_GBPS = 1.0


@dataclass(slots=True, frozen=True)
class End:
    rack: str
    u: int
    device: str
    port: int
    device_type: str = ""  # the catalog id of the device at this end


@dataclass(slots=True, frozen=True)
class Link:
    network: str  # compute, storage, management
    tier: str  # node-leaf, leaf-spine, spine-core, storage, management
    a: End
    b: End
    gbps: float
    length_m: float
    medium: Medium

    @property
    def part(self) -> str:
        return self.medium.part(self.gbps)


@dataclass(slots=True, eq=False)  # compared by identity: a schedule is routed once per layout
class CableSchedule:
    links: list[Link] = field(default_factory=list)
    unrouted: Counter = field(default_factory=Counter)  # tier -> links whose switch is not placed
    fabric_cables: int = 0  # what the fabric sizing counts

    def by_medium(self) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        for link in self.links:
            m = out.setdefault(link.medium.name, {"count": 0, "length_m": 0.0})
            m["count"] += 1
            m["length_m"] += link.medium.stock_m
        return {k: {"count": v["count"], "length_m": round(v["length_m"], 1)} for k, v in out.items()}

    def by_part(self) -> Counter:
        return Counter(link.part for link in self.links)

    def transceivers(self) -> Counter:
        """Optics by speed: a transceiver at each end of a fibre run."""
        out: Counter = Counter()
        for link in self.links:
            if link.medium.transceivers:
                out[f"{link.gbps:g}G transceiver ({'SR' if link.medium.name == 'MMF' else 'DR'})"] += \
                    link.medium.transceivers
        return out

    def between_racks(self) -> Counter:
        """(rack, rack, medium) -> links, the racks in name order; a rack with itself for runs inside it."""
        out: Counter = Counter()
        for link in self.links:
            a, b = sorted((link.a.rack, link.b.rack))
            out[(a, b, link.medium.name)] += 1
        return out

    def totals(self) -> dict[str, Any]:
        """The ``cables`` block of ``check --json``: counts and metres by medium, network and part."""
        networks = Counter(link.network for link in self.links)
        return {
            "links": len(self.links),
            "length_m": round(sum(link.medium.stock_m for link in self.links), 1),
            "by_medium": self.by_medium(),
            "by_network": dict(networks),
            "by_tier": dict(Counter(link.tier for link in self.links)),
            "by_part": dict(sorted(self.by_part().items())),
            "transceivers": dict(sorted(self.transceivers().items())),
            "inter_rack": sum(1 for link in self.links if link.a.rack != link.b.rack),
            "unrouted": dict(self.unrouted),
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["link", "network", "tier", "from_rack", "from_u", "from_device", "from_port", "to_rack", "to_u",
                    "to_device", "to_port", "gbps", "medium", "route_m", "length_m", "part"])
        for i, link in enumerate(self.links, 1):
            w.writerow([i, link.network, link.tier, link.a.rack, link.a.u, link.a.device, link.a.port, link.b.rack,
                        link.b.u, link.b.device, link.b.port, f"{link.gbps:g}", link.medium.name,
                        f"{link.length_m:.2f}", f"{link.medium.stock_m:g}", link.part])
        return out.getvalue()


class _Router:
    """Lengths between placed devices on the plan's floor."""

    def __init__(self, plan: Plan, catalog: Catalog):
        self.plan, self.catalog = plan, catalog
        floor = plan.settings.floor
        self.spots: dict[str, Spot] = floor_spots(plan, floor)
        self.tray_m = floor.tray_above_rack_mm / 1000
        self.slack_m = floor.cable_slack_m

    def end(self, p: Placement, port: int) -> End:
        return End(self.plan.rack(p.rack).name, p.u, p.label or p.id, port, p.device)

    def _top_u(self, p: Placement) -> int:
        d = self.catalog.get(p.device)
        return p.u + (d.u_height if d else 1) - 1

    def length_m(self, a: Placement, b: Placement) -> float:
        if a.rack == b.rack:
            return abs(self._top_u(a) - self._top_u(b)) * U_M + self.slack_m
        ra, rb = self.plan.rack(a.rack), self.plan.rack(b.rack)
        up_a = (ra.height_u - self._top_u(a)) * U_M + self.tray_m
        up_b = (rb.height_u - self._top_u(b)) * U_M + self.tray_m
        sa, sb = self.spots[a.rack], self.spots[b.rack]
        return up_a + abs(sa.x_m - sb.x_m) + abs(sa.y_m - sb.y_m) + up_b + self.slack_m

    def link(self, network: str, tier: str, a: Placement, pa: int, b: Placement, pb: int, gbps: float) -> Link:
        length = self.length_m(a, b)
        return Link(network, tier, self.end(a, pa), self.end(b, pb), gbps, length, choose_medium(gbps, length))


def _placed(plan: Plan, catalog: Catalog, want) -> list[Placement]:
    """Placements whose device type passes ``want``, in plan order (racks in order, then U)."""
    out = []
    for rack in plan.racks:
        members = sorted(plan.rack_members(rack.id).values(), key=lambda p: p.u)
        out += [p for p in members if (d := catalog.get(p.device)) is not None and want(d)]
    return out


def build_schedule(plan: Plan, catalog: Catalog) -> CableSchedule:
    """Every link of the plan with its ends, length and medium."""
    sched = CableSchedule()
    router = _Router(plan, catalog)
    fabric = plan.settings.fabric
    counts = Counter(p.device for p in plan.placements)
    fabric_switches = _placed(plan, catalog, lambda d: d.id == fabric.switch_device)
    used = _compute_links(plan, catalog, router, sched, counts, fabric_switches)
    storage_id = fabric.storage_switch_device if fabric.storage_fabric == "separate" else fabric.switch_device
    storage_switches = [p for p in _placed(plan, catalog, lambda d: d.id == storage_id) if p.id not in used]
    _storage_links(plan, catalog, router, sched, storage_switches)
    _management_links(plan, catalog, router, sched)
    return sched


def _compute_links(plan, catalog, router, sched, counts, switches) -> set[str]:
    fabric = plan.settings.fabric
    try:
        size = plan_fabric(dict(counts), catalog, fabric)
    except FabricSizingError:
        return set()
    if size is None or not size.endpoints:
        return set()
    sched.fabric_cables = size.cables
    sw = catalog[fabric.switch_device]
    gbps = sw.switch.gbps_per_port
    nodes = _placed(plan, catalog, lambda d: d.gpu is not None and compute_nics_per_node(d) > 0)
    rails = size.endpoints // max(1, len(nodes)) if nodes else 0
    leaves = switches[:size.leaf_switches]
    spines = switches[size.leaf_switches:size.leaf_switches + size.spine_switches]
    cores = switches[size.leaf_switches + size.spine_switches:size.switches]
    k, r = size.radix, size.oversubscription
    d = size.endpoints if size.tiers == 1 else max(1, math.floor(k * r / (r + 1)))
    leaf_ports = Counter()  # leaf index -> ports used
    link = router.link

    def node_gbps(p: Placement) -> float:
        nics = catalog[p.device].compute_nics()
        return min(gbps, max(n.gbps for n in nics)) if nics else gbps

    for j, node in enumerate(nodes):
        for i in range(rails):
            if size.tiers == 1:
                leaf = 0
            elif fabric.topology == "rail_optimized":
                leaf = (j // d) * rails + i
            else:
                leaf = (j * rails + i) // d
            port = leaf_ports[leaf]
            leaf_ports[leaf] += 1
            if leaf < len(leaves):
                sched.links.append(link("compute", "node-leaf", node, i + 1, leaves[leaf], port + 1, node_gbps(node)))
            else:
                sched.unrouted["node-leaf"] += 1
    if size.tiers >= 2:
        half = k // 2
        spine_ports = Counter()
        leaves_per_pod = size.leaf_switches if size.tiers == 2 else half
        # spines per pod, in order, as the sizing counts them
        pod_spines: list[list[int]] = []
        first = 0
        n_pods = 1 if size.tiers == 2 else size.pods
        for pod in range(n_pods):
            lo, hi = pod * leaves_per_pod, min((pod + 1) * leaves_per_pod, size.leaf_switches)
            ups = sum(math.ceil(leaf_ports[x] / r) for x in range(lo, hi))
            n = size.spine_switches if size.tiers == 2 else math.ceil(ups / half)
            pod_spines.append(list(range(first, first + n)))
            first += n
        counter = Counter()
        for leaf in range(size.leaf_switches):
            pod = leaf // leaves_per_pod if size.tiers == 3 else 0
            group = pod_spines[pod]
            for u in range(math.ceil(leaf_ports[leaf] / r)):
                spine = group[counter[pod] % len(group)]
                counter[pod] += 1
                port = spine_ports[spine]
                spine_ports[spine] += 1
                if leaf < len(leaves) and spine < len(spines):
                    sched.links.append(link("compute", "leaf-spine", leaves[leaf], d + u + 1, spines[spine],
                                            port + 1, gbps))
                else:
                    sched.unrouted["leaf-spine"] += 1
        if size.tiers == 3:
            core_ports = Counter()
            c = 0
            for spine in range(size.spine_switches):
                for u in range(spine_ports[spine]):  # non-blocking: as many up as down
                    core = c % max(1, size.core_switches)
                    c += 1
                    port = core_ports[core]
                    core_ports[core] += 1
                    if spine < len(spines) and core < len(cores):
                        sched.links.append(link("compute", "spine-core", spines[spine], spine_ports[spine] + u + 1,
                                                cores[core], port + 1, gbps))
                    else:
                        sched.unrouted["spine-core"] += 1
    return {p.id for p in switches[:size.switches]}


def _fill(router, sched, network, tier, sources, switches, ports_each) -> None:
    """Links from each (placement, port, gbps) source to the switches' ports, in order."""
    for n, (p, port, gbps) in enumerate(sources):
        s, sp = divmod(n, ports_each)
        if s < len(switches):
            sched.links.append(router.link(network, tier, p, port, switches[s], sp + 1, gbps))
        else:
            sched.unrouted[tier] += 1


def _storage_links(plan, catalog, router, sched, switches) -> None:
    if not switches:
        return
    sw = catalog[switches[0].device].switch
    sources = []
    for p in _placed(plan, catalog, lambda d: d.storage_nics() or d.category == "storage"):
        d = catalog[p.device]
        nics = d.storage_nics() if d.category != "storage" else d.nics
        port = 0
        for nic in nics:
            for _ in range(nic.count):
                port += 1
                sources.append((p, port, min(nic.gbps, sw.gbps_per_port)))
    _fill(router, sched, "storage", "storage", sources, switches, sw.ports)


def _management_links(plan, catalog, router, sched) -> None:
    switches = _placed(plan, catalog, lambda d: d.id in MANAGEMENT_SWITCHES)
    if not switches:
        return
    ids = {p.id for p in switches}
    sources = [(p, 1, MANAGEMENT_GBPS) for p in _placed(plan, catalog, lambda d: d.power_max_w > 0)
               if p.id not in ids]
    _fill(router, sched, "management", "management", sources, switches, 48)
