"""Cable runs across a campus: between halls and buildings, the optic each run's length needs,
runs beyond every reach, and the halls and buildings as NetBox locations."""

from __future__ import annotations

import pytest

from planner.costs.parts import end_modules
from planner.hardware.catalog import default_catalog
from planner.network.cables import U_M, build_schedule
from planner.plan.model import Building, Hall, Placement, Plan, Rack
from planner.report.compare import report_json
from planner.report.evaluate import evaluate

CAT = default_catalog()
UP_NODE = (42 - 8) * U_M + 0.3  # a DGX H100 at U1-U8 of a 42U rack up to the tray 0.3 m above it
UP_SWITCH = 0.3  # a QM9700 at U42: straight into the tray
SLACK, LOOP, ENTRANCE = 1.0, 3.0, 20.0  # the floor settings' defaults


def campus(b_x=300.0, b_y=200.0) -> Plan:
    """Building A at the campus origin with halls A1 (at A's origin) and A2 (40 m along, 30 m
    across); building B at (b_x, b_y) with hall B1 at (10, 5) in it. A DGX H100 in A1 (rack
    N) and in B1 (rack M), the one QM9700 leaf in A2 (rack L): each node's eight 400G NICs
    run to the leaf, N's between halls, M's between buildings. Each rack is alone in its row
    of its hall, its centre 0.3 m along the row from the hall's origin."""
    buildings = [Building(id="A", name="North", halls=[Hall(id="A1", name="Hall 1"),
                                                        Hall(id="A2", name="Hall 2", x_m=40, y_m=30)]),
                 Building(id="B", name="South", x_m=b_x, y_m=b_y, halls=[Hall(id="B1", name="Hall 1", x_m=10, y_m=5)])]
    racks = [Rack(id="N", name="N", hall="A1", power_cap_kw=30), Rack(id="L", name="L", hall="A2"),
             Rack(id="M", name="M", hall="B1", power_cap_kw=30)]
    placements = [Placement(id="n", device="dgx-h100", rack="N", u=1, label="node-a"),
                  Placement(id="l", device="qm9700", rack="L", u=42, label="leaf"),
                  Placement(id="m", device="dgx-h100", rack="M", u=1, label="node-b")]
    plan = Plan(name="Two buildings", buildings=buildings, racks=racks, placements=placements)
    plan.settings.workload = plan.settings.workload.model_copy(update={"enabled": False})  # no job to size
    return plan


def fabric_links(plan):
    sched = build_schedule(plan, CAT)
    return sched, {rack: [lk for lk in sched.links if lk.tier == "node-leaf" and lk.a.rack == rack]
                   for rack in ("N", "M")}


def test_inter_hall_and_inter_building_runs_worked_by_hand():
    sched, links = fabric_links(campus())
    assert len(links["N"]) == len(links["M"]) == 8 and all(lk.b.rack == "L" for lk in links["N"] + links["M"])
    assert {lk.route for lk in links["N"]} == {"inter-hall"} and {lk.route for lk in links["M"]} == {"inter-building"}
    # N (A1) -> L (A2): up, 0.3 m along A1's row to its distribution area at the hall origin,
    # backbone 0 m (A1 sits at A's origin) + 40 + 30 m from A's MDA to A2's, 0.3 m along A2's row,
    # up to L's tray, slack 1 m, a 3 m loop at each hall's distribution area
    inter_hall = UP_NODE + 0.3 + 0 + 70 + 0.3 + UP_SWITCH + SLACK + 2 * LOOP
    assert inter_hall == pytest.approx(79.7113, abs=1e-4)
    assert [lk.length_m for lk in links["N"]] == pytest.approx([inter_hall] * 8)
    # M (B1) -> L (A2): 0.3 m to B1's distribution area, 10 + 5 m to B's MDA, 20 m through each
    # building's entrance, 300 + 200 m of duct bank from B's entrance room to A's, 70 m on to A2
    inter_building = UP_NODE + 0.3 + 15 + 2 * ENTRANCE + 500 + 70 + 0.3 + UP_SWITCH + SLACK + 2 * LOOP
    assert inter_building == pytest.approx(634.7113, abs=1e-4)
    assert [lk.length_m for lk in links["M"]] == pytest.approx([inter_building] * 8)
    # 79.7 m is past multimode SR's 50 m: single-mode fibre, 100 m stock; 634.7 m past DR's 500 m:
    # single-mode 1,000 m stock, FR optics
    assert {(lk.medium.name, lk.medium.stock_m) for lk in links["N"]} == {("SMF", 100.0)}
    assert {(lk.medium.name, lk.medium.stock_m) for lk in links["M"]} == {("SMF", 1000.0)}
    t = sched.totals()
    assert t["by_route"]["inter-hall"] == {"count": 8, "length_m": 800.0}
    assert t["by_route"]["inter-building"] == {"count": 8, "length_m": 8000.0}
    assert t["by_route"]["in-rack"]["count"] == t["by_route"]["in-row"]["count"] == 0
    assert t["transceivers"] == {"400G transceiver (DR)": 16, "400G transceiver (FR)": 16}
    assert t["beyond_reach"] == {"links": 0, "longest_m": 0.0}


