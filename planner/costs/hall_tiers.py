"""How long a big plan's in-hall fabric runs are, for plans too large to route every run:
node-to-leaf, leaf-to-spine and a single hall's spine-to-core runs priced by the lengths the
hall's geometry gives them, each run's medium and stock length given by the routed
schedule's own rules (``planner.network.cables.up_to_tray_m`` and ``in_rack_m`` for its
length, ``planner.network.media.medium_buckets`` and ``choose_medium`` for its medium), not
one reach per tier.

Estimated from each hall's racks, their footprint, its fabric switches and how many fabric
switches and nodes stand together (the evaluator's ``hall fabric``,
``planner.costs.campus_tiers.HallFabric``) and the fabric's sizing, never from where each
rack stands. What it reads of the halls is ``hall_kinds`` (halls alike add up), which a
drop changes only when it moves how many switches or nodes stand together in a hall by a
whole device: a drop between halls most often reads the estimate back (the evaluator's
memo, ``in_hall_runs``), and a changed kind works out only its own run mixes.

Assumptions (planner assumption, the structure ``planner.design`` gives a plan: a pod's node
racks in a row ending at its network racks, the fabric's switches stacked in them from U1 in
order, leaves then spines then cores):

- node-to-leaf runs span a pod's node racks (its leaves' down ports, at the hall's fabric
  nodes in a node's rack) and its leaves' rack: every node rack of the pod, rail-optimised
  or not, is cabled to the switches at the row's end;
- switch-to-switch runs (leaf to spine; a single hall's spine to core) span the racks a
  pod's leaves and spines stand in, at the hall's fabric switches in a switch's rack; the
  share of them inside one rack is ``same_rack_share``'s;
- a tier's other racks stand in rows of the floor's racks per row from the switches' rack
  (a rack width apart along a row; rows a rack's share of the floor over that width apart),
  up to ``SAMPLED`` of them;
- each end climbs to the tray as the schedule's runs do from the top U the design stacks it
  at (``stack``, up to ``HEIGHTS`` sampled): nodes from U1 of a 42U rack, a system as tall
  as a rack (an NVL72's trays) from the top of its own rack, switches from U1;
- a hall holding fabric switches takes a share of each tier's links in proportion to its
  racks (leaves and spines stand in the hall of the units they serve, and a designed hall's
  units fill it alike).

Each sampled run then takes its medium and stock length; a tier's links are dealt over those
by the fractions of its samples (rounded to whole links that add up). How close that is to
the routed schedule, template by template: ``docs/models/network.md``.

The storage and management networks' runs (``network_runs``) are estimated alike: the design
stands each hall's storage and management switches in its network racks (storage switches of
the fabric's own model in racks of their own after the fabric's) and the schedule wires a
hall's devices to them in order, so a run is taken to go from any of the hall's racks alike
(the switches' own rack as often as any other) to the switches' rack; the device end climbs
from where the hall's fabric nodes stack, the switch end from where its fabric switches do.
Management switches fill the network racks spread over a hall, so its management runs are
shorter than this takes them to be: on campus-400k the estimate buys 34,102 1 GbE LX modules
for runs past Cat6A's 100 m where the routed schedule buys 5,886 (``docs/models/cost.md``).

Why it is long: every in-hall run the bill prices without routing (the fabric's tiers and the
storage and management networks) takes its length from the one geometry here (``run_mix``:
rows from the switches' rack, each end up to the tray), so the estimate has one rule for all
of them.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from planner.network.cables import in_rack_m, up_to_tray_m
from planner.network.ports import MANAGEMENT_GBPS
from planner.network.technologies import nic_run_gbps
from planner.network.media import COPPER, choose_medium, medium_buckets
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

    def copper_links(self, node_leaf_dac: bool) -> int:
        """The runs short enough for copper (node-to-leaf ones left out when the cost setting
        puts every one of them on passive copper: they are counted there)."""
        return sum(n for tier, runs in self.runs.items() if not (tier == "node-leaf" and node_leaf_dac)
                   for (medium, _), n in runs.items() if medium in COPPER)


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


def same_rack_share(first: tuple[int, int], second: tuple[int, int], per_rack: int) -> float:
    """The share of the links between two groups of switches (every one of the first to every
    one of the second) that stay in one rack when the design stacks the fabric's switches in
    order, ``per_rack`` to a rack: the leaves, then the spines, then the cores
    (``planner.network.wiring.fabric_roles``). Each group: (the switches stacked before it,
    its switches)."""
    (a0, a), (b0, b) = first, second
    if a <= 0 or b <= 0:
        return 0.0
    per_rack = max(1, per_rack)

    def in_rack(start: int, n: int, rack: int) -> int:
        return max(0, min((rack + 1) * per_rack, start + n) - max(rack * per_rack, start))

    # only the racks holding switches of both groups
    racks = range(max(a0, b0) // per_rack, (min(a0 + a, b0 + b) - 1) // per_rack + 1)
    return sum(in_rack(a0, a, r) * in_rack(b0, b, r) for r in racks) / (a * b)


def run_mix(span_racks: float, cell_m2: float, floor, gbps: float, a: Stack, b: Stack,
            own_rack: float = 0.0) -> tuple[tuple[tuple[str, float], float], ...]:
    """((medium, stock length), fraction of the runs) of a tier whose runs span
    ``span_racks`` racks of ``cell_m2`` each, in rows from the switches' rack (module docstring), from
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


