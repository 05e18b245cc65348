"""Compute and storage fabric settings."""

from __future__ import annotations

from typing import Literal

from planner.settings._base import Section, setting

FabricTech = Literal["eth100_tcp", "eth200_roce", "eth400_roce", "ib200", "ib400", "ib800"]
Topology = Literal["rail_optimized", "fat_tree", "leaf_spine"]


class FabricSettings(Section):
    technology: FabricTech = setting(
        "ib400",
        title="Compute fabric",
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
        source="Planning guide: 'Each GPU needs its own NIC. No sharing.'",
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
