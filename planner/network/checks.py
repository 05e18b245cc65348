"""Findings about the compute fabric: the networking advice of N. Dixit, "The GPU Cluster That
Actually Works for Deep Learning in 2026", SIVARO, made live.

Every function looks at aggregate device counts (O(device types)), never at devices.

Why it is long: each finding about the fabric (NICs, switches and the technology they speak,
ports placed against ports needed, unused switches, the guide's design advice) is a short
rule with its message; they read the one summary of the nodes placed (``planner.hardware.nodes``).
"""

from __future__ import annotations

from collections.abc import Mapping

from planner.hardware.catalog import Catalog, DeviceType
from planner.hardware.nodes import NodeSummary
from planner.network.ports import MANAGEMENT_SWITCHES, HallStorage, storage_ports, storage_switches_needed
from planner.network.technologies import TECHNOLOGIES, fabric_at_nic_rate, links_to, speaks, switch_with_most_ports
from planner.network.fabric import FabricSize, FabricSizingError, plan_fabric
from planner.findings import Finding, Remedy
from planner.numbers import counted
from planner.settings import GUIDE, FabricSettings, WorkloadSettings


def switch_findings(fabric: FabricSettings, switch: DeviceType, nodes: NodeSummary,
                    catalog: Catalog | None = None) -> list[Finding]:
    """Switch model vs the fabric technology and speed, and NICs vs switch ports (errors); a
    mismatched switch's fix is the catalog's switch for the fabric with the most ports."""
    out: list[Finding] = []
    tech = TECHNOLOGIES[fabric.technology]
    sw = switch.switch
    if not speaks(switch, fabric.technology):
        best = switch_with_most_ports(catalog or (), fabric.technology, nodes.nic_lane_gbps)
        out.append(Finding(
            "error", "network.switch.mismatch",
            f"The fabric switch {switch.title} has {sw.gbps_per_port:g} Gb/s {sw.technology} ports; the compute "
            f"fabric is {tech.title} ({tech.line_rate_gbps:g} Gb/s {tech.switch_technology}): choose a matching "
            f"switch model or fabric",
            remedy=None if best is None else Remedy("set_fabric_switch", f"Use {best.title} for the {tech.title} fabric",
                                                    (("device", best.id),))))
    # A NIC that spreads its rate over planes (ConnectX-8: two 400G links) needs only a plane's rate.
    link = nodes.nic_link_gbps
    if link is not None and fabric.nic_link_gbps is not None and fabric.nic_link_gbps < link:
        out.append(Finding(
            "info", "network.nic.link_rate",
            f"Compute NIC links run at {fabric.nic_link_gbps:g} Gb/s (the plan's compute NIC link rate), below "
            f"the NICs' {link:g} Gb/s: the fabric and its cables are sized and timed at that rate"))
        link = fabric.nic_link_gbps
    if link is not None and link > sw.gbps_per_port:
        out.append(Finding(
            "error", "network.nic.faster_than_switch",
            f"Compute NICs run at {nodes.nic_gbps:g} Gb/s but the {switch.model} ports carry {sw.gbps_per_port:g} "
            f"Gb/s: the links train down and the NICs' bandwidth is lost",
            remedy=Remedy("set_nic_rate", f"Run the compute NIC links at {sw.gbps_per_port:g} Gb/s, the switch "
                          "ports' rate", (("gbps", round(sw.gbps_per_port)),))))
    if nodes.nic_technologies and nodes.nic_technologies != {sw.technology}:
        nic_tech = ", ".join(sorted(nodes.nic_technologies))
        if sw.technology in nodes.nic_modes:
            out.append(Finding(
                "info", "network.nic.port_mode",
                f"The nodes' compute NICs are listed as {nic_tech} and run {sw.technology} too (VPI adapters): "
                f"their ports are set to {sw.technology} for this fabric when the cluster is deployed (NVIDIA "
                f"mlxconfig LINK_TYPE), with {sw.technology} cables and optics"))
        else:
            mixed = len(nodes.nic_technologies) > 1
            out.append(Finding(
                "error", "network.nic.technology",
                (f"Some of the nodes' compute NICs ({nic_tech}) cannot run {sw.technology}, the fabric switches': "
                 f"choose nodes whose NICs all speak {sw.technology}" if mixed else
                 f"The nodes' compute NICs are {nic_tech} and cannot run {sw.technology}, the fabric switches': "
                 f"choose an {nic_tech} fabric or nodes whose NICs speak {sw.technology}")))
    if speaks(switch, fabric.technology) and not links_to(switch, nodes.nic_lane_gbps):
        fits = switch_with_most_ports(catalog or (), fabric.technology, nodes.nic_lane_gbps)
        out.append(Finding(
            "error", "network.nic.lanes",
            f"The compute NICs signal at {nodes.nic_lane_gbps:g} Gb/s a lane and the {switch.title}'s ports at "
            f"{sw.lane_gbps:g}: they cannot link at {sw.gbps_per_port:g} Gb/s"
            + (f"; {fits.title} runs their lanes" if fits is not None else "; no catalog switch of this fabric does"),
            remedy=None if fits is None else Remedy("set_fabric_switch", f"Use {fits.title}, whose ports run the "
                                                    "NICs' lanes", (("device", fits.id),))))
    return out


