"""Compute and storage fabric settings."""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from planner.settings._base import GUIDE, Section, setting

# Efficiency settings of files saved before profiles existed (the guide's table): such a
# file with these values takes the measured profile; with any other value, "custom".
_GUIDE_EFFICIENCIES = {"efficiency_eth100_tcp": 0.45, "efficiency_eth200_roce": 0.51,
                       "efficiency_eth400_roce": 0.51, "efficiency_ib200": 0.88, "efficiency_ib400": 0.8625,
                       "efficiency_ib800": 0.8625}

FabricTech = Literal["eth100_tcp", "eth200_roce", "eth400_roce", "ib200", "ib400", "ib800", "spx400", "spx800"]
Topology = Literal["rail_optimized", "fat_tree", "leaf_spine"]


class FabricSettings(Section):
    @model_validator(mode="before")
    @classmethod
    def _profile_of_older_files(cls, data):
        if isinstance(data, dict) and "efficiency_profile" not in data:
            edited = [k for k, v in _GUIDE_EFFICIENCIES.items() if k in data and data[k] != v]
            if edited:
                data = {**data, "efficiency_profile": "custom"}
            else:
                data = {k: v for k, v in data.items() if k not in _GUIDE_EFFICIENCIES}
        return data

    technology: FabricTech = setting(
        "ib400",
        title="Compute fabric technology",
        source=f"{GUIDE}: inter-node InfiniBand NDR400 (400 Gb/s) for LLM training.",
    )
    topology: Topology = setting(
        "rail_optimized",
        title="Topology",
        source=f"NVIDIA DGX SuperPOD reference architecture: rail-optimised fat tree; {GUIDE}, asks for a fat tree.",
    )
    tiers: Literal["auto", "2", "3"] = setting(
        "auto", title="Tiers", source="Auto: two tiers while k^2/2 endpoints fit, else three (Al-Fares et al., "
        "'A Scalable, Commodity "
        "Data Center Network Architecture', SIGCOMM 2008)."
    )
    oversubscription: float = setting(
        1.0,
        title="Leaf oversubscription (down:up)",
        unit=":1",
        source="Planner assumption: non-blocking (1:1) for training, as NVIDIA DGX SuperPOD reference "
        "architectures build their compute fabric; leaf-spine designs often run 2:1 or 3:1.",
        why_low="1:1 is non-blocking; more uplink than downlink carries no more traffic",
        ge=1.0,
        le=16.0,
    )
    sharp: bool = setting(
        True,
        title="SHARP in-network reduction",
        source=f"{GUIDE}: SHARP support on Quantum-2; NVIDIA SHARPv3 halves the all-reduce bytes a GPU sends.",
    )
    nics_per_gpu: float = setting(
        1.0,
        title="Compute NICs per GPU",
        unit="NICs",
        source=f"{GUIDE}: 'Each GPU needs its own NIC. No sharing.' The placed nodes' NICs count where the "
        "catalog gives them; this design figure is used where it does not, and below 1 it is flagged.",
        gt=0,
        le=4,
    )
    nic_link_gbps: float | None = setting(
        None,
        title="Compute NIC link rate",
        unit="Gb/s",
        source="Empty: each compute NIC link runs at the NIC's own rate. A figure: the links run at that rate, one "
        "per NIC (one per plane on a multi-plane NIC), on a fabric slower than the NICs (NVIDIA ConnectX-7 "
        "adapter user manual: an NDR port also runs at NDR200 and HDR 200 Gb/s).",
        gt=0,
        le=3200,
    )
    switch_device: str = setting(
        "qm9700",
        title="Fabric switch model",
        source=f"{GUIDE}: 'Mellanox Quantum-2 is the only serious option in 2026' (NVIDIA Quantum-2 QM9700 "
        "datasheet: 64 x NDR).",
        min_length=1,
        max_length=64,
    )
    storage_fabric: Literal["separate", "shared"] = setting(
        "separate",
        title="Storage network",
        source=f"{GUIDE}: dedicated storage network (100 Gb/s Ethernet for checkpoint writes).",
    )
    storage_switch_device: str = setting(
        "sn4600c",
        title="Storage switch model",
        source="NVIDIA Spectrum SN4600C datasheet: 64 x 100GbE, for storage / management networks.",
        min_length=1,
        max_length=64,
    )
    storage_oversubscription: float = setting(
        3.0,
        title="Storage network oversubscription (down:up)",
        unit=":1",
        source="Planner assumption: 3:1, as the front-end fabric (a three-stage Clos leaf-spine) of Juniper's "
        "validated design 'AI Data Center Network with Juniper Apstra, AMD GPUs' for inference, front-end fabric "
        "topology. A storage network that outgrows one switch is a leaf-spine whose leaves give this share of "
        "their ports to the hosts and appliances: its uplinks need carry only what the filesystem writes, and "
        "with every host writing at once a host gets its storage links' rate over this figure (the checkpoint "
        "check says where that is below what the filesystem gives).",
        why_low="1:1 is non-blocking; more uplink than downlink carries no more traffic",
        ge=1.0,
        le=16.0,
    )

    efficiency_profile: Literal["measured", "planning_guide", "custom"] = setting(
        "measured",
        title="Fabric efficiency profile",
        source="Achieved NCCL bus bandwidth as a fraction of line rate. 'measured': published nccl-tests figures "
        "(NDR 46-48 GB/s per NIC, HDR ~24 GB/s) and large RoCE deployments; 'planning_guide': the fabric table of "
        f"{GUIDE} (NDR 86%, RoCE 51%), to reproduce its comparison; 'custom': the efficiency settings below.",
    )
    # Used under the "custom" profile; defaults are the measured profile's figures.
    efficiency_eth100_tcp: float = setting(
        0.45, title="Efficiency, 100GbE TCP (custom profile)", unit="fraction of line rate",
        source="Measured profile: 4-6 GB/s NCCL bus bandwidth per 100 Gb/s TCP NIC (NVIDIA/nccl#450); "
        f"{GUIDE}, fabric table: 45%.", ge=0.01, le=1)
    efficiency_eth200_roce: float = setting(
        0.90, title="Efficiency, 200GbE RoCE v2 (custom profile)", unit="fraction of line rate",
        source="Measured profile: tuned RoCE close to InfiniBand (Gangidi et al., Meta, SIGCOMM 2024; Llama 3 on 400G "
        f"RoCE). {GUIDE}, fabric table: 51%.", ge=0.01, le=1)
    efficiency_eth400_roce: float = setting(
        0.90, title="Efficiency, 400GbE RoCE v2 (custom profile)", unit="fraction of line rate",
        source="Measured profile: tuned RoCE close to InfiniBand (Gangidi et al., Meta, SIGCOMM 2024; Llama 3 on 400G "
        "RoCE). Untuned RoCE: ~27 GB/s per 400G rail (NVIDIA/nccl#2409).", ge=0.01, le=1)
    efficiency_ib200: float = setting(
        0.96, title="Efficiency, 200G InfiniBand (custom profile)", unit="fraction of line rate",
        source="Measured profile: ~24 GB/s bus bandwidth per 200G NIC (NVIDIA/nccl-tests#119). "
        f"{GUIDE}, fabric table: 88%.",
        ge=0.01, le=1)
    efficiency_ib400: float = setting(
        0.94, title="Efficiency, 400G InfiniBand NDR (custom profile)", unit="fraction of line rate",
        source=f"Measured profile: 46-48 GB/s per NDR NIC (NVIDIA/nccl-tests#290). {GUIDE}, fabric table: 86.25%.",
        ge=0.01, le=1)
    efficiency_ib800: float = setting(
        0.94, title="Efficiency, 800G InfiniBand XDR (custom profile)", unit="fraction of line rate",
        source="Planner assumption: NDR's measured fraction (NVIDIA/nccl-tests#290), as no XDR figure is published "
        "yet.",
        ge=0.01, le=1)
    efficiency_spx400: float = setting(
        0.90, title="Efficiency, Spectrum-X 400GbE (custom profile)", unit="fraction of line rate",
        source="Measured profile: tuned RoCE's 90% (Gangidi et al., Meta, SIGCOMM 2024). NVIDIA states Spectrum-X "
        "(SN5600 with BlueField-3 / ConnectX-8 "
        "SuperNICs, adaptive routing, congestion control) reaches ~95% effective bandwidth at scale (vendor figure).",
        ge=0.01, le=1)
    efficiency_spx800: float = setting(
        0.90, title="Efficiency, Spectrum-X 800GbE (custom profile)", unit="fraction of line rate",
        source="As Spectrum-X 400GbE: tuned RoCE's 90% (Gangidi et al., Meta, SIGCOMM 2024); NVIDIA's vendor figure "
        "~95%.",
        ge=0.01, le=1)
    latency_tcp_us: float = setting(
        50.0, title="Per-step latency, TCP", unit="us",
        source="Planner assumption: kernel TCP ~50 us per collective step (socket and interrupt overheads).",
        ge=0, le=100000)
    latency_roce_us: float = setting(
        10.0, title="Per-step latency, RoCE v2", unit="us",
        source="Planner assumption: NCCL over the network ~3-10 us per step; RoCE at the upper end.",
        ge=0, le=100000)
    latency_ib_us: float = setting(
        5.0, title="Per-step latency, InfiniBand", unit="us",
        source="Planner assumption: NCCL over the network ~3-10 us per step; InfiniBand mid-range.",
        ge=0, le=100000)
    nvlink_efficiency: float = setting(
        0.80, title="NVLink efficiency", unit="fraction of per-direction bandwidth",
        source="Planner assumption: NCCL reaches ~80% of NVLink's per-direction bandwidth (half the "
        "datasheet's bidirectional figure, e.g. 450 of 900 GB/s on H100); 'virtually free' is not zero.",
        ge=0.01, le=1)
    acceptance_fraction: float = setting(
        0.75, title="Acceptance pass threshold", unit="fraction of the expected figure",
        source=f"{GUIDE}: nccl-tests all-reduce below about 75% of the theoretical peak means the network is the "
        "bottleneck; the same fraction of the planner's expected figure passes each acceptance test.",
        ge=0.01, le=1)
