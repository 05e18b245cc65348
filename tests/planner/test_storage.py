"""Checkpoint size and write time by hand, and the guide's storage findings."""

from __future__ import annotations

import pytest

from planner.hardware.catalog import default_catalog
from planner.plan.model import Placement, Rack
from planner.plan.commands import History, RemoveDevices, SetSetting
from planner.report.evaluate import Evaluator
from planner.storage.sizing import checkpoint_gb, checkpoint_write_s
from planner.design.build import design
from planner.design.intent import Intent
from planner.design.templates import build_template

CAT = default_catalog()


def codes(report):
    return {f.code: f for f in report.findings}


def test_70b_full_checkpoint_is_980_gb():
    # 70e9 parameters x 14 bytes (bf16 2 + fp32 master 4 + Adam m 4 + v 4) = 980e9 bytes.
    assert checkpoint_gb(70, 14) == pytest.approx(980.0)
    assert checkpoint_gb(70, 2) == pytest.approx(140.0)  # weights only


def test_write_time_formula_by_hand():
    # size / min(filesystem write, nodes x per-node): 980 / min(50, 16 x 100) = 19.6 s;
    # 980 / min(500, 4 x 25) = 9.8 s (the nodes' links limit).
    assert checkpoint_write_s(980, 50, 16, 100) == pytest.approx(19.6)
    assert checkpoint_write_s(980, 500, 4, 25) == pytest.approx(9.8)


def test_medium_storage_section_by_hand():
    report = Evaluator(build_template("medium"), CAT).evaluate()
    s = report.sections["storage"]
    # 7 appliances x 250 TB, 25 GB/s write each = 1,750 TB, 175 GB/s; HGX node: 2 x 400G
    # storage NICs into 400GbE storage switch ports (SN5600 split) = 2 x 400 / 8 = 100 GB/s.
    assert s["capacity_tb"] == 1750 and s["write_gbs"] == 175 and s["node_storage_gbs"] == 100
    assert s["checkpoint_gb"] == 980
    assert s["checkpoint_write_s"] == pytest.approx(5.6)  # 980 / min(175, 16 x 100)
    # One node alone: min(100, 175) = 100 GB/s (what fio on one node measures).
    assert s["write_gbs_per_node"] == 100
    # All 16 writing at once: 175 / 16 = 10.94 GB/s, above the guide's 10.
    assert s["write_gbs_per_node_all_writing"] == pytest.approx(175 / 16, abs=1e-3)
    # the interval is automatic (it follows the failure rate, the goodput section): no stall here
    assert s["checkpoint_stall_pct"] is None
    assert not [f for f in report.findings if f.code.startswith("storage.")]
    # a fixed 60-minute interval: 5.6 s of 3,600 s = 0.156%
    plan = build_template("medium")
    History(plan, CAT).apply(SetSetting("storage", "checkpoint_interval_min", 60.0))
    s = Evaluator(plan, CAT).evaluate().sections["storage"]
    assert s["checkpoint_stall_pct"] == pytest.approx(5.6 / 3600 * 100, abs=1e-3)


def test_slow_node_write_and_long_stall_are_warnings():
    plan = build_template("medium")
    h = History(plan, CAT)
    # Per-node storage bandwidth 5 GB/s, one appliance of 25 GB/s left, a checkpoint
    # every 5 minutes: 980 / min(25, 16 x 5) = 39.2 s = 13.1% of 300 s (> 5%); all 16 nodes
    # writing share 25 GB/s: 1.6 GB/s each (< 10).
    h.apply(SetSetting("storage", "node_storage_gbs", 5.0))
    h.apply(SetSetting("storage", "checkpoint_interval_min", 5.0))
    pfs = [p.id for p in plan.placements if p.device == "pfs-appliance"]
    h.apply(RemoveDevices(pfs[1:]))
    report = Evaluator(plan, CAT).evaluate()
    found = codes(report)
    assert found["storage.write.slow_per_node"].severity == "warning"
    assert "1.6 GB/s" in found["storage.write.slow_per_node"].message
    assert found["storage.checkpoint.stall"].severity == "warning"
    assert "39 s" in found["storage.checkpoint.stall"].message and "13.1%" in found["storage.checkpoint.stall"].message


def test_checkpoints_and_datasets_in_one_pool_is_a_warning():
    plan = build_template("medium")
    History(plan, CAT).apply(SetSetting("storage", "separate_checkpoint_pool", False))
    assert codes(Evaluator(plan, CAT).evaluate())["storage.pools.shared"].severity == "warning"


def test_single_node_without_filesystem_is_info_only():
    report = Evaluator(build_template("single-node"), CAT).evaluate()
    s = report.sections["storage"]
    assert s["checkpoint_gb"] == 182  # 13e9 x 14 bytes
    assert s["checkpoint_write_s"] is None
    assert codes(report)["storage.none"].severity == "info"


