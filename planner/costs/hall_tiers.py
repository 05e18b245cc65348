"""How long a big plan's in-hall fabric runs are, for plans too large to route every run:
node-to-leaf, leaf-to-spine and a single hall's spine-to-core runs priced by the lengths the
hall's geometry gives them, with the medium and stock length
``planner.network.media.choose_medium`` picks for each (the routed schedule's own rule), not
one reach per tier.

Estimated from each hall's racks, their footprint, its fabric switches and the racks they
stand in (the evaluator's ``hall fabric``, ``planner.costs.campus_tiers.HallFabric``) and the
fabric's sizing, never from where each rack stands: a drop changes the estimate only when
it moves a hall's switch density far enough to change a tier's span by a whole rack, and
then only the mixes of the halls it changed are worked out again (the rest are kept in the
evaluator's memo, ``in_hall_runs``).

Assumptions (planner assumption, the structure ``planner.design`` gives a plan: a scalable
unit's node racks in a row with its leaves' network rack, a pod's switches in adjacent
network racks):

- node-to-leaf runs span a scalable unit's racks: its ``d`` x rails endpoints
  (``planner.network.wiring.leaf_down_ports``; ``d`` endpoints when not rail-optimised) at
  the plan's endpoints per GPU rack, plus its leaves' rack;
- switch-to-switch runs (leaf to spine; a single hall's spine to core) span the racks a
  pod's leaves and spines stand in, at the hall's fabric switches per rack holding one (at
  most the hall's racks holding one; to whole racks); one run in as many as those racks
  stays in the switch's own rack;
- a tier's other racks stand in rows of the floor's racks per row from the switches' rack
  (a rack width apart along a row; rows a rack's share of the floor over that width apart),
  up to ``SAMPLED`` of them; switch-to-switch runs stay in one rack in the share
  ``same_rack_share`` gives;
- each end climbs to the tray as the schedule's runs do (``planner.network.cables.up_to_tray_m``,
  ``in_rack_m`` inside a rack) from the top U the design stacks it at (``stack``): nodes from
  U1 of a 42U rack, a system as tall as a rack (an NVL72's trays) from the top of its own
  rack, switches from U1 at the hall's switches per switch rack;
- a hall holding fabric switches takes a share of each tier's links in proportion to its
  racks (leaves and spines stand in the hall of the units they serve, and a designed hall's
  units fill it alike): a drop between halls leaves the shares, so the network's figures, and
  what reads them, change only when a hall's switch density moves a tier's span by a whole rack.

Each sampled run then takes ``choose_medium``'s medium and stock length; a tier's links are
dealt over those by the fractions of its samples (rounded to whole links that add up). How
close that is to the routed schedule, template by template: ``docs/models/network.md``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from planner.network.cables import in_rack_m, up_to_tray_m
from planner.network.fabric import fabric_endpoints
from planner.network.technologies import nic_run_gbps
from planner.network.media import choose_medium, medium_buckets
from planner.plan.model import Rack

SAMPLED = 64  # racks sampled of a tier's span
HEIGHTS = 6  # device heights sampled at each end of a run
RACK_WIDTH_MM = 600.0  # as campus_tiers: each rack's share of the aisles across a 600 mm rack
RACK_U = Rack.model_fields["height_u"].default  # a rack's height unless a system fills a taller one


@dataclass(frozen=True, slots=True)
class HallRuns:
    """A plan's in-hall fabric links by tier and (medium, stock length)."""

    runs: dict[str, Counter] = field(default_factory=dict)  # tier -> (medium, stock) -> links

    def links(self, tier: str) -> int:
        return sum(self.runs.get(tier, Counter()).values())


@dataclass(frozen=True, slots=True)
class Stack:
    """Where the devices at one end of a tier's runs stand in their racks: the rack's height
    and the top U of each (a sample of at most ``HEIGHTS``)."""

    rack_u: int
    tops: tuple[int, ...]


