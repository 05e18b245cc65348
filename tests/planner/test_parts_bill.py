"""One bill of parts: transceivers by module, cables by part, NICs, PDUs and CDUs by catalog id,
counted by hand, and the same number for each part in check, the BOM, the workbook, the
vendor pack's network page (its cables by the bill's lines, as ordered) and ``cables``."""

from __future__ import annotations

import json
from collections import Counter

import openpyxl
import pytest

from planner.cli import main
from planner.costs.bom import PART_KINDS, parts_bill
from planner.costs.per_tier import tier_lines
from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.network.fabric import plan_fabric
from planner.plan.fileio import save_plan
from planner.report.evaluate import evaluate
from ui.export.sections import network_rows
from tests.planner.template_cases import everyday_templates

SR4 = "xcvr-400g-osfp-sr4"  # single-port 400G OSFP SR4: what a single-port ConnectX-7 cage takes
TWIN = "xcvr-2x400g-osfp-sr8"  # twin-port 2 x 400G OSFP SR4: what a QM9700 / SN5600 split cage takes


def check_json(capsys, tmp_path, template: str) -> dict:
    path = tmp_path / f"{template}.json"
    assert main(["new", "--template", template, "-o", str(path)]) == 0
    capsys.readouterr()
    main(["check", str(path), "--json"])
    return json.loads(capsys.readouterr().out)


def test_medium_bill_of_parts_by_hand(capsys, tmp_path):
    """medium, priced from its cable schedule (16 HGX H100 nodes in 4 GPU racks, the 10 QM9700
    and the storage switch in NET-01):
    - node-leaf: 16 x 8 = 128 links, 125 on fibre (7-10 m to the network rack) and node-16's
      last 3 rails on 5 m ACC. Node end: single-port ConnectX-7 cages, 1 x 125 = 125 SR4.
      Leaf end: twin-port QM9700 cages; 8 leaves with 16 fibre ends (ib-1..5) or 15 (ib-6..8):
      ceil(16/2) = ceil(15/2) = 8 modules a leaf, 64 twin-port modules.
    - leaf-spine: 128 links inside NET-01, 1.5 m passive DAC: no optics.
    - storage: 14 nodes x 2 storage ports on fibre: 28 single-port SR4 at the nodes and 28 ends
      on the SN5600 split's twin-port cages: 14 twin-port modules (the 7 appliances' 200G
      ports on AOC and the rest of the node ports on ACC take none).
    Transceivers: SR4 125 + 28 = 153, twin-port 64 + 14 = 78."""
    data = check_json(capsys, tmp_path, "medium")
    parts = data["cost"]["parts"]
    assert parts["transceivers"] == {SR4: 125 + 28, TWIN: 64 + 14}
    # cables: 128 DAC (1.5 m runs in the 2 m part), 3 + 4 ACC 5 m, 125 + 28 fibre trunks
    # (7-10 m runs, the 10 m part), 28 AOC to the appliances, 36 Cat6A (one per powered device)
    assert parts["cables"]["dac-400g-2m"] == 128
    assert parts["cables"]["acc-800g-5m"] == 3 + 4
    assert parts["cables"]["fiber-om4-mpo-10m"] == 125 + 28
    assert parts["cables"]["aoc-200g-10m"] == 7 * 4
    assert parts["cables"]["cat6a-3m"] + parts["cables"]["cat6a-10m"] == 36
    assert sum(parts["cables"].values()) == data["cables"]["links"] == 352
    # the storage NICs (2 a node, 4 an appliance) name no catalog part: counted under that key
    assert parts["nics"] == {"cx7-400-osfp": 16 * 8, "no-catalog-part": 16 * 2 + 7 * 4}
    assert parts["cdus"] == {"cdu-inrack-250": data["totals"]["cdus"]} == {"cdu-inrack-250": 2}
    assert sum(parts["pdus"].values()) == 22
    # one count of the fabric's modules everywhere: the network section's and the cable
    # block's are the bill's 125 SR4 + 64 twin-port, all on node-leaf runs (leaf-spine is copper)
    assert data["network"]["transceivers"] == data["cables"]["fabric_transceivers"] == 125 + 64
    assert data["network"]["transceivers_per_tier"] == {"node-leaf": 125 + 64, "leaf-spine": 0, "spine-core": 0}
    # the sizing still says what every sized run as optical would take (node-leaf 128
    # single-port + 64 twin-port at the leaves, leaf-spine 64 + 64)
    assert data["network"]["sizing"]["transceivers_per_tier"] == {"node-leaf": 128 + 64, "leaf-spine": 64 + 64,
                                                                 "spine-core": 0}
    # every network's modules by speed (153 SR4 + 78 twin-port), and the schedule's fibre
    # ends (125 x 2 + 28 x 2 = 306)
    assert data["cables"]["transceivers"] == {"400G transceiver (SR)": 153 + 78}
    assert data["cables"]["fibre_ends"] == {"400G transceiver (SR)": 306}


