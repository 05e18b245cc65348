"""A storage network its ports outgrow one switch of is a leaf-spine whose switches are joined:
sized at the storage network's oversubscription, wired switch to switch, priced with its
cables and optics, exported to NetBox, and judged by the checkpoint check with every host
sharing its leaf's uplinks. Figures worked by hand from the SN5600's 128 ports."""

from __future__ import annotations

from collections import Counter

import pytest

from planner.design.templates import build_template
from planner.export.netbox import write_netbox
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule
from planner.network.ports import storage_network, storage_switches_needed
from planner.plan.commands import History, SetSetting
from planner.remedies.fix import fix_all
from planner.report.evaluate import Evaluator

CAT = default_catalog()


def test_one_switch_while_the_ports_fit_it():
    size = storage_network(60, 128, 3.0)
    assert (size.tiers, size.leaf_switches, size.spine_switches, size.leaf_spine_links) == (1, 1, 0, 0)
    assert storage_switches_needed(128, 128, 3.0) == 1


@pytest.mark.parametrize("ports, r, leaves, spines, links", [
    # 3:1 on 128 ports: a leaf takes floor(128 x 3 / 4) = 96 down and ceil(96 / 3) = 32 up
    (176, 3.0, 2, 1, 2 * 32),       # massive: 96 + 80 ports; 64 uplinks fit one spine's 128
    (320, 3.0, 4, 1, 4 * 32),       # gb200-nvl72-su: 128 uplinks, one spine
    # non-blocking: 64 down and 64 up; 4 leaves x 64 = 256 uplinks over two spines
    (232, 1.0, 4, 2, 4 * 64),
])
def test_past_one_switch_a_leaf_spine_by_hand(ports, r, leaves, spines, links):
    size = storage_network(ports, 128, r)
    assert (size.tiers, size.leaf_switches, size.spine_switches, size.leaf_spine_links) == (2, leaves, spines, links)
    assert storage_switches_needed(ports, 128, r) == leaves + spines


def test_beyond_two_tiers_cores_join_the_pods():
    # 30,056 ports (frontier-100k's): 314 leaves of 96, more than a spine's 128 ports reach,
    # so pods of 64 leaves (4 full, one of 58) whose 32 uplinks each go to 32 spines of the
    # pod (64 down, 64 up each): 160 spines; their 10,048 uplinks over 128-port cores: 79
    size = storage_network(30_056, 128, 3.0)
    assert (size.tiers, size.leaf_switches, size.spine_switches, size.core_switches) == (3, 314, 160, 79)
    assert size.leaf_spine_links == 314 * 32 == size.spine_core_links


def test_the_design_places_the_leaf_spine_and_wires_it_in_one_piece():
    # massive: 48 HGX H100 x 2 storage NICs + 20 appliances x 4 = 176 storage ports
    plan = build_template("massive", catalog=CAT)
    storage_id = plan.settings.fabric.storage_switch_device
    switches = [p for p in plan.placements if p.device == storage_id]
    assert len(switches) == 3
    sched = build_schedule(plan, CAT)
    tiers = Counter(lk.tier for lk in sched.links)
    assert tiers["storage"] == 176 and tiers["storage-spine"] == 64 and not sched.unrouted
    # every storage switch is reached from every other over the storage network's own links
    ids = {(plan.rack(p.rack).name, p.u) for p in switches}
    joined = {}
    for lk in sched.links:
        if lk.tier == "storage-spine":
            a, b = (lk.a.rack, lk.a.u), (lk.b.rack, lk.b.u)
            assert a in ids and b in ids
            joined.setdefault(a, set()).add(b)
            joined.setdefault(b, set()).add(a)
    seen, todo = set(), [next(iter(ids))]
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo += joined.get(x, ())
    assert seen == ids
    # the leaves take at most 96 hosts' and appliances' ports each, the spine none
    per_switch = Counter((lk.b.rack, lk.b.u) for lk in sched.links if lk.tier == "storage")
    assert sorted(per_switch.values()) == [80, 96]
    # none spare, none short
    report = Evaluator(plan, CAT).evaluate()
    assert not {"network.switch.unused", "network.storage.short"} & {f.code for f in report.findings}


