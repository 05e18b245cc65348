"""The cable schedule: ends, lengths from the floor, media by reach and speed, and totals."""

from __future__ import annotations

from collections import Counter

import csv
import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.cli import main
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.network.cables import U_M, build_schedule
from planner.network.media import FIBRE_LENGTHS, choose_medium, medium_buckets
from planner.plan.fileio import save_plan
from planner.plan.model import Rack
from planner.report.evaluate import evaluate
from tests.planner.cost_helpers import plan_with

CAT = default_catalog()


def two_racks(leaf_row="A", spare_row=None):
    """A DGX H100 at U1 of rack N and one QM9700 at U42 of rack L, side by side (600 mm
    racks): eight 400G links between them, rack N first in its row."""
    racks = [(Rack(id="N", name="N", row="A", power_cap_kw=30), [("dgx-h100", 1)])]
    if spare_row:
        racks.append((Rack(id="X", name="X", row=spare_row), []))
    racks.append((Rack(id="L", name="L", row=leaf_row), [("qm9700", 42)]))
    return plan_with(racks)


def test_adjacent_racks_link_length_and_moving_to_the_next_row():
    sched = build_schedule(two_racks(), CAT)
    links = [link for link in sched.links if link.tier == "node-leaf"]
    assert len(links) == 8  # 8 NICs, one switch holds them (one tier)
    link = links[0]
    assert (link.a.rack, link.a.u, link.a.port, link.b.rack, link.b.u, link.b.port) == ("N", 1, 1, "L", 42, 1)
    # up from the node's top U (U8) to the tray: (42 - 8) x 44.45 mm + 0.3 m = 1.8113 m;
    # along the row 0.6 m (rack centres); down to the switch at U42: 0 + 0.3 m; slack 1.0 m
    up = (42 - 8) * U_M + 0.3
    assert link.length_m == pytest.approx(up + 0.6 + 0.3 + 1.0)
    assert link.length_m >= 0.6 + 1.0  # at least the rack pitch plus slack
    # 3.71 m is past the 3 m reach of 400G passive copper: active copper, 4 m stock length
    assert (link.medium.name, link.medium.stock_m) == ("ACC", 4.0)
    # move rack L to the next row (behind an empty rack X, so it keeps its place along the
    # row): the link grows by the row pitch, depth 1.2 m + the 1.2 m cold aisle = 2.4 m
    moved = next(lk for lk in build_schedule(two_racks("B", "B"), CAT).links if lk.tier == "node-leaf")
    assert moved.length_m - link.length_m == pytest.approx(1.2 + 1.2)
    # 6.1 m is beyond copper: multimode fibre in 7 m with a transceiver at each end
    assert (moved.medium.name, moved.medium.stock_m, moved.medium.transceivers) == ("MMF", 7.0, 2)


def test_medium_by_reach_and_speed():
    assert choose_medium(400, 2.9).name == "DAC"  # 400G passive copper reaches 3 m
    assert choose_medium(800, 2.9).name == "ACC"  # 800G DAC only 2 m
    assert choose_medium(400, 5.1).name == "MMF"  # active copper 5 m at most
    assert choose_medium(200, 12).name == "AOC" and choose_medium(200, 12).stock_m == 15
    assert choose_medium(400, 60).name == "SMF"  # SR optics reach 50 m on OM4
    assert choose_medium(1, 42).name == "Cat6A" and choose_medium(1, 42).stock_m == 50


@settings(max_examples=60, deadline=None)
@given(gbps=st.sampled_from([1.0, 10.0, 25.0, 100.0, 200.0, 400.0, 800.0, 1600.0]),
       lengths=st.lists(st.one_of(st.floats(0.01, 2500.0), st.sampled_from(
           [x + d for x in (0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 30.0, 50.0, 100.0, 2000.0) for d in (-1e-9, 0.0, 1e-12)])),
           min_size=2, max_size=40))
def test_runs_in_one_bucket_get_one_medium_and_stock_length(gbps, lengths):
    """The schedule routes whole columns: two runs share a bucket exactly when the run-at-a-time
    choice gives them the same medium and stock length."""
    buckets = medium_buckets(gbps, np.array(lengths))
    media = [choose_medium(gbps, x) for x in lengths]
    for i in range(len(lengths)):
        for j in range(len(lengths)):
            if buckets[i] >= 0 and buckets[j] >= 0:
                assert (buckets[i] == buckets[j]) == (media[i] == media[j])
        assert (buckets[i] < 0) == (lengths[i] > FIBRE_LENGTHS[-1])