@pytest.mark.parametrize("template,expected", [
    # medium per tier (links x ends x module type): node-leaf 128 links x (1 single-port SR4 at
    # the node's ConnectX-7 + 1/2 twin-port at the leaf) = 128 SR4 + 64 twin; leaf-spine 128 x
    # (1/2 + 1/2) twin = 128 twin.
    ("medium", {SR4: 128, TWIN: 64 + 128}),
    # gb200-nvl72-su: 576 node-leaf links x (1 SR4 at the tray's single-port ConnectX-7 + 1/2
    # twin at the leaf) = 576 SR4 + 288 twin; 576 leaf-spine x (1/2 + 1/2) = 576 twin.
    ("gb200-nvl72-su", {SR4: 576, TWIN: 288 + 576}),
])
def test_fabric_optics_per_tier_by_hand(catalog, template, expected):
    plan = build_template(template, catalog=catalog)
    counts = Counter(p.device for p in plan.placements)
    size = plan_fabric(dict(counts), catalog, plan.settings.fabric)
    lines = tier_lines(size, catalog, dict(counts), plan.settings.fabric.switch_device, plan.settings.costs)
    bill = parts_bill(lines, {}, catalog)
    assert bill["transceivers"] == expected
    assert sum(expected.values()) == sum(size.transceivers_by_tier().values())


def test_hgx_h100_compute_nics_take_single_port_optics(catalog):
    """The generic HGX H100 node's compute NICs are single-port ConnectX-7 adapters: one
    single-port module at each, not half a twin-port one (DGX H100 keeps its twin-port cages)."""
    nic = catalog.components["cx7-400-osfp"]
    assert nic.ports == 1
    assert {n.ports_per_module for n in catalog["hgx-h100-8"].compute_nics()} == {1}
    assert {n.ports_per_module for n in catalog["dgx-h100"].compute_nics()} == {2}