def nic_rate_findings(counts: dict[str, int], catalog: Catalog, fabric: FabricSettings, switch: DeviceType,
                      nodes: NodeSummary, size: FabricSize | None) -> list[Finding]:
    """NIC links slower than the fabric's ports (400G ConnectX-7 on 800G XDR ports): a
    warning where the same kind of fabric at the links' rate, on its switch with the most
    ports, takes fewer switches for the same links (each 800G port carries one 400G link, so
    a Quantum-X800 holds 144 of them unsplit, 288 split), with that fabric as its fix."""
    link = nodes.nic_gbps  # a NIC's whole rate: a ConnectX-8's two 400G planes run one 800G link on XDR
    sw = switch.switch
    if fabric.nic_link_gbps is not None and link is not None:
        link = min(link, fabric.nic_link_gbps)
    if (size is None or link is None or link >= sw.gbps_per_port
            or sw.technology not in (nodes.nic_modes or nodes.nic_technologies)):
        return []
    found = fabric_at_nic_rate(catalog, fabric.technology, link, switch, nodes.nic_lane_gbps)
    if found is None:
        return []
    tech, best = found
    at_rate = fabric.model_copy(update={"technology": tech.id, "switch_device": best.id})
    try:
        alt = plan_fabric(counts, catalog, at_rate)
    except FabricSizingError:
        return []
    if alt is None or alt.switches >= size.switches:
        return []
    return [Finding(
        "warning", "network.nic.slower_than_switch",
        f"Compute NIC links run at {link:g} Gb/s on the {sw.gbps_per_port:g} Gb/s ports of {switch.model}, each "
        f"leaving {1 - link / sw.gbps_per_port:.0%} of its port unused: the fabric takes {size.switches:,} switches "
        f"where {tech.title} on {best.model} carries the same links on {alt.switches:,}",
        remedy=Remedy("set_fabric", f"Run the fabric as {tech.title} on {best.title}",
                      (("technology", tech.id), ("device", best.id),
                       ("sharp", "on" if fabric.sharp and tech.sharp_capable else "off"))))]


def unused_switch_findings(counts: dict[str, int], catalog: Catalog, fabric: FabricSettings, *,
                           halls: int = 1) -> list[Finding]:
    """Switches placed that no network of the plan uses: neither the compute fabric's model,
    the storage network's nor a management switch (left over from a fabric changed since),
    and, in a plan of one hall, storage switches beyond what its storage ports need (a
    campus places them hall by hall, each hall's rounded up)."""
    out = []
    for device_id, n in sorted(counts.items()):
        d = catalog.get(device_id)
        if d is None or d.switch is None or n <= 0 or device_id == fabric.switch_device or (
                device_id in MANAGEMENT_SWITCHES):
            continue
        if device_id == fabric.storage_switch_device:  # beyond what the storage network's ports need
            need = storage_switches_needed(storage_ports(counts, catalog), d.switch.ports,
                                           fabric.storage_oversubscription)
            surplus = n - need if halls == 1 else 0
            if surplus <= 0:
                continue
            why = f"more than the storage network's ports need ({n - surplus:,})"
        else:
            surplus = n
            why = (f"no network of the plan uses them (the compute fabric's switch is {fabric.switch_device}, "
                   f"the storage network's {fabric.storage_switch_device})")
        out.append(Finding(
            "warning", "network.switch.unused",
            f"{surplus:,} x {d.title} placed: {why}, as after a change of fabric; they are priced and powered",
            remedy=Remedy("remove_devices", f"Take {surplus:,} x {d.model} out", (("device", device_id),
                                                                                ("count", surplus)))))
    return out


