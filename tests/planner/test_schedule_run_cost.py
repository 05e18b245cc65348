"""The training run's cost on the build-out's calendar, worked by hand.

A calendar month is 365.25 / 12 days x 24 = 730.5 hours. A month's build cost is (capex of
the phases online / horizon + opex x their share of the IT power) x the run's hours / the
cost model's hours per month; its rent is the GPUs online x the run's hours x rate x (1 +
uplift).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.plan.commands import History, SetSetting
from planner.plan.fileio import load_plan
from planner.plan.hall_commands import MoveRacksToHall
from planner.report.evaluate import Evaluator, evaluate
from planner.schedule.run_cost import LISTED_MONTHS, CalendarPrices, run_on_calendar

DATA = Path(__file__).resolve().parents[1] / "data"
MONTH_H = 730.5
# two phases: 64 GPUs (capex $1M, a quarter of the IT power) from month 2, 64 more
# (capex $2M) from month 3; opex $100,000 a month; a 30-month horizon; 730 h a month in
# the cost model; spot at $2.00/GPU-h + 15 % uplift = $2.30
PRICES = CalendarPrices(capex_online_usd=[0.0, 0.0, 1e6, 3e6], it_online_share=[0.0, 0.0, 0.25, 1.0],
                        opex_usd_per_month=100_000.0, horizon_months=30, hours_per_month=730.0,
                        rent_usd_per_gpu_hour={"spot": 2.30})
ONLINE = [0, 0, 64, 128]


def test_a_run_from_the_first_phase_takes_the_gpu_hours_online_month_by_month():
    # 60 days on the 128-GPU job: 60 x 24 x 128 = 184,320 GPU-hours, in 32-GPU replicas
    run = run_on_calendar(ONLINE, 2, 184_320.0, 32, 128, PRICES)
    # month 2: 2 replicas, 64 x 730.5 = 46,752 GPU-h; month 3: 128 x 730.5 = 93,504;
    # month 4: the 184,320 - 140,256 = 44,064 left on 128 GPUs, 344.25 h
    assert [(m.month, m.gpus_training, m.hours, m.gpu_hours) for m in run.months] == [
        (2, 64, MONTH_H, 46_752.0), (3, 128, MONTH_H, 93_504.0), (4, 128, pytest.approx(344.25), pytest.approx(44_064))]
    assert run.end_month == pytest.approx(4 + 344.25 / 730.5)
    # build: month 2 ($1M / 30 + $100,000 x 0.25) x 730.5 / 730 = $58,373.29; month 3
    # ($3M / 30 + $100,000) x 730.5 / 730 = $200,136.99; month 4 $200,000 x 344.25 / 730 = $94,315.07
    assert [m.build_usd for m in run.months] == pytest.approx([58_373.29, 200_136.99, 94_315.07], abs=0.01)
    assert run.total_usd["build"] == pytest.approx(352_825.35, abs=0.02)
    # rent: the same 184,320 GPU-hours held at $2.30: 107,529.60 + 215,059.20 + 101,347.20
    assert [m.rent_usd["spot"] for m in run.months] == pytest.approx([107_529.6, 215_059.2, 101_347.2])
    assert run.total_usd["rent_spot"] == pytest.approx(423_936.0)
    # from month 3 on every GPU: 1,440 h, built ($3M / 30 + $100,000) x 1,440 / 730 = $394,520.55
    whole = run_on_calendar(ONLINE, 3, 184_320.0, 32, 128, PRICES)
    assert whole.total_usd == pytest.approx({"rent_spot": 423_936.0, "build": 394_520.55}, abs=0.01)
    assert whole.end_month == pytest.approx(3 + 1440 / 730.5)


def test_gpus_online_that_make_no_whole_replica_are_paid_for_and_train_nothing():
    # 48 GPUs online in month 2: one 32-GPU replica trains, all 48 are held (rented); 16 online
    # in month 1 make no replica: the run waits, at no cost
    run = run_on_calendar([0, 16, 48, 128], 1, 184_320.0, 32, 128, PRICES)
    assert [(m.month, m.gpus_online, m.gpus_training, m.hours) for m in run.months[:2]] == [
        (1, 16, 0, 0.0), (2, 48, 32, MONTH_H)]
    assert run.months[0].build_usd == run.months[0].rent_usd["spot"] == 0.0
    assert run.months[1].gpu_hours == 32 * MONTH_H
    assert run.months[1].rent_usd["spot"] == pytest.approx(48 * MONTH_H * 2.30)
    # 184,320 - 23,376 = 160,944 GPU-h left from month 3 on 128 GPUs: 1,257.375 h
    assert run.end_month == pytest.approx(3 + 1257.375 / 730.5)
    # a replica larger than the whole plan never trains
    assert run_on_calendar(ONLINE, 2, 184_320.0, 256, 256, PRICES) is None


def test_a_run_of_centuries_is_priced_in_full_and_listed_for_the_longest_horizon():
    # a million months on every GPU from month 3: 128 x 730.5 x 1e6 GPU-hours
    run = run_on_calendar(ONLINE, 3, 128 * MONTH_H * 1e6, 32, 128, PRICES)
    assert len(run.months) == LISTED_MONTHS == 240
    assert run.end_month == pytest.approx(3 + 1e6)
    assert run.total_usd["rent_spot"] == pytest.approx(128 * MONTH_H * 1e6 * 2.30)


def two_halls():
    """The two-building sample in colocation (the plant in place; GPU systems 20 weeks,
    switches 26, storage 30) with hall B1's racks moved to hall A2: two phases.
    - Hall A1: 3 racks, 64 GPUs; 20 + 8 commissioning + 3 racks / 5 a week = 28.6 weeks =
      200.2 days, online from month ceil(200.2 / 30.4375) = 7;
    - Hall A2: 4 racks, 64 GPUs, the switches and the storage: 30 + 8 + 0.8 = 38.8 weeks =
      271.6 days, from month 9.
    The 70B job: TP 8 x PP 4 = 32-GPU replicas, DP 4: 128 GPUs; a 500B-token budget."""
    plan = load_plan(DATA / "plan_v7.json")
    for name, weeks in dict(transformer_weeks=0.0, switchgear_weeks=0.0, ups_weeks=0.0, generator_weeks=0.0,
                            cooling_weeks=0.0, gpu_systems_weeks=20.0, switches_weeks=26.0,
                            storage_weeks=30.0).items():
        setattr(plan.settings.schedule, name, weeks)
    plan.settings.workload.train_tokens_b = 500.0
    return plan


def moved(plan, catalog):
    History(plan, catalog).apply(MoveRacksToHall(["r16", "r32"], "A2"))
    return plan


def test_training_from_the_first_hall_costs_the_months_it_runs_on_what_is_online(catalog):
    plan = moved(two_halls(), catalog)
    plan.settings.schedule.train_from = "first_phase"
    report = evaluate(plan, catalog).to_json()
    s, cost = report["schedule"], report["cost"]
    assert [(p["gpus"], p["ready_month"]) for p in s["phases"]] == [(64, 7), (64, 9)]
    days = report["workload"]["time_to_train_days"]  # D days on all 128 GPUs
    assert 30.4375 < days < 2 * 30.4375  # so months 7 and 8 do 730.5 h of it and month 9 ends it
    gpu_hours = 128 * 24 * days
    assert s["training_gpu_hours"] == pytest.approx(gpu_hours, abs=2)  # D is given to 0.001 day
    # months 7 and 8: hall A1's 64 GPUs, 2 replicas, 730.5 h each = 46,752 GPU-h; month 9 on
    # all 128: the rest, 128 x 24 D - 93,504 GPU-h, in 24 D - 730.5 hours
    rest_h = 24 * days - MONTH_H
    assert [(m["month"], m["gpus_online"], m["gpus_training"]) for m in s["training_cost_by_month"]] == [
        (7, 64, 64), (8, 64, 64), (9, 128, 128)]
    assert [m["hours"] for m in s["training_cost_by_month"]] == pytest.approx([MONTH_H, MONTH_H, rest_h], abs=0.1)
    assert [m["gpu_hours"] for m in s["training_cost_by_month"]] == pytest.approx(
        [46_752, 46_752, gpu_hours - 93_504], abs=2)
    # done at 9 + (24 D - 730.5) / 730.5 = 8 + 24 D / 730.5: a month sooner than from month 9
    assert s["training_done_month"] == pytest.approx(8 + 24 * days / MONTH_H, abs=0.01)
    # built: hall A1's capex and share of the IT power in months 7 and 8, everything in month 9
    a1, a2 = s["phases"]
    capex, opex = cost["capex_usd"], cost["opex_usd_per_month"]
    share = a1["it_mw"] / (a1["it_mw"] + a2["it_mw"])
    month_7 = (a1["capex_usd"] / 36 + opex * share) * MONTH_H / 730
    month_9 = (capex / 36 + opex) * rest_h / 730
    assert [m["build_usd"] for m in s["training_cost_by_month"]] == pytest.approx([month_7, month_7, month_9],
                                                                                 rel=1e-4)
    assert s["training_cost_usd"]["build"] == pytest.approx(2 * month_7 + month_9, rel=1e-4)
    # rented: the GPUs online for the run's hours, 128 x 24 D GPU-hours in all, as many as on
    # the whole cluster: at spot $2.10 + 15 %
    spot = 2.10 * 1.15
    assert [m["rent_usd"]["spot"] for m in s["training_cost_by_month"]] == pytest.approx(
        [64 * MONTH_H * spot, 64 * MONTH_H * spot, 128 * rest_h * spot], rel=1e-4)
    assert s["training_cost_usd"]["rent_spot"] == pytest.approx(gpu_hours * spot, rel=1e-4)
    # hall A1 holds half the GPUs for about a third of the capex (hall A2 has the switches and
    # the storage): the months on it cost less to build than on the whole cluster
    assert s["training_cost_usd"]["build"] < report["workload"]["run_cost_usd"]["build"]


def test_training_from_energization_costs_what_the_whole_cluster_figure_says(catalog):
    # from month 9 every phase is online: the run holds all 128 GPUs for 24 D hours, which is
    # what the whole-cluster figure prices (capex / horizon + opex, and the rent, for 24 D hours)
    plan = moved(two_halls(), catalog)
    report = evaluate(plan, catalog).to_json()
    s = report["schedule"]
    assert (s["train_from"], s["training_start_month"]) == ("energized", 9)
    assert s["training_cost_usd"] == pytest.approx(report["workload"]["run_cost_usd"], abs=0.01)
    days = report["workload"]["time_to_train_days"]
    assert [(m["month"], m["hours"]) for m in s["training_cost_by_month"]] == [
        (9, MONTH_H), (10, pytest.approx(24 * days - MONTH_H, abs=0.1))]
    assert s["training_done_month"] == pytest.approx(9 + 24 * days / MONTH_H, abs=0.01)


def test_a_new_rental_rate_reprices_the_run_on_the_calendar_incrementally(catalog):
    plan = moved(two_halls(), catalog)
    plan.settings.schedule.train_from = "first_phase"
    ev = Evaluator(plan, catalog)
    before = ev.evaluate().to_json()["schedule"]["training_cost_usd"]["rent_spot"]
    after = ev.evaluate(History(plan, catalog).apply(SetSetting("costs", "rent_spot_usd_per_gpu_h", 4.2)))
    assert after.to_json()["schedule"] == evaluate(plan, catalog).to_json()["schedule"]
    assert after.to_json()["schedule"]["training_cost_usd"]["rent_spot"] == pytest.approx(2 * before, abs=0.02)


def test_an_inference_plan_has_no_training_run_on_the_calendar(catalog):
    plan = two_halls()
    plan.settings.workload.inference = True
    s = evaluate(plan, catalog).to_json()["schedule"]
    assert s["training_cost_usd"] == {} and s["training_cost_by_month"] == []
    assert s["training_done_month"] is None
