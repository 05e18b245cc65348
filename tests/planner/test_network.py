"""Fabric sizing, worked out by hand, and the ports/switch checks of the network section."""

from __future__ import annotations

import json

import pytest

from planner.hardware.catalog import default_catalog
from planner.cli import main
from planner.plan.commands import History, RemoveDevices, SetSetting
from planner.report.evaluate import Evaluator
from planner.network.fabric import FabricSizingError, size_fabric
from planner.design.templates import build_template

CAT = default_catalog()


def codes(report, severity=None):
    return [f.code for f in report.findings if severity is None or f.severity == severity]


# Rail-optimised NDR400, 64-port switches, 8 rails (one NIC per GPU, 8 GPUs per node).
# A leaf takes k/2 = 32 nodes down and up to 32 uplinks, so a scalable unit (SU) is up to
# 32 nodes with one leaf per rail: 8 leaves per SU. Two tiers hold up to k = 64 leaves.
# Spines are balanced for ECMP: the fewest S with m = ceil(uplinks / S) links from every
# leaf to every spine, S x m <= 32 free leaf ports and leaves x m <= 64 spine ports; every
# leaf then has S x m uplinks. Beyond 64 leaves, pods of 32 leaves whose spines have 32
# ports down (so m = 1), core = ceil(spine uplinks / 64).
HAND = [
    # nodes, tiers, leaves, spines, core, leaf-spine links
    # 16: 8 leaves needing 16 up: S=1 needs m=16, 8 x 16 = 128 > 64; S=2, m=8 -> 128 links.
    (16, 2, 8, 2, 0, 128),
    # 31: 8 leaves needing 31 up: S=4, m=8 (4 x 8 = 32 >= 31, 8 x 8 = 64) -> 256 links.
    (31, 2, 8, 4, 0, 256),
    # 100: SUs of 32, 32, 32, 4 -> 32 leaves, the most needing 32 up; m <= 64/32 = 2, so
    # S x 2 >= 32: S=16 -> 32 x 32 = 1,024 links (ceil(800/64) = 13 would be uneven).
    (100, 2, 32, 16, 0, 1024),
    # 127: 32 leaves, as for 100 -> 16 spines, 1,024 links.
    (127, 2, 32, 16, 0, 1024),
    # 2,000: 63 SUs (62 x 32 + 16) -> 504 leaves > 64, so three tiers. 16 pods of 32 leaves
    # (the last of 24), each leaf at most 32 up and m = 1: 32 spines a pod -> 512 spines;
    # 15 x 32 x 32 + 24 x 32 = 16,128 links, as many up to 16,128 / 64 = 252 cores.
    (2000, 3, 504, 512, 252, 16128),
]


@pytest.mark.parametrize("nodes,tiers,leaves,spines,core,up", HAND)
def test_rail_optimised_ndr400_counts_by_hand(nodes, tiers, leaves, spines, core, up):
    s = size_fabric(nodes, 8, 64)
    assert (s.tiers, s.leaf_switches, s.spine_switches, s.core_switches) == (tiers, leaves, spines, core)
    # Every GPU has a cable to its rail's leaf; every leaf as many uplinks as the balanced spines take.
    assert s.cables_by_tier()["node-leaf"] == nodes * 8
    assert s.cables_by_tier()["leaf-spine"] == up
    assert s.cables_by_tier()["spine-core"] == (up if tiers == 3 else 0)
    assert s.transceivers_by_tier() == {k: 2 * v for k, v in s.cables_by_tier().items()}
    assert s.ports_needed == (leaves + spines + core) * 64


def test_third_tier_appears_exactly_when_two_cannot_hold():
    # 256 nodes = 8 SUs = 64 leaves: the most two tiers of 64-port switches join (k leaves).
    assert size_fabric(256, 8, 64).tiers == 2
    assert size_fabric(257, 8, 64).tiers == 3


def test_forced_two_tiers_too_large_is_a_clear_error():
    with pytest.raises(FabricSizingError, match="three tiers"):
        size_fabric(257, 8, 64, tiers="2")