def storage_switch_findings(networks: Mapping[str, HallStorage] | None,
                            has_storage: bool, names: Mapping[str, str], catalog: Catalog,
                            fabric: FabricSettings, fabric_switches: int) -> list[Finding]:
    """A separate storage network with fewer switches placed than its ports need, or more ports
    than three tiers of its switch hold. ``networks``: each hall's
    (``planner.network.ports.hall_storage_networks``; None: storage has no switches of its own); ``has_storage``: whether a storage appliance is placed
    (without one the hosts' storage ports have nothing to reach: ``storage.none``); ``names``
    each hall's name. Of the fabric's own model, the placed switches past the
    ``fabric_switches`` its fabric needs (in a plan of one hall: a campus's fabric switches of
    that model are not told apart by hall, so there it says nothing of counts)."""
    d = catalog.get(fabric.storage_switch_device)
    if not networks or not has_storage or d is None or d.switch is None:
        return []
    out = []
    beyond = [h for h, n in networks.items() if n.ports and n.size is None]
    if beyond:
        k = d.switch.ports
        out.append(Finding(
            "error", "network.storage.too_large",
            f"The storage network of {_halls_named(beyond, names)} has more ports ({max(networks[h].ports for h in beyond):,}) "
            f"than three tiers of {d.model} hold at {fabric.storage_oversubscription:g}:1 (at most "
            f"{k ** 3 // 4:,} non-blocking): choose a storage switch with more ports"))
    shared = d.id == fabric.switch_device
    if shared and len(networks) > 1:
        return out
    short: dict[str, tuple[int, int, FabricSize]] = {}
    for hall_id, n in networks.items():
        size = n.size
        if not n.ports or size is None:
            continue
        need = size.leaf_switches + size.spine_switches + size.core_switches
        placed = n.switches - (fabric_switches if shared else 0)
        if placed < need:
            short[hall_id] = (need, max(0, placed), size)
    if not short:
        return out
    missing = sum(need - placed for need, placed, _ in short.values())
    if len(networks) == 1:
        (need, placed, size), = short.values()
        ports = next(iter(networks.values())).ports
        shape = ("one switch" if size.tiers == 1 else
                 f"a leaf-spine at {fabric.storage_oversubscription:g}:1 of {size.leaf_switches:,} leaves, "
                 f"{counted(size.spine_switches, 'spine')}" + (f" and {size.core_switches:,} cores"
                                                                if size.core_switches else ""))
        out.append(Finding(
            "error", "network.storage.short",
            f"The storage network's {ports:,} ports (the hosts' storage NICs and the appliances') need {need:,} x "
            f"{d.model} ({shape}); {placed:,} placed: its links to the {counted(missing, 'switch')} missing are "
            f"not wired (the bill prices them as the placed ones cost)",
            remedy=Remedy("add_switches", f"Add {missing} x {d.model} to the network racks",
                          (("device", d.id), ("count", missing)))))
        return out
    # a campus: each hall's storage network on its own switches, so no one place takes them all
    each = "; ".join(f"{names.get(h, h)} {need:,} ({placed:,} placed)" for h, (need, placed, _) in short.items())
    out.append(Finding(
        "error", "network.storage.short",
        f"The storage networks of {counted(len(short), 'hall')} have fewer {d.model} than their ports need "
        f"({counted(missing, 'switch')} missing): {each}; each hall's storage ports go to its own switches, so "
        f"the links to the missing ones are not wired (the bill prices them as the placed ones cost); add them "
        f"to each hall's network racks"))
    return out


