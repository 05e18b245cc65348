"""Where a campus's core runs go and how long they are, for plans too large to route every
run: estimated from each hall's device counts (the evaluator's hall sums) and the campus
geometry, in O(halls^2), never from where each rack stands, so a move inside a hall changes
nothing here.

Assumptions (planner assumption, the structure ``planner.design.campus`` gives a campus):

- a scalable unit and its pod stand in one hall, so node-to-leaf and leaf-to-spine runs stay
  in their hall and are priced per tier as one hall's (``planner.costs.parts.TIER_MEDIUM``);
- spine-to-core links are dealt round all the cores, so the links from hall ``a`` reach hall
  ``b`` in proportion to the fabric switches standing in each: ``L x f_a x f_b / F^2`` of the
  ``L`` spine-to-core links, ``f`` a hall's fabric switches and ``F`` all of them (over four
  buildings of equal halls about 3/4 cross buildings);
- every run between two halls is as long as the longest there: each end at the far corner
  of its hall from the hall's distribution area, up from the bottom of a 48U rack (EIA-310:
  48 x 44.45 mm) to the tray; a hall's racks and their aisles (each rack's footprint and half
  of each aisle across a 600 mm rack width, the usual 19-inch enclosure) taken as a square of
  side ``s``, its far corner ``2 s`` along and across the trays. Between halls and buildings
  the backbone of ``planner.network.routes`` (``between_halls_m``); within a hall corner to
  corner (``2 s``), plus the slack per link.

Each run then takes the medium and stock length that length needs (``choose_medium``) and
optics that reach it (DR 500 m, FR 2 km, LR 10 km); a run beyond every catalog reach of its
speed is the error the routed schedule gives (``network.cable.beyond_reach``).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from planner.findings import Finding
from planner.network.cables import U_M
from planner.network.media import choose_medium, medium_buckets
from planner.network.routes import (INTER_BUILDING, INTER_HALL, IN_HALL, ROUTES, beyond_reach_finding,
                                    between_halls_m, campus_backbone, reach_limit_m)
from planner.plan.campus import campus_of

TALL_RACK_U = 48  # the far end of a run: the bottom of a 48U rack
RACK_WIDTH_MM = 600.0  # the usual 19-inch IT enclosure's width, for each rack's share of the aisles


@dataclass(frozen=True, slots=True)
class CoreRuns:
    """The spine-to-core links by (medium, stock length): links of each route
    (``ROUTES`` names), and the errors of runs beyond every reach."""

    runs: dict[tuple[str, float], Counter] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()

    def links(self, key: tuple[str, float]) -> int:
        return sum(self.runs[key].values())


@dataclass(frozen=True, slots=True)
class HallFabric:
    """What the estimate reads of a hall: its racks, their footprint, its fabric switches and
    how many fabric switches and fabric nodes stand in a rack of one, on average over them
    (the sum of each rack's count squared over the count, to whole devices: a hall whose
    racks are filled in turn, the last one part full, stacks as many as its full racks). The
    evaluator keeps it as the memo input "hall fabric": a device moved between halls changes
    it only when it is a fabric switch, or moves a hall's stacking by a whole device."""

    racks: int
    footprint_mm2: int
    switches: int
    stacked: int = 0  # fabric switches in a switch's rack
    nodes_stacked: int = 0  # fabric nodes in a node's rack


def hall_fabric(halls: dict, switch_id: str, node_id: str | None = None) -> dict[str, HallFabric]:
    """Each hall's ``HallFabric`` from its sums (``planner.facility.rack_sums``), by hall id;
    ``node_id``: the fabric's node type (``planner.costs.parts.fabric_node``)."""
    return {h: HallFabric(s.racks, s.footprint_mm2, s.counts.get(switch_id, 0), _stacked(s, switch_id),
                          _stacked(s, node_id)) for h, s in halls.items()}


def _stacked(sums, device_id: str | None) -> int:
    n = sums.counts.get(device_id, 0) if device_id else 0
    return round(sums.squares.get(device_id, 0) / n) if n > 0 else 0


def hall_corner_m(hall: HallFabric, floor) -> float:
    """How far a hall's farthest rack stands from its distribution area along and across the
    trays (``2 s``, the module docstring's square of the racks and their aisles)."""
    aisle_m = (floor.cold_aisle_mm + floor.hot_aisle_mm) / 2 / 1000
    area_m2 = hall.footprint_mm2 / 1e6 + hall.racks * RACK_WIDTH_MM / 1000 * aisle_m
    return 2 * math.sqrt(area_m2)