def test_each_run_gets_the_optic_its_reach_needs_at_both_ends():
    sched, _ = fabric_links(campus())
    modules = {(sched.site_rack[site], optic): (m.id, n)
               for (_net, site, _g, _med, optic, _tier), (m, n) in end_modules(sched, CAT).items()}
    # DGX H100's and QM9700's twin-port OSFP cages, two links a module: on the 100 m runs
    # twin-port DR (500 m) at N and at the leaf, on the 1,000 m runs MMS4X50-NM 2 x FR4 (2 km)
    # at M and at the leaf
    assert modules[("N", "DR")] == modules[("L", "DR")] == ("xcvr-2x400g-osfp-dr8", 4)
    assert modules[("M", "FR")] == modules[("L", "FR")] == ("xcvr-2x400g-osfp-fr4", 4)
    assert ("N", "FR") not in modules and ("M", "DR") not in modules
    bom = {line.item: line for line in evaluate(campus(), CAT).sections["cost"].bom}
    fr = bom["Transceiver, fabric: MMS4X50-NM 800G twin-port OSFP transceiver (2 x 400G FR4)"]
    assert fr.quantity == 8
    smf = bom["Fabric cable, single-mode fibre (OS2), LC duplex, 1000 m"]
    assert smf.quantity == 8 and "8 inter-building" in smf.source


def test_a_run_beyond_every_reach_is_an_error_naming_it():
    # building B 9 km along and 3 km across: 134.71 m in the buildings + 12,000 m of duct bank
    far = campus(9000, 3000)
    sched, links = fabric_links(far)
    assert [lk.length_m for lk in links["M"]] == pytest.approx([12_134.7113] * 8, abs=1e-4)
    # the longest 400G optic in the catalog reaches 10 km (LR4)
    assert sched.totals()["beyond_reach"] == {"links": 8, "longest_m": pytest.approx(12_134.71)}
    report = evaluate(far, CAT)
    found = [f for f in report.findings if f.code == "network.cable.beyond_reach"]
    assert len(found) == 1 and found[0].severity == "error" and report.has_errors
    assert found[0].where == "M"  # the rack to select: the far end's
    message = found[0].message
    assert "8 node-leaf links at 400G" in message and "12,135 m" in message and "rack M to rack L" in message
    assert "10,000 m" in message
    # the links between halls still reach; moving B back within reach clears the error
    assert not evaluate(campus(), CAT).has_errors
    assert report_json(far, CAT, report)["cables"]["beyond_reach"]["links"] == 8


def test_one_hall_anywhere_on_the_campus_keeps_todays_lengths():
    """A plan of one hall routes as before, wherever its building and hall stand."""
    base = campus()
    alone = base.model_copy(update={"buildings": [], "racks": [r.model_copy(update={"hall": ""}) for r in base.racks]})
    moved = base.model_copy(update={"buildings": [Building(id="A", name="North", x_m=500, y_m=-70, halls=[
        Hall(id="A1", name="Hall 1", x_m=12, y_m=9)])], "racks": [r.model_copy(update={"hall": "A1"})
                                                                  for r in base.racks]})
    a, b = build_schedule(alone, CAT), build_schedule(moved, CAT)
    assert [lk.length_m for lk in a.links] == [lk.length_m for lk in b.links]
    # N, L, M side by side in one row: N's runs 0.6 m along it, M's 0.6 m the other way
    assert [lk.length_m for lk in a.links] == pytest.approx([UP_NODE + 0.6 + UP_SWITCH + SLACK] * 16)
    assert a.totals()["by_route"]["in-row"]["count"] == 16
    assert a.totals()["by_route"]["inter-hall"]["count"] == 0


# -- NetBox locations ----------------------------------------------------------------------