def _halls_named(hall_ids: list[str], names: Mapping[str, str]) -> str:
    shown = [names.get(h, h) for h in hall_ids[:3]]
    return ", ".join(shown) + (f" and {len(hall_ids) - 3:,} more halls" if len(hall_ids) > 3 else "")


def fabric_switches_placed(counts: dict[str, int], catalog: Catalog, fabric: FabricSettings) -> int:
    """The compute fabric's switches placed: the placed switches of its model, less those the
    storage network takes where it runs on separate switches of the same model (its leaves,
    spines and cores, ``planner.network.ports``)."""
    n = counts.get(fabric.switch_device, 0)
    d = catalog.get(fabric.switch_device)
    if (fabric.storage_fabric == "separate" and fabric.storage_switch_device == fabric.switch_device
            and d is not None and d.switch is not None and n):
        n -= min(n, storage_switches_needed(storage_ports(counts, catalog), d.switch.ports,
                                            fabric.storage_oversubscription))
    return n


def port_findings(size: FabricSize, switch: DeviceType, placed_switches: int) -> list[Finding]:
    """Switch ports placed vs the ports of the switches the fabric needs."""
    k = switch.switch.ports
    needed = size.ports_needed
    placed = placed_switches * k
    tiers = "one switch" if size.tiers == 1 else f"{size.leaf_switches} leaf, {size.spine_switches} spine" + (
        f", {size.core_switches} core" if size.core_switches else "")
    short = size.switches - placed_switches
    if (placed < needed and size.tiers == 2 and size.fewest_spines > 1
            and placed_switches >= size.leaf_switches + size.fewest_spines):
        # enough ports for every link, but not for every leaf to reach every spine alike
        fewest, spines = size.fewest_spines, size.spine_switches
        return [Finding(
            "warning", "network.ports.uneven",
            f"The compute fabric's {placed_switches:,} x {switch.model} hold its links with {fewest:,} spines, "
            f"unevenly: a leaf's uplinks do not divide over {fewest:,} spines, so ECMP loads some links more than "
            f"others. Every leaf reaches every spine over the same links with {counted(spines, 'spine')} ({tiers}; NVIDIA "
            f"DGX SuperPOD reference architecture, compute fabric): add {counted(short, 'switch')}",
            remedy=Remedy("add_switches", f"Add {short} x {switch.model} to the network racks",
                          (("device", switch.id), ("count", short))))]
    if placed < needed:
        missing = needed - placed
        return [Finding(
            "error", "network.ports.short",
            f"The compute fabric needs {size.switches:,} x {switch.model} ({tiers}) = {needed:,} ports; "
            f"{placed_switches:,} placed = {placed:,} ports: {missing:,} ports missing ({counted(short, 'switch')})",
            remedy=Remedy("add_switches", f"Add {short} x {switch.model} to the network racks",
                          (("device", switch.id), ("count", short))))]
    if placed > needed:
        return [Finding("info", "network.ports.spare",
                        f"{placed - needed:,} fabric switch ports spare ({placed:,} placed, {needed:,} needed for {tiers})")]
    return []


def no_nic_findings(fabric: FabricSettings, workload: WorkloadSettings, nodes: NodeSummary,
                    job_nodes: int) -> list[Finding]:
    """An error where the job spans nodes (``job_nodes``: the placed less the hot spares) and a
    node type among them has no compute NIC (the catalog lists its NICs, all for storage):
    nothing carries its share of the traffic between nodes."""
    if not workload.enabled or workload.inference or job_nodes <= 1 or not nodes.no_nic_types:
        return []
    basis = (f"the step is estimated on the {nodes.nic_gbps:g} Gb/s compute NICs of the other nodes"
             if nodes.nics_per_gpu is not None else
             f"the step is estimated on the Fabric settings' {fabric.nics_per_gpu:g} NIC per GPU, which no device has")
    return [Finding(
        "error", "network.nics.none",
        f"{job_nodes:,} GPU nodes train one job, but the {', '.join(nodes.no_nic_types)} has no compute NIC: "
        f"nothing carries its gradients and activations to the other nodes ({basis}). Choose a GPU system with "
        f"compute NICs, or keep the job on one node")]


