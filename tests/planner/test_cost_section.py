"""The report's cost section: keys, JSON, incremental evaluation and the CLI."""

import json
import pytest

from planner.hardware.catalog import default_catalog
from planner.cli import main
from planner.plan.commands import SetSetting
from planner.report.evaluate import Evaluator
from planner.plan.fileio import save_plan
from planner.design.templates import build_template
from tests.planner.cost_helpers import guide_server_plan


def test_check_json_has_the_cost_contract(tmp_path, capsys):
    path = tmp_path / "medium.json"
    save_plan(build_template("medium"), path)
    main(["check", str(path), "--json"])
    cost = json.loads(capsys.readouterr().out)["cost"]
    for key in ("capex_usd", "opex_usd_per_month", "rent_usd_per_month", "break_even_months", "tco_usd", "bom",
                "curves"):
        assert key in cost
    assert set(cost["rent_usd_per_month"]) == {"spot", "reserved_1yr", "reserved_3yr", "on_demand"}
    assert set(cost["break_even_months"]) == set(cost["rent_usd_per_month"])
    assert {"category", "item", "quantity", "unit_usd", "total_usd", "source"} <= set(cost["bom"][0])
    assert len(cost["curves"]["build"]) == 36 + 1  # months 0..36
    # 16 nodes x 8 GPUs = 128 GPUs at spot: 128 x 730 x 2.10 x 1.15 = $225,657.60 a month
    assert cost["rent_usd_per_month"]["spot"] == pytest.approx(225_657.60)


def test_cost_follows_a_setting_edit():
    plan, catalog = guide_server_plan()
    ev = Evaluator(plan, catalog)
    assert ev.evaluate().sections["cost"]["break_even_months"]["reserved_1yr"] == 17.1
    changes = SetSetting("costs", "rent_reserved_1yr_usd_per_gpu_h", 6.30).do(plan, catalog)
    # twice the rate halves the break-even: 315,000 / (8 x 730 x 6.30) = 8.56 -> 8.6
    assert ev.evaluate(changes).sections["cost"]["break_even_months"]["reserved_1yr"] == 8.6


@pytest.mark.parametrize("routed", [True, False])
def test_cost_section_never_walks_the_devices(monkeypatch, routed):
    """The section runs after every edit on plans of up to 100,000 GPUs: it must work on
    device counts and one figure per rack, never on the placements. A plan small enough
    to route its cables reuses the schedule routed when the layout last changed; a larger
    one (here: the limit set to 0) prices its cabling per fabric tier."""
    import planner.costs.section as cost_section
    from planner.costs.section import evaluate_cost
    from planner.report.evaluate import EvalContext

    if not routed:
        monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 0)
    catalog = default_catalog()
    plan = build_template("massive")
    ev = Evaluator(plan, catalog)
    expected = ev.evaluate().sections["cost"].to_json()
    assert any(line["item"].startswith("Fabric cable, node to leaf") for line in expected["bom"]) != routed

    class NoWalk(list):
        def __iter__(self):
            raise AssertionError("the cost section iterated over the placements")

    monkeypatch.setattr(plan, "placements", NoWalk(plan.placements))
    monkeypatch.setattr(type(plan), "rack_members", lambda self, rack_id: (_ for _ in ()).throw(
        AssertionError("the cost section walked a rack's devices")))
    r = ev.report
    # the network section runs first (its fabric size and tokens/s feed the costs)
    ctx = EvalContext(plan, catalog, r.totals, dict(ev._agg.counts), racks=r.rack_results,
                      sections={"network": r.sections["network"]}, memo=ev.memo)
    section, _ = evaluate_cost(ctx)
    assert section.to_json() == expected


def test_rent_command_prints_the_guides_faq_figure(capsys):
    assert main(["rent", "--gpus", "64", "--days", "90", "--rate", "2.10", "--uplift", "0.15"]) == 0
    assert "$333,849.60" in capsys.readouterr().out


def test_rent_command_refuses_bad_numbers(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["rent", "--gpus", "-3", "--days", "90"])
    assert exc.value.code == 2
    assert "--gpus: takes a whole number of GPUs from 1" in capsys.readouterr().err


