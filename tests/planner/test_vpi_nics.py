"""ConnectX-7 and ConnectX-8 are VPI adapters: their ports run InfiniBand or Ethernet (NVIDIA
ConnectX-7 datasheet: "up to 400 Gb/s InfiniBand NDR or 400GbE"). A DGX H100 on an Ethernet
fabric is no mismatch, and on a fabric slower than its NICs the design runs one link a NIC
at the switch ports' rate, whatever the link layer. A switch named alone gives the fabric; a
switch that does not speak the fabric asked is refused."""

from __future__ import annotations

import csv

import pytest

from planner.cli import main
from planner.design.build import DesignError, design
from planner.design.intent import Intent
from planner.export.netbox import write_netbox
from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate

CAT = default_catalog()


def codes(report) -> set[str]:
    return {f.code for f in report.findings}


def test_connectx_adapters_run_both_link_layers_and_others_their_own():
    assert {CAT.nic_link_layers(n) for n in CAT["dgx-h100"].compute_nics()} == {frozenset({"infiniband", "ethernet"})}
    assert {CAT.nic_link_layers(n) for n in CAT["gb300-nvl72"].compute_nics()} == {frozenset({"infiniband",
                                                                                           "ethernet"})}
    # the MI300X platform's Ethernet NICs carry no VPI component: Ethernet only
    assert {CAT.nic_link_layers(n) for n in CAT["amd-mi300x-8"].compute_nics()} == {frozenset({"ethernet"})}


def test_a_dgx_h100_on_roce_runs_its_nics_as_ethernet_with_no_warning():
    plan = design(Intent(system="dgx-h100", gpus=256, fabric="eth400_roce"), CAT).plan
    report = evaluate(plan, CAT)
    assert "network.nic.technology" not in codes(report)
    note = next(f for f in report.findings if f.code == "network.nic.port_mode")
    assert note.severity == "info" and "set to ethernet" in note.message


def test_ethernet_only_nics_on_infiniband_are_refused_by_the_design_and_an_error_in_a_plan(capsys, tmp_path):
    # asked for by name: refused, naming the fabric those NICs speak
    with pytest.raises(DesignError, match="compute NICs are ethernet only and cannot run the switches of 400G "
                                          r"InfiniBand \(NDR\): choose a fabric they speak \(eth400_roce"):
        design(Intent(system="amd-mi300x-8", gpus=64, fabric="ib400"), CAT)
    # named with --set as with --fabric: the user's fabric, refused the same way
    capsys.readouterr()
    assert main(["new", "--system", "amd-mi300x-8", "--gpus", "64", "--set", "fabric.technology=ib400",
                 "-o", str(tmp_path / "p.json")]) == 2
    assert "cannot run the switches of 400G InfiniBand" in capsys.readouterr().err
    assert not (tmp_path / "p.json").exists()
    # a template's InfiniBand fabric (medium's) becomes the one the NICs speak, and says so
    d = design(Intent(system="amd-mi300x-8", gpus=64, settings={"fabric": {"technology": "ib400",
                                                                          "switch_device": "qm9700"}}), CAT)
    assert d.plan.settings.fabric.technology == "eth400_roce"
    assert any(f.code == "design.fabric.nics" and "which they cannot run" in f.message for f in d.findings)
    # the plan's fabric set back to InfiniBand by hand: the nodes cannot join it, an error
    plan = d.plan
    plan.settings.fabric = plan.settings.fabric.model_copy(update={"technology": "ib400", "switch_device": "qm9700"})
    error = next(f for f in evaluate(plan, CAT).findings if f.code == "network.nic.technology")
    assert error.severity == "error" and "cannot run infiniband" in error.message


def test_a_100g_ethernet_fabric_takes_one_link_a_nic_and_no_error(tmp_path):
    # 1,024 H100 (128 DGX, 8 ConnectX-7 each) on 100GbE SN4600C switches of 64 ports: the
    # NICs run at 100 Gb/s, one link each: 1,024 node ports, 32 leaves of 32 down and 32 up,
    # 32 x 32 / 64 = 16 spines; before, each 400G NIC took four 100G ports (4,096 links).
    d = design(Intent(system="dgx-h100", gpus=1024, fabric="eth100_tcp"), CAT)
    assert d.plan.settings.fabric.nic_link_gbps == 100
    assert "design.fabric.nic_rate" in {f.code for f in d.findings}
    report = evaluate(d.plan, CAT)
    assert report.counts_by_severity()["error"] == 0
    assert not codes(report) & {"network.nic.technology", "network.nic.faster_than_switch"}
    network = report.sections["network"]
    assert (network.leaf_switches, network.spine_switches) == (32, 16)
    assert sum(p.device == "sn4600c" for p in d.plan.placements) == 48
    # the NetBox interfaces of the NICs are Ethernet, as their ports are set
    write_netbox(d.plan, CAT, tmp_path)
    rows = [r for f in sorted(tmp_path.glob("*interfaces*.csv")) for r in csv.DictReader(f.open())]
    gpu_ports = [r for r in rows if r["name"].startswith("gpu")]
    assert len(gpu_ports) == 1024 and {r["type"] for r in gpu_ports} == {"400gbase-x-osfp"}


def test_a_switch_named_alone_gives_its_fabric():
    d = design(Intent(system="dgx-h100", gpus=64, switch="qm9700"), CAT)
    assert d.plan.settings.fabric.technology == "ib400"
    d = design(Intent(system="dgx-h100", gpus=64, switch="sn5600-400"), CAT)
    fabric = d.plan.settings.fabric
    assert (fabric.technology, fabric.switch_device) == ("eth400_roce", "sn5600-400")
    assert evaluate(d.plan, CAT).counts_by_severity()["error"] == 0
    # a technology stated in the settings is kept (Spectrum-X on the same 400G switch), not replaced
    d = design(Intent(system="dgx-h100", gpus=64, switch="sn5600-400",
                      settings={"fabric": {"technology": "spx400"}}), CAT)
    assert d.plan.settings.fabric.technology == "spx400"
    with pytest.raises(DesignError, match="the fabric asked"):
        design(Intent(system="dgx-h100", gpus=64, switch="sn5600-400", settings={"fabric": {"technology": "ib400"}}),
               CAT)


def test_a_switch_that_does_not_speak_the_fabric_is_refused(tmp_path, capsys):
    with pytest.raises(DesignError, match=r"800 Gb/s ethernet ports, the fabric asked .*\(qm9700"):
        design(Intent(system="dgx-h100", gpus=64, fabric="ib400", switch="sn5600"), CAT)
    assert main(["new", "--system", "dgx-h100", "--gpus", "64", "--fabric", "ib400", "--switch", "sn5600",
                 "-o", str(tmp_path / "p.json")]) == 2
    assert "leave the switch out" in capsys.readouterr().err and not (tmp_path / "p.json").exists()
