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

A campus holds over a million links, so the schedule keeps them as columns (each end a
device "site" and a port, each link a "kind": tier, speed and medium) and makes ``Link``
objects only for whoever iterates them; the totals count kinds.

Why it is long: the schedule's columns and the views over them (links, totals, CSV) and the
wiring of each network (compute tiers, storage, management) are one routing model.
"""

from __future__ import annotations

import csv
import io
import math
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from planner.facility.floor import floor_spots
from planner.hardware.catalog import Catalog
from planner.network.fabric import FabricSizingError, compute_nics_per_node, plan_fabric
from planner.network.media import Medium, choose_medium
from planner.plan.model import Placement, Plan

U_M = 0.04445  # one rack unit, 1.75 in (EIA-310)
MANAGEMENT_SWITCHES = ("mgmt-1g-48",)
MANAGEMENT_GBPS = 1.0
NETWORK_OF_TIER = {"node-leaf": "compute", "leaf-spine": "compute", "spine-core": "compute",
                   "storage": "storage", "management": "management"}


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


@dataclass(slots=True, frozen=True)
class _Kind:
    """What links of one tier, speed and medium share."""
    network: str
    tier: str
    gbps: float
    medium: Medium
    part: str


class _Links(Sequence):
    """The schedule's links in order, each made when asked for."""

    def __init__(self, sched: CableSchedule):
        self._s = sched

    def __len__(self) -> int:
        return len(self._s._kind)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._s._link(j) for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self._s._link(i)

    def __iter__(self) -> Iterator[Link]:
        link = self._s._link
        return (link(i) for i in range(len(self)))


