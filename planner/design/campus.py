"""Racks of a design stood in the buildings and halls of a campus (``Intent.campus``).

Each kind of rack (GPU, network, storage, CDU: the racks a rack spec's prefix names) is
spread evenly over the halls, in plan order: hall ``i`` of ``H`` takes racks
``floor(i x n / H)`` up to ``floor((i + 1) x n / H)`` of each kind, so every hall holds its
share of the GPUs with the storage and CDUs beside them, and no hall is more than one rack of
a kind larger than another. The racks of the compute fabric's switches go with what they
serve instead, by the roles and wiring of ``planner.network.wiring`` (the cable schedule's):
a leaf in the hall of most of the nodes wired to it (a scalable unit's nodes and leaves in one
hall), a spine in the hall of most of its pod's leaves, the cores dealt evenly over the halls
in order (every spine reaches every core); a rack of switches in the hall most of them
belong in. So node-to-leaf runs stay in their hall but for a unit straddling two halls' share
of the GPU racks, leaf-to-spine runs but for a pod's leaves outside its spines' hall, and only
the core tier runs between halls and buildings. A hall then gets the CDUs its own heat to
liquid needs (a CDU's loop serves its own hall: ``Layout.hall_cdus``). Each hall's racks stand
in rows of the same length (``set_rows``' rule on the largest hall), the rows named by hall so
that no two halls share a row name. Halls stand side by side along their rows in a building,
buildings one behind the other on the campus, with the gaps of ``CampusSpec``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from planner.design.intent import CampusSpec
from planner.design.racks import row_length
from planner.facility.floor import floor_spots
from planner.hardware.catalog import Catalog
from planner.network.fabric import FabricSize, FabricSizingError, plan_fabric
from planner.network.wiring import fabric_nodes, fabric_roles, leaves_per_pod, placed_devices, rail_leaves, spine_pods
from planner.plan.model import Building, Hall, Placement, Plan, Rack
from planner.plan.rack_types import type_letter


def assign_halls(plan: Plan, spec: CampusSpec, catalog: Catalog) -> None:
    """Give the plan ``spec``'s buildings and halls and every rack its hall: the fabric's racks
    with the nodes their switches serve, each other kind of rack spread evenly over the halls."""
    plan.buildings = [Building(id=f"building-{b}", name=f"Building {b}", halls=[
        Hall(id=f"b{b}-hall-{h}", name=f"Hall {h}") for h in range(1, spec.halls_per_building + 1)])
        for b in range(1, spec.buildings + 1)]
    halls = plan.hall_ids()
    fabric = _Fabric.of(plan, catalog)
    for kind in _kinds([r for r in plan.racks if r.id not in fabric.racks]):
        n = len(kind)
        for i, hall_id in enumerate(halls):
            for rack in kind[i * n // len(halls):(i + 1) * n // len(halls)]:
                rack.hall = hall_id
    for rack_id, hall in fabric.halls(plan, halls).items():
        plan.rack(rack_id).hall = halls[hall]


@dataclass
class _Fabric:
    """The compute fabric's switches by role and the nodes they serve
    (``planner.network.wiring``'s rules), and the racks holding those switches and no node."""

    size: FabricSize | None = None
    roles: tuple[Sequence[Placement], ...] = ()
    nodes: list[Placement] = field(default_factory=list)
    owner: Any = None  # per fabric node, its placement's index in ``nodes``
    racks: set[str] = field(default_factory=set)
    topology: str = ""

    @classmethod
    def of(cls, plan: Plan, catalog: Catalog) -> _Fabric:
        fabric = plan.settings.fabric
        placed = placed_devices(plan, catalog)
        nodes = [p for p, d in placed if d.gpu is not None and d.compute_nic_count > 0]
        try:
            size = plan_fabric(Counter(p.device for p in plan.placements), catalog, fabric)
        except FabricSizingError:
            size = None
        if size is None or size.tiers < 2 or not nodes:
            return cls()
        roles = fabric_roles([p for p, d in placed if d.id == fabric.switch_device], size)
        with_nodes = {p.rack for p in nodes}
        racks = {p.rack for group in roles for p in group} - with_nodes
        return cls(size, roles, nodes, fabric_nodes(nodes, catalog)[0], racks, fabric.topology)

    def halls(self, plan: Plan, halls: list[str]) -> dict[str, int]:
        """The hall (its index in ``halls``) of each of ``racks``: the one most of its switches
        belong in. A leaf's: the hall of most of the nodes wired to it; a spine's: the hall of
        most of its pod's leaves; cores dealt evenly over the halls in order. The nodes' racks
        have their halls."""
        import numpy as np

        if self.size is None:
            return {}
        size, (leaves, spines, cores) = self.size, self.roles
        h = len(halls)
        index = {hall_id: i for i, hall_id in enumerate(halls)}
        node_hall = np.array([index[plan.rack(p.rack).hall] for p in self.nodes], dtype=np.int64)[self.owner]
        j, _, leaf = rail_leaves(len(self.owner), size.endpoints // len(self.owner), size, self.topology)
        wired = leaf < size.leaf_switches
        leaf_hall = _most(leaf[wired], node_hall[j[wired]], size.leaf_switches, h)
        pod_hall = _most(np.arange(size.leaf_switches, dtype=np.int64) // leaves_per_pod(size), leaf_hall,
                         len(size.pod_spines), h)
        want = {}
        for p, hall in zip(leaves, leaf_hall):
            want[p.id] = int(hall)
        for p, pod in zip(spines, spine_pods(size)):
            want[p.id] = int(pod_hall[pod])
        for c, p in enumerate(cores):
            want[p.id] = c * h // max(1, size.core_switches)
        votes: dict[str, Counter] = {}
        for p in (p for group in self.roles for p in group):
            if p.rack in self.racks:
                votes.setdefault(p.rack, Counter())[want[p.id]] += 1
        return {rack_id: v.most_common(1)[0][0] for rack_id, v in votes.items()}


def _most(group, hall, groups: int, halls: int):
    """For each of ``groups`` numbered groups, the hall most of its members (``group``,
    ``hall``: numpy columns, one row per member) stand in; the first such hall on a tie."""
    import numpy as np

    votes = np.bincount(group * halls + hall, minlength=groups * halls)[:groups * halls]
    return votes.reshape(groups, halls).argmax(axis=1)


def set_hall_rows(plan: Plan, spec: CampusSpec) -> None:
    """Every hall's racks in rows (named by hall), and the halls and buildings placed."""
    members: dict[str, list[Rack]] = {hall_id: [] for hall_id in plan.hall_ids()}
    for rack in plan.racks:
        members[rack.hall].append(rack)
    per = row_length(plan, max((len(m) for m in members.values()), default=0))
    for b, building in enumerate(plan.buildings, start=1):
        for h, hall in enumerate(building.halls, start=1):
            for i, rack in enumerate(members[hall.id]):
                rack.row = f"B{b}H{h}-{type_letter(i // per)}"
    _place(plan, spec)


def _kinds(racks: list[Rack]) -> list[list[Rack]]:
    """The racks by kind (their name without its number: "NVL-", "NET-"), kinds in order of
    first appearance, racks in plan order."""
    out: dict[str, list[Rack]] = {}
    for r in racks:
        out.setdefault(re.sub(r"\d+$", "", r.name), []).append(r)
    return list(out.values())


def _place(plan: Plan, spec: CampusSpec) -> None:
    """Hall origins in their building and building origins on the campus, from the largest
    hall's floor: halls ``hall_gap_m`` apart along the rows, buildings ``building_gap_m``
    apart across them."""
    width = depth = 0.0
    for rack_id, spot in floor_spots(plan, plan.settings.floor).items():
        rack = plan.rack(rack_id)
        width = max(width, spot.x_m + rack.width_mm / 2000)
        depth = max(depth, spot.y_m + rack.depth_mm / 2000)
    for j, building in enumerate(plan.buildings):
        building.y_m = round(j * (depth + spec.building_gap_m), 3)
        for i, hall in enumerate(building.halls):
            hall.x_m = round(i * (width + spec.hall_gap_m), 3)
