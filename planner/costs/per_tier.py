"""Cables and optics of a plan too large to route on every edit (over
``planner.costs.section.MAX_ROUTED_LINKS`` links), priced per fabric tier and per network.

Each fabric tier's links go by the medium and stock length their estimated lengths need
(``planner.costs.hall_tiers`` within a hall, ``planner.costs.campus_tiers`` between a
campus's halls), and so do the storage and management networks' runs (``hall_tiers``'
``network_runs``: from anywhere in a hall to its switches); each is priced from its catalog
cable, and the modules at both ends of its fibre runs by part as the routed schedule buys
them (``planner.costs.parts``). A one-tier fabric, or node-to-leaf runs the cost setting
puts on passive copper, one cable per link at the cost setting.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from planner.costs.bom import BomLine
from planner.costs.campus_tiers import _whole
from planner.costs.hall_tiers import STORAGE_TRUNKS
from planner.costs.parts import (CABLE_PREFIX, OPTIC_PREFIX, TIER_TITLES, _cable_line, _optic_line, _replace_part,
                                 buy_modules, cable_item, cable_part, fabric_node, run_connector)
from planner.hardware.catalog import Catalog, DeviceType
from planner.network.media import COPPER, Medium
from planner.network.ports import MANAGEMENT_GBPS, has_management_port, storage_network_nics
from planner.network.routes import IN_HALL, ROUTES

if TYPE_CHECKING:  # pragma: no cover
    from planner.costs.campus_tiers import CoreRuns
    from planner.costs.hall_tiers import HallRuns
    from planner.network.fabric import FabricSize
    from planner.settings.costs import CostSettings

# The reach a tier's runs need when they are not routed (multimode within a pod, single-mode to the cores).
TIER_MEDIUM = {"node-leaf": ("MMF", 50.0), "leaf-spine": ("MMF", 50.0), "spine-core": ("SMF", 500.0)}
# The per-tier estimate's rule for in-hall runs (``planner.costs.hall_tiers``), as a BOM line says it.
HALL_ASSUMPTION = ("planner assumption: node-to-leaf runs span a pod's node racks, switch-to-switch runs its "
                   "network racks, in rows from the switches' rack, each end up to the tray from where the design "
                   "stacks it; each hall holding fabric switches a share in proportion to its racks")
# The per-tier estimate's rule for a campus's core runs (``planner.costs.campus_tiers``), as a BOM line says it.
CORE_ASSUMPTION = ("planner assumption: a scalable unit and its pod in one hall; spine-to-core links go round all "
                   "the cores, from each hall to each in proportion to the fabric switches there; each run the "
                   "longest between its two halls")


def tier_lines(size: FabricSize | None, catalog: Catalog, counts: dict[str, int], switch_id: str,
               s: CostSettings, core: CoreRuns | None = None, parts: dict | None = None,
               hall: HallRuns | None = None, tiers: tuple[str, ...] | None = None) -> list[BomLine]:
    """Per fabric tier, for plans too large to route: one cable per link at the cost
    setting, and the sizing's optics (at both ends; none on node-to-leaf runs when the
    setting says passive copper) priced by part. ``core``: a campus's spine-to-core links by
    medium and length (``planner.costs.campus_tiers``), priced by their catalog cables and
    the optics each length needs. ``parts``: the catalog part chosen for each kind of run
    and end, kept by the caller while the catalog stays (each choice is a walk of the
    catalog: 0.1 ms of each pricing of campus-1m). ``hall``: the node-to-leaf and
    leaf-to-spine links by medium and length (``planner.costs.hall_tiers``), priced the same
    way; without it (one tier) one cable per link at the cost setting. ``tiers``: only these
    tiers' lines."""
    if size is None:
        return []
    parts = {} if parts is None else parts
    switch = catalog.get(switch_id)
    node = fabric_node(counts, catalog)
    note = ("Per fabric tier (the plan is too large to route every run on each edit: "
            "cluster-planner cables PLAN lists each run with its medium and length). ")
    port = switch.switch.gbps_per_port if switch is not None and switch.switch else 400.0
    lines = []

    def modules(links: int, ends: list, medium: str, reach: float, bought: Counter) -> str:
        """The modules at both ends of ``links`` runs of ``medium`` reaching ``reach``, added to
        ``bought``; the connector their fibre must end in (``run_connector``)."""
        return run_connector([buy_modules(catalog, parts, device, "compute", gbps, links, medium, reach, bought, per)
                              for device, per, gbps in ends])

    def optic_lines(tier: str, bought: Counter, why: str) -> None:
        for module_id, n in bought.items():
            m = catalog.components.get(module_id)
            what = m.model if m else f"{module_id} (no catalog module)"
            lines.append(_optic_line("compute", f"Transceiver, {TIER_TITLES[tier]}: {what}", n, m, s, why, tier))

    for tier, links in size.cables_by_tier().items():
        if links <= 0 or (tiers is not None and tier not in tiers):
            continue
        title = TIER_TITLES[tier]
        switch_ends = [(switch, size.switch_ports_per_module, port)] * 2
        dac = tier == "node-leaf" and s.node_leaf_dac
        nic = max((n.gbps for n in node.compute_nics()), default=port) if node is not None else port
        ends = [(node, size.node_ports_per_module, min(nic, port)), (switch, size.switch_ports_per_module, port)] \
            if tier == "node-leaf" else switch_ends
        if tier == "spine-core" and core is not None:
            how = f"spread over the halls ({CORE_ASSUMPTION})"
            by_length = {key: (routes, how) for key, routes in core.runs.items()}
        elif hall is not None and hall.links(tier) and not dac:
            how = f"by the lengths its halls give ({HALL_ASSUMPTION})"
            by_length = {key: ({ROUTES[IN_HALL]: n}, how) for key, n in hall.runs[tier].items()}
        else:
            by_length = None
        if by_length is not None:
            # the spine-to-core tier of a plan of one hall, by that hall's lengths, kept with
            # the parts while its runs (the same ``HallRuns``: ``hall_tiers`` keeps it), ends and
            # prices stay: the cost section prices it on every change that reaches the core,
            # though it reads the halls only through their run mixes (the tiers below the core
            # are kept whole in the evaluator's memo, ``planner.costs.section``)
            kept_key = ("tier lines", tier, id(hall), node.id if node is not None else None, switch_id, port, nic,
                        size.node_ports_per_module, size.switch_ports_per_module, s.cable_usd,
                        s.transceiver_usd) if tier == "spine-core" and core is None else None
            kept = parts.get(kept_key) if kept_key else None
            if kept is not None and kept[0] is hall:
                lines.extend(kept[1])
                continue
            start = len(lines)
            bought: Counter = Counter()
            # one line per catalog cable (a 10 m trunk serves the 7 m and the 10 m runs), naming
            # the lengths it serves; a length without a catalog cable a line of its own
            ordered: dict[tuple, list] = {}
            for (medium, stock), (routes, how) in sorted(by_length.items()):
                n = sum(routes.values())
                named = ", ".join(f"{k:,} {route}" for route, k in sorted(routes.items(),
                                                                          key=lambda kv: ROUTES.index(kv[0])))
                # each length's modules counted whole, and the cable ending in their connector
                connector = modules(n, ends, medium, stock, bought) if medium in ("MMF", "SMF") else ""
                cable = parts.get(("tier cable", medium, port, stock, connector), False)
                if cable is False:
                    cable = parts[("tier cable", medium, port, stock, connector)] = cable_part(
                        catalog, medium, port, stock, connector)
                bucket = (medium, cable.length_m if cable is not None else stock, cable is None,
                          cable.id if cable is not None else connector)
                ordered.setdefault(bucket, [cable, how, []])[2].append((stock, n, named))
            for (medium, length, *_), (cable, how, runs) in ordered.items():
                n = sum(k for _, k, _ in runs)
                said = "; ".join(f"{k:,} of {stock:g} m ({named})" for stock, k, named in runs)
                length = runs[0][0] if len(runs) == 1 else length  # one length: its own, else the cable's
                item = cable_item(Medium(medium, length, 0).part(port), cable)
                lines.append(_cable_line("compute", f"Fabric cable, {title}, {item}", n, cable, s,
                                         f"Per fabric tier, {how}: {n:,} runs of this cable: {said}. "))
            optic_lines(tier, bought, f"Per fabric tier, {how}: a module at each end of each fibre run, "
                                      "reaching its length. ")
            if kept_key:
                parts[kept_key] = (hall, tuple(lines[start:]))
            continue
        line = _cable_line("compute", f"Fabric cable, {title}", links, None, s, note)
        lines.append(line if not dac else _replace_part(line, "passive DAC"))
        if dac:
            continue
        medium, reach = TIER_MEDIUM[tier]
        bought = Counter()
        modules(links, ends, medium, reach, bought)
        optic_lines(tier, bought, note)
    return lines