def test_a_non_blocking_storage_network_is_short_of_switches_and_fix_adds_them():
    plan = build_template("massive", catalog=CAT)
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "storage_oversubscription", 1.0))
    # 176 ports, 64 a leaf: 3 leaves of 64 uplinks = 192 over two 128-port spines: 5 switches,
    # 3 placed
    report = Evaluator(plan, CAT).evaluate()
    (short,) = [f for f in report.findings if f.code == "network.storage.short"]
    assert short.severity == "error" and "need 5 x" in short.message and "3 placed" in short.message
    assert short.remedy.figure("count") == 2
    assert build_schedule(plan, CAT).unrouted  # the uplinks to the missing spines
    fix_all(h)
    report = Evaluator(plan, CAT).evaluate()
    assert "network.storage.short" not in {f.code for f in report.findings}
    assert sum(p.device == "sn5600-400" for p in plan.placements) == 5
    sched = build_schedule(plan, CAT)
    assert not sched.unrouted and Counter(lk.tier for lk in sched.links)["storage-spine"] == 3 * 64


def test_netbox_cables_the_storage_trunks_switch_port_to_switch_port(tmp_path):
    import csv

    plan = build_template("massive", catalog=CAT)
    write_netbox(plan, CAT, tmp_path / "nb")
    rows = []
    for path in sorted((tmp_path / "nb").glob("13-cables-*.csv")):  # cables, a file each 1,000
        with open(path, newline="") as f:
            rows += [r for r in csv.DictReader(f) if r["label"] == "storage-spine"]
    # the two leaves' 32 uplinks each, to the spine: switch ports at both ends, the leaf's past
    # its 96 ports down
    assert len(rows) == 64
    assert all(r["side_a_name"].startswith("swp") and r["side_b_name"].startswith("swp") for r in rows)
    assert {int(r["side_a_name"][3:]) for r in rows} == set(range(97, 129))
    assert len({r["side_b_device"] for r in rows}) == 1


def test_every_host_writing_shares_its_leafs_uplinks():
    # massive: 20 appliances x 25 GB/s = 500 GB/s of write; with each node's storage links
    # set to 12 GB/s, 48 nodes writing at once through a 3:1 leaf-spine get 48 x 12 / 3 =
    # 192 GB/s, under the filesystem's 500: 4 GB/s a node; non-blocking, 12 (576 > 500:
    # the filesystem's 500 / 48 = 10.4)
    plan = build_template("massive", catalog=CAT)
    h = History(plan, CAT)
    h.apply(SetSetting("storage", "node_storage_gbs", 12.0))
    report = Evaluator(plan, CAT).evaluate()
    s = report.sections["storage"]
    assert s["storage_oversubscription"] == 3
    assert s["write_gbs_per_node_all_writing"] == pytest.approx(4.0)
    f = {x.code: x for x in report.findings}["storage.write.slow_per_node"]
    assert "12.0 GB/s storage links at the storage network's 3:1 oversubscription" in f.message
    h.apply(SetSetting("fabric", "storage_oversubscription", 1.0))
    s = Evaluator(plan, CAT).evaluate().sections["storage"]
    assert s["storage_oversubscription"] == 1
    assert s["write_gbs_per_node_all_writing"] == pytest.approx(500 / 48, abs=1e-3)


def test_one_storage_switch_is_not_oversubscribed():
    # medium: 60 storage ports on one SN5600: nothing shared above the hosts' links
    report = Evaluator(build_template("medium", catalog=CAT), CAT).evaluate()
    assert report.sections["storage"]["storage_oversubscription"] == 1


