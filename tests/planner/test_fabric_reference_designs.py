"""Fabric sizing against NVIDIA's DGX SuperPOD reference architectures' compute fabric tables.

Both use 64-port Quantum-2 QM9700 switches and 8 rails (one 400G NIC per GPU):
- DGX SuperPOD H100 RA (docs.nvidia.com/dgx-superpod/reference-architecture-scalable-
  infrastructure-h100, "Network Fabrics", Table 4 "Compute fabric component count"):
  31 / 63 / 95 / 127 nodes (1-4 SU, one node slot per SU given to UFM) take 8 / 16 / 24 / 32
  leaves, 4 / 8 / 16 / 16 spines and 256 / 512 / 768 / 1,024 spine-leaf cables;
- DGX SuperPOD B200 RA (docs.nvidia.com/dgx-superpod/reference-architecture-scalable-
  infrastructure-b200, "DGX SuperPOD Architecture", the larger SuperPOD component counts):
  64 / 128 / 256 nodes take 16 / 32 / 64 leaves and 8 / 16 / 32 spines; 512 / 1,024 / 2,048
  nodes three tiers of 128 / 256 / 512 leaves, 128 / 256 / 512 spines and 64 / 128 / 256
  cores, with node-leaf = leaf-spine = spine-core cables = 8 per node.
"""

from __future__ import annotations

import pytest

from planner.network.fabric import size_fabric

# nodes, leaves, spines, leaf-spine cables (H100 RA Table 4). The node-leaf cables of the
# table (252 / 508 / 764 / 1,020) add 4 UFM links to the 8 per node counted here.
H100_RA = [(31, 8, 4, 256), (63, 16, 8, 512), (95, 24, 16, 768), (127, 32, 16, 1024)]

# nodes, leaves, spines, cores (B200 RA); every tier's cables 8 x nodes.
B200_RA = [(64, 16, 8, 0), (128, 32, 16, 0), (256, 64, 32, 0), (512, 128, 128, 64), (1024, 256, 256, 128),
           (2048, 512, 512, 256)]


@pytest.mark.parametrize("nodes,leaves,spines,up", H100_RA)
def test_h100_superpod_compute_fabric_table(nodes, leaves, spines, up):
    s = size_fabric(nodes, 8, 64)
    assert (s.tiers, s.leaf_switches, s.spine_switches, s.core_switches) == (2, leaves, spines, 0)
    assert s.leaf_spine_links == up
    # 3 SU: 32 uplinks a leaf over 16 spines, 2 to each: every leaf reaches every spine evenly.
    assert all(u % sp == 0 for u, sp in zip(s.pod_leaf_uplinks, s.pod_spines))


@pytest.mark.parametrize("nodes,leaves,spines,cores", B200_RA)
def test_b200_superpod_compute_fabric_table(nodes, leaves, spines, cores):
    s = size_fabric(nodes, 8, 64)
    assert (s.leaf_switches, s.spine_switches, s.core_switches) == (leaves, spines, cores)
    assert s.tiers == (3 if cores else 2)
    assert s.cables_by_tier() == {"node-leaf": 8 * nodes, "leaf-spine": 8 * nodes,
                                  "spine-core": 8 * nodes if cores else 0}