# How the storage and management runs of a plan too large to route are estimated without a
# fabric to say where its halls' switches stand (``hall_tiers.network_runs`` otherwise).
MANAGEMENT_RUN_M = 30.0  # Planner assumption: a patch cord of the catalog's 30 m length bucket covers it
NETWORK_TIER = "node-leaf"  # Planner assumption: a storage run reaches as far as a node-to-leaf run


def network_ends(counts: dict[str, int], catalog: Catalog, storage_switch_id: str,
                 trunks: int = 0) -> list[tuple[str, DeviceType, float, int]]:
    """The device ends of the storage and management networks, by the ports
    ``planner.network.ports`` counts (as the cable schedule wires them): (network, device
    type, link speed, links) for each storage NIC port (a storage appliance's every port, at
    most the storage switch's port speed) and each management port (BMCs, 1 GbE); and the
    ``trunks`` switch-to-switch links of the storage network's leaf-spines (each hall's,
    ``planner.network.ports.hall_storage_networks``), the storage switch at the device end, as
    network ``STORAGE_TRUNKS`` (their runs span the storage switches' racks)."""
    switch = catalog.get(storage_switch_id)
    switch_gbps = switch.switch.gbps_per_port if switch is not None and switch.switch else None
    ends = []
    for device_id, n in sorted(counts.items()):
        d = catalog.get(device_id)
        if not n or d is None:
            continue
        for nic in storage_network_nics(d):
            ends.append(("storage", d, min(nic.gbps, switch_gbps or nic.gbps), n * nic.count))
        if has_management_port(d):
            ends.append(("management", d, MANAGEMENT_GBPS, n))
    if trunks and switch_gbps is not None:
        ends.append((STORAGE_TRUNKS, switch, switch_gbps, trunks))
    return ends


