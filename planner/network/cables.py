"""The cable schedule: every link from rack/U/port to rack/U/port, its length and medium.

Links: the compute fabric (node NIC -> leaf, leaf -> spine, spine -> core, wired as
``planner.network.fabric.size_fabric`` sizes it: rail i of a scalable unit's nodes, a
rack-scale system's trays each a node, to that unit's leaf i, each leaf's uplinks spread over
the spines of its pod, each spine's over the cores), the storage network (nodes' storage NICs
and storage appliances to the storage switches) and management (one 1 GbE port per powered
device to the management switches; ``planner.network.ports`` counts both), each a device to its own hall's switches first
(``_fill``). Fabric switches take their roles in plan order, the first placed the leaves,
then the spines, then the cores: those rules are ``planner.network.wiring``'s, which the
design of a campus shares.

Length of a run between racks of one hall: up from each device's top U to the tray above the
racks, along the row and across the rows (the centre-to-centre distance on the hall's floor,
``planner.facility.floor``), down again, plus slack; within a rack: the U difference plus
slack; between halls and buildings: through the halls' distribution areas and the buildings'
entrance rooms (``planner.network.routes``). Rounded up to the medium's stock length
(``planner.network.media``). Each run has its route (in-rack, in-row, in-hall, inter-hall,
inter-building); a run longer than every optic and cable of its speed in the catalog reaches
is listed (``beyond_reach``) for the reach finding.

A campus holds over a million links, so the schedule keeps them as columns (each end a
device "site" and a port, each link a "kind": tier, speed and medium) and makes ``Link``
objects only for whoever iterates them; the totals count kinds. Each tier is wired as whole
numpy columns (a link's leaf, port and spine follow from its index) and every run is routed
in one pass at the end (``_Router.finish``): about 1 us a link, so a 48-node plan's
1,400 links are routed again after each edit in about 1.5 ms.

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

from planner.hardware.catalog import Catalog
from planner.network.fabric import FabricSizingError, plan_fabric
from planner.network.ports import (MANAGEMENT_GBPS, MANAGEMENT_PORTS, MANAGEMENT_SWITCHES, has_management_port,
                                   storage_network, storage_network_nics)
from planner.network.media import Medium, choose_medium, medium_buckets, optic_class
from planner.network.technologies import nic_run_gbps
from planner.network.routes import ROUTES, BeyondReach, campus_geometry, campus_lengths, reach_limit_m, route_classes
from planner.network.wiring import (fabric_nodes, fabric_roles, leaf_down_ports, leaves_per_pod, placed_devices,
                                    rail_leaves)
from planner.plan.model import Placement, Plan
from planner.text import spreadsheet_inert

U_M = 0.04445  # one rack unit, 1.75 in (EIA-310)


def up_to_tray_m(rack_height_u, top_u, tray_m: float):
    """How far a run climbs from a device whose top U is ``top_u`` in a rack of
    ``rack_height_u`` to the tray above the racks (numbers or numpy columns): the rule every
    routed run follows at each end, and the per-tier estimate's (``planner.costs.hall_tiers``)."""
    return (rack_height_u - top_u) * U_M + tray_m


def in_rack_m(top_a, top_b, slack_m: float):
    """A run between two devices of one rack, by their top Us: the U difference plus slack."""
    return abs(top_a - top_b) * U_M + slack_m


NETWORK_OF_TIER = {"node-leaf": "compute", "leaf-spine": "compute", "spine-core": "compute",
                   "storage": "storage", "storage-spine": "storage", "storage-core": "storage",
                   "management": "management"}


@dataclass(frozen=True, slots=True)
class End:
    rack: str
    u: int
    device: str
    port: int
    device_type: str = ""  # the catalog id of the device at this end


@dataclass(frozen=True, slots=True)
class Link:
    network: str  # compute, storage, management
    tier: str  # node-leaf, leaf-spine, spine-core, storage, management
    a: End
    b: End
    gbps: float
    length_m: float
    medium: Medium
    route: str = ""  # one of planner.network.routes.ROUTES

    @property
    def part(self) -> str:
        return self.medium.part(self.gbps)