def test_nics_without_a_catalog_part_are_counted_not_dropped(capsys, tmp_path):
    """8 MI300X nodes: their 8 compute and 2 storage NICs a node name no catalog part; the
    bill counts them under no-catalog-part, 8 x (8 + 2) = 80, beside the appliances' 4 each."""
    path = tmp_path / "mi300x.json"
    assert main(["new", "--gpus", "64", "--system", "amd-mi300x-8", "--fabric", "eth400_roce", "-o", str(path)]) == 0
    capsys.readouterr()
    main(["check", str(path), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["storage"]["storage_devices"] == 4
    assert data["cost"]["parts"]["nics"] == {"no-catalog-part": 8 * (8 + 2) + 4 * 4}


def _workbook_parts(path) -> dict[str, dict[str, int]]:
    ws = openpyxl.load_workbook(path, read_only=True)["BOM"]
    rows = ws.iter_rows(values_only=True)
    head = next(rows)
    qty, part = head.index("Quantity"), head.index("Catalog id")
    by_id: Counter = Counter()
    for row in rows:
        if row[part]:
            by_id[row[part]] += row[qty]
    return dict(by_id)


def _pack_parts(report, catalog) -> dict[str, dict[str, int]]:
    """The network page's rows under 'Transceivers, ... by module' (by catalog id) and
    'Cables, ... as ordered' (by the bill's line)."""
    titles = {c.title: c.id for c in catalog.components.values()}
    out: dict[str, dict[str, int]] = {"transceivers": {}, "cables": {}}
    group = None
    for label, value in network_rows(report, catalog):
        if label.startswith("Transceivers, all networks"):
            group = "transceivers"
        elif label.startswith("Cables, all networks"):
            group = "cables"
        elif label.startswith("    ") and group == "transceivers" and label.strip() in titles:
            out[group][titles[label.strip()]] = int(value.replace(",", ""))
        elif label.startswith("    ") and group == "cables":
            out[group][label.strip()] = int(value.replace(",", ""))
        else:
            group = None
    return out


@pytest.mark.parametrize("template", everyday_templates())
def test_every_output_gives_the_same_count_for_each_part(capsys, tmp_path, catalog, template):
    plan = build_template(template, catalog=catalog)
    save_plan(plan, tmp_path / "p.json")
    report = evaluate(plan, catalog)
    parts = report.cost.parts
    # the BOM's lines, summed by catalog id
    bom: dict[str, Counter] = {name: Counter() for name in PART_KINDS.values()}
    for line in report.cost.bom:
        if line.part_kind in PART_KINDS and line.part_id:
            bom[PART_KINDS[line.part_kind]][line.part_id] += line.quantity
    for kind in ("transceivers", "cables", "pdus", "cdus"):
        assert {k: v for k, v in parts[kind].items() if k != "no-catalog-part"} == dict(bom[kind]), kind
    # check --json
    capsys.readouterr()
    main(["check", str(tmp_path / "p.json"), "--json"])
    assert json.loads(capsys.readouterr().out)["cost"]["parts"] == parts
    # the workbook's BOM sheet, by its catalog id column
    write_workbook(plan, catalog, tmp_path / "p.xlsx", report)
    book = _workbook_parts(tmp_path / "p.xlsx")
    for kind in ("transceivers", "cables", "pdus", "cdus"):
        assert {k: book[k] for k in bom[kind]} == dict(bom[kind]), kind
    # the vendor pack's network page
    pack = _pack_parts(report, catalog)
    assert pack["transceivers"] == (dict(bom["transceivers"]) if report.network is not None else {})
    # cables by the bill's kinds, their lengths left to the bill (a catalog part of another
    # length only prices a line, and its name would give the same cables a second length)
    ordered = Counter()
    for line in report.cost.bom:
        if line.part_kind == "cable":
            head, _, tail = line.item.rpartition(", ")
            ordered[head if head and tail.endswith(" m") else line.item] += line.quantity
    assert pack["cables"] == (dict(ordered) if report.network is not None else {})
    # cables: the same modules and cables where check prices from the cable schedule; the
    # largest plans are priced per fabric tier (unrouted), so there the bill's optics are the
    # sizing's count of every run as optical
    capsys.readouterr()
    main(["cables", str(tmp_path / "p.json"), "--json"])
    cables = json.loads(capsys.readouterr().out)["parts"]
    if any(line.source.startswith("Per fabric tier") for line in report.cost.bom):
        # the fabric's modules (the storage and management networks' are bought beside them, per network)
        fabric = sum(line.quantity for line in report.cost.bom if line.counts_as == "transceiver")
        assert fabric == report.network.transceivers
        networks = sum(line.quantity for line in report.cost.bom
                       if line.item.startswith(("Storage transceiver", "Management transceiver")))
        assert sum(parts["transceivers"].values()) == fabric + networks
    else:
        assert cables == {"transceivers": parts["transceivers"], "cables": parts["cables"]}