def network_links(ends: list[tuple[str, DeviceType, float, int]]) -> dict[tuple[str, float], int]:
    """The links of each network and speed of ``network_ends``' ends."""
    out: Counter = Counter()
    for network, _, gbps, links in ends:
        out[(network, gbps)] += links
    return dict(sorted(out.items()))


def network_lines(counts: dict[str, int], catalog: Catalog, storage_switch_id: str, s: CostSettings,
                  parts: dict | None = None, runs: dict[tuple[str, float], Counter] | None = None,
                  how: str = "", ends: list[tuple[str, DeviceType, float, int]] | None = None,
                  label: str = "") -> list[BomLine]:
    """The storage and management networks of a plan too large to route: a cable for each
    storage port and each management port (``network_ends``), as the cable schedule wires
    them. ``runs``: each network's links at each speed by (medium, stock length), as the
    halls give them (``planner.costs.hall_tiers.network_runs``, ``how`` its rule): a line per
    catalog cable, naming the lengths it serves, with a module at each end of each fibre run
    filling the cages of the device and of the storage switch (a management switch's port
    takes one SFP); none on copper and active optical cables. Without ``runs`` (no fabric to say where the halls' switches
    stand) a storage run is multimode reaching as far as a node-to-leaf run, a management
    run a Cat6A patch cord of ``MANAGEMENT_RUN_M``. ``ends``: ``network_ends``' of ``counts``
    where the caller has them already; ``label``: words that set its lines apart (the storage
    leaf-spines' own, ``trunk_lines``)."""
    parts = {} if parts is None else parts
    ends = network_ends(counts, catalog, storage_switch_id) if ends is None else ends
    if runs is None:
        runs = {key: Counter({(medium, stock): links}) for key, links in network_links(ends).items()
                for medium, stock in [("Cat6A", MANAGEMENT_RUN_M) if key[0] == "management" else
                                      TIER_MEDIUM["leaf-spine" if key[0] == STORAGE_TRUNKS else NETWORK_TIER]]}
        how = ("Per network (the plan is too large to route every run on each edit: cluster-planner cables PLAN "
               f"lists each run with its medium and length): planner assumption, a storage run multimode up to "
               f"{TIER_MEDIUM[NETWORK_TIER][1]:g} m, a management run a patch cord of up to {MANAGEMENT_RUN_M:g} m. ")
    switch = catalog.get(storage_switch_id)
    lines: list[BomLine] = []
    for network in ("storage", "management"):
        bought: Counter = Counter()
        # one line per catalog cable (a 10 m cable serves the 5 m and the 10 m runs, a fibre
        # trunk runs of every speed), naming the lengths it serves; a length without a catalog
        # cable a line of its own
        ordered: dict[tuple, list] = {}
        # the storage network's switch-to-switch runs are storage runs, their device end a storage switch
        nets = (network, STORAGE_TRUNKS) if network == "storage" else (network,)
        for (net, gbps), by_length in sorted(runs.items()):
            if net not in nets:
                continue
            mine: Counter = Counter()  # links by device type (a type's NIC blocks at this speed added up)
            devices = {}
            for n, d, g, links in ends:
                if n == net and g == gbps:
                    mine[d.id] += links
                    devices[d.id] = d
            for (medium, stock), n in sorted(by_length.items()):
                connector = ""
                if medium not in COPPER and medium != "AOC":
                    # the fibre runs' device ends dealt over the device types by their links, and
                    # the cable ending in the connector their modules take
                    total = sum(mine.values())
                    dealt = _whole(Counter({i: n * links / total for i, links in mine.items()}), n)
                    chosen = [buy_modules(catalog, parts, devices[i], network, gbps, k, medium, stock, bought)
                              for i, k in dealt.items() if k]
                    chosen.append(buy_modules(catalog, parts, switch if network == "storage" else None, network,
                                              gbps, n, medium, stock, bought))
                    connector = run_connector(chosen)
                cable = parts.get(("cable", medium, gbps, stock, connector), False)
                if cable is False:
                    cable = parts[("cable", medium, gbps, stock, connector)] = cable_part(
                        catalog, medium, gbps, stock, connector)
                any_speed = medium in ("MMF", "SMF", "Cat6A")
                bucket = (medium, None if any_speed else gbps, cable.length_m if cable is not None else stock,
                          cable is None, cable.id if cable is not None else connector)
                line = ordered.setdefault(bucket, [cable, gbps, Counter()])
                line[1] = max(line[1], gbps)  # a cable of any speed named by the fastest run it carries
                line[2][stock] += n
        for (medium, _, length, *_), (cable, gbps, served) in sorted(
                ordered.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0, kv[0][2], kv[0][4])):
            n = sum(served.values())
            said = "; ".join(f"{k:,} of {stock:g} m" for stock, k in sorted(served.items()))
            length = next(iter(served)) if len(served) == 1 else length  # one length: its own, else the cable's
            item = cable_item(Medium(medium, length, 0).part(gbps), cable)
            lines.append(_cable_line(network, f"{CABLE_PREFIX[network]}, {label + ', ' if label else ''}{item}", n, cable, s,
                                     f"{how}{n:,} runs of this cable: {said}. "))
        for module_id, n in bought.items():
            m = catalog.components.get(module_id)
            what = m.model if m else f"{module_id} (no catalog module)"
            ends_at = "the device and the storage switch" if network == "storage" else "the device and the switch"
            lines.append(_optic_line(network, f"{OPTIC_PREFIX[network]}{f' ({label})' if label else ''}: {what}", n, m, s,
                                     how + f"A module at each end of each fibre run, filling the cages of {ends_at}. "))
    return lines


def trunk_lines(catalog: Catalog, storage_switch_id: str, trunks: int, s: CostSettings, parts: dict | None = None,
                runs: dict[tuple[str, float], Counter] | None = None, how: str = "") -> list[BomLine]:
    """The storage leaf-spines' ``trunks`` switch-to-switch links of a plan too large to route
    (a storage switch at each end, ``network_ends``), as ``network_lines`` prices runs, by
    ``runs`` (``planner.costs.hall_tiers.estimate_trunk_runs``), in lines of their own ("switch
    to switch"): a drop that changes a hall's leaves reprices them alone."""
    ends = network_ends({}, catalog, storage_switch_id, trunks)
    return network_lines({}, catalog, storage_switch_id, s, parts, runs, how, ends, label="switch to switch")