@dataclass(frozen=True, slots=True)
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
        self._kind = array("q")
        self._a = array("q")
        self._a_port = array("q")
        self._b = array("q")
        self._b_port = array("q")
        self._length = array("d")
        self._route = array("b")  # per link: its route, an index into ROUTES
        self.beyond_reach: list[BeyondReach] = []
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
                    k.gbps, self._length[i], k.medium, ROUTES[self._route[i]])

    def kind_counts(self) -> list[tuple[_Kind, int]]:
        """(kind, links) in the order each kind first appears."""
        if self._counts is None:
            n = Counter(self._kind)
            self._counts = [(self.kinds[k], n[k]) for k in sorted(n)]  # kinds are numbered as they appear
        return self._counts

    def optical_ends(self) -> Counter:
        """(kind index, site) -> ends of that kind's fibre runs at that device site: where the
        transceivers go (counted from the columns, without making the links)."""
        import numpy as np

        optical = np.array([k.medium.transceivers > 0 for k in self.kinds], dtype=bool)
        if not optical.any():
            return Counter()
        kind = np.frombuffer(self._kind, dtype=np.int64)
        fibre = optical[kind]
        sites = len(self.site_rack)
        at = kind[fibre] * sites
        ends, n = np.unique(np.concatenate([at + np.frombuffer(self._a, dtype=np.int64)[fibre],
                                            at + np.frombuffer(self._b, dtype=np.int64)[fibre]]),
                            return_counts=True)
        return Counter({(int(e) // sites, int(e) % sites): int(c) for e, c in zip(ends, n)})

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
                out[f"{k.gbps:g}G transceiver ({optic_class(k.medium.name, k.medium.stock_m, k.gbps)})"] += \
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

    def by_route(self) -> dict[str, dict[str, float]]:
        """Runs and their stock metres by route (every route listed, in ``ROUTES`` order)."""
        import numpy as np

        route = np.frombuffer(self._route, dtype=np.int8).astype(np.int64)
        stock = np.array([k.medium.stock_m for k in self.kinds], dtype=np.float64)
        kind = np.frombuffer(self._kind, dtype=np.int64)
        counts = np.bincount(route, minlength=len(ROUTES))
        metres = np.bincount(route, weights=stock[kind] if len(kind) else None, minlength=len(ROUTES))
        return {name: {"count": int(counts[i]), "length_m": round(float(metres[i]), 1)}
                for i, name in enumerate(ROUTES)}

    def routes_by_kind(self) -> Counter:
        """(kind index, route name) -> runs."""
        import numpy as np

        kind = np.frombuffer(self._kind, dtype=np.int64)
        route = np.frombuffer(self._route, dtype=np.int8).astype(np.int64)
        keys, n = np.unique(kind * len(ROUTES) + route, return_counts=True)
        return Counter({(int(k) // len(ROUTES), ROUTES[int(k) % len(ROUTES)]): int(c) for k, c in zip(keys, n)})

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
            "by_route": self.by_route(),
            "beyond_reach": {"links": sum(x.links for x in self.beyond_reach),
                             "longest_m": round(max((x.longest_m for x in self.beyond_reach), default=0.0), 2)},
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["link", "network", "tier", "from_rack", "from_u", "from_device", "from_port", "to_rack", "to_u",
                    "to_device", "to_port", "gbps", "medium", "route_m", "length_m", "part", "route"])
        kinds = [(k.network, k.tier, f"{k.gbps:g}", k.medium.name, f"{k.medium.stock_m:g}", spreadsheet_inert(k.part))
                 for k in self.kinds]
        # names typed by users (racks, labels, catalog parts) never start a formula in a spreadsheet
        rack, dev = list(map(spreadsheet_inert, self.site_rack)), list(map(spreadsheet_inert, self.site_device))
        u = self.site_u
        w.writerows(
            [i, kd[0], kd[1], rack[a], u[a], dev[a], pa, rack[b], u[b], dev[b], pb, kd[2], kd[3], f"{length:.2f}",
             kd[4], kd[5], ROUTES[route]]
            for i, (kd, a, pa, b, pb, length, route) in enumerate(
                zip(map(kinds.__getitem__, self._kind), self._a, self._a_port, self._b, self._b_port, self._length,
                    self._route), 1))
        return out.getvalue()


class _Router:
    """Lengths between placed devices on the plan's floor; adds links to the schedule.

    The wiring adds each tier's links as columns of ends and ports (``add_many``); ``finish``
    then routes them all at once, as numpy columns: the length of every run, its medium and
    stock length, its kind."""

    def __init__(self, plan: Plan, catalog: Catalog, sched: CableSchedule):
        self.plan, self.catalog, self.sched = plan, catalog, sched
        self.floor = floor = plan.settings.floor
        self.geo = campus_geometry(plan)
        self.tray_m = floor.tray_above_rack_mm / 1000
        self.slack_m = floor.cable_slack_m
        self._sites: dict[str, int] = {}
        # per site: rack (a number per rack id), rack name (a number per name), top U,
        # metres up to the tray, floor position
        self._rack_numbers: dict[str, int] = {}
        self._name_numbers: dict[str, int] = {}
        self._rack = array("q")
        self._name = array("q")
        self._top = array("q")
        self._up = array("d")
        self._x = array("d")
        self._y = array("d")
        self._hall = array("q")
        self._building = array("q")
        self._row = array("q")
        # per link, as added: its (tier, gbps) group (its ends and ports are the schedule's columns)
        self._groups: dict[tuple[str, float], int] = {}
        self._group = array("q")

    def site(self, p: Placement) -> int:
        """The index of a placed device's site, made on first use."""
        s = self._sites.get(p.id)
        if s is not None:
            return s
        s = self._sites[p.id] = len(self._rack)
        rack = self.plan.rack(p.rack)
        d = self.catalog.get(p.device)
        top = p.u + (d.u_height if d else 1) - 1
        spot = self.geo.places.get(p.rack)
        self.sched.site_rack.append(rack.name)
        self.sched.site_u.append(p.u)
        self.sched.site_device.append(p.label or p.id)
        self.sched.site_device_type.append(p.device)
        self._rack.append(self._rack_numbers.setdefault(p.rack, len(self._rack_numbers)))
        self._name.append(self._name_numbers.setdefault(rack.name, len(self._name_numbers)))
        self._top.append(top)
        self._up.append(up_to_tray_m(rack.height_u, top, self.tray_m))
        self._x.append(spot.x_m if spot else math.nan)
        self._y.append(spot.y_m if spot else math.nan)
        self._hall.append(spot.hall if spot else 0)
        self._building.append(spot.building if spot else 0)
        self._row.append(spot.row if spot else -1)
        return s

    def halls(self, sites):
        """The hall number of each of ``sites`` (a numpy column)."""
        import numpy as np

        return np.frombuffer(self._hall, dtype=np.int64)[sites]

    def add_many(self, tier: str, gbps: list[float], a, pa, b, pb) -> None:
        """Links of ``tier`` as numpy columns of ends (sites) and ports; ``gbps`` one speed for
        all, or one per link."""
        import numpy as np

        if not len(a):
            return
        groups = self._groups
        if len(gbps) == 1:
            g = np.full(len(a), groups.setdefault((tier, gbps[0]), len(groups)), dtype=np.int64)
        else:
            g = np.array([groups.setdefault((tier, x), len(groups)) for x in gbps], dtype=np.int64)
        sched = self.sched
        for column, values in ((self._group, g), (sched._a, a), (sched._a_port, pa), (sched._b, b),
                               (sched._b_port, pb)):
            column.frombytes(np.ascontiguousarray(values, dtype=np.int64).tobytes())

    def finish(self) -> None:
        """Route every link added: within a rack the U difference plus slack; between racks up
        to the tray, along and across the rows, down again, plus slack (the same float
        operations in the same order as one run at a time). Kinds are numbered in the order
        they first appear."""
        import numpy as np

        sched = self.sched
        n = len(sched._a)
        if not n:
            return
        a, b = np.frombuffer(sched._a, dtype=np.int64), np.frombuffer(sched._b, dtype=np.int64)
        rack, name, top = (np.frombuffer(c, dtype=np.int64) for c in (self._rack, self._name, self._top))
        up, x, y = (np.frombuffer(c, dtype=np.float64) for c in (self._up, self._x, self._y))
        hall, building, row = (np.frombuffer(c, dtype=np.int64) for c in (self._hall, self._building, self._row))
        same_rack = rack[a] == rack[b]
        inside = in_rack_m(top[a], top[b], self.slack_m)
        between = up[a] + np.abs(x[a] - x[b]) + np.abs(y[a] - y[b]) + up[b] + self.slack_m
        length = np.where(same_rack, inside, between)
        across = np.flatnonzero(hall[a] != hall[b])
        if len(across):  # a plan of one hall has none
            length[across] = campus_lengths(self.geo, self.floor, a[across], b[across], up, hall, x, y)
        route = route_classes(same_rack, a, b, hall, building, row)
        sched._route = array("b", route.tobytes())
        sched._inter_rack = int(np.count_nonzero(~same_rack & (name[a] != name[b])))  # by name, as shown

        group = np.frombuffer(self._group, dtype=np.int64)
        bucket = np.empty(n, dtype=np.int64)
        tier_gbps = list(self._groups)
        rack_ids = list(self._rack_numbers)  # numbered in order of first use
        for g, (tier, gbps) in enumerate(tier_gbps):
            mine = group == g
            bucket[mine] = medium_buckets(gbps, length[mine])
            limit_m, part = reach_limit_m(self.catalog, gbps)
            far = np.flatnonzero(mine & (length > limit_m + 1e-9))
            if len(far):
                longest = int(far[np.argmax(length[far])])
                sched.beyond_reach.append(BeyondReach(tier, gbps, len(far), float(length[longest]), limit_m, part,
                                                      longest, rack_ids[rack[a[longest]]]))
        custom = np.flatnonzero(bucket < 0)  # beyond the longest stock length: a length of its own each
        for i in custom:
            bucket[i] = -1 - choose_medium(tier_gbps[group[i]][1], float(length[i])).stock_m
        combo = group * (1 << 32) + bucket
        combos, first, of_link = np.unique(combo, return_index=True, return_inverse=True)
        kind_of_combo = np.empty(len(combos), dtype=np.int64)
        kinds: dict[tuple, int] = {}  # (tier, gbps, medium) -> kind
        for c in np.argsort(first, kind="stable"):  # combos in the order they first appear
            tier, gbps = tier_gbps[group[first[c]]]
            medium = choose_medium(gbps, float(length[first[c]]))
            k = kinds.get((tier, gbps, medium))
            if k is None:
                k = kinds[(tier, gbps, medium)] = len(sched.kinds)
                sched.kinds.append(_Kind(NETWORK_OF_TIER[tier], tier, gbps, medium, medium.part(gbps)))
            kind_of_combo[c] = k
        sched._kind = array("q", kind_of_combo[of_link.reshape(-1)].astype(np.int64).tobytes())
        sched._length = array("d", length.tobytes())


def build_schedule(plan: Plan, catalog: Catalog) -> CableSchedule:
    """Every link of the plan with its ends, length and medium."""
    sched = CableSchedule()
    router = _Router(plan, catalog, sched)
    fabric = plan.settings.fabric
    placed = placed_devices(plan, catalog)

    def of(want) -> list[Placement]:
        return [p for p, d in placed if want(d)]

    counts = Counter(p.device for p in plan.placements)
    fabric_switches = of(lambda d: d.id == fabric.switch_device)
    nodes = of(lambda d: d.gpu is not None and d.compute_nic_count > 0)
    used = _compute_links(plan, catalog, router, sched, counts, fabric_switches, nodes)
    storage_id = fabric.storage_switch_device if fabric.storage_fabric == "separate" else fabric.switch_device
    storage_switches = [p for p in of(lambda d: d.id == storage_id) if p.id not in used]
    _storage_links(catalog, router, sched, storage_switches, of(lambda d: d.storage_nics() or d.category == "storage"),
                   fabric.storage_oversubscription)
    _management_links(router, sched, of)
    router.finish()
    return sched


def _rank(values):
    """For each element of an integer numpy array, how many equal elements come before it
    (the port a link takes on a switch that fills its ports in link order)."""
    import numpy as np

    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    runs = np.diff(np.r_[starts, len(values)])
    ranks = np.empty(len(values), dtype=np.int64)
    ranks[order] = np.arange(len(values)) - np.repeat(starts, runs)
    return ranks


def _compute_links(plan, catalog, router, sched, counts, switches, nodes) -> set[str]:
    """Node NICs to leaves, leaves to spines, spines to cores, each tier as whole columns."""
    import numpy as np

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
    site = router.site
    leaves, spines, cores = (np.array([site(p) for p in group], dtype=np.int64)
                             for group in fabric_roles(switches, size))
    d = leaf_down_ports(size)
    node_gbps: dict[str, float] = {}  # device -> Gb/s of its compute links
    for node in nodes:
        if node.device not in node_gbps:
            nics = catalog[node.device].compute_nics()
            node_gbps[node.device] = min(gbps, max(nic_run_gbps(fabric, n.gbps) for n in nics)) if nics else gbps
    owner, tray = fabric_nodes(nodes, catalog)  # a rack-scale system's trays are nodes of their own
    rails = size.endpoints // max(1, len(owner))
    node_sites = np.array([site(p) for p in nodes], dtype=np.int64)[owner]

    # rail i of node j (nodes in plan order) to its leaf; a leaf fills its ports in that order;
    # at the node, tray t's rails are ports t x rails + 1 ...
    j, i, leaf = rail_leaves(len(owner), rails, size, fabric.topology)
    ok = leaf < len(leaves)
    sched.unrouted["node-leaf"] += int(np.count_nonzero(~ok))
    speeds = [node_gbps[p.device] for p in nodes]
    router.add_many("node-leaf", [speeds[x] for x in owner[j[ok]]] if len(set(speeds)) > 1 else speeds[:1],
                    node_sites[j[ok]], (tray[j] * rails + i)[ok] + 1, leaves[leaf[ok]], _rank(leaf)[ok] + 1)
    if size.tiers >= 2:
        _trunks(router, sched, size, leaves, spines, cores, d, gbps, "leaf-spine", "spine-core")
    for tier in ("node-leaf", "leaf-spine", "spine-core"):
        if not sched.unrouted[tier]:
            del sched.unrouted[tier]
    return {p.id for group in fabric_roles(switches, size) for p in group}


def _trunks(router, sched, size, leaves, spines, cores, d: int, gbps: float, up_tier: str, core_tier: str) -> None:
    """A network's switch-to-switch links as whole columns: each leaf's uplinks (from its port
    ``d + 1``) round its pod's spines, ECMP-balanced as ``size`` sizes them; past two tiers each
    spine's as many links up as down, dealt round the cores. ``leaves``, ``spines``, ``cores``:
    the placed switches' sites; links to a switch not placed are counted unrouted."""
    import numpy as np

    per_pod = leaves_per_pod(size)
    # every leaf of a pod has the sizing's uplinks to that pod's spines (ECMP-balanced)
    leaf_pod = np.arange(size.leaf_switches, dtype=np.int64) // per_pod
    ups = np.array(size.pod_leaf_uplinks, dtype=np.int64)[leaf_pod]  # uplinks per leaf
    pod_spines = list(size.pod_spines)
    pod_first = list(np.cumsum([0] + pod_spines[:-1]))
    # uplink u of each leaf, leaves in order; a pod's uplinks go round its spines
    up_leaf = np.repeat(np.arange(size.leaf_switches, dtype=np.int64), ups)
    row = np.arange(len(up_leaf), dtype=np.int64)
    u = row - np.repeat(np.cumsum(ups) - ups, ups)
    pod = up_leaf // per_pod
    in_pod = _rank(pod)
    spine = np.array(pod_first, dtype=np.int64)[pod] + in_pod % np.array(pod_spines, dtype=np.int64)[pod]
    ok = (up_leaf < len(leaves)) & (spine < len(spines))
    sched.unrouted[up_tier] += int(np.count_nonzero(~ok))
    router.add_many(up_tier, [gbps], leaves[up_leaf[ok]], d + u[ok] + 1, spines[spine[ok]],
                    _rank(spine)[ok] + 1)
    if size.tiers == 3:
        # non-blocking: each spine has as many links up as down, dealt round the cores
        spine_ports = np.bincount(spine, minlength=size.spine_switches)[:size.spine_switches]
        up_spine = np.repeat(np.arange(size.spine_switches, dtype=np.int64), spine_ports)
        u = np.arange(len(up_spine), dtype=np.int64) - np.repeat(np.cumsum(spine_ports) - spine_ports, spine_ports)
        core = np.arange(len(up_spine), dtype=np.int64) % max(1, size.core_switches)
        ok = (up_spine < len(spines)) & (core < len(cores))
        sched.unrouted[core_tier] += int(np.count_nonzero(~ok))
        router.add_many(core_tier, [gbps], spines[up_spine[ok]], spine_ports[up_spine[ok]] + u[ok] + 1,
                        cores[core[ok]], _rank(core)[ok] + 1)


def _fill(router, sched, tier, sources, switches, ports_each) -> None:
    """Links from each (placement, port, gbps) source to the switches' ports (``ports_each``:
    one count for every switch, or a numpy column of each switch's). A source takes
    the next free port of its own hall's switches (the switches and the sources in order);
    the sources a hall's switches cannot take, the ports left over anywhere, in switch order;
    what is still over is unrouted. In one hall: source i to port i of the switches in turn."""
    import numpy as np

    if not sources:
        return
    site = router.site
    sw_sites = np.array([site(p) for p in switches], dtype=np.int64)
    src_sites = np.array([site(p) for p, _, _ in sources], dtype=np.int64)
    # every switch port, in switch order, and the slots hall by hall: hall h's k-th slot is by_hall[start[h] + k]
    ports_each = np.broadcast_to(np.asarray(ports_each, dtype=np.int64), (len(switches),))
    first_slot = np.cumsum(ports_each) - ports_each  # switch s's port j is slot first_slot[s] + j - 1
    slot_hall = np.repeat(router.halls(sw_sites), ports_each)
    src_hall = router.halls(src_sites)
    halls = int(max(slot_hall.max(initial=0), src_hall.max())) + 1
    by_hall = np.argsort(slot_hall, kind="stable")
    per_hall = np.bincount(slot_hall, minlength=halls)
    start = np.cumsum(per_hall) - per_hall
    rank = _rank(src_hall)  # how many of its hall's sources come before it
    local = rank < per_hall[src_hall]
    slot = np.full(len(sources), -1, dtype=np.int64)
    slot[local] = by_hall[start[src_hall[local]] + rank[local]]
    free = np.ones(len(slot_hall), dtype=bool)
    free[slot[local]] = False
    over, left = np.flatnonzero(~local), np.flatnonzero(free)
    slot[over[:len(left)]] = left[:len(over)]
    routed = slot >= 0
    if not routed.all():
        sched.unrouted[tier] += int(np.count_nonzero(~routed))
    if not routed.any():
        return
    switch = np.searchsorted(first_slot, slot[routed], side="right") - 1
    port = slot[routed] - first_slot[switch]
    speeds = [gbps for (_, _, gbps), ok in zip(sources, routed) if ok]
    router.add_many(tier, speeds if len(set(speeds)) > 1 else speeds[:1], src_sites[routed],
                    np.array([p for _, p, _ in sources], dtype=np.int64)[routed], sw_sites[switch], port + 1)


def _storage_links(catalog, router, sched, switches, sources_placed, oversubscription: float) -> None:
    """The storage NICs' links; with storage appliances but no storage switch placed, every
    one unrouted (nodes alone, with no storage, have no storage network to wire). Each hall's
    storage switches are a network of their own, as the design places them: one switch while
    the hall's ports fit it, else a leaf-spine (``planner.network.ports.storage_network``)
    whose first switches, in plan order, are its leaves taking ``d`` ports each, the next its
    spines (and cores), joined by ``_trunks``."""
    import numpy as np

    sw = catalog[switches[0].device].switch if switches else None
    sources = []
    for p in sources_placed:
        port = 0
        for nic in storage_network_nics(catalog[p.device]):
            for _ in range(nic.count):
                port += 1
                sources.append((p, port, min(nic.gbps, sw.gbps_per_port) if sw else nic.gbps))
    if sw is None:
        if any(catalog[p.device].category == "storage" for p in sources_placed):
            sched.unrouted["storage"] += len(sources)
        return
    sites = np.array([router.site(p) for p in switches], dtype=np.int64)
    sw_hall = router.halls(sites)
    src_hall = router.halls(np.array([router.site(p) for p, _, _ in sources], dtype=np.int64))
    ports_each = np.full(len(switches), sw.ports, dtype=np.int64)
    trunks = []
    for hall in sorted(set(sw_hall.tolist())):  # not np.unique: it imports numpy.ma, which the app's start leaves out
        size = storage_network(int(np.count_nonzero(src_hall == hall)), sw.ports, oversubscription)
        if size is not None and size.tiers >= 2:  # None: beyond three tiers, its switches take the ports unjoined
            leaves, spines, cores = fabric_roles(np.flatnonzero(sw_hall == hall), size)
            d = leaf_down_ports(size)
            ports_each[leaves] = d
            ports_each[spines] = ports_each[cores] = 0
            trunks.append((size, sites[leaves], sites[spines], sites[cores], d))
    _fill(router, sched, "storage", sources, switches, ports_each)
    for size, leaves, spines, cores, d in trunks:
        _trunks(router, sched, size, leaves, spines, cores, d, sw.gbps_per_port, "storage-spine", "storage-core")
    for tier in ("storage-spine", "storage-core"):
        if not sched.unrouted.get(tier, 1):
            del sched.unrouted[tier]


def _management_links(router, sched, of) -> None:
    switches = of(lambda d: d.id in MANAGEMENT_SWITCHES)
    if not switches:
        return
    sources = [(p, 1, MANAGEMENT_GBPS) for p in of(has_management_port)]
    _fill(router, sched, "management", sources, switches, MANAGEMENT_PORTS)