def tier_spans(size) -> tuple[float, int]:
    """(a pod's endpoints, a pod's switches): what a run of each in-hall tier spans, in racks
    as each hall stacks its nodes and switches (``hall_runs``). Node-to-leaf runs span a pod's
    node racks and its leaves' rack: the design stands a pod's switches at the end of its
    racks' row, so every node rack of the pod, rail-optimised or not, is cabled to them;
    switch-to-switch runs the racks a pod's leaves and spines stand in (a single hall's cores
    among them)."""
    from planner.network.wiring import leaf_down_ports, leaves_per_pod

    leaves = min(leaves_per_pod(size), size.leaf_switches)
    return (min(leaves * leaf_down_ports(size), size.endpoints),
            leaves + max(size.pod_spines, default=0))


def hall_kinds(halls: dict) -> tuple:
    """What the estimate reads of the halls holding fabric switches (``halls``: ``HallFabric``
    by hall id): ((racks, footprint, switches a rack, nodes a rack), racks of halls alike), in
    order. Halls alike (most of a campus's) share one mix; a drop between halls seldom
    changes it (the evaluator keeps it as the memo input "hall kinds")."""
    kinds: dict[tuple, int] = {}
    for hall in halls.values():
        if hall.switches and hall.racks:
            key = (hall.racks, hall.footprint_mm2, hall.stacked or 1, hall.nodes_stacked or 1)
            kinds[key] = kinds.get(key, 0) + hall.racks
    return tuple(sorted(kinds.items()))


