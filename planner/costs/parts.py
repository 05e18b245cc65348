"""Cables and optics in the bill of materials, priced by part from the catalog.

From the cable schedule (``planner.network.cables``), for plans small enough to route on
every edit: each run is counted by network, medium, speed and stock length and priced
from the catalog cable of that medium whose length is the next at or above the run's
(its length bucket) and whose speed is at or above the run's. Optics sit at both ends of
fibre runs: at each device, the fibre links of one speed and medium fill its cages
(``ports_per_module``: a twin-port OSFP serves two links, a port-split cage four), and
each module is priced from the catalog transceiver of that bandwidth, form factor (the
NIC's, or OSFP on twin-port switch cages, else the usual one for the speed) and medium
(SR on multimode, DR/FR on single-mode) that reaches the run, the cheapest if several do.

Plans too large to route are priced per fabric tier and per network by estimated lengths
(``planner.costs.per_tier``), with the same choice of each part and the same counting of
modules per cage (``buy_modules``), so the count the network section, the bill, the workbook
and the vendor pack show is one rule.

Links to a switch not placed yet are priced as the placed runs of their tier cost on average
(else of their network), so adding the switch adds its price. Whatever the catalog has no
part for, and such links where nothing is placed to compare, are priced at the cost settings
'Cable without a catalog price' and 'Transceiver without a catalog price', and the line
says so.

Why it is long: choosing each run's cable and each end's module, counting modules per cage
and pricing the runs to unplaced switches are one pricing rule, which the routed bill here and
the per-tier estimate (``planner.costs.per_tier``) share.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from planner.costs.bom import CABLING, BomLine
from planner.hardware.catalog import Catalog, DeviceType
from planner.hardware.parts import Component
from planner.network.media import optic_class
from planner.network.ports import storage_network_nics
from planner.network.routes import INTER_BUILDING, INTER_HALL, ROUTES
from planner.numbers import counted

if TYPE_CHECKING:  # pragma: no cover
    from planner.network.cables import CableSchedule
    from planner.settings.costs import CostSettings

TIER_TITLES = {"node-leaf": "node to leaf", "leaf-spine": "leaf to spine", "spine-core": "spine to core",
               "storage-spine": "storage leaf to spine", "storage-core": "storage spine to core"}
TIER_NETWORK = {"node-leaf": "compute", "leaf-spine": "compute", "spine-core": "compute", "storage": "storage",
                "storage-spine": "storage", "storage-core": "storage", "management": "management"}
CABLE_PREFIX = {"compute": "Fabric cable", "storage": "Storage cable", "management": "Management cable"}
OPTIC_PREFIX = {"compute": "Transceiver, fabric", "storage": "Storage transceiver",
                "management": "Management transceiver"}
# The usual form factor of a port at each speed when the device does not name one.
FORM_FACTORS = {1: "SFP", 10: "SFP+", 25: "SFP28", 100: "QSFP28", 200: "QSFP56", 400: "OSFP", 800: "OSFP"}
LONG_ROUTES = (ROUTES[INTER_HALL], ROUTES[INTER_BUILDING])  # the runs a cable line names


def cable_part(catalog: Catalog, medium: str, gbps: float, length_m: float, connector: str = "") -> Component | None:
    """The catalog cable for a run: same medium, the run's own speed where one reaches it (a
    copper or active cable's ends are its speed's cages: a 400G OSFP cable does not plug into
    a 200G QSFP56 port), else a faster one; length the next at or above the run's (fibre and
    Cat6A carry any speed), the cheapest of those.
    ``connector``: the one the run's optics take (``Component.fibre_connector``: MPO for
    parallel optics, LC for duplex ones); a fibre cable must end in it (one whose connector
    is not known fits any)."""
    any_speed = medium in ("MMF", "SMF", "Cat6A")
    fits = [c for c in catalog.components.values()
            if c.kind == "cable" and c.medium == medium and c.length_m is not None
            and c.length_m + 1e-9 >= length_m and (any_speed or c.gbps >= gbps)
            and (not connector or not c.fibre_connector or c.fibre_connector == connector)]
    return min(fits, key=lambda c: (not any_speed and c.gbps != gbps, c.length_m, c.gbps if not any_speed else 0,
                                    c.price_usd), default=None)


def module_part(catalog: Catalog, gbps: float, ports_per_module: int, form_factor: str, medium: str,
                reach_m: float) -> tuple[Component | None, int]:
    """(transceiver, links each module serves) for an end whose cages hold
    ``ports_per_module`` links of ``gbps``: a module with that many ports of that speed (a
    2 x 400G twin-port for two 400G links), else a multi-port module split to the cage's
    links (a 2 x 400G module as 4 x 200G), else single-port modules. Of those on
    ``medium`` that reach ``reach_m``, the ones of ``form_factor`` first, then the cheapest."""
    fibre = [c for c in catalog.components.values()
             if c.kind == "transceiver" and c.medium == medium and (c.reach_m or 0) + 1e-9 >= reach_m]
    per = ports_per_module
    choices = (
        ([c for c in fibre if c.gbps == gbps and c.ports == per], per),
        ([c for c in fibre if c.ports > 1 and c.gbps > gbps and math.isclose(c.gbps * c.ports, gbps * per)], per),
        ([c for c in fibre if c.gbps == gbps and c.ports == 1], 1),
    )
    for fits, serves in choices:
        if fits:
            return min(fits, key=lambda c: (not c.form_factor.startswith(form_factor), c.price_usd)), serves
    return None, 1


def end_cages(device: DeviceType | None, network: str, catalog: Catalog, gbps: float) -> tuple[int, str]:
    """(links per cage, form factor) at a device's end of a link of ``network``."""
    if device is None or network == "management":  # a BMC's port: one link a cage
        return 1, FORM_FACTORS.get(int(gbps), "")
    if device.switch is not None:
        per = device.switch.ports_per_module
        return per, "OSFP" if per >= 2 else FORM_FACTORS.get(int(gbps), "")
    nics = device.compute_nics() if network == "compute" else storage_network_nics(device)
    per = max((n.ports_per_module for n in nics), default=1)
    forms = [catalog.components[n.model].form_factor for n in nics if n.model in catalog.components]
    return per, forms[0].split()[0] if forms else FORM_FACTORS.get(int(gbps), "")


