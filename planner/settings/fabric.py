"""Compute and storage fabric settings."""

from __future__ import annotations

from typing import Literal

from planner.settings._base import Section, setting

FabricTech = Literal["eth100_tcp", "eth200_roce", "eth400_roce", "ib200", "ib400", "ib800", "spx400", "spx800"]
Topology = Literal["rail_optimized", "fat_tree", "leaf_spine"]


class FabricSettings(Section):
    technology: FabricTech = setting(
        "ib400",
        title="Compute fabric technology",
        source="Planning guide: inter-node InfiniBand NDR400 (400 Gb/s) for LLM training.",
    )
    topology: Topology = setting(
        "rail_optimized",
        title="Topology",
        source="DGX SuperPOD reference architecture: rail-optimised fat tree; the guide asks for a fat tree.",
    )
    tiers: Literal["auto", "2", "3"] = setting(
        "auto", title="Tiers", source="Auto: two tiers while k^2/2 endpoints fit, else three (Al-Fares et al. 2008)."
    )
    oversubscription: float = setting(
        1.0,
        title="Leaf oversubscription (down:up)",
        unit=":1",
        source="Non-blocking (1:1) for training; leaf-spine designs often run 2:1 or 3:1.",
        ge=1.0,
        le=16.0,
    )
    sharp: bool = setting(
        True,
        title="SHARP in-network reduction",
        source="Planning guide: SHARP support on Quantum-2; NVIDIA SHARPv3 halves the all-reduce bytes a GPU sends.",
    )
    nics_per_gpu: float = setting(
        1.0,
        title="Compute NICs per GPU",
        unit="NICs",
        source="Planning guide: 'Each GPU needs its own NIC. No sharing.' The placed nodes' NICs count where the "
        "catalog gives them; this design figure is used where it does not, and below 1 it is flagged.",
        gt=0,
        le=4,
    )
    switch_device: str = setting(
        "qm9700",
        title="Fabric switch model",
        source="Planning guide: 'Mellanox Quantum-2 is the only serious option in 2026' (QM9700, 64 x NDR).",
        min_length=1,
        max_length=64,
    )
    storage_fabric: Literal["separate", "shared"] = setting(
        "separate",
        title="Storage network",
        source="Planning guide: dedicated storage network (100 Gb/s Ethernet for checkpoint writes).",
    )
    storage_switch_device: str = setting(
        "sn4600c",
        title="Storage switch model",
        source="REFERENCE: NVIDIA SN4600C 64 x 100GbE for storage / management networks.",
        min_length=1,
        max_length=64,
    )

    # Achieved fraction of line rate (NCCL bus bandwidth / aggregate NIC line rate).
    # The guide's fabric table gives, per 8-NIC node, an "effective bandwidth" for the
    # same 70B all-reduce on four fabrics; dividing by 8 x line rate / 8 bits gives these.
    efficiency_eth100_tcp: float = setting(
        0.45, title="Efficiency, 100GbE TCP", unit="fraction of line rate",
        source="Planning guide fabric table: 45 GB/s effective per node of 8 x 100GbE (100 GB/s) = 45%.",
        gt=0, le=1)
    efficiency_eth200_roce: float = setting(
        0.51, title="Efficiency, 200GbE RoCE v2", unit="fraction of line rate",
        source="Planning guide fabric table: 102 GB/s effective per node of 8 x 200GbE (200 GB/s) = 51%.",
        gt=0, le=1)
    efficiency_eth400_roce: float = setting(
        0.51, title="Efficiency, 400GbE RoCE v2", unit="fraction of line rate",
        source="Not in the guide's table: taken equal to its 200GbE RoCE v2 row (51%); tuned RoCE can do better.",
        gt=0, le=1)
    efficiency_ib200: float = setting(
        0.88, title="Efficiency, 200G InfiniBand", unit="fraction of line rate",
        source="Planning guide fabric table: 176 GB/s effective per node of 8 x 200G IB (200 GB/s) = 88%.",
        gt=0, le=1)
    efficiency_ib400: float = setting(
        0.8625, title="Efficiency, 400G InfiniBand (NDR)", unit="fraction of line rate",
        source="Planning guide fabric table: 345 GB/s effective per node of 8 x NDR400 (400 GB/s) = 86.25%.",
        gt=0, le=1)
    efficiency_ib800: float = setting(
        0.8625, title="Efficiency, 800G InfiniBand (XDR)", unit="fraction of line rate",
        source="Not in the guide's table: taken equal to its 400G InfiniBand row (86.25%).",
        gt=0, le=1)
    efficiency_spx400: float = setting(
        0.80, title="Efficiency, Spectrum-X 400GbE", unit="fraction of line rate",
        source="Not in the guide's table. NVIDIA states Spectrum-X (SN5600 switches with BlueField-3 / ConnectX-8 "
        "SuperNICs, adaptive routing, congestion control) reaches ~95% effective bandwidth at scale, 1.6x ordinary "
        "Ethernet; the planner assumes 80%, between the guide's RoCE (51%) and InfiniBand (86%) rows. Estimate.",
        gt=0, le=1)
    efficiency_spx800: float = setting(
        0.80, title="Efficiency, Spectrum-X 800GbE", unit="fraction of line rate",
        source="As Spectrum-X 400GbE (estimate): NVIDIA's ~95% claim, the planner assumes 80%.",
        gt=0, le=1)
    latency_tcp_us: float = setting(
        50.0, title="Per-step latency, TCP", unit="us",
        source="REFERENCE: kernel TCP ~50 us per collective step.", ge=0, le=100000)
    latency_roce_us: float = setting(
        10.0, title="Per-step latency, RoCE v2", unit="us",
        source="REFERENCE: NCCL over the network ~3-10 us per step; RoCE at the upper end.", ge=0, le=100000)
    latency_ib_us: float = setting(
        5.0, title="Per-step latency, InfiniBand", unit="us",
        source="REFERENCE: NCCL over the network ~3-10 us per step; InfiniBand mid-range.", ge=0, le=100000)
    nvlink_efficiency: float = setting(
        0.80, title="NVLink efficiency", unit="fraction of per-direction bandwidth",
        source="Planner assumption: NCCL reaches ~80% of NVLink's per-direction bandwidth (half the "
        "datasheet's bidirectional figure, e.g. 450 of 900 GB/s on H100); 'virtually free' is not zero.",
        gt=0, le=1)
