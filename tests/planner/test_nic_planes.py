"""A ConnectX-8 reaches 800 Gb/s over two 400G planes (ConnectX-8 SuperNIC firmware release
notes, "planarized topology network"): on 400G switch ports it takes two ports at its full
rate, so it is no error and the job counts 800 Gb/s, while a NIC of one plane on slower
ports trains down."""

from __future__ import annotations

import pytest

from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.network.technologies import effective_gbs_per_gpu
from planner.report.evaluate import evaluate
from planner.settings import FabricSettings

CAT = default_catalog()


def nvl72_report(fabric: str, switch: str):
    intent = Intent(system="gb300-nvl72", nodes=4, spare_nodes=0, fabric=fabric, switch=switch)
    plan = design(intent, CAT).plan
    return evaluate(plan, CAT)


def test_connectx8_has_two_planes_and_connectx7_one():
    assert {n.planes for n in CAT["gb300-nvl72"].compute_nics()} == {2}
    assert {n.planes for n in CAT["dgx-h100"].compute_nics()} == {1}


def test_a_two_plane_nic_on_400g_ports_is_no_error_and_takes_two_ports():
    report = nvl72_report("ib400", "q3400-400")
    assert "network.nic.faster_than_switch" not in {f.code for f in report.findings}
    net = report.sections["network"]
    # 4 racks x 18 trays x 4 NICs x 2 planes = 576 endpoints of 400G; rails = 8 per tray;
    # a 288-port leaf takes 144 trays, so one unit of 72 trays: 8 leaves of 72 down, 72 up;
    # spines: 1 spine would take 8 x 72 = 576 links > 288 ports, 2 take 8 x 36 = 288: 2.
    assert net.size.endpoints == 576
    assert (net["leaf_switches"], net["spine_switches"]) == (8, 2)


def test_a_two_plane_nic_on_ports_slower_than_a_plane_trains_down_unless_run_at_their_rate():
    # a ConnectX-8 plane runs 400G; 200G ports (QM9700 split, HDR/NDR200) are slower still.
    # The design asked for that fabric runs each plane's link at 200G: 4 racks x 18 trays x
    # 4 NICs x 2 planes = 576 endpoints of 200G, and no error.
    intent = Intent(system="gb300-nvl72", nodes=4, spare_nodes=0, fabric="ib200", switch="qm9700-ndr200")
    plan = design(intent, CAT).plan
    assert plan.settings.fabric.nic_link_gbps == 200
    report = evaluate(plan, CAT)
    assert "network.nic.faster_than_switch" not in {f.code for f in report.findings}
    assert report.sections["network"].size.endpoints == 576
    # without the setting (a plan edited by hand) the links train down: an error with a remedy
    plan.settings.fabric = plan.settings.fabric.model_copy(update={"nic_link_gbps": None})
    [error] = [f for f in evaluate(plan, CAT).findings if f.code == "network.nic.faster_than_switch"]
    assert error.severity == "error" and dict(error.remedy.figures) == {"gbps": 200}


def test_the_job_counts_the_full_rate_of_a_two_plane_nic():
    f = FabricSettings()
    # measured profile, 0.94 of line rate on NDR and XDR: 2 planes x 400 Gb/s / 8 x 0.94 = 94 GB/s,
    # as one 800G XDR link: 800 / 8 x 0.94 = 94 GB/s; one plane on 400G ports: 400 / 8 x 0.94 = 47
    assert effective_gbs_per_gpu(f, "ib400", 1.0, 800, 2) == pytest.approx(94.0)
    assert effective_gbs_per_gpu(f, "ib800", 1.0, 800, 2) == pytest.approx(94.0)
    assert effective_gbs_per_gpu(f, "ib400", 1.0, 800, 1) == pytest.approx(47.0)
    split = nvl72_report("ib400", "q3400-400").sections["network"]
    whole = nvl72_report("ib800", "q3400").sections["network"]
    assert split["effective_bandwidth_gbs"] == pytest.approx(whole["effective_bandwidth_gbs"])
    assert split["tokens_per_s"] == pytest.approx(whole["tokens_per_s"])