class CableSchedule:  # compared by identity: a schedule is routed once per layout
    """The links as columns: for link i, its kind (``kinds[kind[i]]``), its ends (a device
    site and a port each) and its routed length."""

    def __init__(self):
        self.unrouted: Counter = Counter()  # tier -> links whose switch is not placed
        self.fabric_cables = 0  # what the fabric sizing counts
        self.kinds: list[_Kind] = []
        # device sites: rack name, U, device label, device type
        self.site_rack: list[str] = []
        self.site_u: list[int] = []
        self.site_device: list[str] = []
        self.site_device_type: list[str] = []
        self._kind = array("l")
        self._a = array("l")
        self._a_port = array("l")
        self._b = array("l")
        self._b_port = array("l")
        self._length = array("d")
        self._inter_rack = 0
        self._counts: list[tuple[_Kind, int]] | None = None

    @property
    def links(self) -> _Links:
        return _Links(self)

    def _end(self, site: int, port: int) -> End:
        return End(self.site_rack[site], self.site_u[site], self.site_device[site], port, self.site_device_type[site])

    def _link(self, i: int) -> Link:
        k = self.kinds[self._kind[i]]
        return Link(k.network, k.tier, self._end(self._a[i], self._a_port[i]), self._end(self._b[i], self._b_port[i]),
                    k.gbps, self._length[i], k.medium)

    def kind_counts(self) -> list[tuple[_Kind, int]]:
        """(kind, links) in the order each kind first appears."""
        if self._counts is None:
            n = Counter(self._kind)
            self._counts = [(self.kinds[k], n[k]) for k in sorted(n)]  # kinds are numbered as they appear
        return self._counts

    def optical_ends(self) -> Counter:
        """(kind index, site) -> ends of that kind's fibre runs at that device site: where the
        transceivers go (counted from the columns, without making the links)."""
        optical = [k.medium.transceivers > 0 for k in self.kinds]
        out: Counter = Counter()
        for k, a, b in zip(self._kind, self._a, self._b):
            if optical[k]:
                out[(k, a)] += 1
                out[(k, b)] += 1
        return out

    def by_medium(self) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        for k, n in self.kind_counts():
            m = out.setdefault(k.medium.name, {"count": 0, "length_m": 0.0})
            m["count"] += n
            m["length_m"] += k.medium.stock_m * n  # stock lengths are whole halves of a metre: exact
        return {k: {"count": v["count"], "length_m": round(v["length_m"], 1)} for k, v in out.items()}

    def by_part(self) -> Counter:
        out: Counter = Counter()
        for k, n in self.kind_counts():
            out[k.part] += n
        return out

    def transceivers(self) -> Counter:
        """Optics by speed: a transceiver at each end of a fibre run."""
        out: Counter = Counter()
        for k, n in self.kind_counts():
            if k.medium.transceivers:
                out[f"{k.gbps:g}G transceiver ({'SR' if k.medium.name == 'MMF' else 'DR'})"] += \
                    k.medium.transceivers * n
        return out

    def between_racks(self) -> Counter:
        """(rack, rack, medium) -> links, the racks in name order; a rack with itself for runs inside it."""
        rack, medium = self.site_rack, [k.medium.name for k in self.kinds]
        out: Counter = Counter()
        for a, b, k in zip(self._a, self._b, self._kind):
            ra, rb = rack[a], rack[b]
            out[(ra, rb, medium[k]) if ra <= rb else (rb, ra, medium[k])] += 1
        return out

    def totals(self) -> dict[str, Any]:
        """The ``cables`` block of ``check --json``: counts and metres by medium, network and part."""
        networks: dict[str, int] = {}
        tiers: dict[str, int] = {}
        for k, n in self.kind_counts():
            networks[k.network] = networks.get(k.network, 0) + n
            tiers[k.tier] = tiers.get(k.tier, 0) + n
        return {
            "links": len(self._kind),
            "length_m": round(sum(k.medium.stock_m * n for k, n in self.kind_counts()), 1),
            "by_medium": self.by_medium(),
            "by_network": networks,
            "by_tier": tiers,
            "by_part": dict(sorted(self.by_part().items())),
            "transceivers": dict(sorted(self.transceivers().items())),
            "inter_rack": self._inter_rack,
            "unrouted": dict(self.unrouted),
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["link", "network", "tier", "from_rack", "from_u", "from_device", "from_port", "to_rack", "to_u",
                    "to_device", "to_port", "gbps", "medium", "route_m", "length_m", "part"])
        kinds = [(k.network, k.tier, f"{k.gbps:g}", k.medium.name, f"{k.medium.stock_m:g}", k.part)
                 for k in self.kinds]
        rack, u, dev = self.site_rack, self.site_u, self.site_device
        w.writerows(
            [i, kd[0], kd[1], rack[a], u[a], dev[a], pa, rack[b], u[b], dev[b], pb, kd[2], kd[3], f"{length:.2f}",
             kd[4], kd[5]]
            for i, (kd, a, pa, b, pb, length) in enumerate(
                zip(map(kinds.__getitem__, self._kind), self._a, self._a_port, self._b, self._b_port, self._length),
                1))
        return out.getvalue()


