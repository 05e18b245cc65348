"""The build-out schedule: each phase's ready month and critical part worked by hand.

The two-building campus is the format 7 sample (``tests/data/plan_v7.json``):
- Hall A1 (Building A): GPU-01, GPU-02, CDU-01: 3 racks, 8 HGX H100 = 64 GPUs, 2 in-rack CDUs;
- Hall A2 (Building A): GPU-03, NET-01: 2 racks, 4 HGX = 32 GPUs, 10 QM9700, an SN5600, a
  management switch;
- Hall B1 (Building B): GPU-04, STOR-01: 2 racks, 4 HGX = 32 GPUs, 7 storage appliances.
Each hall has fewer than 25 racks, so one crew (4 crews per 100 racks, at least one) puts its
racks in at one crew-day each, five days a week: 3 racks 0.6 weeks, 2 racks 0.4 weeks.
A month is 365.25 / 12 = 30.4375 days; ready in week w is online from month ceil(7 w / 30.4375).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from planner.plan.commands import History, SetSetting
from planner.plan.fileio import load_plan
from planner.report.evaluate import Evaluator, evaluate

DATA = Path(__file__).resolve().parents[1] / "data"
HALLS = ["Building A / Hall A1", "Building A / Hall A2", "Building B / Hall B1"]
# catalog list prices of what stands in each hall (builtin catalog: HGX H100 $315,000, CDU
# $15,000, QM9700 $43,000, SN5600 $60,000, management switch $3,000, appliance $250,000)
PRICES = {"A1": 8 * 315_000 + 2 * 15_000, "A2": 4 * 315_000 + 10 * 43_000 + 60_000 + 3_000,
          "B1": 4 * 315_000 + 7 * 250_000}


def campus():
    return load_plan(DATA / "plan_v7.json")


def set_schedule(plan, **values):
    for name, value in values.items():
        setattr(plan.settings.schedule, name, value)
    return plan


def schedule(plan, catalog):
    return evaluate(plan, catalog).to_json()["schedule"]


def month(weeks: float) -> int:
    return math.ceil(weeks * 7 / 30.4375)


def test_a_campus_comes_online_hall_by_hall_with_the_transformer_gating_it(catalog):
    out = schedule(campus(), catalog)
    assert out["phase_by"] == "hall"
    assert [p["name"] for p in out["phases"]] == HALLS
    assert [p["gpus"] for p in out["phases"]] == [64, 32, 32]
    # transformer 128 weeks + commissioning 8 + install
    weeks = [128 + 8 + 0.6, 128 + 8 + 0.4, 128 + 8 + 0.4]
    assert [p["ready_weeks"] for p in out["phases"]] == pytest.approx(weeks)
    assert [p["ready_month"] for p in out["phases"]] == [32, 32, 32]  # 956.2 / 30.4375 = 31.4 days
    assert {p["critical_part"] for p in out["phases"]} == {"transformer"}
    assert (out["energized_month"], out["critical_part"]) == (32, "transformer")
    # what each hall waits for: the building's plant and cooling, and what stands in it
    plant = ["transformer", "switchgear", "ups", "generator", "cooling"]
    assert [p["parts"] for p in out["phases"]] == [plant + ["gpu_systems", "optics"],
                                                   plant + ["gpu_systems", "switches", "optics"],
                                                   plant + ["gpu_systems", "optics", "storage"]]


def test_in_colocation_each_hall_waits_for_its_own_equipment(catalog):
    # the provider's plant is in place (lead 0): GPU systems 20 weeks, switches 26, storage 30
    plan = colocation()
    out = schedule(plan, catalog)
    # A1: 20 + 8 + 0.6 = 28.6 weeks = 200.2 days -> month 7; A2: 26 + 8.4 = 34.4 -> 240.8 days
    # -> month 8; B1: 30 + 8.4 = 38.4 -> 268.8 days -> month 9
    assert [(p["critical_part"], p["ready_weeks"], p["ready_month"]) for p in out["phases"]] == [
        ("gpu_systems", pytest.approx(28.6), 7), ("switches", pytest.approx(34.4), 8),
        ("storage", pytest.approx(38.4), 9)]
    assert (out["first_ready_month"], out["energized_month"], out["critical_part"]) == (7, 9, "storage")
    assert out["gpus_online_by_month"] == [0] * 7 + [64, 96, 128]
    # capex: the plan's, shared by the catalog price standing in each hall; 30% with the order,
    # the rest in the quarter the hall is ready (months 6-8: A1 and A2; months 9-11: B1)
    capex = evaluate(plan, catalog).to_json()["cost"]["capex_usd"]
    total = sum(PRICES.values())
    share = [capex * PRICES[h] / total for h in ("A1", "A2", "B1")]
    assert [p["capex_usd"] for p in out["phases"]] == pytest.approx(share, abs=0.02)
    assert sum(p["capex_usd"] for p in out["phases"]) == pytest.approx(capex, abs=0.005)
    quarters = out["capex_by_quarter"]
    assert [q["first_month"] for q in quarters] == [0, 3, 6, 9]
    assert [q["capex_usd"] for q in quarters] == pytest.approx(
        [0.3 * capex, 0.0, 0.7 * (share[0] + share[1]), 0.7 * share[2]], abs=0.05)


def test_a_plant_in_place_leaves_each_hall_to_the_lead_times_of_what_it_holds(catalog):
    # the default lead times; the plant in place: A1 holds 2 CDUs (33 weeks), A2 switches (16),
    # B1 GPU systems (12) and storage (10); none waits for the transformer, switchgear, UPS or
    # generator sets. A1: 33 + 8 + 0.6 = 41.6 weeks = 291.2 days -> month 10; A2: 16 + 8.4 =
    # 24.4 weeks = 170.8 days -> month 6; B1: 12 + 8.4 = 20.4 weeks = 142.8 days -> month 5
    out = schedule(set_schedule(campus(), plant="in_place"), catalog)
    assert [(p["critical_part"], p["ready_weeks"], p["ready_month"]) for p in out["phases"]] == [
        ("cooling", pytest.approx(41.6), 10), ("switches", pytest.approx(24.4), 6),
        ("gpu_systems", pytest.approx(20.4), 5)]
    assert [p["parts"] for p in out["phases"]] == [["cooling", "gpu_systems", "optics"],
                                                   ["gpu_systems", "switches", "optics"],
                                                   ["gpu_systems", "optics", "storage"]]
    assert (out["energized_month"], out["critical_part"]) == (10, "cooling")
    assert out["lead_weeks"]["transformer"] == 128.0  # kept, for a plant built after all


def test_a_longer_transformer_lead_time_moves_energization_by_the_same_weeks(catalog):
    plan = set_schedule(campus(), order_date="2027-01-04")
    before = schedule(plan, catalog)
    after = schedule(set_schedule(plan, transformer_weeks=128.0 + 13), catalog)
    assert after["energized_weeks"] - before["energized_weeks"] == pytest.approx(13)
    # 136.6 weeks = 956.2 days: 2027-01-04 + 957 days = 2029-08-18; 13 weeks (91 days) later
    assert (before["energized_date"], after["energized_date"]) == ("2029-08-18", "2029-11-17")
    assert (before["energized_month"], after["energized_month"]) == (month(136.6), month(149.6)) == (32, 35)


def test_the_last_month_has_every_gpu_of_the_plan_online(catalog):
    for plan in (campus(), set_schedule(campus(), phase_by="scalable_unit")):
        report = evaluate(plan, catalog)
        out = report.to_json()["schedule"]
        assert out["gpus_online_by_month"][-1] == report.totals.gpus == 128
        assert len(out["gpus_online_by_month"]) == out["energized_month"] + 1


def test_a_single_hall_comes_online_scalable_unit_by_unit(catalog):
    from planner.design.build import design
    from planner.design.intent import Intent

    # 72 HGX H100 nodes on 64-port QM9700 leaves, rail-optimised: 32 nodes a scalable unit,
    # so units of 32, 32 and 8 nodes (256, 256 and 64 GPUs), installed one after another
    plan = design(Intent(system="hgx-h100-8", nodes=72, spare_nodes=0, fabric="ib400", switch="qm9700"),
                  catalog).plan
    plan.settings.schedule.plant = "new"  # built with the cluster: the transformer gates every unit
    report = evaluate(plan, catalog)
    out = report.to_json()["schedule"]
    assert out["phase_by"] == "scalable_unit"
    assert [(p["name"], p["gpus"]) for p in out["phases"]] == [
        ("Scalable unit 1", 256), ("Scalable unit 2", 256), ("Scalable unit 3", 64)]
    racks = report.totals.racks
    crews = max(1.0, racks * 4 / 100)
    # each unit is ready when the racks up to its last node are in: 128 + 8 + racks x share / (crews x 5)
    expected = [128 + 8 + racks * n / 72 / (crews * 5) for n in (32, 64, 72)]
    assert [p["ready_weeks"] for p in out["phases"]] == pytest.approx(expected, abs=0.01)
    assert out["gpus_online_by_month"][-1] == 576


def test_editing_a_lead_time_is_one_undoable_command_and_the_incremental_report_matches(catalog):
    plan = campus()
    ev = Evaluator(plan, catalog)
    ev.evaluate()
    history = History(plan, catalog)
    changes = history.apply(SetSetting("schedule", "transformer_weeks", 150.0))
    incremental = ev.evaluate(changes).to_json()["schedule"]
    assert incremental == evaluate(plan, catalog).to_json()["schedule"]
    assert incremental["energized_weeks"] == pytest.approx(150 + 8 + 0.6)
    ev.evaluate(history.undo())
    assert ev.report.to_json()["schedule"]["energized_weeks"] == pytest.approx(128 + 8 + 0.6)


def test_an_energization_after_the_requested_go_live_is_a_warning_naming_the_gate(catalog):
    plan = set_schedule(campus(), order_date="2027-01-04")
    plan.info.go_live = "2028-06-30"
    found = [f for f in evaluate(plan, catalog).findings if f.code == "schedule.after_go_live"]
    assert len(found) == 1 and "2029-08-18" in found[0].message and "power transformer (128 weeks)" in found[0].message
    plan.info.go_live = "2030-01-01"
    assert not [f for f in evaluate(plan, catalog).findings if f.code == "schedule.after_go_live"]


@pytest.mark.parametrize("bad", ["2027-13-01", "04/01/2027", "2027-1-4"])
def test_an_order_date_that_is_not_a_date_is_refused(bad):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="is not a date as YYYY-MM-DD"):
        campus().settings.schedule.order_date = bad


def test_the_format_8_sample_keeps_its_schedule_settings(catalog):
    # plan_v9.json: the same campus, ordered 2027-01-04, its transformers in place (0 weeks),
    # GPU systems 20 weeks: switchgear and generator sets (52 weeks each) gate it now, the
    # switchgear named first; hall A1 is ready 52 + 8 + 0.6 = 60.6 weeks after the order
    plan = load_plan(DATA / "plan_v9.json")
    assert plan.settings.schedule.order_date == "2027-01-04"
    out = schedule(plan, catalog)
    assert (out["critical_part"], out["energized_weeks"]) == ("switchgear", pytest.approx(60.6))
    assert out["energized_month"] == month(60.6) == 14


def colocation():
    """The campus in colocation: the plant in place; GPU systems 20 weeks, switches 26, storage
    30: halls A1 (64 GPUs) online from month 7, A2 (32) from 8, B1 (32) from 9."""
    return set_schedule(campus(), transformer_weeks=0.0, switchgear_weeks=0.0, ups_weeks=0.0, generator_weeks=0.0,
                        cooling_weeks=0.0, gpu_systems_weeks=20.0, switches_weeks=26.0, storage_weeks=30.0)


def test_training_from_the_first_phase_runs_on_the_replicas_online(catalog):
    plan = colocation()
    report = evaluate(plan, catalog).to_json()
    days = report["workload"]["time_to_train_days"]
    full = days / 30.4375  # months on all 128 GPUs (TP 8 x PP 4 = 32-GPU replicas, DP 4)
    out = report["schedule"]
    assert (out["train_from"], out["training_start_month"]) == ("energized", 9)
    assert out["training_done_month"] == pytest.approx(9 + full, abs=0.01)
    plan.settings.schedule.train_from = "first_phase"
    out = schedule(plan, catalog)
    # month 7: 64 GPUs = 2 of 4 replicas, half the pace; month 8: 96 = 3 replicas; from 9 all:
    # 0.5 + 0.75 = 1.25 months' worth done by month 9, the rest at full pace
    assert out["training_start_month"] == 7
    assert out["training_done_month"] == pytest.approx(9 + full - 1.25, abs=0.01)
    # 64-GPU replicas (PP 8, DP 2): 96 GPUs online run one replica, as 64 do
    plan.settings.workload.pp, plan.settings.workload.dp = 8, 2
    report = evaluate(plan, catalog).to_json()
    full = report["workload"]["time_to_train_days"] / 30.4375
    assert report["schedule"]["training_done_month"] == pytest.approx(9 + full - 1.0, abs=0.01)


def test_renting_while_building_covers_the_gpus_not_yet_online(catalog):
    report = evaluate(colocation(), catalog).to_json()
    rent, out = report["cost"]["rent_usd_per_month"], report["schedule"]
    # months 0-6 none of the 128 GPUs online, month 7 64 missing, month 8 32: 7 + 0.5 + 0.25 plan-months
    assert out["rent_while_building_usd"] == pytest.approx({k: v * 7.75 for k, v in rent.items()}, abs=0.05)
    # the cluster pays off only once energized (month 9): the cost model's break-even after that
    assert out["break_even_month_after_order"] == {
        k: None if v is None else pytest.approx(9 + v, abs=0.05) for k, v in report["cost"]["break_even_months"].items()}


def test_moving_racks_and_devices_between_halls_incrementally_matches_a_full_evaluation(catalog):
    from planner.plan.commands import MoveDevice
    from planner.plan.hall_commands import MoveRacksToHall

    plan = colocation()
    ev = Evaluator(plan, catalog)
    ev.evaluate()
    history = History(plan, catalog)
    # the storage rack to hall A1: B1 no longer waits for storage (30 weeks), A1 does
    out = ev.evaluate(history.apply(MoveRacksToHall(["r32"], "A1"))).to_json()["schedule"]
    assert out == evaluate(plan, catalog).to_json()["schedule"]
    assert [p["critical_part"] for p in out["phases"]] == ["storage", "switches", "gpu_systems"]
    # an HGX node (8 GPUs) from hall B1's rack to hall A2's: 32 + 8 and 32 - 8
    out = ev.evaluate(history.apply(MoveDevice("d17", "r11", 17))).to_json()["schedule"]
    assert out == evaluate(plan, catalog).to_json()["schedule"]
    assert [p["gpus"] for p in out["phases"]] == [64, 40, 24]