def test_leaf_spine_oversubscribed_3_to_1():
    # r = 3: a 64-port leaf takes floor(64 x 3/4) = 48 endpoints down and 16 up.
    # 96 endpoints -> 2 leaves, 32 uplinks -> 1 spine.
    s = size_fabric(96, 1, 64, topology="leaf_spine", oversubscription=3.0)
    assert (s.leaf_switches, s.leaf_up_ports, s.spine_switches) == (2, 32, 1)


@pytest.mark.parametrize("nodes,leaves,spines,core", [(16, 8, 2, 0), (31, 8, 4, 0), (100, 32, 16, 0),
                                                      (127, 32, 16, 0), (2000, 504, 512, 252)])
def test_cli_new_medium_shows_the_same_counts(tmp_path, capsys, nodes, leaves, spines, core):
    out = tmp_path / "p.json"
    # the reference architecture's node counts, without hot spares (which would be cabled too)
    assert main(["new", "--template", "medium", "--nodes", str(nodes), "--spares", "0", "-o", str(out)]) == 0
    capsys.readouterr()
    main(["check", str(out), "--json"])
    net = json.loads(capsys.readouterr().out)["network"]
    assert (net["leaf_switches"], net["spine_switches"], net["core_switches"]) == (leaves, spines, core)
    # The template places exactly the switches the fabric needs.
    assert net["switch_ports_placed"] == net["switch_ports_needed"] == (leaves + spines + core) * 64


def test_medium_network_section_keys_and_figures():
    report = Evaluator(build_template("medium"), CAT).evaluate()
    net = report.sections["network"]
    for key in ("fabric", "topology", "leaf_switches", "spine_switches", "core_switches", "switch_ports_needed",
                "switch_ports_placed", "oversubscription", "cables", "transceivers", "allreduce_ms",
                "bus_bandwidth_gbs", "compute_ms", "gpu_idle_pct", "tokens_per_s", "tokens_per_s_limit",
                "scaling", "fabrics", "cables_per_tier", "transceivers_per_tier"):
        assert key in net
    # 16 nodes: 128 node-leaf + 128 leaf-spine cables. Were every run optical, optics at both
    # ends: node-leaf a single-port module at each HGX H100's single-port ConnectX-7 (128) and
    # twin-port 2 x 400G at the QM9700 (128 / 2 = 64); leaf-spine 64 + 64 twin-port (the sizing's
    # count). The section counts the modules the cable schedule buys: the leaves and spines
    # share NET-01, so leaf-spine runs are copper, and 3 node-leaf runs are 5 m ACC
    # (tests/planner/test_transceiver_counts.py works them out): 125 + 64.
    assert net["cables"] == 256 and net["sizing"]["transceivers_per_tier"] == {
        "node-leaf": 192, "leaf-spine": 128, "spine-core": 0}
    assert net["cables_per_tier"] == {"node-leaf": 128, "leaf-spine": 128, "spine-core": 0}
    assert net["transceivers"] == 125 + 64 and net["optical_links"] == 125 and net["copper_links"] == 131
    assert net["fabric"] == "ib400" and net["topology"] == "rail_optimized"


def test_removing_one_leaf_says_how_many_ports_are_missing_and_undo_clears_it():
    plan = build_template("medium")
    ev = Evaluator(plan, CAT)
    assert "network.ports.short" not in codes(ev.evaluate())
    leaf = next(p for p in plan.placements if p.device == "qm9700")
    history = History(plan, CAT)
    report = ev.evaluate(history.apply(RemoveDevices([leaf.id])))
    short = [f for f in report.findings if f.code == "network.ports.short"]
    assert len(short) == 1 and short[0].severity == "error"
    # 10 switches x 64 ports = 640 needed; 9 placed = 576: 64 ports missing.
    assert "64 ports missing" in short[0].message
    assert report.sections["network"]["switch_ports_placed"] == 576
    report = ev.evaluate(history.undo())
    assert "network.ports.short" not in codes(report)
    assert not codes(report, "error")