def hall_runs(halls: dict, size, per_node: float, mix_of, kept: dict | None = None) -> HallRuns:
    """The fabric's in-hall links over the halls holding fabric switches by their racks
    (``halls``: ``HallFabric`` by hall id; the core tier of a campus of several halls is
    ``campus_tiers``'), each hall's by its run mix (``mix_of(racks, footprint_mm2, tier,
    span, switches a rack, nodes a rack)``: ``run_mix``'s, kept by the caller).
    ``per_node``: the fabric's endpoints per node. ``kept``: results by the halls' kinds and
    the fabric's tiers, kept by the caller while what ``mix_of`` reads stays (a drop between
    halls most often leaves them: the same ``HallRuns`` again)."""
    from planner.costs.campus_tiers import _whole

    kinds = dict(hall_kinds(halls))
    total = sum(kinds.values())
    if total <= 0:
        return HallRuns({})
    pod_endpoints, pod_switches = tier_spans(size)
    tiers = size.cables_by_tier()
    key = (tuple(kinds.items()), tuple(tiers.items()), pod_endpoints, pod_switches, per_node, len(halls) > 1)
    if kept is not None and key in kept:
        return kept[key]
    out: dict[str, Counter] = {}
    for tier, links in tiers.items():
        if (tier == "spine-core" and len(halls) > 1) or links <= 0:  # a campus's: campus_tiers'
            continue
        exact: Counter = Counter()
        for (racks, footprint, switches, nodes), weight in kinds.items():
            share = links * weight / total
            # to whole racks: a drop seldom changes a hall's stacking, and then seldom the span
            span = (round(pod_endpoints / (nodes * per_node)) + 1 if tier == "node-leaf"
                    else max(1, -(-pod_switches // switches)))
            for key, fraction in mix_of(racks, footprint, tier, span, switches, nodes):
                exact[key] += share * fraction
        if exact:
            out[tier] = Counter({k: n for k, n in _whole(exact, links).items() if n > 0})
    runs = HallRuns(out)
    if kept is not None:
        kept[key] = runs
    return runs


# The per-network estimate's rule for storage and management runs, as a BOM line says it.
NETWORK_ASSUMPTION = ("planner assumption: from any of a hall's racks alike to its switches' rack; a storage "
                      "leaf-spine's switch-to-switch runs among its switches' racks, as many to a rack as fit")
# The storage network's switch-to-switch links, as a network of their own in the estimate
# (their runs span the storage switches' racks, not the hall's): billed as storage runs.
STORAGE_TRUNKS = "storage switches"


def network_runs(halls: dict, links: dict[tuple[str, float], int], mix_of) -> dict[tuple[str, float], Counter]:
    """The storage and management links (``links``: (network, speed) -> links) over the halls
    holding fabric switches by their racks (``halls``: ``HallFabric`` by hall id), each hall's
    by its run mix (``mix_of(racks, footprint_mm2, gbps, switches a rack, nodes a rack)``:
    runs spanning all of the hall's racks), as (network, speed) -> (medium, stock) -> links.
    Empty without such a hall."""
    from planner.costs.campus_tiers import _whole

    kinds = dict(hall_kinds(halls))
    total = sum(kinds.values())
    out: dict[tuple[str, float], Counter] = {}
    if total <= 0:
        return out
    for (network, gbps), n in links.items():
        exact: Counter = Counter()
        for (racks, footprint, switches, nodes), weight in kinds.items():
            for key, fraction in mix_of(racks, footprint, gbps, switches, nodes):
                exact[key] += n * weight / total * fraction
        out[(network, gbps)] = Counter({k: m for k, m in _whole(exact, n).items() if m > 0})
    return out


def estimate_network_runs(ctx, links: dict[tuple[str, float], int], node=None) -> dict | None:
    """``network_runs`` for a plan priced per tier, from the halls' ``HallFabric``
    (``estimate_in_hall_runs`` reads the same), or None when no hall holds a fabric switch.
    ``links``: each network's links by speed (``planner.costs.per_tier.network_links``);
    ``node``: the fabric's node type, whose stacking the devices' ends take."""
    switch = ctx.catalog.get(ctx.plan.settings.fabric.switch_device)
    if not ctx.hall_fabric or switch is None or not any(h.switches for h in ctx.hall_fabric.values()):
        return None
    floor = ctx.plan.settings.floor
    mixes = ctx.memo.get("hall run mixes", ("settings.floor",), dict)  # kept while the floor settings stay
    node_u = node.u_height if node is not None else 1

    def mix_of(racks, footprint_mm2, gbps, per_rack, nodes_per_rack):
        key = ("network", racks, footprint_mm2, gbps, per_rack, nodes_per_rack, node_u, switch.u_height)
        mix = mixes.get(key)
        if mix is None:
            own = 1 / racks if gbps <= MANAGEMENT_GBPS else 0.0
            mix = mixes[key] = run_mix(racks, rack_cell_m2(racks, footprint_mm2, floor), floor, gbps,
                                       stack(node_u, nodes_per_rack), stack(switch.u_height, per_rack), own)
        return mix

    return network_runs(ctx.hall_fabric, links, mix_of)


def estimate_trunk_runs(ctx, trunks: dict, switch) -> dict[tuple[str, float], Counter]:
    """The storage leaf-spines' switch-to-switch links by the lengths each hall gives them
    (``trunks``: each hall's ``planner.network.ports.HallTrunks``, its links, switches, racks
    and footprint): its storage switches (``switch``) stand together, as many to a rack as its
    height holds (as the design stands a leaf-spine in network racks of its own), and a run
    stays in its rack as often as one rack of that span holds both ends; as
    {(``STORAGE_TRUNKS``, the switch's port rate): (medium, stock) -> links}."""
    from planner.costs.campus_tiers import _whole

    floor, gbps = ctx.plan.settings.floor, switch.switch.gbps_per_port
    mixes = ctx.memo.get("hall run mixes", ("settings.floor",), dict)  # kept while the floor settings stay
    per_rack = max(1, RACK_U // max(1, switch.u_height))
    exact: Counter = Counter()
    for hall in trunks.values():
        span = math.ceil(hall.switches / per_rack)
        key = ("storage trunks", span, per_rack, hall.racks, hall.footprint_mm2, gbps, switch.u_height)
        mix = mixes.get(key)
        if mix is None:
            stacked = stack(switch.u_height, per_rack)
            mix = mixes[key] = run_mix(span, rack_cell_m2(hall.racks, hall.footprint_mm2, floor), floor, gbps,
                                       stacked, stacked, 1 / span)
        for k, fraction in mix:
            exact[k] += hall.links * fraction
    total = sum(t.links for t in trunks.values())
    return {(STORAGE_TRUNKS, gbps): Counter({k: m for k, m in _whole(exact, total).items() if m > 0})} if exact else {}


def in_hall_runs(ctx, size, node=None) -> HallRuns | None:
    """``estimate_in_hall_runs``'s, kept in the evaluator's memo while the device counts (so
    the fabric's sizing and node), the halls' kinds (``hall_kinds``) and the fabric and floor
    settings stay: a drop between halls that leaves the kinds reads it back."""
    return ctx.memo.get("in-hall runs", IN_HALL_READS, estimate_in_hall_runs, ctx, size, node)


IN_HALL_READS = ("counts", "hall kinds", "settings.fabric", "settings.floor")


def estimate_in_hall_runs(ctx, size, node=None) -> HallRuns | None:
    """The fabric's node-to-leaf and leaf-to-spine links (and a single hall's spine-to-core) by
    the lengths each hall's geometry gives them (``planner.costs.hall_tiers``), for a plan
    priced per tier. Reads the halls' ``HallFabric`` only (racks, footprint, fabric switches,
    how many switches and nodes stand together): a drop changes it only when it changes one of
    those of a hall, and each run mix is kept in the evaluator's memo (while the floor
    settings stay), so it then works out at most the mixes of the two halls it changed.
    ``node``: the fabric's node type (``planner.costs.parts.fabric_node``)."""
    if size is None or size.tiers < 2 or not ctx.hall_fabric or not size.endpoints:
        return None
    switch = ctx.catalog.get(ctx.plan.settings.fabric.switch_device)
    if switch is None or switch.switch is None:
        return None
    from planner.network.wiring import leaves_per_pod

    fabric, floor = ctx.plan.settings.fabric, ctx.plan.settings.floor
    port = switch.switch.gbps_per_port
    # the node end as the schedule wires it: its trays' runs from the node's top U, at the
    # node's compute link rate
    node_gbps = min(port, max((nic_run_gbps(fabric, n.gbps) for n in node.compute_nics()), default=port)) \
        if node else port
    per_node = size.endpoints / max(1, ctx.counts.get(node.id, 0)) if node else 1.0
    # the switches at each end of a switch-to-switch tier, in the order the design stacks them
    leaves = min(leaves_per_pod(size), size.leaf_switches)  # a pod's, the first pod's spines after all leaves
    ends = {"leaf-spine": ((0, leaves), (size.leaf_switches, size.pod_spines[0] if size.pod_spines else 0)),
            "spine-core": ((size.leaf_switches, size.spine_switches),
                           (size.leaf_switches + size.spine_switches, size.core_switches))}
    mixes = ctx.memo.get("hall run mixes", ("settings.floor",), dict)  # kept while the floor settings stay
    # and the tiers' runs by the halls' kinds, while the node and switch types and settings stay
    kept = ctx.memo.get(("hall runs", node.id if node else "", switch.id, node_gbps, port, tuple(
        (t, e) for t, e in ends.items())), ("settings.floor",), dict)

    def mix_of(racks, footprint_mm2, tier, span, per_rack, nodes_per_rack):
        key = (racks, footprint_mm2, tier, span, per_rack, nodes_per_rack if tier == "node-leaf" else 0,
               ends.get(tier), node_gbps, port, node.id if node else "", switch.id)
        mix = mixes.get(key)
        if mix is None:
            switches = stack(switch.u_height, per_rack)
            if tier == "node-leaf":
                a, gbps, own = stack(node.u_height if node else 1, nodes_per_rack), node_gbps, 0.0
            else:
                a, gbps, own = switches, port, same_rack_share(*ends[tier], per_rack)
            mix = mixes[key] = run_mix(span, rack_cell_m2(racks, footprint_mm2, floor), floor, gbps, a, switches,
                                       own)
        return mix

    return hall_runs(ctx.hall_fabric, size, per_node, mix_of, kept)