def test_three_tier_wiring_uses_each_switch_port_once_and_rail_i_reaches_leaf_i():
    """massive: 48 DGX H100 in scalable units of 32 (then 16) on a rail-optimised three-tier fat tree
    of 64-port switches (32 down, 32 up at a leaf): each node's rail i goes to leaf i of its
    unit, no port of a network carries two links, and every leaf reaches every spine over the
    same number of links (ECMP-balanced): 16 leaves in one pod, the most needing 32 up, over
    spines of 32 ports down: m = 2 links from each leaf to each of 16 spines, 32 up a leaf,
    so the second unit's leaves (16 down) have room to grow and none is oversubscribed."""
    plan = build_template("massive")
    sched = build_schedule(plan, CAT)
    links = list(sched.links)
    ports = [(link.network, end.device, end.port) for link in links for end in (link.a, link.b)]
    assert len(ports) == len(set(ports))
    node_leaf = [link for link in links if link.tier == "node-leaf"]
    assert len(node_leaf) == 48 * 8
    leaf_of = {}  # (node, rail) -> leaf
    for link in node_leaf:
        leaf_of[(link.a.device, link.a.port)] = link.b.device
    nodes = sorted({node for node, _ in leaf_of}, key=lambda n: next(
        (i for i, lk in enumerate(node_leaf) if lk.a.device == n)))
    units = [nodes[i:i + 32] for i in range(0, len(nodes), 32)]
    for unit in units:
        for rail in range(1, 9):
            assert len({leaf_of[(n, rail)] for n in unit}) == 1  # one leaf per rail of a unit
    for unit_a, unit_b in zip(units, units[1:]):
        assert leaf_of[(unit_a[0], 1)] != leaf_of[(unit_b[0], 1)]
    down, up, pairs = Counter(), Counter(), Counter()
    for link in links:
        if link.tier == "node-leaf":
            down[link.b.device] += 1
        elif link.tier == "leaf-spine":
            up[link.a.device] += 1
            pairs[(link.a.device, link.b.device)] += 1
    assert all(up[leaf] >= n for leaf, n in down.items())  # non-blocking
    assert sorted(down.values()) == [16] * 8 + [32] * 8 and set(up.values()) == {32}
    assert len(pairs) == 16 * 16 and set(pairs.values()) == {2}
    assert all(lk.a.port > 32 for lk in links if lk.tier == "leaf-spine")  # uplinks after the 32 down-ports


def test_medium_schedule_lists_every_compute_link_and_the_bom_sums_to_it(tmp_path, capsys):
    plan = build_template("medium")
    report = evaluate(plan, CAT)
    fabric = report.sections["network"]["cables_per_tier"]
    sched = build_schedule(plan, CAT)
    compute = [link for link in sched.links if link.network == "compute"]
    # 16 nodes x 8 rails = 128 node-leaf links + 128 leaf-spine = 256: the fabric's cable count
    assert len(compute) == sum(fabric.values()) == 256
    assert all(link.length_m > 0 and link.medium.stock_m >= link.length_m for link in sched.links)
    # the BOM's cable lines (by network, part and length) add up to the schedule, and so do the CSV rows
    lines = report.sections["cost"].bom
    assert sum(line.quantity for line in lines if " cable, " in line.item) == len(sched.links)
    save_plan(plan, tmp_path / "m.json")
    assert main(["cables", str(tmp_path / "m.json"), "--csv", str(tmp_path / "c.csv")]) == 0
    rows = list(csv.DictReader(io.StringIO((tmp_path / "c.csv").read_text())))
    assert len(rows) == len(sched.links)
    assert sum(1 for r in rows if r["network"] == "compute") == 256
    assert {r["from_rack"] for r in rows if r["tier"] == "node-leaf"} == {"GPU-01", "GPU-02", "GPU-03", "GPU-04"}
    capsys.readouterr()
    # check --json carries the totals
    assert main(["check", str(tmp_path / "m.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cables"]["links"] == len(sched.links)
    assert out["cables"]["by_network"]["compute"] == 256
    assert sum(v["count"] for v in out["cables"]["by_medium"].values()) == len(sched.links)
    rack = out["racks"][0]
    assert {"feeds", "heat_liquid_kw", "heat_air_kw", "water_l_min", "floor_load_kg_m2"} <= set(rack)
    assert {"pdus", "capacity_kw", "load_kw"} <= set(rack["feeds"][0])
    assert {"ups_kw", "generator_kw", "water_l_min"} <= set(out["facility"])


def test_cables_refuses_an_unwritable_csv_in_one_line(tmp_path, capsys):
    plan = build_template("inference")
    save_plan(plan, tmp_path / "p.json")
    code = main(["cables", str(tmp_path / "p.json"), "--csv", str(tmp_path / "missing" / "c.csv")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_workbook_cables_sheet_lists_the_schedule(tmp_path):
    import openpyxl

    from planner.export.xlsx import write_workbook

    plan = build_template("medium")
    write_workbook(plan, CAT, tmp_path / "m.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "m.xlsx")["Cables"]
    rows = list(ws.iter_rows(values_only=True))
    start = next(i for i, r in enumerate(rows) if r[0] == "Link")
    links = [r for r in rows[start + 1:] if r[0] is not None]
    sched = build_schedule(plan, CAT)
    assert len(links) == len(sched.links) == 352  # 256 compute + 60 storage + 36 management
    parts = {r[0]: r[1] for r in rows[4:start] if r[0] and r[1] is not None}
    assert sum(n for item, n in parts.items() if " cable, " in item) == 352


def test_a_copper_run_buys_a_cable_of_its_own_speed_whose_ends_fit_its_ports():
    # the catalog's DACs: 400G OSFP at 1, 2, 3 m; 200G QSFP56 at 3 m; 100G QSFP28 at 3, 5 m.
    # A 1.5 m storage run at 200G between QSFP56 ports takes the 200G QSFP56 DAC (3 m, the
    # shortest of its speed), not the 400G OSFP one of 2 m, whose plugs do not fit those cages.
    from planner.costs.parts import cable_part

    catalog = default_catalog()
    assert cable_part(catalog, "DAC", 200, 1.5).id == "dac-200g-3m"
    assert cable_part(catalog, "DAC", 400, 1.5).id == "dac-400g-2m"
    assert cable_part(catalog, "DAC", 100, 1.0).id == "dac-100g-3m"
    # no 800G active copper cable of 4 m is listed (3 and 5 m): the 5 m; no 200G ACC at all:
    # the faster cable is still bought rather than nothing
    assert cable_part(catalog, "ACC", 800, 4.0).id == "acc-800g-5m"
    assert cable_part(catalog, "ACC", 400, 4.0).id == "acc-800g-5m"
