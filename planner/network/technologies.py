"""The compute fabric technologies the planner knows: line rate, transport, SHARP.

Line rates are the per-port signalling rates of the standards (IEEE 802.3 100/200/400GbE;
InfiniBand HDR/NDR200 200 Gb/s, NDR 400 Gb/s, XDR 800 Gb/s). What a collective actually
achieves is a fraction of it (``efficiency``) plus a per-step latency, both editable in
the plan's fabric settings with their sources.

Why the efficiency defaults are what they are: the guide's fabric table gives, for one
70B all-reduce on 128 H100 (16 nodes of 8 NICs), an "effective bandwidth" of 45, 102,
176 and 345 GB/s on 100GbE TCP, 200GbE RoCE v2, 200G IB and 400G IB. Per node that is
out of 8 x 100/8 = 100, 200, 200 and 400 GB/s of line rate: 45%, 51%, 88% and 86.25%.
Those ratios are the table's trustworthy part (its absolute times are not: 345 GB/s x
28 ms moves 9.7 GB, not the 140 GB of a 70B model's gradients), so the planner takes the
efficiencies from it and computes the times from the bytes actually moved.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.settings import FabricSettings


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


def efficiency(fabric: FabricSettings, tech_id: str) -> float:
    """Achieved bus bandwidth as a fraction of line rate for ``tech_id`` (editable setting)."""
    return float(getattr(fabric, f"efficiency_{tech_id}"))


def latency_s(fabric: FabricSettings, tech_id: str) -> float:
    """Per-step latency alpha of a collective on ``tech_id``, in seconds (editable setting)."""
    return float(getattr(fabric, f"latency_{TECHNOLOGIES[tech_id].transport}_us")) * 1e-6


def effective_gbs_per_gpu(fabric: FabricSettings, tech_id: str, nics_per_gpu: float,
                          nic_gbps: float | None = None) -> float:
    """Bandwidth one GPU achieves on the fabric, GB/s:
    nics_per_gpu x min(line rate, NIC rate) / 8 bits x efficiency."""
    rate = TECHNOLOGIES[tech_id].line_rate_gbps
    if nic_gbps:
        rate = min(rate, nic_gbps)
    return nics_per_gpu * rate / 8.0 * efficiency(fabric, tech_id)
