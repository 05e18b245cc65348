"""A fabric whose endpoints all fit one switch is one switch, whatever the topology."""

import pytest

from planner.network.fabric import size_fabric


@pytest.mark.parametrize("nodes", [1, 2, 8])
def test_rail_optimised_small_fabric_is_one_switch(nodes):
    # 1, 2 and 8 nodes x 8 NICs = 8, 16, 64 endpoints <= 64 ports: one QM9700 holds them
    # all (the rails become port groups); 8 rail leaves + 1 spine (9 switches) overbuilds.
    s = size_fabric(nodes, 8, 64, topology="rail_optimized")
    assert (s.tiers, s.switches, s.leaf_switches, s.spine_switches) == (1, 1, 1, 0)
    assert s.cables == nodes * 8  # one cable per NIC, no uplinks
    assert s.ports_needed == 64


def test_one_more_node_than_a_switch_holds_needs_two_tiers():
    # 9 nodes x 8 = 72 > 64: rail-optimised, 8 leaves of 9 down; 9 up over 2 spines, 5 to each
    # (ECMP-balanced: 8 leaves x 9 to one spine would need 72 > 64 ports) -> 2 spines.
    s = size_fabric(9, 8, 64, topology="rail_optimized")
    assert (s.tiers, s.leaf_switches, s.spine_switches) == (2, 8, 2)


def test_forced_tiers_are_kept_for_a_small_fabric():
    # Tiers set to 2: the user asked for leaves and spines (room to grow): 8 rails + 1 spine
    # (2 nodes x 8 = 16 uplinks -> ceil(16/64) = 1 spine).
    s = size_fabric(2, 8, 64, topology="rail_optimized", tiers="2")
    assert (s.tiers, s.leaf_switches, s.spine_switches) == (2, 8, 1)
    assert size_fabric(2, 8, 64, tiers="3").tiers == 3
