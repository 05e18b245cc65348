"""HDR NICs and NDR200 ports: both 200 Gb/s, but an HDR ConnectX-6 signals 4 x 50G lanes and
a QM9700's NDR200 split runs 2 x 100G (NVIDIA MCP7Y50 and MCP7Y60 splitter specifications):
they cannot link. The design takes the QM9700 at HDR (one HDR link a 4-lane NDR port, 64 a
switch); a plan that keeps the split gets an error whose fix is that switch."""

from __future__ import annotations

import json

from planner.cli import main
from planner.hardware.catalog import default_catalog
from planner.network.technologies import links_to

CAT = default_catalog()


def _new(tmp_path, capsys, *args: str) -> tuple[str, dict]:
    path = tmp_path / "a100.json"
    fabric = [] if "--fabric" in args else ["--fabric", "ib200"]
    assert main(["new", "--gpus", "576", "--system", "dgx-a100", *fabric, *args, "-o", str(path)]) == 0
    said = capsys.readouterr().out
    main(["check", str(path), "--json"])
    return said, json.loads(capsys.readouterr().out)


def test_a_connectx7_runs_hdr_lanes_and_an_hdr_nic_does_not_run_ndr200_lanes():
    assert not links_to(CAT["qm9700-ndr200"], 50.0)
    assert links_to(CAT["qm9700-hdr"], 50.0) and links_to(CAT["qm9700-hdr"], 100.0)
    assert links_to(CAT["qm9700-ndr200"], None)  # a NIC without a lane figure is not limited


def test_hdr_nodes_get_a_fabric_of_switches_whose_ports_run_their_lanes(tmp_path, capsys):
    # 72 DGX A100, 576 HDR NICs, rail-optimised on 64-port switches at HDR: a leaf takes 32
    # nodes on its rail (k/2), so 3 scalable units (32 + 32 + 8 nodes) of 8 rail leaves, 24
    # leaves with 32 uplinks each: 768 uplinks over 64-port spines, balanced: 16 spines (48
    # links each, 2 to every leaf). The NDR200 split (128 ports) would have taken 16 + 8.
    said, data = _new(tmp_path, capsys)
    net = data["network"]
    assert net["switch_model"] == "qm9700-hdr"
    assert (net["leaf_switches"], net["spine_switches"]) == (24, 16)
    assert "compute NICs signal at 50 Gb/s a lane" in said  # the design says why (design.fabric.lanes)
    assert "network.nic.lanes" not in {f["code"] for f in data["findings"]}


def test_a_named_split_switch_is_kept_with_an_error_fix_clears(tmp_path, capsys):
    _, data = _new(tmp_path, capsys, "--switch", "qm9700-ndr200")
    lanes = [f for f in data["findings"] if f["code"] == "network.nic.lanes"]
    assert [f["severity"] for f in lanes] == ["error"]
    assert "50 Gb/s a lane" in lanes[0]["message"] and "Quantum-2 QM9700 at HDR" in lanes[0]["message"]
    src, out = tmp_path / "a100.json", tmp_path / "fixed.json"
    main(["fix", str(src), "-o", str(out)])
    capsys.readouterr()
    main(["check", str(out), "--json"])
    fixed = json.loads(capsys.readouterr().out)
    assert fixed["network"]["switch_model"] == "qm9700-hdr"
    assert not [f for f in fixed["findings"] if f["code"].startswith("network.") and f["severity"] == "error"]


def test_hdr_nics_on_ndr_ports_are_not_offered_the_split_they_cannot_link_to(tmp_path, capsys):
    """On 400G QM9700 ports (each runs one HDR link through an OSFP to 2 x QSFP56 splitter)
    the NICs' 200G links would take fewer switches on 128 x NDR200, but their lanes cannot run
    it: no warning offers it, and the design keeps the 64-port switch (24 leaves, 16 spines,
    as on the QM9700 at HDR)."""
    said, data = _new(tmp_path, capsys, "--fabric", "ib400", "--switch", "qm9700")
    assert "NDR200" not in said
    assert not [f for f in data["findings"] if f["code"] in ("network.nic.slower_than_switch", "network.nic.lanes")]
    net = data["network"]
    assert (net["switch_model"], net["leaf_switches"], net["spine_switches"]) == ("qm9700", 24, 16)
