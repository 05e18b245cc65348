"""One count of the fabric's transceivers everywhere: `check`, `check --json`, the workbook's
bill of materials and the vendor pack show the modules the cable schedule buys (a module per
cage at each end of a fibre run, a twin-port module for two links, none on copper), and the
network section says how many fabric links run on fibre and how many on copper."""

from __future__ import annotations

import json
import math
import re

import openpyxl
import pytest

from planner.cli import main
from planner.design.templates import build_template, template_names
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import save_plan
from planner.report.evaluate import evaluate
from ui.export.sections import network_rows

CATALOG = default_catalog()
U_M = 0.04445  # one rack unit, EIA-310
PACK_ROW = "Fabric transceivers (modules, as in the bill of materials)"


def _run(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) in (0, 1)
    return capsys.readouterr().out


# campus-400k and campus-1m take minutes to export and route (22,583 racks): slow
@pytest.mark.parametrize("template", [pytest.param(t, marks=pytest.mark.slow) if t.startswith("campus") else t
                                      for t in template_names()])
def test_check_json_workbook_and_vendor_pack_show_one_transceiver_count(template, tmp_path, capsys):
    plan = build_template(template, catalog=CATALOG)
    path, book = tmp_path / "plan.json", tmp_path / "plan.xlsx"
    save_plan(plan, path)
    text = _run(capsys, "check", str(path))
    out = json.loads(_run(capsys, "check", str(path), "--json"))
    assert main(["export", str(path), "-o", str(book)]) == 0
    net = out["network"]
    shown = int(re.search(r"^  Transceivers \(fabric modules bought\) +([\d,]+)$", text, re.M)[1].replace(",", ""))
    bom = sum(line["quantity"] for line in out["cost"]["bom"] if line["item"].startswith("Transceiver"))
    summary = {r[0]: r[1] for r in openpyxl.load_workbook(book, data_only=True)["Summary"].iter_rows(values_only=True)
               if r[0]}
    pack = dict(network_rows(evaluate(plan, CATALOG), CATALOG))
    assert shown == net["transceivers"] == bom == summary["Transceivers"] == int(pack[PACK_ROW].replace(",", ""))
    assert sum(net["transceivers_per_tier"].values()) == net["transceivers"]
    assert net["optical_links"] + net["copper_links"] == net["cables"]
    said = re.search(r"^  Optics estimated per fabric tier, not routed +(on|off)$", text, re.M)[1]
    if out["cost"]["cables_routed"]:  # the schedule the plan is priced from is the one check --json routes
        assert out["cables"]["fabric_transceivers"] == net["transceivers"]
        assert not net["transceivers_estimated"] and said == "off"
    else:  # too many links to route on each edit: the per-tier estimate, and it says so
        assert net["transceivers_estimated"] and said == "on"


def test_medium_optical_and_copper_links_by_hand():
    """medium's rack layout: one row A of 600 mm racks in plan order, GPU-01 .. GPU-04 (4 HGX
    H100 nodes each), NET-01 (the 8 leaf and 2 spine QM9700, leaves first in plan order: the
    first fabric switches placed), STOR-01 and CDU-01; 42U racks, the cable tray 300 mm above
    them, 1 m slack a run (the floor settings).

    A run between racks goes up from the device's top U to the tray, along the row, down to the
    other device and takes the slack: (42 - top) x 44.45 mm + 0.3 m at each end. A 400G run is
    passive copper up to 3 m and active copper up to 5 m (NVIDIA LinkX: MCP7Y00 DAC 1-3 m,
    ACC 4 and 5 m), fibre with an optic at each end beyond. Inside NET-01 a leaf-spine run is
    the U difference plus the slack: at most 41 x 44.45 mm + 1 m = 2.8 m, so all 128 are DAC.
    A node's rail i goes to leaf i (rail-optimised, one scalable unit of 16 nodes)."""
    plan = build_template("medium", catalog=CATALOG)
    floor = plan.settings.floor
    assert (floor.tray_above_rack_mm, floor.cable_slack_m) == (300, 1.0)
    order = [r.name for r in plan.racks]
    assert order == ["GPU-01", "GPU-02", "GPU-03", "GPU-04", "NET-01", "STOR-01", "CDU-01"]
    assert {(r.row, r.width_mm, r.height_u) for r in plan.racks} == {("A", 600, 42)}
    x = {r.id: 0.6 * i for i, r in enumerate(plan.racks)}

    def up(p) -> float:
        top = p.u + CATALOG[p.device].u_height - 1
        return (42 - top) * U_M + 0.3

    switches = [p for p in plan.placements if p.device == plan.settings.fabric.switch_device]
    leaves = switches[:8]
    nodes = [p for p in plan.placements if CATALOG[p.device].gpu]
    assert len(nodes) == 16 and len(switches) == 10
    fibre_at_leaf = [0] * 8
    copper = 128  # the leaf-spine runs inside NET-01
    for node in nodes:
        for rail, leaf in enumerate(leaves):
            run_m = up(node) + abs(x[node.rack] - x[leaf.rack]) + up(leaf) + 1.0
            if run_m <= 5.0:
                copper += 1
            else:
                fibre_at_leaf[rail] += 1
    optical = sum(fibre_at_leaf)
    # the top node of GPU-04, next to NET-01, reaches the three lowest leaves in under 5 m
    assert (optical, copper) == (125, 131)
    # optics: a single-port module at each node end (its ConnectX-7 cages hold one link), a
    # twin-port module per two fibre links at a leaf's QM9700 cages
    assert CATALOG["qm9700"].switch.ports_per_module == 2
    assert {n.ports_per_module for p in nodes for n in CATALOG[p.device].compute_nics()} == {1}
    modules = optical + sum(math.ceil(f / 2) for f in fibre_at_leaf)
    assert modules == 125 + 64

    net = evaluate(plan, CATALOG).network
    assert (net.optical_links, net.copper_links) == (optical, copper)
    assert net.transceivers == modules and net.transceivers_per_tier["leaf-spine"] == 0