def test_spare_switches_are_info():
    plan = build_template("medium")
    # Fewer nodes than the switches were sized for: 8 nodes x 8 NICs = 64 endpoints fit
    # one 64-port switch.
    history = History(plan, CAT)
    nodes = [p.id for p in plan.placements if p.device == "hgx-h100-8"][:8]
    history.apply(RemoveDevices(nodes))
    history.apply(SetSetting("workload", "dp", 2))
    report = Evaluator(plan, CAT).evaluate()
    spare = [f for f in report.findings if f.code == "network.ports.spare"]
    # 10 x 64 placed - 1 x 64 needed = 576 spare.
    assert spare and spare[0].severity == "info" and spare[0].message.startswith("576 ")
    assert "needed for one switch" in spare[0].message


@pytest.mark.parametrize("switch", ["sn5600-400", "qm9700-ndr200", "q3400"])
def test_switch_model_not_matching_the_fabric_is_an_error(switch):
    plan = build_template("medium")
    History(plan, CAT).apply(SetSetting("fabric", "switch_device", switch))
    report = Evaluator(plan, CAT).evaluate()
    assert "network.switch.mismatch" in codes(report, "error")


def test_nic_faster_than_switch_ports_is_an_error():
    # 400G NICs on 200G ports (qm9700-ndr200) with a 200G InfiniBand fabric.
    plan = build_template("medium")
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "technology", "ib200"))
    h.apply(SetSetting("fabric", "switch_device", "qm9700-ndr200"))
    report = Evaluator(plan, CAT).evaluate()
    assert "network.switch.mismatch" not in codes(report)
    assert "network.nic.faster_than_switch" in codes(report, "error")


def test_a_fabric_with_the_fewest_spines_is_uneven_not_short_of_ports():
    """576 endpoints on 64-port switches (one GB200 NVL72 scalable unit: 8 racks x 18 trays x 4
    NICs): 18 leaves of 32 down and 32 up; their 576 uplinks fill ceil(576 / 64) = 9 spines,
    but 32 uplinks do not divide over 9 spines, so the sizing balances them over 16 (2 links
    from each leaf to each; 18 x 2 = 36 ports a spine). With 18 + 9 switches placed every
    link has a port: a warning that the spines are uneven, not an error of ports short."""
    from planner.network.checks import port_findings

    size = size_fabric(8 * 18, 4, 64, topology="leaf_spine")
    assert (size.leaf_switches, size.spine_switches, size.fewest_spines) == (18, 16, 9)
    switch = default_catalog()["qm9700"]
    (uneven,) = port_findings(size, switch, 27)
    assert (uneven.severity, uneven.code) == ("warning", "network.ports.uneven")
    assert "with 9 spines" in uneven.message and "with 16 spines" in uneven.message
    assert dict(uneven.remedy.figures)["count"] == 7
    (short,) = port_findings(size, switch, 26)  # one spine fewer: 1,664 ports for 1,728 link ends
    assert (short.severity, short.code) == ("error", "network.ports.short")
    assert port_findings(size, switch, 34) == []
    # uplinks that divide evenly have no such middle ground: the DGX SuperPOD's 4 units of 32
    # nodes, 32 rail leaves of 32 uplinks, 1,024 uplinks on 16 spines either way
    even = size_fabric(128, 8, 64)
    assert (even.leaf_switches, even.spine_switches, even.fewest_spines) == (32, 16, 16)
    # one spine holds every link evenly: no "uneven" to say. 128 endpoints at 2:1 on 64-port
    # switches: 4 leaves of 42 down (the last 2), 21 uplinks each, 64 in all on 1 spine at the
    # least; the sizing gives the last leaf the full leaves' uplinks, 2 spines
    over = size_fabric(128, 1, 64, topology="fat_tree", oversubscription=2.0)
    assert (over.leaf_switches, over.spine_switches, over.fewest_spines) == (4, 2, 1)
    (short,) = port_findings(over, switch, 5)
    assert short.code == "network.ports.short"