def test_the_estimate_of_a_plan_priced_per_tier_follows_each_edit(monkeypatch):
    # priced per tier (no routed schedule): the storage trunks' runs are estimated from each
    # hall's storage switches and how they stand; an edit of the oversubscription, and a
    # storage switch moved to another rack, give what a fresh evaluation gives
    import planner.costs.section as cost_section
    from planner.plan.commands import MoveDevice
    from planner.plan.space import lowest_free_u
    from planner.report.evaluate import evaluate

    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)
    plan = build_template("massive", catalog=CAT)
    h = History(plan, CAT)
    ev = Evaluator(plan, CAT)
    before = ev.evaluate()
    lines = {line.item: line.quantity for line in before.sections["cost"].bom if line.item.startswith("Storage cable")}
    # 176 ports and the two leaves' 64 uplinks, a cable each
    assert sum(lines.values()) == 176 + 64
    after = ev.evaluate(h.apply(SetSetting("fabric", "storage_oversubscription", 1.0)))
    assert after.sections["cost"].to_json() == evaluate(plan, CAT).sections["cost"].to_json()
    # 1:1: 3 leaves of 64 ports, each with 64 uplinks
    assert sum(line.quantity for line in after.sections["cost"].bom if line.item.startswith("Storage cable")) == 176 + 192
    spine = [p for p in plan.placements if p.device == "sn5600-400"][-1]
    net = next(r for r in plan.racks if r.name.startswith("NET") and r.id != spine.rack
               and lowest_free_u(plan, CAT, r, 2) is not None)
    moved = ev.evaluate(h.apply(MoveDevice(spine.id, net.id, lowest_free_u(plan, CAT, net, 2))))
    assert moved.sections["cost"].to_json() == evaluate(plan, CAT).sections["cost"].to_json()
    assert moved.sections["storage"].to_json() == evaluate(plan, CAT).sections["storage"].to_json()


def test_a_campus_judges_each_halls_storage_network_on_its_own():
    # 48 HGX H100 and 20 appliances over two halls: each hall's 48 + 40 = 88 storage ports fit
    # one 128-port SN5600, so no leaf-spine anywhere: nothing is shared when all write, although
    # the campus's 176 ports together would outgrow one switch
    from planner.design.build import design
    from planner.design.intent import Intent

    intent = Intent.model_validate({"system": "hgx-h100-8", "nodes": 48,
                                    "storage": {"device": "pfs-appliance", "count": 20},
                                    "campus": {"buildings": 1, "halls_per_building": 2},
                                    "settings": {"fabric": {"storage_switch_device": "sn5600-400"}}})
    plan = design(intent, CAT).plan
    halls = Counter(plan.rack(p.rack).hall for p in plan.placements if p.device == "sn5600-400")
    assert sorted(halls.values()) == [1, 1]
    report = Evaluator(plan, CAT).evaluate()
    assert report.sections["storage"]["storage_oversubscription"] == 1
    assert not {"network.storage.short", "network.storage.too_large"} & {f.code for f in report.findings}
    # a hall's switch taken out: that hall's network is short, named, with no one place to fix it
    from planner.plan.commands import RemoveDevices

    gone = next(p for p in plan.placements if p.device == "sn5600-400")
    hall = plan.rack(gone.rack).hall
    History(plan, CAT).apply(RemoveDevices([gone.id]))
    (short,) = [f for f in Evaluator(plan, CAT).evaluate().findings if f.code == "network.storage.short"]
    name = next(h.name for b in plan.buildings for h in b.halls if h.id == hall)
    assert short.severity == "error" and f"{name} 1 (0 placed)" in short.message and short.remedy is None


def test_a_storage_network_beyond_three_tiers_of_its_switch_is_an_error_not_a_crash():
    # a 4-port switch: three tiers hold 4^3 / 4 = 16 ports non-blocking; massive has 176
    from planner.hardware.catalog import load_catalog

    catalog = load_catalog()  # a catalog of this test's own: the built-in one is shared
    base = catalog["sn5600-400"]
    tiny = base.model_copy(update={"id": "tiny-sw", "switch": base.switch.model_copy(update={"ports": 4})})
    catalog.extend((tiny,), "test", allow_override=False)
    plan = build_template("massive", catalog=catalog)
    History(plan, catalog).apply(SetSetting("fabric", "storage_switch_device", "tiny-sw"))
    report = Evaluator(plan, catalog).evaluate()
    (large,) = [f for f in report.findings if f.code == "network.storage.too_large"]
    assert large.severity == "error" and "176" in large.message and "16 non-blocking" in large.message
    build_schedule(plan, catalog)  # wired as far as the switches go, no exception