def test_netbox_export_nests_halls_in_buildings_and_a_netbox_takes_them(tmp_path):
    from planner.export.netbox import build_netbox
    from tests.planner.test_netbox_in_use import NetBox, export, import_folder

    out = build_netbox(campus(), CAT)
    site = out.site
    locations = [(r["name"], r["parent"], r["description"]) for r in out.rows["locations.csv"]]
    # buildings first, each hall under its building; South's "Hall 1" is taken by North's
    assert locations == [("North", "", "building at 0, 0 m on the campus"),
                         ("Hall 1", "North", "data hall at 0, 0 m in its building"),
                         ("Hall 2", "North", "data hall at 40, 30 m in its building"),
                         ("South", "", "building at 300, 200 m on the campus"),
                         ("South Hall 1", "South", "data hall at 10, 5 m in its building")]
    assert all(r["site"] == site and r["status"] == "planned" for r in out.rows["locations.csv"])
    assert len({r["slug"] for r in out.rows["locations.csv"]}) == 5
    # the racks have no row: each stands in its hall, and so do its devices and feeds
    assert {r["name"]: r["location"] for r in out.rows["racks.csv"]} == {"N": "Hall 1", "L": "Hall 2",
                                                                         "M": "South Hall 1"}
    assert {d["name"]: d["location"] for d in out.rows["devices.csv"] if d["position"]} == {
        "node-a": "Hall 1", "leaf": "Hall 2", "node-b": "South Hall 1"}
    assert {f["location"] for f in out.rows["power-feeds.csv"]} == {"Hall 1", "Hall 2", "South Hall 1"}
    # NetBox's import forms take the files in order: every parent before its children
    netbox = NetBox()
    import_folder(netbox, export(tmp_path, campus(), "campus"), 10_000)
    assert {name for _, name in netbox.locations} == {"North", "Hall 1", "Hall 2", "South", "South Hall 1"}
    assert len(netbox.racks) == 3


def _netbox_list(path, header, rows):
    import csv

    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rows)


def test_netbox_locations_come_back_as_buildings_and_halls(tmp_path):
    """NetBox's own exports of a site whose locations are the planner's: the medium sample's
    racks, moved into the campus's halls and a row of one of them."""
    import csv
    import shutil
    from pathlib import Path

    from planner.export.netbox import build_netbox
    from planner.importers.netbox import import_netbox

    sample = Path(__file__).resolve().parents[1] / "data" / "netbox_samples" / "16-node-llm-cluster-128-x-h100-ndr400"
    site = tmp_path / "site"
    shutil.copytree(sample, site)
    with open(site / "locations.csv", newline="", encoding="utf-8") as f:
        header = csv.DictReader(f).fieldnames
    ours = build_netbox(campus(), CAT).rows["locations.csv"]
    rows = [{"Name": r["name"], "Site": "x", "Status": "Planned", "Parent": r["parent"], "Slug": r["slug"],
             "Description": r["description"]} for r in ours]
    rows.append({"Name": "Row C", "Site": "x", "Status": "Planned", "Parent": "Hall 2", "Slug": "row-c",
                 "Description": "row"})
    _netbox_list(site / "locations.csv", header, rows)
    with open(site / "racks.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header, racks = reader.fieldnames, list(reader)
    where = ["Hall 1", "Hall 1", "Row C", "Row C", "Hall 2", "South Hall 1", "South Hall 1"]
    for rack, location in zip(racks, where):
        rack["Location"] = location
    _netbox_list(site / "racks.csv", header, racks)

    plan = import_netbox(site, CAT).plan
    assert [(b.id, b.name, b.x_m, b.y_m, [(h.id, h.name, h.x_m, h.y_m) for h in b.halls]) for b in plan.buildings] == [
        ("north", "North", 0.0, 0.0, [("hall-1", "Hall 1", 0.0, 0.0), ("hall-2", "Hall 2", 40.0, 30.0)]),
        ("south", "South", 300.0, 200.0, [("south-hall-1", "South Hall 1", 10.0, 5.0)])]
    assert [(r.name, r.hall, r.row) for r in plan.racks] == [
        (rack["Name"], hall, row) for rack, (hall, row) in zip(racks, [
            ("hall-1", ""), ("hall-1", ""), ("hall-2", "Row C"), ("hall-2", "Row C"), ("hall-2", ""),
            ("south-hall-1", ""), ("south-hall-1", "")])]


def test_netbox_rows_without_buildings_stay_one_hall():
    """A site whose locations are rows only (the planner's exports before halls, the samples)."""
    from pathlib import Path

    from planner.importers.netbox import import_netbox

    sample = Path(__file__).resolve().parents[1] / "data" / "netbox_samples" / "16-node-llm-cluster-128-x-h100-ndr400"
    plan = import_netbox(sample, CAT).plan
    assert plan.buildings == [] and {(r.hall, r.row) for r in plan.racks} == {("", "A")}


def test_check_json_finds_runs_beyond_reach_in_a_plan_too_large_to_route_on_each_edit(monkeypatch, tmp_path,
                                                                                        capsys):
    import json

    import planner.costs.section as cost_section
    from planner.cli import main
    from planner.plan.fileio import save_plan

    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)  # the 16 fabric links: priced per tier
    far = campus(9000, 3000)
    report = evaluate(far, CAT)
    assert report.sections["cost"].cables_routed is False
    assert not [f for f in report.findings if f.code == "network.cable.beyond_reach"]
    assert not report.has_errors
    save_plan(campus(), tmp_path / "near.json")
    assert main(["check", str(tmp_path / "near.json"), "--json"]) == 0
    capsys.readouterr()
    save_plan(far, tmp_path / "far.json")
    assert main(["check", str(tmp_path / "far.json"), "--json"]) == 1
    found = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["code"] == "network.cable.beyond_reach"]
    assert len(found) == 1 and found[0]["severity"] == "error" and "8 node-leaf links" in found[0]["message"]


