"""Effective bandwidth (bytes a GPU actually sends / time) never exceeds the line rate,
even with SHARP, where nccl-tests' ring-relative bus bandwidth does."""

from __future__ import annotations

import pytest

from planner.hardware.catalog import default_catalog
from planner.cli import main
from planner.network.collective import collective
from planner.report.evaluate import evaluate
from planner.plan.fileio import save_plan
from planner.settings import FabricSettings, WorkloadSettings
from planner.design.templates import build_template
from planner.workload.training import JobShape, compare_fabrics

H100_NODE = JobShape(gpus_per_node=8, bf16_tflops=989, nvlink_gbs=900, nics_per_gpu=1.0, nic_gbps=400)


def test_sharp_effective_bandwidth_is_the_link_bandwidth():
    # 64 ranks, 1 GB, B = 10 GB/s, no latency: SHARP sends 1 GB in 0.1 s = 10 GB/s effective;
    # busbw counts 2 x 63/64 GB = 19.7 GB/s, above the link.
    sharp = collective("all_reduce", 64, 1e9, 10.0, 0.0, sharp=True)
    assert sharp.effective_bandwidth_gbs == pytest.approx(10.0)
    assert sharp.bus_bandwidth_gbs == pytest.approx(10.0 * 126 / 64)
    ring = collective("all_reduce", 64, 1e9, 10.0, 0.0)
    assert ring.effective_bandwidth_gbs == pytest.approx(ring.bus_bandwidth_gbs)


def test_medium_ndr400_with_sharp_reports_at_most_the_line_rate():
    # Medium (70B, TP 8, PP 4, DP 4) on NDR400 with SHARP: each GPU's NIC moves at most
    # 400 Gb/s / 8 x 94% = 47 GB/s (nccl-tests: 46-48 GB/s per NIC); a node of 8 NICs 376 GB/s.
    # The all-reduce sends S = 4.375 GB once: 4.375 / 47 = 93.085 ms + 2 x 5 us.
    report = evaluate(build_template("medium"), default_catalog())
    net = report.sections["network"]
    assert net["sharp"] is True
    assert net["allreduce_ms"] == pytest.approx(4.375 / 47 * 1e3 + 0.01, abs=0.01)
    assert net["effective_bandwidth_gbs"] == pytest.approx(47, rel=1e-3)
    assert net["node_effective_bandwidth_gbs"] == pytest.approx(376, rel=1e-3)
    assert net["node_effective_bandwidth_gbs"] <= 8 * 400 / 8  # under the node's 400 GB/s of NICs
    # The nccl-tests figure stays, documented as ring-relative: 2 x 3/4 x 4.375 GB / 93.095 ms = 70.5.
    assert net["bus_bandwidth_gbs"] == pytest.approx(70.49, abs=0.01)


@pytest.mark.parametrize("sharp", [True, False])
def test_no_fabric_row_reports_more_than_line_rate_times_efficiency(sharp):
    f = FabricSettings(sharp=sharp)
    w = WorkloadSettings(model_params_b=70, tp=8, pp=4, dp=4)
    for row in compare_fabrics(w, f, H100_NODE):
        # per GPU: 1 NIC x line rate / 8 bits x the fabric's measured efficiency (e.g. 100GbE: 12.5 x 0.45)
        measured = {"eth100_tcp": 0.45, "eth200_roce": 0.90, "eth400_roce": 0.90, "ib200": 0.96, "ib400": 0.94,
                    "ib800": 0.94, "spx400": 0.90, "spx800": 0.90}
        cap = row["line_rate_gbps"] / 8 * measured[row["fabric"]]
        assert row["effective_bandwidth_gbs"] <= cap * (1 + 1e-9)
        assert row["node_effective_bandwidth_gbs"] <= 8 * cap * (1 + 1e-9)
        if not sharp:
            assert row["effective_bandwidth_gbs"] == pytest.approx(row["bus_bandwidth_gbs"])


def test_fabrics_text_labels_effective_and_busbw(tmp_path, capsys):
    path = tmp_path / "m.json"
    save_plan(build_template("medium"), path)
    assert main(["fabrics", str(path)]) == 0
    out = capsys.readouterr().out
    ndr = next(line for line in out.splitlines() if "400G InfiniBand" in line)
    # effective per GPU 47.0, per node 376, NCCL busbw 70.5 (labelled as such)
    assert "47.0 GB/s" in ndr and "376 GB/s" in ndr and "70.5 GB/s" in ndr
    assert "517" not in ndr
    assert "NCCL busbw" in out and "never above the line rate" in out


@pytest.mark.parametrize("template", ["medium", "gb200-nvl72-su"])
def test_the_plans_own_row_of_the_fabric_table_is_the_plans_own_step(template):
    # the table runs the plan's nodes at each technology's line rate; on the plan's own fabric,
    # whose NICs run at that rate, it is the plan: the same idle share and tokens/s (it used to
    # forget the GPUs' memory bandwidth and NVLink SHARP: 20.8 % idle and 127,321 tokens/s on
    # medium against the plan's 15.7 % and 126,485)
    report = evaluate(build_template(template), default_catalog())
    net = report.sections["network"]
    own = [row for row in net.fabrics if row.fabric == net["fabric"]]
    assert len(own) == 1
    assert own[0].gpu_idle_pct == pytest.approx(net["gpu_idle_pct"], abs=1e-3)
    assert own[0].tokens_per_s == pytest.approx(report.workload.tokens_per_s, abs=0.1)


def test_a_fabric_faster_than_the_nodes_nics_runs_at_the_nics_rate():
    # 1,024 GPUs of DGX H100 on 800G XDR InfiniBand: their ConnectX-7 NICs run 400 Gb/s, so
    # each GPU moves at most 400 / 8 x 94% = 47 GB/s on either InfiniBand generation; the
    # table's XDR row is the plan's own step (it used to run the NICs at 800G: 94 GB/s and
    # more tokens/s than check gave the same plan).
    from planner.design.templates import design_from

    catalog = default_catalog()
    plan = design_from(None, catalog, system="dgx-h100", gpus=1024, fabric="ib800", model="llama3-70b").plan
    report = evaluate(plan, catalog)
    net = report.sections["network"]
    rows = {row.fabric: row for row in net.fabrics}
    assert rows["ib800"].effective_bandwidth_gbs == pytest.approx(47, rel=1e-3)
    assert rows["ib400"].effective_bandwidth_gbs == pytest.approx(47, rel=1e-3)
    assert rows["ib800"].tokens_per_s == pytest.approx(report.workload.tokens_per_s, abs=0.1)
    assert net["effective_bandwidth_gbs"] == pytest.approx(47, rel=1e-3)
    # slower fabrics still bound the NICs: 200G HDR at 200 / 8 x 96% = 24 GB/s
    assert rows["ib200"].effective_bandwidth_gbs == pytest.approx(24, rel=1e-3)
