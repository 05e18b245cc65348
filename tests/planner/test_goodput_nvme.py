"""The local NVMe checkpoint tier on a plan: the catalog's drives, the tier in check --json
and the workbook, and a plan whose nodes have none."""

from __future__ import annotations

import pytest

from planner.design.build import design
from planner.design.intent import Intent
from planner.design.templates import build_template
from planner.goodput.section import recovery_rows
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate

CAT = default_catalog()
TIER_KEYS = {"name", "write_s", "block_s", "reload_s", "interval_min"}


def nvme_on(plan, on: bool = True):
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"nvme_checkpoint": on})
    return plan


def test_dgx_h100_drives_per_gpu_from_the_user_guide_and_the_drive_datasheet():
    # 8 x 3.84 TB U.2 a node (DGX H100 user guide), 3.8 GB/s write and 6.4 GB/s read each
    # (Samsung PM1733 U.2 3.84 TB), 8 GPUs: 8 x 3.8 / 8 = 3.8 GB/s and 6.4 GB/s per GPU
    d = CAT["dgx-h100"]
    assert (d.local_nvme.drives, d.local_nvme.drive_tb) == (8, 3.84)
    assert d.nvme_gbs_per_gpu() == (3.8, 6.4)
    # an NVL72's drives are per compute tray: 4 drives for its 4 GPUs, the same per GPU
    assert CAT["gb200-nvl72"].nvme_gbs_per_gpu() == pytest.approx((3.8, 6.4))
    assert CAT["amd-mi300x-8"].nvme_gbs_per_gpu() is None  # not published: no figure


def test_check_json_lists_the_nvme_tier_before_the_file_system_keeping_every_key():
    plan = build_template("medium")
    before = evaluate(plan, CAT).sections["goodput"]
    after = evaluate(nvme_on(plan), CAT).sections["goodput"]
    rec = after["recovery"]
    assert [t["name"] for t in rec["tiers"]] == ["local NVMe", "file system"]
    assert all(set(t) == TIER_KEYS for t in rec["tiers"])
    assert set(before["recovery"]) <= set(rec)  # fields added, none dropped
    nvme = rec["tiers"][0]
    # the tier reloads from the nodes' drives in less time than the file system's read back
    assert nvme["reload_s"] < rec["fs_reload_s"] and after["reload_s"] == nvme["reload_s"]
    assert after["ettr"] >= before["ettr"]
    rows = dict(recovery_rows(evaluate(plan, CAT).sections["goodput"]))
    assert rows["Checkpoint tiers"].startswith("local NVMe: every ")


def test_a_node_type_without_drives_leaves_the_tier_out_and_says_why():
    plan = nvme_on(design(Intent(system="amd-mi300x-8", gpus=64, model="llama3-70b"), CAT).plan)
    report = evaluate(plan, CAT)
    found = [f for f in report.findings if f.code == "goodput.nvme.unknown"]
    assert len(found) == 1 and "Instinct MI300X" in found[0].message and found[0].severity == "info"
    assert [t["name"] for t in report.sections["goodput"]["recovery"]["tiers"]] == ["file system"]
    # off, nothing is said
    assert "goodput.nvme.unknown" not in {f.code for f in evaluate(nvme_on(plan, False), CAT).findings}