@dataclass(frozen=True, slots=True)
class CoreGeometry:
    """What the estimate works out once for a campus's halls and floor, whatever the fabric
    switches in each: every hall pair's run (``length``, ``route``), the pairs grouped by the
    medium, stock length and route their runs take (``group``, one ``kinds`` entry each), and
    the pairs beyond every reach. Kept in the evaluator's memo while the halls' racks, the
    floor and the fabric settings stay: a fabric switch moved to another hall only deals the
    links anew (``core_runs``). On campus-1m (32 halls) working it out is 0.6 ms, dealing the
    links 0.1 ms."""

    ids: list[str]
    ha: Any
    hb: Any
    length: Any
    group: Any
    kinds: list[tuple[str, float, int]]  # (medium, stock length, route index) of each group
    far: Any  # pairs beyond every reach
    limit_m: float
    part: str | None
    gbps: float


def core_geometry(plan, halls: dict[str, HallFabric], gbps: float, catalog) -> CoreGeometry | None:
    """The campus's ``CoreGeometry`` from each hall's racks and their footprint (``halls``:
    ``hall_fabric`` by hall id; its switches are not read); None for one hall."""
    import numpy as np

    campus = campus_of(plan)
    if len(campus.halls) < 2:
        return None
    ids = list(campus.halls)
    floor = plan.settings.floor
    geo = campus_backbone(plan)
    n = len(ids)
    up = TALL_RACK_U * U_M + floor.tray_above_rack_mm / 1000
    corner = np.array([hall_corner_m(halls[h], floor) if h in halls else 0.0 for h in ids])
    ha, hb = (v.ravel() for v in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
    end = up + corner
    length = np.where(ha == hb, up + corner[ha] + up + floor.cable_slack_m,
                      between_halls_m(geo, floor, ha, hb, end[ha], end[hb]))
    building = np.array(geo.hall_building, dtype=np.int64)
    route = np.where(ha == hb, IN_HALL, np.where(building[ha] == building[hb], INTER_HALL, INTER_BUILDING))
    bucket = medium_buckets(gbps, length)  # equal for equal medium and stock length
    custom = bucket < 0  # beyond the longest stock length: a length of its own each
    bucket[custom] = -1 - np.round(length[custom] + 0.5).astype(np.int64)  # as choose_medium cuts them
    _, first, group = np.unique(bucket * len(ROUTES) + route, return_index=True, return_inverse=True)
    kinds = []
    for i in first:
        m = choose_medium(gbps, float(length[i]))
        kinds.append((m.name, m.stock_m, int(route[i])))
    limit_m, part = reach_limit_m(catalog, gbps)
    return CoreGeometry(ids, ha, hb, length, group.reshape(-1), kinds, length > limit_m + 1e-9, limit_m, part, gbps)


def core_runs(plan, geometry: CoreGeometry | None, halls: dict[str, HallFabric], links: int) -> CoreRuns | None:
    """The ``links`` spine-to-core links of a campus of several halls spread over the halls
    by the module docstring's rule (``halls``: ``hall_fabric`` by hall id, as the evaluator
    keeps it; ``geometry``: ``core_geometry``'s); None for one hall or no fabric switch in any."""
    import numpy as np

    if geometry is None or links <= 0:
        return None
    g = geometry
    f = np.array([halls[h].switches if h in halls else 0 for h in g.ids], dtype=np.float64)
    if f.sum() <= 0:
        return None
    share = links * np.outer(f, f).ravel() / f.sum() ** 2
    sums = np.bincount(g.group, weights=share, minlength=len(g.kinds))
    exact: Counter = Counter()  # (medium, stock, route) -> links, not yet whole
    for kind, total in zip(g.kinds, sums):
        if total > 0:
            exact[kind] += float(total)
    runs: dict[tuple[str, float], Counter] = {}
    for (medium, stock, r), k in _whole(exact, links).items():
        if k:
            runs.setdefault((medium, stock), Counter())[ROUTES[r]] += k
    far = np.flatnonzero((share > 0) & g.far)
    findings = ()
    if len(far):
        campus = campus_of(plan)
        longest = int(far[np.argmax(g.length[far])])
        beyond = round(float(share[far].sum()))
        (b_a, h_a), (b_b, h_b) = campus.halls[g.ids[g.ha[longest]]], campus.halls[g.ids[g.hb[longest]]]
        findings = (beyond_reach_finding(
            "spine-core", g.gbps, max(1, beyond), float(g.length[longest]), g.limit_m, g.part,
            f"{h_a.name} of {b_a.name} to {h_b.name} of {b_b.name}, as the per-tier estimate routes them", None),)
    return CoreRuns(runs, findings)


def _whole(exact: Counter, total: int) -> Counter:
    """The shares rounded to whole links adding up to ``total``: each rounded down, then one
    more to the largest remainders (ties in key order)."""
    out = Counter({k: int(v) for k, v in exact.items()})
    left = total - sum(out.values())
    for k in sorted(exact, key=lambda k: (-(exact[k] - int(exact[k])), k))[:max(0, left)]:
        out[k] += 1
    return out