def test_the_guide_s_node_is_a_host_an_nvl72_s_compute_tray():
    # The DGX SuperPOD GB200 scalable unit: 8 NVL72 racks of 18 compute trays = 144 hosts,
    # each writing its shard. 8 appliances x 25 GB/s = 200 GB/s shared by 144 trays: 1.39 GB/s
    # a tray, below the guide's 10 GB/s per node; per rack it would read 25 GB/s and pass.
    report = Evaluator(build_template("gb200-nvl72-su"), CAT).evaluate()
    s = report.sections["storage"]
    assert s["hosts"] == 8 * 18
    assert s["write_gbs_per_node_all_writing"] == pytest.approx(200 / 8, abs=1e-3)  # per rack, as before
    assert s["write_gbs_per_host_all_writing"] == pytest.approx(200 / 144, abs=1e-3)
    slow = codes(report)["storage.write.slow_per_node"]
    assert "a compute tray writes at 1.4 GB/s" in slow.message and "144 compute trays" in slow.message


def test_a_plan_mixing_nvl72_racks_and_8_gpu_servers_names_its_hosts_as_hosts():
    # The scalable unit above and a rack of four DGX H100: 144 trays + 4 servers = 148 hosts
    # sharing the same 200 GB/s: 1.35 GB/s each. Not every host is a compute tray.
    plan = build_template("gb200-nvl72-su")
    plan.insert_rack(Rack(id="mixed-1", name="H100-01", power_cap_kw=60))
    for i in range(4):
        plan.insert_placement(Placement(id=f"h100-{i}", device="dgx-h100", rack="mixed-1", u=1 + 8 * i))
    report = Evaluator(plan, CAT).evaluate()
    assert report.sections["storage"]["hosts"] == 148
    slow = codes(report)["storage.write.slow_per_node"]
    assert "a host writes at 1.4 GB/s" in slow.message and "148 hosts" in slow.message
    assert "compute tray" not in slow.message


def test_a_design_of_nvl72_racks_sizes_storage_by_its_trays():
    # 16 GB300 NVL72 racks = 288 trays x 10 GB/s = 2,880 GB/s of write, / 25 GB/s an appliance =
    # 115.2 -> 116 appliances (the Llama 3 405B checkpoint, 5,682.6 GB, needs far less); per
    # tray with all writing: 116 x 25 / 288 = 10.07 GB/s, no warning.
    plan = design(Intent(system="gb300-nvl72", nodes=16, rack_kw=140, fabric="ib800", model="llama3-405b"),
                  CAT).plan
    report = Evaluator(plan, CAT).evaluate()
    s = report.sections["storage"]
    assert s["storage_devices"] == 116 and s["hosts"] == 288
    assert s["write_gbs_per_host_all_writing"] == pytest.approx(116 * 25 / 288, abs=1e-3)
    assert "storage.write.slow_per_node" not in codes(report)


def test_hot_spares_do_not_write_checkpoints():
    # medium: 16 nodes and 7 appliances of 25 GB/s write = 175 GB/s. With 10 hot spares placed
    # beside them, the job is still 16 nodes, each writing at 175 / 16 = 10.9 GB/s with all of
    # them at once, above the guide's 10 GB/s a node; the spares are idle until one replaces a
    # failed node, so they do not share the write (175 / 26 = 6.7 GB/s would warn).
    from planner.report.evaluate import evaluate

    plan = build_template("medium", catalog=CAT, settings={"reliability": {"spare_nodes": 10}})
    report = evaluate(plan, CAT)
    storage = report.sections["storage"]
    assert report.totals.nodes == 26
    assert (storage["storage_devices"], storage["write_gbs"]) == (7, 175.0)
    assert storage["hosts"] == 16
    assert storage["write_gbs_per_host_all_writing"] == pytest.approx(175 / 16, abs=0.01)
    assert "storage.write.slow_per_node" not in codes(report)


def test_the_design_sizes_storage_for_the_job_not_its_spares():
    # 16 DGX H100 and 16 hot spares: 16 writers x 10 GB/s = 160 GB/s -> ceil(160 / 25) = 7
    # appliances (32 writers would ask 320 GB/s, 13)
    plan = design(Intent(system="dgx-h100", gpus=128, model="llama3-70b", spare_nodes=16), CAT).plan
    appliances = sum(1 for p in plan.placements if p.device == "pfs-appliance")
    assert appliances == 7


def test_auto_place_sizes_storage_for_the_job_not_its_hot_spares():
    # medium with 10 hot spares (7 appliances for its 16 writers) and one node more: 17 writers
    # x 10 GB/s = 170 GB/s -> ceil(170 / 25) = 7 appliances still (27 nodes would ask 11)
    from planner.design.grow import PlaceNodes

    plan = build_template("medium", catalog=CAT, settings={"reliability": {"spare_nodes": 10}})
    History(plan, CAT).apply(PlaceNodes("hgx-h100-8", 1))
    assert sum(1 for p in plan.placements if p.device == "pfs-appliance") == 7