def test_energy_is_paid_on_average_draw_even_on_the_nameplate_basis():
    from planner.hardware.catalog import default_catalog
    from planner.report.evaluate import evaluate
    from planner.design.templates import build_template

    catalog = default_catalog()
    typical = evaluate(build_template("medium", catalog=catalog), catalog)
    plan = build_template("medium", power_basis="nameplate", catalog=catalog)
    nameplate = evaluate(plan, catalog)
    t = nameplate.totals
    # energy = typical IT kW x PUE x 730 h x $/kWh, whatever basis the racks are laid out on
    s = plan.settings.costs
    expected = t.it_power_typical_kw * t.pue * 730 * s.electricity_usd_per_kwh
    assert nameplate.sections["cost"]["energy_usd_per_month"] == pytest.approx(expected)
    assert typical.sections["cost"]["energy_usd_per_month"] == pytest.approx(expected)


def test_one_link_over_the_limit_the_report_says_cabling_is_priced_per_tier(monkeypatch, tmp_path):
    """One limit decides how cables are priced, and the cost section says which: at the limit
    every run is routed and priced by length; one link over, cabling is priced per fabric
    tier, and the workbook's Cables sheet lists no schedule."""
    import openpyxl

    import planner.costs.section as cost_section
    from planner.export.xlsx import write_workbook

    catalog = default_catalog()
    plan = build_template("massive")
    network = Evaluator(plan, catalog).evaluate().sections["network"]
    links = network.size.cables + 2 * len(plan.placements)  # the fabric's cables, two more per device
    for limit, routed in ((links, True), (links - 1, False)):
        monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", limit)
        cost = Evaluator(plan, catalog).evaluate().sections["cost"]
        assert cost["cables_routed"] is routed
        assert cost["cable_routing_limit_links"] == limit
        assert any(line["item"].startswith("Fabric cable, node to leaf") for line in cost["bom"]) != routed
        write_workbook(plan, catalog, tmp_path / "m.xlsx")
        sheet = [c for row in openpyxl.load_workbook(tmp_path / "m.xlsx")["Cables"].iter_rows(values_only=True)
                 for c in row if c is not None]
        assert (f"More than {limit:,} links: more than this sheet lists (the cabling above is per fabric tier); "
                "use cluster-planner cables PLAN --csv FILE" in sheet) != routed
        assert ("From rack" in sheet) == routed


def test_a_hundred_thousand_gpus_are_priced_per_tier_and_say_so():
    # frontier-100k: 12,500 nodes, far more than 20,000 links
    cost = Evaluator(build_template("frontier-100k"), default_catalog()).evaluate().sections["cost"]
    assert (cost["cables_routed"], cost["cable_routing_limit_links"]) == (False, 20_000)


def test_a_drop_that_changes_only_the_heat_to_liquid_keeps_the_costs(monkeypatch):
    """A switch taken out of a rack with a rear-door heat exchanger puts its heat into the room
    instead of the water loop: the heat to liquid changes, and with the same CDUs, PDUs and
    power nothing the cost section prices does. Its figures are kept (and so the workload's and
    goodput's, which read them); a drop that changes a rack's PDUs prices again."""
    from dataclasses import fields

    from planner.plan.commands import MoveDevice
    from planner.plan.space import lowest_free_u
    from planner.report.evaluate import evaluate
    import planner.costs.section as cost_section

    monkeypatch.setattr(cost_section, "MAX_ROUTED_LINKS", 0)  # priced per tier: the layout is not read
    catalog = default_catalog()
    plan = build_template("gb200-nvl72-su")
    net = [r for r in plan.racks if r.name.startswith("NET")]
    for rack in net:
        rack.rear_door_hx = True
    # 9 of the first network rack's 19 switches already in the storage rack: the drop below,
    # one more from its 10 to the storage rack's 9, leaves the racks the fabric's switches
    # stand in and how many stand with a switch (10 x 10 + 9 x 9 either way): what the
    # per-tier estimate reads of them
    storage_rack = next(r for r in plan.racks if r.name.startswith("STOR"))
    for first in [p for p in plan.placements if p.rack == net[0].id and p.device == "qm9700"][:9]:
        MoveDevice(first.id, storage_rack.id, lowest_free_u(plan, catalog, storage_rack, 1)).do(plan, catalog)
    ev = Evaluator(plan, catalog)
    before = ev.evaluate()
    switch = next(p for p in plan.placements if p.rack == net[0].id and p.device == "qm9700")
    u = lowest_free_u(plan, catalog, storage_rack, catalog["qm9700"].u_height)
    after = ev.evaluate(MoveDevice(switch.id, storage_rack.id, u).do(plan, catalog))
    changed = [f.name for f in fields(before.totals) if getattr(before.totals, f.name) != getattr(after.totals, f.name)]
    assert changed == ["liquid_heat_milliwatts"]
    # the switch's nameplate left the rear door's loop
    assert before.totals.liquid_heat_milliwatts - after.totals.liquid_heat_milliwatts == round(
        catalog["qm9700"].power_max_w * 1000)
    for name in ("cost", "workload", "goodput"):
        assert after.sections[name] is before.sections[name]
    assert after.sections["cost"].to_json() == evaluate(plan, catalog).sections["cost"].to_json()
    # an appliance from the storage rack into the second network rack changes the PDUs (the
    # storage rack, its 10 switches and 7 appliances, needs fewer): priced again
    second = next(p for p in plan.placements if p.rack == storage_rack.id and p.device == "pfs-appliance")
    u = lowest_free_u(plan, catalog, net[1], catalog["pfs-appliance"].u_height)
    again = ev.evaluate(MoveDevice(second.id, net[1].id, u).do(plan, catalog))
    assert again.totals.pdus != after.totals.pdus
    assert again.sections["cost"] is not after.sections["cost"]
    assert again.sections["cost"].to_json() == evaluate(plan, catalog).sections["cost"].to_json()