def test_the_cables_command_counts_runs_by_route(tmp_path, capsys):
    from planner.cli import main
    from planner.plan.fileio import save_plan

    save_plan(campus(9000, 3000), tmp_path / "far.json")
    assert main(["cables", str(tmp_path / "far.json")]) == 0
    text = capsys.readouterr().out
    assert "By route: inter-hall 8, inter-building 8" in text
    assert "Beyond every reach: 8 runs, the longest 12,135 m" in text


def test_the_workbook_cables_sheet_gives_each_links_path(tmp_path):
    from openpyxl import load_workbook

    from planner.export.xlsx import write_workbook

    write_workbook(campus(), CAT, tmp_path / "campus.xlsx")
    ws = load_workbook(tmp_path / "campus.xlsx")["Cables"]
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    head = next(i for i, row in enumerate(rows) if row[0] == "Link")
    col = rows[head].index("Path")
    paths = {(row[3], row[7]): row[col] for row in rows[head + 1:] if row[2] == "node-leaf"}
    assert paths == {("N", "L"): "inter-hall", ("M", "L"): "inter-building"}


def test_single_mode_optics_are_named_by_reach_class():
    from planner.network.media import optic_class

    assert optic_class("MMF", 30) == "SR"
    # IEEE 802.3: DR to 500 m, FR to 2 km, LR to 10 km; 1 GbE on single-mode is 1000BASE-LX
    assert [optic_class("SMF", m) for m in (100, 500, 501, 2000, 2001, 10_000)] == ["DR", "DR", "FR", "FR", "LR", "LR"]
    assert optic_class("SMF", 2000, gbps=1) == "LX"


def test_a_hall_is_wired_to_its_own_management_switch_before_another_halls():
    """Hall A2's rack comes first, with the first management switch; hall A1 has 49 powered
    devices and the other, 48-port, switch. Each hall's devices take their own hall's switch
    (A1's in order, ports 1-48); only A1's 49th, past its switch, takes the port left over
    in A2 (port 2: A2's own device has port 1)."""
    halls = [Building(id="A", name="North", halls=[Hall(id="A1", name="Hall 1"),
                                                    Hall(id="A2", name="Hall 2", x_m=40)])]
    racks = [Rack(id="L", name="L", hall="A2"), Rack(id="K1", name="K1", hall="A1"), Rack(id="K2", name="K2", hall="A1")]
    placements = ([Placement(id=f"k1-{u}", device="qm9700", rack="K1", u=u) for u in range(1, 42)]
                  + [Placement(id=f"k2-{u}", device="qm9700", rack="K2", u=u) for u in range(1, 9)]
                  + [Placement(id="mA", device="mgmt-1g-48", rack="K2", u=42),
                     Placement(id="x", device="qm9700", rack="L", u=1),
                     Placement(id="mB", device="mgmt-1g-48", rack="L", u=42)])
    plan = Plan(name="Two halls", buildings=halls, racks=racks, placements=placements)
    sched = build_schedule(plan, CAT)
    links = {lk.a.device: lk for lk in sched.links if lk.tier == "management"}
    assert len(links) == 50 and not sched.unrouted
    a1 = [f"k1-{u}" for u in range(1, 42)] + [f"k2-{u}" for u in range(1, 9)]
    assert [(links[d].b.device, links[d].b.port) for d in a1[:48]] == [("mA", port) for port in range(1, 49)]
    assert {links[d].route for d in a1[:48]} <= {"in-rack", "in-row", "in-hall"}
    assert (links["x"].b.device, links["x"].b.port, links["x"].route) == ("mB", 1, "in-rack")
    assert (links["k2-8"].b.device, links["k2-8"].b.port, links["k2-8"].route) == ("mB", 2, "inter-hall")