def design_findings(fabric: FabricSettings, workload: WorkloadSettings, nodes: NodeSummary,
                    size: FabricSize | None, switch: DeviceType | None, params_b: float) -> list[Finding]:
    """The training-fabric advice of ``GUIDE``: own NIC per GPU, no oversubscription, no
    Ethernet beyond 16 GPUs or 10B parameters (``params_b``: the total parameters of the model
    the workload trains, in billions), no consumer GPUs, storage off the fabric."""
    out: list[Finding] = []
    training = workload.enabled
    has_fabric = nodes.nodes > 1
    tech = TECHNOLOGIES[fabric.technology]
    if training and has_fabric and (nodes.shared_nic_types or fabric.nics_per_gpu < 1):
        which = ", ".join(nodes.shared_nic_types) or "the design (NICs per GPU below 1)"
        out.append(Finding(
            "warning", "network.nic.shared",
            f"GPUs share compute NICs ({which}). {GUIDE}: 'Each GPU needs its own NIC. No sharing. "
            f"\"But that's expensive\" - so is a $2M cluster running at 60%': every all-reduce waits for the "
            f"slowest, most shared link"))
    if training and has_fabric and fabric.oversubscription > 1:
        out.append(Finding(
            "warning", "network.oversubscribed",
            f"The training fabric is oversubscribed {fabric.oversubscription:g}:1 at the leaves: traffic that "
            f"leaves a leaf from every node at once (an expert all-to-all, another job's, ranks a scheduler "
            f"scatters) shares 1/{fabric.oversubscription:g} of the line rate across the spines ({GUIDE}: lost 15% "
            f"throughput on a spine-leaf design). The step time does not charge it: it runs every collective at "
            f"the NICs' rate, as the data-parallel rings laid along the leaves (NCCL orders them by topology) "
            f"cross the spines a few flows per leaf; an expert all-to-all across the spines would get less"))
    if training and has_fabric and tech.switch_technology == "ethernet" and (
            nodes.gpus > 16 or params_b > 10):
        why = []
        if nodes.gpus > 16:
            why.append(f"{nodes.gpus} GPUs (more than 16)")
        if params_b > 10:
            why.append(f"a {params_b:g}B model (over 10B)")
        out.append(Finding(
            "warning", "network.ethernet.training",
            f"Ethernet ({tech.title}) for {' and '.join(why)}. {GUIDE}: 'Ethernet if you're under 16 GPUs and "
            f"don't plan to grow. InfiniBand if you ever train models over 10B parameters.'"))
    if nodes.consumer_types:
        out.append(Finding(
            "warning", "network.gpu.consumer",
            f"Consumer GPUs ({', '.join(nodes.consumer_types)}): no NVLink and no ECC memory. {GUIDE}: "
            f"'No NVLink means 3x slower training. No ECC memory means silent corruption on long runs.'"))
    if training and has_fabric and fabric.storage_fabric == "shared":
        out.append(Finding(
            "warning", "network.storage.shared",
            "Storage traffic shares the compute fabric: checkpoint writes and dataset reads compete with "
            f"all-reduce. {GUIDE}, uses a dedicated storage network (100 Gb/s Ethernet for checkpoint writes)"))
    if training and has_fabric and fabric.sharp and (
            not tech.sharp_capable or (switch is not None and switch.switch and not switch.switch.sharp)):
        out.append(Finding(
            "info", "network.sharp.unavailable",
            f"SHARP is on but {tech.title} with {switch.model if switch else 'this switch'} has no in-network "
            f"reduction: the model uses ring all-reduce"))
    if size is not None and fabric.tiers == "3" and size.tiers == 3 and size.pods <= 1:
        out.append(Finding(
            "info", "network.tiers.forced",
            f"Three tiers are set, but two would hold these {size.endpoints} endpoints; the core tier "
            f"({size.core_switches} switches) is room to grow"))
    return out