def end_modules(schedule: CableSchedule, catalog: Catalog, parts: dict | None = None) -> dict[tuple, tuple]:
    """The optics of each device, from the cable schedule: (network, site, speed, medium, optic
    class, tier) -> (catalog transceiver or None, modules). The fibre links of one tier, speed,
    medium and optic class (SR; DR, FR, LR by the run's length:
    ``planner.network.media.optic_class``, so both ends of a link take the same kind of optic)
    at a device fill its cages (``end_cages``), so a twin-port cage takes one module for two
    links; a cage holds links of one tier, as a switch's down-ports and up-ports are numbered
    apart (``planner.network.cables``); the module reaches the
    longest of those runs (``module_part``). A site is the schedule's device
    site (``CableSchedule.site_rack`` / ``site_u`` / ``site_device``). ``parts`` caches the part
    chosen for each kind of end."""
    parts = {} if parts is None else parts
    ends: dict[tuple, list] = {}  # a device's cages of one network, speed and medium: ends, longest run
    for (k, site), n in schedule.optical_ends().items():
        kind = schedule.kinds[k]
        group = ends.setdefault((kind.network, site, kind.gbps, kind.medium.name,
                                 optic_class(kind.medium.name, kind.medium.stock_m), kind.tier), [0, 0.0])
        group[0] += n
        group[1] = max(group[1], kind.medium.stock_m)
    out: dict[tuple, tuple] = {}
    for (network, site, gbps, medium, optic, tier), (n, reach) in ends.items():
        device_type = schedule.site_device_type[site]
        key = ("module", network, device_type, gbps, medium, reach)
        chosen = parts.get(key)
        if chosen is None:
            per, form = end_cages(catalog.get(device_type), network, catalog, gbps)
            chosen = parts[key] = module_part(catalog, gbps, per, form, medium, reach)
        module, serves = chosen
        out[(network, site, gbps, medium, optic, tier)] = (module, n if module is None else -(-n // serves))
    return out


def cable_item(part: str, cable: Component | None) -> str:
    """A cable line's name from its run's part ("single-mode fibre (OS2), 150 m"), naming an
    LC duplex cord ("single-mode fibre (OS2), LC duplex, 150 m") so that it is not one name
    with the MPO trunk of the same length (a line's name is its identity: price overrides)."""
    if cable is None or cable.fibre_connector != "LC" or ", " not in part:
        return part
    what, length = part.rsplit(", ", 1)
    return f"{what}, LC duplex, {length}"


def run_connector(modules) -> str:
    """The connector a run's fibre must end in, from the modules at its ends: the one most of
    them take, the first end's on a tie ('' when none says: any fibre fits)."""
    said = Counter(m.fibre_connector for m in modules if m is not None and m.fibre_connector)
    return said.most_common(1)[0][0] if said else ""


def run_connectors(optics: dict) -> dict[tuple, str]:
    """The connector the fibre of each kind of run must end in, from the optics at its ends
    (``end_modules``'s): (network, speed, medium, optic class, tier) -> MPO or LC, the one
    most of those modules take ('' when none says: any fibre fits)."""
    votes: dict[tuple, Counter] = {}
    for (network, _site, gbps, medium, optic, tier), (module, n) in optics.items():
        if module is not None and module.fibre_connector:
            votes.setdefault((network, gbps, medium, optic, tier), Counter())[module.fibre_connector] += n
    return {key: c.most_common(1)[0][0] for key, c in votes.items()}


def fabric_modules_per_tier(schedule: CableSchedule, optics: dict) -> dict[str, int]:
    """The compute fabric's modules by tier as ``schedule_lines`` buys them from ``optics``
    (``end_modules``'s): those at the ends of its fibre runs, and two for each link whose
    switch is not placed (assumed optical)."""
    out: Counter = Counter()
    for (network, *_, tier), (_module, n) in optics.items():
        if network == "compute":
            out[tier] += n
    for tier, n in schedule.unrouted.items():
        if TIER_NETWORK.get(tier) == "compute":
            out[tier] += 2 * n
    return dict(out)


def modules_by_speed(optics: dict) -> dict[str, int]:
    """Modules of every network by speed and optic class ("400G transceiver (SR)"), as
    ``schedule_lines`` buys them from ``optics`` (``end_modules``'s): a twin-port module is one."""
    out: Counter = Counter()
    for (_network, _site, gbps, _medium, optic, _tier), (_module, n) in optics.items():
        out[f"{gbps:g}G transceiver ({'LX' if gbps <= 1 else optic})"] += n
    return dict(sorted(out.items()))


def schedule_lines(schedule: CableSchedule, catalog: Catalog, s: CostSettings,
                   optics: dict | None = None, parts: dict | None = None) -> list[BomLine]:
    """Cables by network, medium, speed and stock length, optics by network and module,
    from the cable schedule; runs to switches that are not placed as the placed runs cost.
    ``optics``: ``end_modules``'s, when the caller has them (``parts`` the parts it chose)."""
    parts = {} if parts is None else parts  # the catalog part chosen for each kind of run and end
    optics = end_modules(schedule, catalog, parts) if optics is None else optics
    connectors = run_connectors(optics)
    def line_of(kind) -> tuple:  # a kind of run's cable line: its part, and the connector of its optics
        medium = kind.medium
        connector = connectors.get((kind.network, kind.gbps, medium.name, optic_class(medium.name, medium.stock_m),
                                    kind.tier), "") if medium.name in ("MMF", "SMF") else ""
        return kind.network, kind.part, medium.name, kind.gbps, medium.stock_m, connector

    cables: Counter = Counter()
    # (tier or network, name) -> its placed runs, and what their cables and optics cost (the
    # storage and management tiers are named as their networks: a key of each kind)
    placed_links: Counter = Counter()
    cable_cost: Counter = Counter()
    for kind, n in schedule.kind_counts():
        line = line_of(kind)
        cables[line] += n
        if schedule.unrouted:
            c = parts.get(("cable", *line[2:]), False)
            if c is False:
                c = parts[("cable", *line[2:])] = cable_part(catalog, *line[2:])
            for key in (("tier", kind.tier), ("network", kind.network)):
                placed_links[key] += n
                cable_cost[key] += n * (c.price_usd if c is not None else s.cable_usd)
    between: dict[tuple, Counter] = {}  # the runs between halls and buildings of each cable line
    for (k, route), n in schedule.routes_by_kind().items():
        if route in LONG_ROUTES:
            between.setdefault(line_of(schedule.kinds[k]), Counter())[route] += n
    lines = []
    for (network, part, medium, gbps, stock, connector), n in sorted(cables.items(), key=lambda kv: (
            list(CABLE_PREFIX).index(kv[0][0]), kv[0][1], kv[0][5])):
        c = parts.get(("cable", medium, gbps, stock, connector), False)
        if c is False:
            c = parts[("cable", medium, gbps, stock, connector)] = cable_part(catalog, medium, gbps, stock, connector)
        long = between.get((network, part, medium, gbps, stock, connector))
        routes = f" ({', '.join(f'{m:,} {route}' for route, m in long.items())})" if long else ""
        lines.append(_cable_line(network, f"{CABLE_PREFIX[network]}, {cable_item(part, c)}", n, c, s,
                                 f"Cable schedule: {n:,} runs of this medium and length{routes}. "))
    modules: Counter = Counter()
    missing: Counter = Counter()
    optic_cost: Counter = Counter()
    for (network, _site, gbps, medium, _optic, tier), (module, n) in optics.items():
        for key in (("tier", tier), ("network", network)):
            optic_cost[key] += n * (module.price_usd if module is not None else s.transceiver_usd)
        if module is None:
            missing[(network, f"{gbps:g}G {'multimode' if medium == 'MMF' else 'single-mode'}")] += n
        else:
            modules[(network, module.id)] += n
    for (network, module_id), n in sorted(modules.items(), key=lambda kv: (list(OPTIC_PREFIX).index(kv[0][0]),
                                                                           kv[0][1])):
        m = catalog.components[module_id]
        lines.append(_optic_line(network, f"{OPTIC_PREFIX[network]}: {m.model}", n, m, s,
                                 "Cable schedule: a module at each end of each fibre run, one per cage "
                                 f"({counted(m.ports, 'link')} each). "))
    for (network, what), n in sorted(missing.items()):
        lines.append(_optic_line(network, f"{OPTIC_PREFIX[network]}: {what} (no catalog module)", n,
                                 None, s, "Cable schedule: a module at each end of each fibre run. "))
    for tier, n in sorted(schedule.unrouted.items()):
        network = TIER_NETWORK.get(tier, "compute")
        title = TIER_TITLES.get(tier, tier)
        # priced as the tier's placed runs cost on average, else the network's: adding the
        # switch then adds its price, not the difference from a fallback price
        key = ("tier", tier) if placed_links[("tier", tier)] else ("network", network)
        placed = placed_links[key]
        like = f"as the {placed:,} placed {title if key[0] == 'tier' else network + ' network'} runs cost on average"
        lines.append(_cable_line(network, f"{CABLE_PREFIX[network]}, {title} (switch not placed)", n,
                                 None, s, f"{n:,} links whose switch is not placed: length and medium unknown. ",
                                 (cable_cost[key] / placed, like) if placed else None))
        lines.append(_optic_line(network, f"{OPTIC_PREFIX[network]}: {title} (switch not placed)",
                                 2 * n, None, s, "Assumed optical, a module at each end. ", tier,
                                 (optic_cost[key] / (2 * placed), like) if placed and optic_cost[key] else None))
    return lines


def buy_modules(catalog: Catalog, parts: dict, device: DeviceType | None, network: str, gbps: float, links: int,
                medium: str, reach: float, bought: Counter, per: int | None = None) -> Component | None:
    """Add to ``bought`` the modules at ``device``'s end of ``links`` runs of ``network`` at
    ``gbps`` on ``medium`` reaching ``reach``, ``per`` links a cage (default: the device's
    cages, ``end_cages``); the part chosen is kept in ``parts`` and returned."""
    key = ("tier module", network, device.id if device is not None else None, per, gbps, medium, reach)
    chosen = parts.get(key)
    if chosen is None:
        cages, form = end_cages(device, network, catalog, gbps)
        chosen = parts[key] = module_part(catalog, gbps, cages if per is None else per, form, medium, reach)
    module, serves = chosen
    bought[module.id if module else f"{gbps:g}G"] += -(-links // serves)
    return module


def fabric_node(counts: dict[str, int], catalog: Catalog) -> DeviceType | None:
    """The GPU node type with the most compute NICs (it sets the fabric's rails)."""
    nodes = [d for i in counts if (d := catalog.get(i)) is not None and d.gpu is not None and d.compute_nics()]
    return max(nodes, key=lambda d: d.compute_nic_count, default=None)


def _cable_line(network: str, item: str, n: int, c: Component | None, s: CostSettings,
                why: str, like: tuple[float, str] | None = None) -> BomLine:
    counts = "cable" if network == "compute" else None
    if c is None and like is not None:
        return BomLine(CABLING, item, "cable, as the placed runs", n, like[0], why + f"Price: {like[1]}",
                       counts_as=counts, part_kind="cable")
    if c is None:
        return BomLine(CABLING, item, "cable (no catalog part)", n, s.cable_usd,
                       why + "Price: cost assumption 'Cable without a catalog price'", "cable_usd", counts_as=counts,
                       part_kind="cable")
    return BomLine(CABLING, item, c.title, n, c.price_usd,
                   why + f"Price: catalog '{c.id}' ({c.length_m:g} m length bucket): {c.price_source or c.source}",
                   counts_as=counts, part_kind="cable", part_id=c.id)


def _optic_line(network: str, item: str, n: int, m: Component | None, s: CostSettings,
                why: str, tier: str | None = None, like: tuple[float, str] | None = None) -> BomLine:
    counts = "transceiver" if network == "compute" else None
    if m is None and like is not None:  # half a placed run's optics a module: two ends a link
        return BomLine(CABLING, item, "transceiver, as the placed runs", n, like[0],
                       why + f"Price: half of what a link's optics cost, {like[1]}", counts_as=counts,
                       part_kind="transceiver", tier=tier)
    if m is None:
        return BomLine(CABLING, item, "transceiver (no catalog part)", n, s.transceiver_usd,
                       why + "Price: cost assumption 'Transceiver without a catalog price'", "transceiver_usd",
                       counts_as=counts, part_kind="transceiver", tier=tier)
    return BomLine(CABLING, item, m.title, n, m.price_usd,
                   why + f"Price: catalog '{m.id}' ({m.form_factor}, {m.gbps * m.ports:g}G, "
                   f"{m.reach_m:g} m): {m.price_source or m.source}", counts_as=counts, part_kind="transceiver",
                   part_id=m.id, tier=tier)


def _replace_part(line: BomLine, part: str) -> BomLine:
    return replace(line, part=part)
