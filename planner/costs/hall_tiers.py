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
- a tier's racks are a square, each rack's share of the floor its footprint and half of each
  aisle across a 600 mm rack width (``campus_tiers.hall_corner_m``'s rule); the switches
  stand at a corner (the end of the unit's row) and the other ends at the centres of its
  racks (``GRID`` x ``GRID`` sampled when the square is larger), routed as the schedule routes
  them: up to the tray above the racks from mid-height of a 48U rack (EIA-310: 48 x 44.45
  mm), along and across the rows, down, plus the slack per link; a run inside one rack a
  third of its height (the mean distance between two points anywhere in it) plus the slack;
- a hall holding fabric switches takes a share of each tier's links in proportion to its
  racks (leaves and spines stand in the hall of the units they serve, and a designed hall's
  units fill it alike): a drop between halls leaves the shares, so the network's figures, and
  what reads them, change only when a hall's switch density moves a tier's span by a whole rack.

Each sampled run then takes ``choose_medium``'s medium and stock length; a tier's links are
dealt over those by the fractions of its samples (rounded to whole links that add up). On
the small templates forced through both paths the fabric's transceivers by part are within
3-12 % of the routed schedule's (``docs/models/network.md``).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from planner.network.cables import U_M
from planner.network.fabric import fabric_endpoints
from planner.network.media import choose_medium

GRID = 8  # racks sampled along each side of a tier's square: 64 runs
TALL_RACK_U = 48  # a 48U rack (EIA-310): its ends' devices anywhere in its height
MID_RACK_U = TALL_RACK_U // 2  # an end's device at mid-height
RACK_WIDTH_MM = 600.0  # as campus_tiers: each rack's share of the aisles across a 600 mm rack


@dataclass(frozen=True, slots=True)
class HallRuns:
    """A plan's in-hall fabric links by tier and (medium, stock length)."""

    runs: dict[str, Counter] = field(default_factory=dict)  # tier -> (medium, stock) -> links

    def links(self, tier: str) -> int:
        return sum(self.runs.get(tier, Counter()).values())


def rack_cell_m2(racks: int, footprint_mm2: int, floor) -> float:
    """A rack's share of its hall's floor: its footprint and half of each aisle across a 600 mm rack."""
    aisle_m = (floor.cold_aisle_mm + floor.hot_aisle_mm) / 2 / 1000
    return footprint_mm2 / 1e6 / max(1, racks) + RACK_WIDTH_MM / 1000 * aisle_m


def run_mix(span_racks: float, cell_m2: float, floor, gbps: float,
            own_rack: bool = False) -> tuple[tuple[tuple[str, float], float], ...]:
    """((medium, stock length), fraction of the runs) of a tier whose runs span
    ``span_racks`` racks of ``cell_m2`` each, the switches at a corner (module docstring);
    ``own_rack``: one run in ``span_racks`` stays in the switch's own rack (a switch-to-switch
    tier: its ends share the network racks)."""
    slack = floor.cable_slack_m
    inside = choose_medium(gbps, TALL_RACK_U / 3 * U_M + slack)  # a third of the rack's height, plus slack
    if span_racks <= 1:
        return (((inside.name, inside.stock_m), 1.0),)
    side = math.sqrt(span_racks * cell_m2)
    n = max(1, min(GRID, round(math.sqrt(span_racks))))
    centres = [(i + 0.5) * side / n for i in range(n)]  # from the switches' corner
    up = MID_RACK_U * U_M + floor.tray_above_rack_mm / 1000
    in_own = 1 / span_racks if own_rack else 0.0
    mix: Counter = Counter({(inside.name, inside.stock_m): in_own} if in_own else {})
    for x in centres:
        for y in centres:
            m = choose_medium(gbps, up + abs(x) + abs(y) + up + slack)
            mix[(m.name, m.stock_m)] += (1 - in_own) / (n * n)
    return tuple(sorted(mix.items()))


def tier_spans(size, gpu_racks: int, rails: int, topology: str) -> dict[str, float]:
    """Racks a run of each in-hall tier spans (module docstring): node-to-leaf a scalable
    unit's node racks and its leaves' rack; switch-to-switch tiers given as minus the
    switches of a pod (``hall_runs`` puts them in racks as each hall's switches stand).
    ``gpu_racks``: the racks holding the fabric's endpoints; ``rails``: a fabric node's links."""
    from planner.network.wiring import leaf_down_ports, leaves_per_pod

    per_rack = size.endpoints / max(1, gpu_racks)  # endpoints a GPU rack holds
    d = leaf_down_ports(size)
    rails = max(1, rails) if topology == "rail_optimized" else 1
    # a unit's d nodes on its rails' leaves (no more than the fabric has), and the leaves' rack
    unit = min(d * rails, size.endpoints) / per_rack + 1
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
            kinds[(hall.racks, hall.footprint_mm2, racks)] += hall.racks
    out: dict[str, Counter] = {}
    for tier, links in size.cables_by_tier().items():
        if (tier == "spine-core" and len(halls) > 1) or links <= 0 or tier not in spans:  # a campus's: campus_tiers'
            continue
        exact: Counter = Counter()
        for (racks, footprint, switch_span), weight in kinds.items():
            share = links * weight / total
            for key, fraction in mix_of(racks, footprint, tier, spans[tier] if spans[tier] > 0 else switch_span):
                exact[key] += share * fraction
        if exact:
            out[tier] = Counter({k: n for k, n in _whole(exact, links).items() if n > 0})
    return HallRuns(out)


def in_hall_runs(ctx, size) -> HallRuns | None:
    """The fabric's node-to-leaf and leaf-to-spine links (and a single hall's spine-to-core) by
    the lengths each hall's geometry gives them (``planner.costs.hall_tiers``), for a plan
    priced per tier. Each hall's run mix is kept in the evaluator's memo (while the floor
    settings stay) under the hall's racks, their footprint and the tier's span, so a drop
    works out at most the mixes of the two halls it changed; halls alike share theirs."""
    if size is None or size.tiers < 2 or not ctx.hall_fabric:
        return None
    switch = ctx.catalog.get(ctx.plan.settings.fabric.switch_device)
    if switch is None or switch.switch is None:
        return None
    fabric, floor = ctx.plan.settings.fabric, ctx.plan.settings.floor
    rails = ctx.memo.get("fabric rails", ("counts", "settings.fabric"), fabric_rails, ctx.counts, ctx.catalog,
                         switch.switch.gbps_per_port, fabric)
    spans = tier_spans(size, ctx.totals.gpu_racks, rails, fabric.topology)
    gbps = switch.switch.gbps_per_port
    mixes = ctx.memo.get("hall run mixes", ("settings.floor",), dict)  # kept while the floor settings stay

    def mix_of(racks, footprint_mm2, tier, span):
        own = tier != "node-leaf"
        key = (racks, footprint_mm2, round(span, 6), own, gbps)
        mix = mixes.get(key)
        if mix is None:
            mix = mixes[key] = run_mix(span, rack_cell_m2(racks, footprint_mm2, floor), floor, gbps, own)
        return mix

    return hall_runs(ctx.hall_fabric, size, spans, mix_of)


def fabric_rails(counts, catalog, gbps: float, fabric) -> int:
    """A fabric node's links: the most of any GPU system's (``planner.network.fabric.plan_fabric``'s rails)."""
    return max((fabric_endpoints(d, gbps, fabric)[1] for i in counts
                if (d := catalog.get(i)) is not None and d.gpu is not None), default=1)
