"""Which of the cluster archetypes of N. Dixit, "The GPU Cluster That Actually Works for
Deep Learning in 2026", SIVARO ("the guide") fits a workload, and why.

The guide ("The Three Cluster Archetypes That Actually Work", and "The Inference
Cluster"):
- Type 1, single-node workhorse: 4 x H100 on NVLink in one node; models under 20B
  parameters, 1-4 researchers; no network bottleneck.
- Type 2, medium-scale LLM cluster: 16 nodes of 8 x H100, NDR400 InfiniBand fat tree
  with SHARP, one NIC per GPU; models of 30B to 130B parameters.
- Type 3, massive cluster: 48 nodes of 8 x H100, three-tier fat tree, dedicated storage
  network, ~1.2 PB parallel filesystem; models over 200B parameters.
- Inference: no InfiniBand, no NVLink across GPUs; 100 GbE, cheap PCIe nodes sized to the
  latency budget, because inference is memory-bound.
Between the guide's ranges (20-30B, 130-200B) the advisor names the nearer type.
"""

from __future__ import annotations

from planner.findings import Finding
from planner.settings import GUIDE

ARCHETYPES = {
    "type1": ("Type 1 single-node workhorse", 4,
              "4 x H100 in one node on NVLink, no fabric: no network bottleneck"),
    "type2": ("Type 2 medium-scale LLM cluster", 128,
              "16 nodes of 8 x H100, NDR400 InfiniBand fat tree with SHARP, one NIC per GPU"),
    "type3": ("Type 3 massive cluster", 384,
              "48 nodes of 8 x H100, three-tier fat tree, dedicated storage network, ~1.2 PB parallel filesystem"),
}


def archetype_for(params_b: float) -> str:
    """The guide's archetype for a model of ``params_b`` billion parameters."""
    if params_b < 25:  # Type 1 "under 20B"; Type 2 "from 30B": 25B splits the gap
        return "type1"
    if params_b <= 165:  # Type 2 "up to 130B"; Type 3 "over 200B": 165B splits the gap
        return "type2"
    return "type3"


def advise(training: bool, params_b: float, gpus: int, fabric_is_infiniband: bool, domain_gpus: int = 8) -> Finding:
    """An info finding naming the archetype that fits and how the plan compares with it; a
    plan of rack-scale systems (an NVLink domain past a node's 8 GPUs) is beyond the guide's
    8-GPU archetypes, and the finding says so instead of measuring it against them."""
    if not training:
        extra = (" The plan's fabric is InfiniBand, which inference does not need."
                 if fabric_is_infiniband else "")
        return Finding("info", "workload.archetype",
                       f"Inference cluster ({GUIDE}): inference is memory-bound and each request hits one GPU "
                       "or a small tensor-parallel group, so 100 GbE (RoCE if the engine supports it), PCIe nodes "
                       "with fast DRAM and NVMe for KV-cache offload are enough; size it to the latency budget."
                       + extra)
    key = archetype_for(params_b)
    title, ref_gpus, what = ARCHETYPES[key]
    if domain_gpus > 8:
        return Finding("info", "workload.archetype",
                       f"The archetypes of {GUIDE} are built of 8-GPU H100 servers; this plan's rack-scale systems "
                       f"({domain_gpus} GPUs an NVLink domain) are beyond them. By model size alone a "
                       f"{params_b:g}B-parameter model fits its {title} ({what}).")
    msg = f"A {params_b:g}B-parameter model fits the {title} of {GUIDE} ({what})."
    if gpus and gpus < ref_gpus / 2:
        msg += f" The plan has {gpus:,} GPUs, fewer than its {ref_gpus:,}: expect longer training."
    elif gpus > ref_gpus * 2:
        msg += f" The plan has {gpus:,} GPUs, more than its {ref_gpus:,}: check that the workload scales."
    return Finding("info", "workload.archetype", msg)
