"""Storage bandwidth per node through the storage switch's ports, and the guide's
10 GB/s-per-node checkpoint rule judged with every node writing at once."""

from __future__ import annotations

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, RemoveDevices, SetSetting
from planner.report.evaluate import Evaluator, evaluate
from planner.storage.sizing import node_storage_gbs
from planner.design.templates import build_template

CAT = default_catalog()


def codes(report):
    return {f.code: f for f in report.findings}


def test_node_nics_are_capped_by_the_switch_port():
    # HGX H100: 2 x 400G storage NICs. Through 100GbE ports: 2 x 100 / 8 = 25 GB/s, not 100.
    counts = {"hgx-h100-8": 16}
    assert node_storage_gbs(counts, CAT, False) == 100
    assert node_storage_gbs(counts, CAT, False, port_gbps=100) == 25
    assert node_storage_gbs(counts, CAT, False, port_gbps=200) == 50
    assert node_storage_gbs(counts, CAT, False, port_gbps=400) == 100


def test_a_100gbe_storage_switch_limits_nodes_and_is_flagged():
    plan = build_template("medium")
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "storage_switch_device", "sn4600c"))
    report = Evaluator(plan, CAT).evaluate()
    s = report.sections["storage"]
    assert s["node_storage_gbs"] == 25  # 2 x 12.5 GB/s
    f = codes(report)["storage.nic.faster_than_switch"]
    # The same severity as a compute NIC faster than the fabric switch (an error).
    assert f.severity == "error" and "400 Gb/s" in f.message and "100 Gb/s" in f.message
    h.apply(SetSetting("fabric", "storage_switch_device", "sn4600c-200"))  # 2 x 200 / 8 = 50 GB/s
    report = Evaluator(plan, CAT).evaluate()
    assert report.sections["storage"]["node_storage_gbs"] == 50
    assert "storage.nic.faster_than_switch" in codes(report)
    h.undo()
    h.undo()
    report = Evaluator(plan, CAT).evaluate()
    assert report.sections["storage"]["node_storage_gbs"] == 100
    assert "storage.nic.faster_than_switch" not in codes(report)


def test_shared_storage_is_capped_by_the_compute_switch():
    # Storage on the compute fabric: the HGX node's 400G storage NICs meet 400G QM9700
    # ports -> 100 GB/s; on a 200G fabric switch (QM9700 at NDR200) -> 2 x 200 / 8 = 50.
    plan = build_template("medium")
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "storage_fabric", "shared"))
    assert Evaluator(plan, CAT).evaluate().sections["storage"]["node_storage_gbs"] == 100
    h.apply(SetSetting("fabric", "switch_device", "qm9700-ndr200"))
    report = Evaluator(plan, CAT).evaluate()
    assert report.sections["storage"]["node_storage_gbs"] == 50
    assert "compute fabric switch" in codes(report)["storage.nic.faster_than_switch"].message


def test_the_guides_own_medium_storage_is_below_the_rule_when_all_nodes_write():
    # The guide's medium design: 2 appliances = 50 GB/s of write for 16 nodes writing at
    # once: 50 / 16 = 3.1 GB/s per node < 10. One node alone would see min(100, 50) = 50.
    plan = build_template("medium")
    pfs = [p.id for p in plan.placements if p.device == "pfs-appliance"]
    History(plan, CAT).apply(RemoveDevices(pfs[2:]))
    report = Evaluator(plan, CAT).evaluate()
    s = report.sections["storage"]
    assert s["write_gbs_per_node"] == 50
    assert s["write_gbs_per_node_all_writing"] == pytest.approx(3.125)
    f = codes(report)["storage.write.slow_per_node"]
    assert f.severity == "warning" and "3.1 GB/s" in f.message and "16 nodes" in f.message


@pytest.mark.parametrize("name, nodes, appliances", [("medium", 16, 7), ("massive", 48, 20)])
def test_templates_size_storage_to_the_rule(name, nodes, appliances):
    # Appliances = ceil(nodes x 10 GB/s / 25 GB/s write each): 160 / 25 -> 7; 480 / 25 -> 20.
    # Per node all writing: 7 x 25 / 16 = 10.9; 20 x 25 / 48 = 10.4 GB/s.
    report = evaluate(build_template(name), CAT)
    s = report.sections["storage"]
    assert s["storage_devices"] == appliances
    assert s["write_gbs_per_node_all_writing"] == pytest.approx(appliances * 25 / nodes, abs=1e-3)
    assert s["write_gbs_per_node_all_writing"] >= 10
    assert not [f for f in report.findings if f.code.startswith("storage.")]
    assert f"{appliances} parallel-filesystem appliances" in build_template(name).description


def test_an_ethernet_fabric_of_the_storage_switchs_own_model_still_gets_storage_switches():
    """Spectrum-X: the fabric and the storage network are both SN5600 at 400GbE. 64 DGX H100
    x 8 NICs = 512 fabric ports: 8 leaves of 64 down, 4 spines = 12 switches. Storage: 64 x 2
    storage NICs + 26 appliances x 4 = 232 ports, more than one SN5600's 128: a leaf-spine at
    the default 3:1, leaves of 96 ports down and 32 up, ceil(232 / 96) = 3 leaves whose 96
    uplinks one spine takes: 4 more SN5600 beyond the fabric's (there were none once: the
    fabric's 12 were counted as the storage network's)."""
    from collections import Counter

    from planner.design.build import design
    from planner.design.intent import CampusSpec, Intent
    from planner.network.cables import build_schedule

    plan = design(Intent(system="dgx-h100", nodes=64, fabric="spx400"), CAT).plan
    assert plan.settings.fabric.switch_device == plan.settings.fabric.storage_switch_device == "sn5600-400"
    counts = Counter(p.device for p in plan.placements)
    assert counts["pfs-appliance"] == 26 and counts["sn5600-400"] == 12 + 4
    sched = build_schedule(plan, CAT)
    tiers = Counter(lk.tier for lk in sched.links)
    assert tiers["storage"] == 64 * 2 + 26 * 4 == 232 and tiers["storage-spine"] == 3 * 32 and not sched.unrouted
    assert sched.totals()["by_network"]["storage"] == 232 + 96
    # on a campus of 4 halls each hall has its own storage switch, in a rack after the fabric's
    # (whose 12 keep their roles: the leaves and spines are the first 12 in plan order)
    plan = design(Intent(system="dgx-h100", nodes=64, fabric="spx400",
                         campus=CampusSpec(buildings=2, halls_per_building=2)), CAT).plan
    assert Counter(p.device for p in plan.placements)["sn5600-400"] == 12 + 4
    sched = build_schedule(plan, CAT)
    storage = [lk for lk in sched.links if lk.tier == "storage"]
    assert len(storage) == 232 and {lk.route for lk in storage} <= {"in-rack", "in-row", "in-hall"}


def test_storage_nics_without_a_storage_switch_are_unrouted_not_left_out():
    plan = build_template("medium")
    storage_switch = plan.settings.fabric.storage_switch_device
    from planner.network.cables import build_schedule

    History(plan, CAT).apply(RemoveDevices([p.id for p in plan.placements if p.device == storage_switch]))
    sched = build_schedule(plan, CAT)
    # medium: 16 HGX H100 x 2 storage NICs, and its appliances' NICs, have nowhere to go
    nics = sum(sum(n.count for n in (CAT[p.device].storage_nics() if CAT[p.device].category != "storage"
                                     else CAT[p.device].nics))
               for p in plan.placements)
    assert nics >= 32 and sched.unrouted == {"storage": nics}
