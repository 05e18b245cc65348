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