def stack(u_height: int, per_rack: float) -> Stack:
    """``per_rack`` devices of ``u_height`` stacked from U1 as the design places them; a
    system as tall as a rack or taller (an NVL72: every tray's run leaves from its top) fills
    its own rack."""
    u_height = max(1, u_height)
    if u_height >= RACK_U:
        return Stack(u_height, (u_height,))
    n = max(1, min(round(per_rack), RACK_U // u_height))
    picks = range(n) if n <= HEIGHTS else (round(i * (n - 1) / (HEIGHTS - 1)) for i in range(HEIGHTS))
    return Stack(RACK_U, tuple(u_height * (i + 1) for i in picks))


def rack_cell_m2(racks: int, footprint_mm2: int, floor) -> float:
    """A rack's share of its hall's floor: its footprint and half of each aisle across a 600 mm rack."""
    aisle_m = (floor.cold_aisle_mm + floor.hot_aisle_mm) / 2 / 1000
    return footprint_mm2 / 1e6 / max(1, racks) + RACK_WIDTH_MM / 1000 * aisle_m


def same_rack_share(first: int, second: int, per_rack: int) -> float:
    """The share of the links between ``first`` switches and ``second`` switches (every one
    to every one) that stay in one rack when the design stacks them in order, the first
    then the second, ``per_rack`` to a rack (leaves then spines; spines then cores)."""
    if first <= 0 or second <= 0:
        return 0.0
    per_rack = max(1, per_rack)
    together = 0
    for rack in range(-(-(first + second) // per_rack)):
        lo, hi = rack * per_rack, (rack + 1) * per_rack
        together += max(0, min(hi, first) - lo) * max(0, min(hi, first + second) - max(lo, first))
    return together / (first * second)


def run_mix(span_racks: float, cell_m2: float, floor, gbps: float, a: Stack, b: Stack,
            own_rack: float = 0.0) -> tuple[tuple[tuple[str, float], float], ...]:
    """((medium, stock length), fraction of the runs) of a tier whose runs span
    ``span_racks`` racks of ``cell_m2`` each, the switches at a corner (module docstring), from
    devices stacked as ``a`` to devices stacked as ``b``: each run as the cable schedule routes
    it (``up_to_tray_m`` at each end, or ``in_rack_m`` inside one rack) and given its medium
    as the schedule gives it (``medium_buckets``, ``choose_medium``). ``own_rack``: the share of
    the runs that stay in the switch's own rack (``same_rack_share``)."""
    import numpy as np

    slack, tray = floor.cable_slack_m, floor.tray_above_rack_mm / 1000
    ta, tb = np.array(a.tops, dtype=np.float64), np.array(b.tops, dtype=np.float64)
    inside = in_rack_m(ta[:, None], tb[None, :], slack)
    inside = inside[ta[:, None] != tb[None, :]] if len(ta) * len(tb) > 1 else inside.ravel()
    in_own = 1.0 if span_racks <= 1 else own_rack
    parts = [(inside, in_own)] if in_own else []
    if in_own < 1:
        # the other racks in rows of the floor's racks per row from the switches' rack at the
        # end of the first (a row's racks a rack width apart, its rows a rack's share of the
        # floor over that width)
        others = max(1, round(span_racks) - 1)
        i = np.unique(np.round(np.linspace(1, others, min(others, SAMPLED))).astype(np.int64))
        per_row = max(1, floor.racks_per_row)
        width = RACK_WIDTH_MM / 1000
        along = (i % per_row) * width + (i // per_row) * (cell_m2 / width)
        ups = (up_to_tray_m(a.rack_u, ta, tray)[:, None] + up_to_tray_m(b.rack_u, tb, tray)[None, :]).ravel()
        parts.append(((ups[:, None] + along[None, :]).ravel() + slack, 1 - in_own))
    mix: Counter = Counter()
    for lengths, weight in parts:
        bucket = medium_buckets(gbps, lengths)
        _, first, n_of = np.unique(bucket, return_index=True, return_counts=True)
        for i, k in zip(first, n_of):
            m = choose_medium(gbps, float(lengths[i]))  # beyond every stock length: the first's
            mix[(m.name, m.stock_m)] += weight * int(k) / len(lengths)
    return tuple(sorted(mix.items()))


def tier_spans(size, gpu_racks: int, rails: int, topology: str) -> dict[str, float]:
    """Racks a run of each in-hall tier spans (module docstring): node-to-leaf a scalable
    unit's node racks and its leaves' rack; switch-to-switch tiers given as minus the
    switches of a pod (``hall_runs`` puts them in racks as each hall's switches stand).
    ``gpu_racks``: the racks holding the fabric's endpoints; ``rails``: a fabric node's links."""
    from planner.network.wiring import leaf_down_ports, leaves_per_pod

    per_rack = size.endpoints / max(1, gpu_racks)  # endpoints a GPU rack holds
    # a pod's endpoints (its leaves' down ports; no more than the fabric has) in their racks,
    # and its leaves' rack: the design stands a pod's switches at the end of its racks' row,
    # so every node rack of the pod, rail-optimised or not, is cabled to them
    unit = min(leaves_per_pod(size) * leaf_down_ports(size), size.endpoints) / per_rack + 1
    if size.tiers == 1:
        return {"node-leaf": unit}
    # switch-to-switch runs span the racks a pod's switches stand in: its leaves and spines (a
    # single hall's cores among them), in racks of the hall's switches per switch rack
    pod = leaves_per_pod(size) + max(size.pod_spines, default=0)
    return {"node-leaf": unit, "leaf-spine": -pod, "spine-core": -pod}


def hall_runs(halls: dict, size, spans: dict[str, float], mix_of) -> HallRuns:
    """The fabric's node-to-leaf and leaf-to-spine links over the halls holding fabric
    switches by their racks (``halls``: ``HallFabric`` by hall id), each hall's by its run mix (``mix_of(racks,
    footprint_mm2, tier, span)``: ``run_mix``'s, kept by the caller); ``spans``: ``tier_spans``'s
    (a negative span: that many switches, in racks as the hall's switches stand)."""
    from planner.costs.campus_tiers import _whole

    total = sum(h.racks for h in halls.values() if h.switches)
    if total <= 0:
        return HallRuns({})
    # each hall's racks, footprint and switch racks' span, once for every tier; halls alike
    # (most of a campus's) add up under one key and share one mix
    pod_switches = next((-span for span in spans.values() if span < 0), 0)
    kinds: Counter = Counter()
    for hall in halls.values():
        if hall.switches and hall.racks:
            # to whole racks: a switch moved between halls seldom changes it
            racks = max(1, round(min(hall.switch_racks, pod_switches * hall.switch_racks / hall.switches)))
            per_rack = round(hall.switches / max(1, hall.switch_racks))  # the switches stacked in each
            kinds[(hall.racks, hall.footprint_mm2, racks, per_rack)] += hall.racks
    out: dict[str, Counter] = {}
    for tier, links in size.cables_by_tier().items():
        if (tier == "spine-core" and len(halls) > 1) or links <= 0 or tier not in spans:  # a campus's: campus_tiers'
            continue
        exact: Counter = Counter()
        for (racks, footprint, switch_span, per_rack), weight in kinds.items():
            share = links * weight / total
            span = spans[tier] if spans[tier] > 0 else switch_span
            for key, fraction in mix_of(racks, footprint, tier, span, per_rack):
                exact[key] += share * fraction
        if exact:
            out[tier] = Counter({k: n for k, n in _whole(exact, links).items() if n > 0})
    return HallRuns(out)


def in_hall_runs(ctx, size, node=None) -> HallRuns | None:
    """The fabric's node-to-leaf and leaf-to-spine links (and a single hall's spine-to-core) by
    the lengths each hall's geometry gives them (``planner.costs.hall_tiers``), for a plan
    priced per tier. Each hall's run mix is kept in the evaluator's memo (while the floor
    settings stay) under the hall's racks, their footprint and the tier's span, so a drop
    works out at most the mixes of the two halls it changed; halls alike share theirs.
    ``node``: the fabric's node type (``planner.costs.parts.fabric_node``)."""
    if size is None or size.tiers < 2 or not ctx.hall_fabric:
        return None
    switch = ctx.catalog.get(ctx.plan.settings.fabric.switch_device)
    if switch is None or switch.switch is None:
        return None
    fabric, floor = ctx.plan.settings.fabric, ctx.plan.settings.floor
    rails = ctx.memo.get("fabric rails", ("counts", "settings.fabric"), fabric_rails, ctx.counts, ctx.catalog,
                         switch.switch.gbps_per_port, fabric)
    spans = tier_spans(size, ctx.totals.gpu_racks, rails, fabric.topology)
    port = switch.switch.gbps_per_port
    # the node end as the schedule wires it: its trays' runs from the node's top U, at the
    # node's compute link rate; the nodes stacked in the GPU racks as the design fills them
    nodes = stack(node.u_height, ctx.counts[node.id] / max(1, ctx.totals.gpu_racks)) if node else stack(1, 1)
    node_gbps = min(port, max((nic_run_gbps(fabric, n.gbps) for n in node.compute_nics()), default=port)) \
        if node else port
    from planner.network.wiring import leaves_per_pod

    # the switches at each end of a switch-to-switch tier, in the order the design stacks them
    ends = {"leaf-spine": (leaves_per_pod(size), max(size.pod_spines, default=0)),
            "spine-core": (size.spine_switches, size.core_switches)}
    mixes = ctx.memo.get("hall run mixes", ("settings.floor",), dict)  # kept while the floor settings stay

    def mix_of(racks, footprint_mm2, tier, span, per_rack):
        own = 0.0 if tier == "node-leaf" else same_rack_share(*ends[tier], per_rack)
        switches = stack(switch.u_height, per_rack)
        a, gbps = (nodes, node_gbps) if tier == "node-leaf" else (switches, port)
        key = (racks, footprint_mm2, round(span, 6), own, gbps, a, switches)
        mix = mixes.get(key)
        if mix is None:
            mix = mixes[key] = run_mix(span, rack_cell_m2(racks, footprint_mm2, floor), floor, gbps, a, switches,
                                       own)
        return mix

    return hall_runs(ctx.hall_fabric, size, spans, mix_of)


def fabric_rails(counts, catalog, gbps: float, fabric) -> int:
    """A fabric node's links: the most of any GPU system's (``planner.network.fabric.plan_fabric``'s rails)."""
    return max((fabric_endpoints(d, gbps, fabric)[1] for i in counts
                if (d := catalog.get(i)) is not None and d.gpu is not None), default=1)