def test_renting_is_of_the_jobs_gpus_not_the_hot_spares():
    # medium's 16 nodes with 2 of them hot spares: the job runs on 14 x 8 = 112 GPUs. A cloud
    # replaces its own failed nodes, so renting the job is renting 112 GPUs, not the 128
    # placed; reserved 1-yr = 112 x 730 h x utilisation x $3.15 x 1.15 uplift. A GPU-hour is
    # delivered by those 112 too; the spares are bought and powered all the same.
    import openpyxl

    from planner.export.xlsx import write_workbook
    from planner.report.evaluate import evaluate

    CAT = default_catalog()
    plan = build_template("medium", catalog=CAT)
    s = plan.settings.costs
    before = evaluate(plan, CAT).sections["cost"]
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"spare_nodes": 2})
    cost = evaluate(plan, CAT).sections["cost"]
    assert cost["rented_gpus"] == 112
    assert cost["rent_usd_per_month"]["reserved_1yr"] == pytest.approx(
        112 * s.hours_per_month * s.utilisation * 3.15 * 1.15, abs=0.01)
    assert cost["capex_usd"] == before["capex_usd"]  # the same hardware bought
    assert cost["cost_per_gpu_hour"]["build"] == pytest.approx(before["cost_per_gpu_hour"]["build"] * 128 / 112,
                                                               rel=1e-3)
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "m.xlsx"
        write_workbook(plan, CAT, book)
        ws = openpyxl.load_workbook(book)["Assumptions"]
        rows = {ws.cell(r, 1).value: ws.cell(r, 2).value for r in range(1, ws.max_row + 1)}
        assert rows["GPUs the job runs on"] == 112 and rows["GPUs"] == 128


def test_rear_door_heat_exchangers_are_bought_with_their_racks(capsys, tmp_path):
    """1,024 B200 at 40 kW a rack: each of the 32 GPU racks (4 DGX B200 of 14.3 kW, above the
    air limit) gets a rear door; the bill buys 32 at the cost setting's $20,000, $640,000 of
    capex, and a door set on one more rack buys one more."""
    path = tmp_path / "b200.json"
    assert main(["new", "--gpus", "1024", "--system", "dgx-b200", "--rack-kw", "40", "--fabric", "ib400",
                 "--model", "llama3-70b", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["check", str(path), "--json"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["rear_doors"] == 32
    doors = [line for line in data["cost"]["bom"] if line["item"] == "Rear-door heat exchanger"]
    assert [(d["quantity"], d["unit_usd"], d["total_usd"]) for d in doors] == [(32, 20_000.0, 640_000.0)]
    plan = json.loads(path.read_text())
    plain = next(r for r in plan["racks"] if not r.get("rear_door_hx"))
    plain["rear_door_hx"] = True
    path.write_text(json.dumps(plan))
    main(["check", str(path), "--json"])
    data_after = json.loads(capsys.readouterr().out)
    assert data_after["totals"]["rear_doors"] == 33
    assert data_after["cost"]["capex_usd"] - data["cost"]["capex_usd"] == pytest.approx(20_000.0)