class _Router:
    """Lengths between placed devices on the plan's floor; adds links to the schedule."""

    def __init__(self, plan: Plan, catalog: Catalog, sched: CableSchedule):
        self.plan, self.catalog, self.sched = plan, catalog, sched
        floor = plan.settings.floor
        self.spots = floor_spots(plan, floor)
        self.tray_m = floor.tray_above_rack_mm / 1000
        self.slack_m = floor.cable_slack_m
        self._sites: dict[str, int] = {}
        # per site: rack id, top U, metres up to the tray, floor position
        self._rack: list[str] = []
        self._top: list[int] = []
        self._up: list[float] = []
        self._x: list[float] = []
        self._y: list[float] = []
        self._kinds: dict[tuple, int] = {}  # (tier, gbps, length) -> kind
        self._kind_of_medium: dict[tuple, int] = {}  # (tier, gbps, medium) -> kind

    def site(self, p: Placement) -> int:
        """The index of a placed device's site, made on first use."""
        s = self._sites.get(p.id)
        if s is not None:
            return s
        s = self._sites[p.id] = len(self._rack)
        rack = self.plan.rack(p.rack)
        d = self.catalog.get(p.device)
        top = p.u + (d.u_height if d else 1) - 1
        spot = self.spots.get(p.rack)
        self.sched.site_rack.append(rack.name)
        self.sched.site_u.append(p.u)
        self.sched.site_device.append(p.label or p.id)
        self.sched.site_device_type.append(p.device)
        self._rack.append(p.rack)
        self._top.append(top)
        self._up.append((rack.height_u - top) * U_M + self.tray_m)
        self._x.append(spot.x_m if spot else math.nan)
        self._y.append(spot.y_m if spot else math.nan)
        return s

    def _new_kind(self, tier: str, gbps: float, length: float) -> int:
        medium = choose_medium(gbps, length)
        key = (tier, gbps, medium)
        k = self._kind_of_medium.get(key)
        if k is None:
            k = self._kind_of_medium[key] = len(self.sched.kinds)
            self.sched.kinds.append(_Kind(NETWORK_OF_TIER[tier], tier, gbps, medium, medium.part(gbps)))
        self._kinds[(tier, gbps, length)] = k
        return k

    def adder(self):
        """``add(tier, a, pa, b, pb, gbps)``: a link of ``tier`` from site ``a`` port ``pa`` to site
        ``b`` port ``pb`` (a closure over the columns: a campus adds over a million)."""
        rack, top, up, x, y, names = self._rack, self._top, self._up, self._x, self._y, self.sched.site_rack
        slack, kinds, new_kind, sched = self.slack_m, self._kinds, self._new_kind, self.sched
        kind, col_a, port_a, col_b, port_b, lengths = (c.append for c in (
            sched._kind, sched._a, sched._a_port, sched._b, sched._b_port, sched._length))

        def add(tier: str, a: int, pa: int, b: int, pb: int, gbps: float) -> None:
            if rack[a] == rack[b]:
                length = abs(top[a] - top[b]) * U_M + slack
            else:
                length = up[a] + abs(x[a] - x[b]) + abs(y[a] - y[b]) + up[b] + slack
                if names[a] != names[b]:  # by name, as the schedule shows them
                    sched._inter_rack += 1
            k = kinds.get((tier, gbps, length))
            kind(new_kind(tier, gbps, length) if k is None else k)
            col_a(a)
            port_a(pa)
            col_b(b)
            port_b(pb)
            lengths(length)

        return add


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
    router = _Router(plan, catalog, sched)
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
    add, site = router.adder(), router.site
    leaves, spines, cores = ([site(p) for p in group] for group in (leaves, spines, cores))
    node_gbps: dict[str, float] = {}  # device -> Gb/s of its compute links

    for j, node in enumerate(nodes):
        if node.device not in node_gbps:
            nics = catalog[node.device].compute_nics()
            node_gbps[node.device] = min(gbps, max(n.gbps for n in nics)) if nics else gbps
        node_site, node_speed = site(node), node_gbps[node.device]
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
                add("node-leaf", node_site, i + 1, leaves[leaf], port + 1, node_speed)
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
                    add("leaf-spine", leaves[leaf], d + u + 1, spines[spine], port + 1, gbps)
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
                        add("spine-core", spines[spine], spine_ports[spine] + u + 1, cores[core], port + 1, gbps)
                    else:
                        sched.unrouted["spine-core"] += 1
    return {p.id for p in switches[:size.switches]}


def _fill(router, sched, tier, sources, switches, ports_each) -> None:
    """Links from each (placement, port, gbps) source to the switches' ports, in order."""
    switches = [router.site(p) for p in switches]
    add, site = router.adder(), router.site
    for n, (p, port, gbps) in enumerate(sources):
        s, sp = divmod(n, ports_each)
        if s < len(switches):
            add(tier, site(p), port, switches[s], sp + 1, gbps)
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
    _fill(router, sched, "storage", sources, switches, sw.ports)


def _management_links(plan, catalog, router, sched) -> None:
    switches = _placed(plan, catalog, lambda d: d.id in MANAGEMENT_SWITCHES)
    if not switches:
        return
    ids = {p.id for p in switches}
    sources = [(p, 1, MANAGEMENT_GBPS) for p in _placed(plan, catalog, lambda d: d.power_max_w > 0)
               if p.id not in ids]
    _fill(router, sched, "management", sources, switches, 48)