def test_adding_nodes_keeps_the_oversubscription_its_user_set():
    from planner.design.grow import PlaceNodes

    plan = build_template("medium", catalog=CAT)
    h = History(plan, CAT)
    h.apply(SetSetting("fabric", "storage_oversubscription", 12.0))
    h.apply(PlaceNodes("hgx-h100-8", 2))
    assert plan.settings.fabric.storage_oversubscription == 12


def test_a_storage_network_of_one_switch_is_left_at_its_oversubscription():
    # 4 workhorse nodes (serving: without a compute NIC they cannot train one job together) on
    # the 64-port SN4600C: a handful of storage ports on one switch, where nothing is shared
    # above the hosts' links, however slow those are for the guide's 10 GB/s
    from planner.design.build import design
    from planner.design.intent import Intent

    result = design(Intent(system="h100x4-workhorse", nodes=4, inference=True), CAT)
    assert sum(p.device == result.plan.settings.fabric.storage_switch_device for p in result.plan.placements) == 1
    assert result.plan.settings.fabric.storage_oversubscription == 3
    assert "design.storage.non_blocking" not in {f.code for f in result.findings}


def test_a_storage_port_moved_between_halls_is_felt_by_the_halls_storage_network(monkeypatch):
    # two halls, each cut to at most 110 storage ports (one 128-port switch, nothing shared);
    # appliances moved one by one from the second hall into the first make the first a
    # leaf-spine without any device count changing: each edit's incremental evaluation gives
    # what a fresh one gives, and the first hall's leaf-spine shares its hosts' links
    import planner.costs.section as cost_section
    from planner.design.build import design
    from planner.design.intent import Intent
    from planner.plan.commands import MoveDevice, RemoveDevices
    from planner.plan.space import fit_problem, lowest_free_u
    from planner.network.ports import storage_ports
    from planner.report.evaluate import evaluate

    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 10)
    plan = design(Intent.model_validate({"system": "hgx-h100-8", "nodes": 96,
                                         "campus": {"buildings": 1, "halls_per_building": 2},
                                         "settings": {"fabric": {"storage_switch_device": "sn5600-400"}}}), CAT).plan
    ev = Evaluator(plan, CAT)
    ev.evaluate()

    def hall_ports(hall):
        return sum(storage_ports({p.device: 1}, CAT) for p in plan.placements if plan.rack(p.rack).hall == hall)

    first, second = plan.hall_ids()
    for hall in (first, second):
        while hall_ports(hall) > 110:
            p = next(p for p in plan.placements if plan.rack(p.rack).hall == hall and storage_ports({p.device: 1}, CAT))
            ev.evaluate(RemoveDevices([p.id]).do(plan, CAT))
    assert ev.report.sections["storage"]["storage_oversubscription"] == 1
    for p in [p for p in plan.placements if plan.rack(p.rack).hall == second and p.device == "pfs-appliance"]:
        d = CAT[p.device]
        rack = next(r for r in plan.racks if r.hall == first and (u := lowest_free_u(plan, CAT, r, d.u_height))
                    and not fit_problem(plan, CAT, r.id, u, d, frozenset({p.id})))
        report = ev.evaluate(MoveDevice(p.id, rack.id, lowest_free_u(plan, CAT, rack, d.u_height)).do(plan, CAT))
        assert report.to_json() == evaluate(plan, CAT).to_json()
    assert hall_ports(first) > 128
    assert report.sections["storage"]["storage_oversubscription"] == 3
