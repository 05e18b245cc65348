"""The compute fabric technologies the planner knows: line rate, transport, SHARP.

Line rates are the per-port signalling rates of the standards (IEEE 802.3 100/200/400GbE;
InfiniBand HDR/NDR200 200 Gb/s, NDR 400 Gb/s, XDR 800 Gb/s). What a collective actually
achieves is a fraction of it (``efficiency``) plus a per-step latency, both editable in
the plan's fabric settings with their sources.

Efficiency profiles (``efficiency_profile`` setting):

- "measured" (default): achieved NCCL bus bandwidth per NIC from published nccl-tests
  figures and large deployments, each with its source below;
- "planning_guide": the fabric table of N. Dixit, "The GPU Cluster That Actually Works for
  Deep Learning in 2026", SIVARO. For one 70B all-reduce on 128 H100 (16
  nodes of 8 NICs) it gives an "effective bandwidth" of 45, 102, 176 and 345 GB/s on
  100GbE TCP, 200GbE RoCE v2, 200G IB and 400G IB: per node out of 8 x 100/8 = 100, 200,
  200 and 400 GB/s of line rate, 45%, 51%, 88% and 86.25%. Those ratios are the table's
  trustworthy part (its absolute times are not: 345 GB/s x 28 ms moves 9.7 GB, not the
  140 GB of a 70B model's gradients); choose this profile to reproduce its comparison;
- "custom": the per-technology efficiency settings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from planner.hardware.catalog import DeviceType
from planner.settings import GUIDE, FabricSettings


@dataclass(frozen=True, slots=True)
class FabricTechnology:
    id: str
    title: str
    line_rate_gbps: float
    transport: str  # "tcp", "roce" or "ib": selects the latency setting
    switch_technology: str  # what a switch for it must speak: "ethernet" or "infiniband"
    sharp_capable: bool  # in-network reduction (NVIDIA SHARP) exists on this fabric's switches


TECHNOLOGIES: dict[str, FabricTechnology] = {
    t.id: t
    for t in (
        FabricTechnology("eth100_tcp", "100GbE (TCP)", 100.0, "tcp", "ethernet", False),
        FabricTechnology("eth200_roce", "200GbE (RoCE v2)", 200.0, "roce", "ethernet", False),
        FabricTechnology("eth400_roce", "400GbE (RoCE v2)", 400.0, "roce", "ethernet", False),
        FabricTechnology("ib200", "200G InfiniBand (HDR/NDR200)", 200.0, "ib", "infiniband", True),
        FabricTechnology("ib400", "400G InfiniBand (NDR)", 400.0, "ib", "infiniband", True),
        FabricTechnology("ib800", "800G InfiniBand (XDR)", 800.0, "ib", "infiniband", True),
        FabricTechnology("spx400", "Spectrum-X 400GbE (RoCE, SuperNIC)", 400.0, "roce", "ethernet", False),
        FabricTechnology("spx800", "Spectrum-X 800GbE (RoCE, SuperNIC)", 800.0, "roce", "ethernet", False),
    )
}


def technology(tech_id: str) -> FabricTechnology:
    return TECHNOLOGIES[tech_id]


def speaks(device: DeviceType | None, tech_id: str) -> bool:
    """Whether ``device`` is a switch for the fabric technology at its line rate."""
    tech = TECHNOLOGIES[tech_id]
    return (device is not None and device.switch is not None and device.switch.technology == tech.switch_technology
            and device.switch.gbps_per_port == tech.line_rate_gbps)


def links_to(device: DeviceType | None, nic_lane_gbps: float | None) -> bool:
    """Whether NICs whose lanes signal at ``nic_lane_gbps`` link to the switch's ports: a port
    of faster lanes cannot take them (an HDR ConnectX-6's 4 x 50G on NDR200's 2 x 100G), a
    faster NIC runs the slower lanes (a ConnectX-7 runs HDR); either not given: they link."""
    lane = device.switch.lane_gbps if device is not None and device.switch is not None else None
    return lane is None or nic_lane_gbps is None or nic_lane_gbps >= lane


def switches_for(devices: Iterable[DeviceType], tech_id: str, nic_lane_gbps: float | None = None) -> list[DeviceType]:
    """The switches among ``devices`` (a catalog) that speak the fabric technology at its line
    rate (and link to NICs of ``nic_lane_gbps`` lanes), in their order."""
    return [d for d in devices if speaks(d, tech_id) and links_to(d, nic_lane_gbps)]


def offered_switches(devices: Iterable[DeviceType], tech_id: str, current: str) -> list[str]:
    """The compute fabric's switch models a form offers for the technology: the ids of those
    that speak it, and the plan's own switch after them while it does not (so the form shows
    what is set, and the finding of the mismatch says what to change)."""
    ids = [d.id for d in switches_for(devices, tech_id)]
    return ids if current in ids else ids + [current]


def at_rate(tech_id: str, gbps: float) -> FabricTechnology | None:
    """The fabric of the same kind (transport, switch technology, Spectrum-X or not) at
    another line rate: 800G InfiniBand at 400 Gb/s is 400G InfiniBand; None if the planner
    knows none."""
    tech = TECHNOLOGIES[tech_id]
    kin = [t for t in TECHNOLOGIES.values() if t.line_rate_gbps == gbps and t.transport == tech.transport
           and t.switch_technology == tech.switch_technology]
    kin.sort(key=lambda t: t.id.startswith("spx") != tech_id.startswith("spx"))
    return kin[0] if kin else None


def fabric_at_nic_rate(devices: Iterable[DeviceType], tech_id: str, link_gbps: float,
                       switch: DeviceType, nic_lane_gbps: float | None = None
                       ) -> tuple[FabricTechnology, DeviceType] | None:
    """For NIC links slower than the fabric's ports: the same kind of fabric at the links'
    rate and its switch with the most ports whose ports run the NICs' lanes, where that switch
    holds more links than ``switch`` (an 800G Quantum-X800 split to 288 x 400G against 144 x
    800G for 400G NICs); None where none does (the faster ports then cost nothing in switches)."""
    tech = at_rate(tech_id, link_gbps)
    if tech is None:
        return None
    best = switch_with_most_ports(devices, tech.id, nic_lane_gbps)
    if best is None or switch.switch is None or best.switch.ports <= switch.switch.ports:
        return None
    return tech, best


def switch_with_most_ports(devices: Iterable[DeviceType], tech_id: str,
                           nic_lane_gbps: float | None = None) -> DeviceType | None:
    """The switch for the fabric technology with the most ports (the first of equals) that links
    to NICs of ``nic_lane_gbps`` lanes, or None."""
    return max(switches_for(devices, tech_id, nic_lane_gbps), key=lambda d: d.switch.ports, default=None)


_ROCE_TUNED = (
    "Tuned RoCE reaches InfiniBand-class bus bandwidth: Meta trained Llama 3 405B on a 400G RoCE fabric at "
    "38-43% MFU (The Llama 3 Herd of Models, 2024, section 3.3) and reports its RoCE and InfiniBand clusters "
    "performing alike (Gangidi et al., 'RDMA over Ethernet for Distributed AI Training at Meta Scale', SIGCOMM "
    "2024); 90% allows for ECMP path collisions that adaptive-routed InfiniBand avoids. Untuned RoCE sits near the "
    f"51% of the fabric table of {GUIDE} (NVIDIA/nccl#2409: ~27 GB/s per 400G rail).")

# profile -> technology -> (fraction of line rate, source)
PROFILES: dict[str, dict[str, tuple[float, str]]] = {
    "measured": {
        "eth100_tcp": (0.45, "NCCL over kernel TCP on 100 Gb/s: 4-6 GB/s bus bandwidth per NIC reported "
                       f"(NVIDIA/nccl#450), 32-48% of 12.5 GB/s; the fabric table of {GUIDE}, agrees (45%)."),
        "eth200_roce": (0.90, _ROCE_TUNED),
        "eth400_roce": (0.90, _ROCE_TUNED),
        "ib200": (0.96, "nccl-tests maintainers: ~24 GB/s all-reduce bus bandwidth per 200G HDR NIC "
                  "(NVIDIA/nccl-tests#119, NVIDIA/nccl#412): 24 / 25 GB/s."),
        "ib400": (0.94, "nccl-tests maintainers: 'For NDR @ 400Gbps you should see 46-48GB/s per NIC' "
                  "(NVIDIA/nccl-tests#290): 47 / 50 GB/s."),
        "ib800": (0.94, "Planner assumption: no published nccl-tests figure per XDR NIC yet, so taken at NDR's "
                  "measured fraction (94%, NVIDIA/nccl-tests#290)."),
        "spx400": (0.90, "Spectrum-X is RoCE with adaptive routing: taken at tuned RoCE's 90% (Gangidi et al., "
                   "Meta, SIGCOMM 2024); NVIDIA states ~95% "
                   "effective bandwidth at scale (vendor figure, no independent nccl-tests figure found)."),
        "spx800": (0.90, "As Spectrum-X 400GbE: tuned RoCE's 90% (Gangidi et al., Meta, SIGCOMM 2024; NVIDIA "
                   "states ~95%)."),
    },
    "planning_guide": {
        "eth100_tcp": (0.45, f"{GUIDE}, fabric table: 45 GB/s effective per node of 8 x 100GbE = 45%."),
        "eth200_roce": (0.51, f"{GUIDE}, fabric table: 102 GB/s per node of 8 x 200GbE RoCE v2 = 51%."),
        "eth400_roce": (0.51, f"Planner assumption: not in the fabric table of {GUIDE}, so its 200GbE RoCE v2 "
                        "row (51%)."),
        "ib200": (0.88, f"{GUIDE}, fabric table: 176 GB/s per node of 8 x 200G IB = 88%."),
        "ib400": (0.8625, f"{GUIDE}, fabric table: 345 GB/s per node of 8 x NDR400 = 86.25%."),
        "ib800": (0.8625, f"Planner assumption: not in the fabric table of {GUIDE}, so its 400G InfiniBand "
                     "row (86.25%)."),
    },
}
# a technology a profile does not list takes its transport's figure
_BY_TRANSPORT = {"measured": {"ib": "ib400", "roce": "eth400_roce", "tcp": "eth100_tcp"},
                 "planning_guide": {"ib": "ib400", "roce": "eth200_roce", "tcp": "eth100_tcp"}}


def profile_efficiency(profile: str, tech_id: str) -> tuple[float, str]:
    """(fraction of line rate, source) of ``tech_id`` in a named profile."""
    table = PROFILES[profile]
    if tech_id not in table:
        tech_id = _BY_TRANSPORT[profile][TECHNOLOGIES[tech_id].transport]
    return table[tech_id]


def efficiency(fabric: FabricSettings, tech_id: str) -> float:
    """Achieved bus bandwidth as a fraction of line rate for ``tech_id``: from the plan's
    efficiency profile, or its per-technology settings under the "custom" profile."""
    if fabric.efficiency_profile == "custom":
        return float(getattr(fabric, f"efficiency_{tech_id}"))
    return profile_efficiency(fabric.efficiency_profile, tech_id)[0]


def latency_s(fabric: FabricSettings, tech_id: str) -> float:
    """Per-step latency alpha of a collective on ``tech_id``, in seconds (editable setting)."""
    return float(getattr(fabric, f"latency_{TECHNOLOGIES[tech_id].transport}_us")) * 1e-6


def nic_run_gbps(fabric: FabricSettings, nic_gbps: float, planes: int = 1) -> float:
    """The rate a compute NIC of ``nic_gbps`` over ``planes`` links runs at: its own, or
    the plan's compute NIC link rate on each of its links when that is lower."""
    link = fabric.nic_link_gbps
    return min(nic_gbps, link * planes) if link else nic_gbps


def effective_gbs_per_gpu(fabric: FabricSettings, tech_id: str, nics_per_gpu: float,
                          nic_gbps: float | None = None, nic_planes: int = 1) -> float:
    """Bandwidth one GPU achieves on the fabric, GB/s:
    nics_per_gpu x min(line rate x planes, NIC rate) / 8 bits x efficiency (a NIC of two
    planes, ConnectX-8, runs two links of the line rate); the NIC rate as it runs
    (``nic_run_gbps``)."""
    rate = TECHNOLOGIES[tech_id].line_rate_gbps
    if nic_gbps:
        rate = min(rate * nic_planes, nic_run_gbps(fabric, nic_gbps, nic_planes))
    elif fabric.nic_link_gbps:
        rate = min(rate, fabric.nic_link_gbps) * nic_planes
    return nics_per_gpu * rate / 8.0 * efficiency(fabric, tech_id)
