"""The compute fabric's wiring rules: which placed switch is a leaf, a spine or a core, which
fabric nodes a GPU system is, which leaf each node's rail goes to and which pod a leaf is in.

The cable schedule (``planner.network.cables``) wires the links by these rules, and the
design of a campus (``planner.design.campus``) stands each switch in the hall of the nodes it
serves by the same rules, so the two agree on which switch is which:

- roles by plan order (racks in order, then U): of the fabric's switches the first
  ``leaf_switches`` are the leaves, the next ``spine_switches`` the spines, then the
  ``core_switches`` cores (any more are spares, uncabled);
- a fabric node is a GPU node, or one compute tray of a rack-scale system (an NVL72 is 18
  trays of 4 NICs: ``planner.network.fabric.fabric_endpoints``), in plan order;
- rail ``i`` of node ``j``: rail-optimised, to leaf ``(j // d) x rails + i`` (scalable unit
  ``j // d`` of ``d`` nodes, one leaf per rail); otherwise endpoint ``j x rails + i`` to leaf
  ``(j x rails + i) // d``, ``d`` a leaf's down-ports;
- leaves in pods of ``k/2`` (three tiers; two tiers: one pod), each pod with its own
  ``pod_spines`` spines, pods' spines in pod order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeVar

from planner.hardware.catalog import Catalog
from planner.network.fabric import FabricSize
from planner.plan.model import Placement, Plan

T = TypeVar("T")


def placed_devices(plan: Plan, catalog: Catalog) -> list[tuple[Placement, Any]]:
    """(placement, device type) of every placed device of a known type, in plan order (racks
    in order, then U)."""
    out = []
    for rack in plan.racks:
        members = sorted(plan.rack_members(rack.id).values(), key=lambda p: p.u)
        out += [(p, d) for p in members if (d := catalog.get(p.device)) is not None]
    return out


def fabric_roles(switches: Sequence[T], size: FabricSize) -> tuple[Sequence[T], Sequence[T], Sequence[T]]:
    """(leaves, spines, cores) of the fabric's switches given in plan order."""
    leaves, spines = size.leaf_switches, size.leaf_switches + size.spine_switches
    return switches[:leaves], switches[leaves:spines], switches[spines:size.switches]


def fabric_nodes(nodes: Sequence[Placement], catalog: Catalog):
    """(owner, tray) numpy columns, one row per fabric node in order: the index in ``nodes``
    of the placement it belongs to, and its tray in that system (0 for a plain node)."""
    import numpy as np

    trays = np.array([catalog[p.device].hosts for p in nodes], dtype=np.int64)
    owner = np.repeat(np.arange(len(nodes), dtype=np.int64), trays)
    tray = np.arange(len(owner), dtype=np.int64) - np.repeat(np.cumsum(trays) - trays, trays)
    return owner, tray


def leaf_down_ports(size: FabricSize) -> int:
    """``d``: the node links a leaf takes (every endpoint on the one switch of one tier)."""
    if size.tiers == 1:
        return size.endpoints
    r = size.oversubscription
    return max(1, math.floor(size.radix * r / (r + 1)))


def rail_leaves(fabric_node_count: int, rails: int, size: FabricSize, topology: str):
    """(j, i, leaf) numpy columns, one row per endpoint (node ``j``'s rail ``i``, nodes in
    order): the leaf each goes to, by the module docstring's rule (may be past the leaves
    placed)."""
    import numpy as np

    j = np.repeat(np.arange(fabric_node_count, dtype=np.int64), rails)
    i = np.tile(np.arange(rails, dtype=np.int64), fabric_node_count)
    d = leaf_down_ports(size)
    if size.tiers == 1:
        leaf = np.zeros(len(j), dtype=np.int64)
    elif topology == "rail_optimized":
        leaf = (j // d) * rails + i
    else:
        leaf = (j * rails + i) // d
    return j, i, leaf


def leaves_per_pod(size: FabricSize) -> int:
    """Leaves in a pod: ``k/2`` in three tiers, all of them in two."""
    return size.radix // 2 if size.tiers == 3 else max(1, size.leaf_switches)


def spine_pods(size: FabricSize):
    """The pod of each spine (a numpy column, spines in order)."""
    import numpy as np

    return np.repeat(np.arange(len(size.pod_spines), dtype=np.int64), np.array(size.pod_spines, dtype=np.int64))
