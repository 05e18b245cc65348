"""Compute fabric sizing: leaf, spine and core switches, ports, cables and transceivers.

First principles of fat-tree sizing:
- two tiers, switch radix k, non-blocking: at most k^2/2 endpoints;
  leaves = ceil(N / (k/2)); spines balanced for ECMP: every leaf has the same number m of
  links to every spine, so the fewest spines S with S x m >= a leaf's uplinks, S x m within
  the leaf's free ports and leaves x m within a spine's ports (NVIDIA DGX SuperPOD H100
  reference architecture, compute fabric table: 3 SU, 24 leaves of 32 uplinks -> 16 spines,
  2 links from each leaf to each, where ceil(768 / 64) = 12 would spread 32 uplinks unevenly;
  a partial unit's leaves get as many uplinks as the full ones, as that table cables them);
- three tiers (k-ary fat tree, Al-Fares et al., "A Scalable, Commodity Data Center Network
  Architecture", SIGCOMM 2008): up to k^3/4 endpoints;
- oversubscription r:1 at a leaf: down-ports / up-ports = r;
- rail-optimised (NVIDIA DGX SuperPOD reference architecture): GPU i of every node goes to leaf (rail) i of its
  scalable unit, so one leaf per rail per unit of up to k/2 nodes (32 with 64 ports).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from planner.hardware.catalog import Catalog, DeviceType
from planner.network.technologies import nic_run_gbps
from planner.settings import FabricSettings


class FabricSizingError(ValueError):
    pass


@dataclass(slots=True)
class FabricSize:
    endpoints: int = 0
    radix: int = 0
    tiers: int = 0
    leaf_switches: int = 0
    spine_switches: int = 0
    core_switches: int = 0
    leaf_down_ports: int = 0
    leaf_up_ports: int = 0
    spine_down_ports: int = 0
    spine_up_ports: int = 0
    core_ports: int = 0
    node_leaf_links: int = 0
    leaf_spine_links: int = 0
    spine_core_links: int = 0
    oversubscription: float = 1.0
    scalable_units: int = 0
    su_nodes: int = 0  # nodes in a full scalable unit (rail-optimised)
    pods: int = 0
    # per pod (one pod in two tiers): its spines and the uplinks each of its leaves has
    # (spines x links to each spine)
    pod_spines: list[int] = field(default_factory=list)
    pod_leaf_uplinks: list[int] = field(default_factory=list)
    # two tiers: the fewest spines whose ports hold the leaves' uplinks, spread unevenly (a
    # leaf's uplinks not a multiple of the spines: ceil(uplinks / k)); the sizing balances them
    fewest_spines: int = 0
    node_ports_per_module: int = 1  # fabric ports that share one transceiver at a node (2: twin-port OSFP)
    switch_ports_per_module: int = 1  # ... at a switch cage (2 on QM9700 and Q3400, 4 in 400G split mode)
    notes: list[str] = field(default_factory=list)

    @property
    def switches(self) -> int:
        return self.leaf_switches + self.spine_switches + self.core_switches

    @property
    def ports_cabled(self) -> int:
        """Switch ports with a cable in them, all tiers."""
        return self.leaf_down_ports + self.leaf_up_ports + self.spine_down_ports + self.spine_up_ports + self.core_ports

    @property
    def ports_needed(self) -> int:
        """Ports on the switches the fabric needs (switches come whole: a rail's leaf
        serving 16 nodes still has 64 ports)."""
        return self.switches * self.radix

    @property
    def cables(self) -> int:
        return self.node_leaf_links + self.leaf_spine_links + self.spine_core_links

    def cables_by_tier(self) -> dict[str, int]:
        return {"node-leaf": self.node_leaf_links, "leaf-spine": self.leaf_spine_links, "spine-core": self.spine_core_links}

    def transceivers_by_tier(self) -> dict[str, int]:
        """Transceiver modules at both ends of every link (a fibre link needs optics at both
        ends, a passive copper run of a few metres none; switches sit in their own racks, so
        every run is optical). A twin-port module serves two links from one cage (DGX H100's
        NIC cages and QM9700's, DGX SuperPOD H100 RA), so an end needs links / ports-per-module."""
        node, switch = self.node_ports_per_module, self.switch_ports_per_module
        return {tier: (-(-n // node) if tier == "node-leaf" else -(-n // switch)) + -(-n // switch)
                for tier, n in self.cables_by_tier().items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "endpoints": self.endpoints,
            "radix": self.radix,
            "tiers": self.tiers,
            "leaf_switches": self.leaf_switches,
            "spine_switches": self.spine_switches,
            "core_switches": self.core_switches,
            "pods": self.pods,
            "scalable_units": self.scalable_units,
            "ports_per_tier": {
                "leaf_down": self.leaf_down_ports,
                "leaf_up": self.leaf_up_ports,
                "spine_down": self.spine_down_ports,
                "spine_up": self.spine_up_ports,
                "core": self.core_ports,
            },
            "cables_per_tier": self.cables_by_tier(),
            "transceivers_per_tier": self.transceivers_by_tier(),
        }


def size_fabric(nodes: int, nics_per_node: int, radix: int, *, topology: str = "rail_optimized",
                oversubscription: float = 1.0, tiers: str = "auto") -> FabricSize:
    """Switch counts and links for ``nodes`` nodes with ``nics_per_node`` compute ports each.

    When every endpoint fits one switch (N <= k) and the tiers are not forced, the answer
    is that one switch (one tier), whatever the topology.

    Leaves take ``d = floor(k * r / (r + 1))`` endpoints (k/2 when non-blocking) and
    ``ceil(down / r)`` uplinks. Two tiers hold while every leaf can reach every spine
    (at most k leaves, i.e. k^2/2 endpoints non-blocking); beyond that, or when three
    tiers are asked for, leaves and spines form pods of k/2 leaves joined by core
    switches (k^3/4 endpoints at most).
    """
    k = radix
    if k < 2:
        raise FabricSizingError("a fabric switch needs at least 2 ports")
    s = FabricSize(radix=k, oversubscription=oversubscription)
    endpoints = nodes * nics_per_node
    s.endpoints = endpoints
    if endpoints == 0:
        return s
    if endpoints <= k and tiers == "auto":
        # One switch holds every endpoint, whatever the topology: the rails of a
        # rail-optimised design become port groups of that switch (1 or 2 nodes of 8 NICs
        # on a 64-port switch need 1 switch, not 8 rail leaves and a spine).
        s.tiers = 1
        s.leaf_switches = 1
        s.scalable_units = 1 if topology == "rail_optimized" else 0
        s.su_nodes = nodes if topology == "rail_optimized" else 0
        s.leaf_down_ports = s.node_leaf_links = endpoints
        return s
    r = oversubscription
    d = max(1, math.floor(k * r / (r + 1)))  # leaf down-ports
    # Leaves as runs of (number of leaves, down-ports each): full scalable units (or full
    # leaves) and at most one partial one, so sizing is O(pods), not O(leaves).
    if topology == "rail_optimized":
        su_nodes = s.su_nodes = d
        s.scalable_units = math.ceil(nodes / su_nodes)
        full, rest = divmod(nodes, su_nodes)
        runs = [(full * nics_per_node, su_nodes)] + ([(nics_per_node, rest)] if rest else [])
    else:
        full, rest = divmod(endpoints, d)
        runs = [(full, d)] + ([(1, rest)] if rest else [])
    runs = [(n, down) for n, down in runs if n]
    s.leaf_switches = sum(n for n, _ in runs)
    s.leaf_down_ports = s.node_leaf_links = endpoints

    if s.leaf_switches == 1 and tiers != "3" and endpoints <= k:
        # One switch holds every endpoint: no uplinks needed.
        s.tiers = 1
        return s
    up_runs = [(n, math.ceil(down / r)) for n, down in runs]
    max_leaf_up = k - d
    two_tier = _balanced_spines(s.leaf_switches, max(up for _, up in up_runs), max_leaf_up, k) \
        if s.leaf_switches <= k else None
    if tiers == "2" and two_tier is None:
        raise FabricSizingError(
            f"{endpoints:,} endpoints need {s.leaf_switches:,} leaves, more than two tiers of {k}-port switches "
            f"hold ({k * d:,} endpoints); use three tiers")
    if tiers != "3" and two_tier is not None:
        spines, per_spine = two_tier
        s.tiers = 2
        s.spine_switches = spines
        s.pod_spines, s.pod_leaf_uplinks = [spines], [spines * per_spine]
        s.leaf_up_ports = s.leaf_spine_links = s.spine_down_ports = s.leaf_switches * spines * per_spine
        s.fewest_spines = min(spines, math.ceil(sum(n * up for n, up in up_runs) / k))
        return s

    # Three tiers: pods of k/2 leaves, each pod's spines with k/2 ports down and k/2 up.
    s.tiers = 3
    half = k // 2
    leaves_per_pod = half
    s.pods = math.ceil(s.leaf_switches / leaves_per_pod)
    if s.pods > k:
        raise FabricSizingError(
            f"{endpoints:,} endpoints need {s.pods:,} pods, more than a three-tier fabric of {k}-port switches "
            f"holds ({k ** 3 // 4:,} endpoints non-blocking); choose a switch with more ports")
    for pod in range(s.pods):
        first, stop = pod * leaves_per_pod, min(s.leaf_switches, (pod + 1) * leaves_per_pod)
        balanced = _balanced_spines(stop - first, _max_uplinks_in(up_runs, first, stop), max_leaf_up, half)
        if balanced is None:  # pragma: no cover - m = 1 over u spines always fits a pod of k/2 leaves
            raise FabricSizingError(f"a pod of {stop - first} leaves cannot spread its uplinks evenly")
        spines, per_spine = balanced
        s.pod_spines.append(spines)
        s.pod_leaf_uplinks.append(spines * per_spine)
        s.leaf_up_ports += (stop - first) * spines * per_spine
    s.leaf_spine_links = s.leaf_up_ports
    s.spine_switches = sum(s.pod_spines)
    s.spine_down_ports = s.leaf_up_ports
    s.spine_up_ports = s.spine_core_links = s.leaf_up_ports  # non-blocking above the leaves
    s.core_switches = math.ceil(s.spine_up_ports / k)
    s.core_ports = s.spine_up_ports
    return s


def _balanced_spines(leaves: int, uplinks: int, free_ports: int, spine_ports: int) -> tuple[int, int] | None:
    """(spines, links from each leaf to each spine) for ``leaves`` leaves needing ``uplinks``
    uplinks each: the fewest spines S, with m = ceil(uplinks / S), such that S x m fits the
    leaf's ``free_ports`` and leaves x m a spine's ``spine_ports`` (every leaf reaches every
    spine over the same number of links: ECMP spreads evenly). None: no such S."""
    for spines in range(1, free_ports + 1):
        per_spine = -(-uplinks // spines)
        if spines * per_spine <= free_ports and leaves * per_spine <= spine_ports:
            return spines, per_spine
    return None


def _max_uplinks_in(up_runs: list[tuple[int, int]], first: int, stop: int) -> int:
    """The most uplinks any of leaves first..stop-1 needs, the leaves given as runs of
    (count, uplinks each)."""
    most = 0
    start = 0
    for n, up in up_runs:
        if min(stop, start + n) > max(first, start):
            most = max(most, up)
        start += n
    return most


def split_factor(nic_gbps: float, port_gbps: float) -> int:
    """Fabric endpoints one NIC port makes on switch ports of ``port_gbps``: an 800G
    ConnectX-8 on 400G ports splits into 2 x 400G; a 400G NIC on an 800G port is one
    endpoint running at 400G."""
    if nic_gbps > port_gbps and nic_gbps % port_gbps == 0:
        return int(nic_gbps // port_gbps)
    return 1


def fabric_endpoints(device: DeviceType, port_gbps: float, fabric: FabricSettings) -> tuple[int, int, int]:
    """(fabric nodes, endpoints per fabric node, node ports per transceiver) of one device:
    the fabric's endpoints are the NICs a system has (each, at the rate it runs at, split to
    the switch's port rate). A rack-scale system's nodes are its compute trays (an NVL72: 18
    trays of 4 NICs), so a rail-optimised fabric puts rail i of every tray on leaf i."""
    nics = device.compute_nics()
    splits = [(n, split_factor(nic_run_gbps(fabric, n.gbps, n.planes), port_gbps)) for n in nics]
    endpoints = sum(n.count * split for n, split in splits)
    per_module = max((n.ports_per_module * split for n, split in splits), default=1)
    trays = device.hosts
    return trays, endpoints // trays, per_module


def plan_fabric(counts: dict[str, int], catalog: Catalog, fabric: FabricSettings) -> FabricSize | None:
    """Size the compute fabric for the GPU nodes in ``counts`` with the plan's switch model.

    Rail-optimised fabrics need every node to have the same number of rails; the
    largest NIC count sets the rails and nodes with fewer NICs leave ports unused.
    """
    switch = catalog.get(fabric.switch_device)
    if switch is None or switch.switch is None:
        return None
    nodes = 0
    rails = 0
    node_per_module = 1
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is None or d.gpu is None:
            continue
        trays, nics, per_module = fabric_endpoints(d, switch.switch.gbps_per_port, fabric)
        if nics == 0:
            continue
        nodes += n * trays
        if nics > rails:
            rails, node_per_module = nics, per_module
    size = size_fabric(nodes, rails, switch.switch.ports, topology=fabric.topology,
                       oversubscription=fabric.oversubscription, tiers=fabric.tiers)
    size.node_ports_per_module = node_per_module
    size.switch_ports_per_module = switch.switch.ports_per_module
    return size
