"""The goodput model by hand: interruptions summed from the parts placed, Young's interval,
ETTR, spares, the findings, and old plans keeping their fixed checkpoint interval."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from planner.design.templates import build_template
from planner.goodput.model import ettr, young_interval_s
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import load_plan
from planner.report.evaluate import Evaluator
from planner.settings import Settings
from tests.planner.spares_by_hand import spares_for

CAT = default_catalog()
DATA = Path(__file__).resolve().parents[1] / "data"
ROUND_RATES = dict(gpu_failures_per_1000_gpu_days=1.0, node_failures_per_1000_node_days=2.0,
                   switch_failures_per_1000_switch_days=4.0, link_failures_per_1000_link_days=0.5,
                   software_failures_per_1000_node_days=3.0)


def medium(**reliability):
    plan = build_template("medium")
    plan.settings.reliability = plan.settings.reliability.model_copy(update=reliability)
    return plan


def evaluate(plan):
    report = Evaluator(plan, CAT).evaluate()
    return report, report.sections["goodput"], {f.code: f for f in report.findings}


def test_young_interval_by_hand():
    # sqrt(2 x 60 s x 3 h) = sqrt(2 x 60 x 10,800) = sqrt(1,296,000) = 1,138.4 s, 19 min
    assert young_interval_s(60, 3 * 3600) == pytest.approx(1138.42, abs=0.01)


def test_ettr_by_hand():
    # every 30 min of training a 60 s write; an interruption every 10 h costing a 10 min
    # restart and re-load plus half an interval (15 min):
    # (1 - (600 + 900) / 36,000) x 1,800 / 1,860 = 0.958333 x 0.967742 = 0.927419
    assert ettr(1800, 60, 600, 36000) == pytest.approx(0.927419, abs=1e-6)
    assert ettr(1800, 60, 600, None) == pytest.approx(1800 / 1860)  # nothing fails: the writes alone
    assert ettr(1800, 60, 40000, 36000) == 0.0  # restarts longer than the time between them


def test_a_checkpoint_too_small_to_show_blocks_nothing_and_the_plan_still_evaluates():
    # a checkpoint of a millionth of a byte a parameter rounds to 0 GB and 0 s: no interval,
    # nothing blocks, ETTR is what the restarts leave (it divided 0 by 0 and nothing evaluated)
    assert ettr(0, 0, 600, 36000) == pytest.approx(1 - 600 / 36000)
    plan = build_template("medium", catalog=CAT)
    plan.settings.storage = plan.settings.storage.model_copy(update={"checkpoint_bytes_per_param": 1e-6})
    g = Evaluator(plan, CAT).evaluate().sections["goodput"]
    assert 0.9 < g.ettr <= 1.0


def test_interruptions_summed_from_the_medium_plans_parts():
    _, g, _ = evaluate(medium(**ROUND_RATES))
    # medium: 16 HGX nodes of 8 GPUs, 11 switches placed (10 QM9700, 1 SN5600), 256 fabric
    # links of which 125 optical: the 128 leaf-spine runs are copper inside NET-01 and 3
    # node-leaf runs 5 m copper (tests/planner/test_transceiver_counts.py works them out).
    # Per 1,000 days: 128 GPUs x 1 + 16 nodes x 2 + 11 switches x 4 + 125 links x 0.5 + 16 nodes
    # x 3 = 128 + 32 + 44 + 62.5 + 48 = 314.5
    assert g["optical_links"] == 125
    assert g["interruptions_by_part"] == {"gpu": 0.128, "node": 0.032, "switch": 0.044, "optical_link": 0.0625,
                                          "software": 0.048}
    assert g["interruptions_per_day"] == pytest.approx(0.3145)
    assert g["mtbf_h"] == pytest.approx(24 / 0.3145, abs=1e-3)  # 76.312 h


def test_medium_checkpoint_interval_and_ettr_by_hand():
    _, g, _ = evaluate(medium(**ROUND_RATES))
    mtbf_s = 24 / 0.3145 * 3600  # 274,721.8 s
    # write 980 GB at 175 GB/s = 5.6 s; Young: sqrt(2 x 5.6 x 274,721.8) = 1,754.10 s = 29.24 min
    assert g["checkpoint_block_s"] == pytest.approx(5.6)
    assert g["checkpoint_interval_min"] == pytest.approx(1754.10 / 60, abs=1e-3)
    # the stall: 5.6 s blocked every 1,754.10 s = 0.319% of the interval
    assert g["checkpoint_stall_pct"] == pytest.approx(0.319, abs=1e-3)
    # re-load 980 GB at min(350 GB/s read, 16 x 100 GB/s) = 2.8 s; no spare: the GPU and host
    # failures (160 of 314.5) wait 30 min for a node: 1,800 x 160 / 314.5 = 915.74 s;
    # lost = 600 + 2.8 + 915.74 = 1,518.54 s, plus half the interval 877.05 s
    assert g["reload_s"] == pytest.approx(2.8)
    assert g["lost_per_interruption_min"] == pytest.approx((1518.54 + 877.05) / 60, abs=1e-3)
    # ETTR = (1 - 2,395.59 / 274,721.8) x 1,754.10 / 1,759.70 = 0.991280 x 0.996818 = 0.98813
    assert g["ettr"] == pytest.approx(0.98813, abs=1e-4)
    assert mtbf_s == pytest.approx(274721.8, abs=0.1)


def test_goodput_and_time_to_train_follow_ettr_and_the_failure_free_figures_stay():
    report, g, _ = evaluate(medium(**ROUND_RATES))
    work = report.sections["workload"]
    assert g["goodput_tokens_per_s"] == pytest.approx(work["tokens_per_s"] * g["ettr"], rel=1e-4)
    assert g["time_to_train_days"] == pytest.approx(work["time_to_train_days"] / g["ettr"], rel=1e-4)
    assert g["run_cost_usd"]["rent_on_demand"] == pytest.approx(
        work["run_cost_usd"]["rent_on_demand"] / g["ettr"], rel=1e-3)
    # the workload section's own figures stay failure-free: the same whatever the failure rates
    assert work["tokens_per_s"] == evaluate(medium())[0].sections["workload"]["tokens_per_s"]


def test_spares_leave_the_job_fewer_gpus_and_the_parallelism_check_sees_it():
    report, g, codes = evaluate(medium(spare_nodes=2))
    assert g["job_gpus"] == 128 - 2 * 8
    mismatch = codes["workload.parallelism.mismatch"]  # TP 8 x PP 4 x DP 4 = 128 > 112
    assert "128 GPUs" in mismatch.message and "112" in mismatch.message
    plan = medium(spare_nodes=2, **ROUND_RATES)
    plan.settings.workload = plan.settings.workload.model_copy(update={"pp": 2, "dp": 7})  # 8 x 2 x 7 = 112
    report, g, codes = evaluate(plan)
    assert "workload.parallelism.mismatch" not in codes
    # 14 job nodes: 112 x 1 + 14 x 2 + 44 + 62.5 + 14 x 3 = 288.5 per 1,000 days
    assert g["interruptions_per_day"] == pytest.approx(0.2885)
    # (112 + 14 x 2) / 1,000 = 0.14 GPU and host failures a day x 3 days = 0.42 nodes in repair
    # (Poisson): a failure finds one of the 2 spares idle with e^-0.42 x 1.42 = 93.30 %, else
    # waits 30 min for a node from the pool: 1,800 x 0.0670 x 140 / 288.5 = 58.51 s; lost =
    # 600 s + re-load 2.8 s + 58.51 s + half the interval
    assert g["lost_per_interruption_min"] * 60 == pytest.approx(661.31 + g["checkpoint_interval_min"] * 30, abs=0.1)


def test_a_stocked_spare_is_waited_for_as_long_as_its_swap():
    # no hot spare, two spares in stock, and a site with no pool of nodes (a 4-hour wait for
    # one). The GPU and host failures (128 GPUs x 1 + 16 nodes x 2 = 160 of 160 + 11 switches
    # x 4 + 125 optical links x 0.5 + 16 x 3 software = 314.5 per 1,000 days) find 0.16 x 3 =
    # 0.48 nodes in repair on average (Poisson): a stocked spare on the shelf with
    # e^-0.48 x 1.48 = 91.58 %, waited for its 60-min swap, else 240 min: 0.91580 x 60 +
    # 0.08420 x 240 = 75.156 min, 4,509.37 s x 160 / 314.5 = 2,294.11 s; lost = 600 + 2.8 +
    # 2,294.11 s
    _, g, codes = evaluate(medium(spares_stocked=2, swap_spare_min=60.0, replace_node_min=240.0, **ROUND_RATES))
    assert g["interruptions_per_day"] == pytest.approx(0.3145)
    assert g["lost_per_interruption_min"] * 60 == pytest.approx(2896.91 + g["checkpoint_interval_min"] * 30, abs=0.1)
    assert (g["spare_unit"], g["spare_nodes"], g["spares_stocked"]) == ("node", 0, 2)
    # 0.16 a day x 3 days = 0.48 nodes in repair: none needed, the two stocked cover it
    assert g["spares_to_cover"] == 0 and "goodput.spares.short" not in codes
    # the pool's 30 min (the default) is shorter than the swap: a stocked spare is no wait
    # longer than having none, 30 min x 160 / 314.5 = 915.74 s
    _, g, _ = evaluate(medium(spares_stocked=2, **ROUND_RATES))
    assert g["lost_per_interruption_min"] * 60 == pytest.approx(1518.54 + g["checkpoint_interval_min"] * 30, abs=0.1)
    # a hot spare leaves the job 15 nodes: (120 + 15 x 2) / 1,000 = 0.15 a day of 0.3015 take a
    # node out, 0.45 in repair; the spare is idle at e^-0.45 = 63.76 % of those failures and
    # takes the wait off them: 1,800 x 0.36237 x 0.15 / 0.3015 = 324.51 s
    _, g, _ = evaluate(medium(spare_nodes=1, spares_stocked=2, **ROUND_RATES))
    assert g["node_failures_per_repair"] == pytest.approx(0.45)
    assert g["lost_per_interruption_min"] * 60 == pytest.approx(927.31 + g["checkpoint_interval_min"] * 30, abs=0.1)


def test_hot_and_stocked_spares_together_cover_the_nodes_in_repair():
    # 120 job GPUs x 187.5 + 15 nodes x 2 per 1,000 days = 22.53 a day, x 3 days = 67.6 down;
    # Poisson(67.6) is below 88 with 99.02 % (below 87: 98.69 %): 88 spares for 99 % of the
    # failures; 1 hot + 60 stocked = 61 short, 1 hot + 87 stocked = 88 enough
    rates = dict(ROUND_RATES, gpu_failures_per_1000_gpu_days=1000 * 24 / 128)
    _, g, codes = evaluate(medium(spare_nodes=1, spares_stocked=60, **rates))
    assert g["node_failures_per_repair"] == pytest.approx(67.59, abs=0.01)
    assert g["spares_to_cover"] == spares_for(67.59) == 88
    short = codes["goodput.spares.short"]
    assert "61 spare nodes are kept (60 in stock)" in short.message and "keep at least 88 spare nodes" in short.message
    assert "99% of failures" in short.message
    _, _, codes = evaluate(medium(spare_nodes=1, spares_stocked=86, **rates))
    assert "goodput.spares.short" in codes
    _, _, codes = evaluate(medium(spare_nodes=1, spares_stocked=87, **rates))
    assert "goodput.spares.short" not in codes


def test_a_fixed_interval_is_evaluated_as_set():
    plan = medium(**ROUND_RATES)
    plan.settings.storage = plan.settings.storage.model_copy(update={"checkpoint_interval_min": 120.0})
    report, g, _ = evaluate(plan)
    assert g["checkpoint_interval_auto"] is False and g["checkpoint_interval_min"] == 120
    # (1 - (1,518.54 + 3,600) / 274,721.8) x 7,200 / 7,205.6 = 0.981368 x 0.999223 = 0.98061
    assert g["ettr"] == pytest.approx(0.98061, abs=1e-4)
    assert report.sections["storage"]["checkpoint_stall_pct"] == pytest.approx(100 * 5.6 / 7200, abs=1e-3)


def test_new_plans_checkpoint_automatically_and_old_files_keep_their_hourly_interval():
    assert Settings().storage.checkpoint_interval_min is None
    old = load_plan(DATA / "plan_v5.json")
    assert old.settings.storage.checkpoint_interval_min == 60  # stored by every file before: the user's value


def test_async_checkpoints_block_only_for_the_copy_to_host_memory():
    _, g, _ = evaluate(medium(async_checkpoint=True, **ROUND_RATES))
    # 980 GB over 128 GPUs copying 25 GB/s each: 980 / 3,200 = 0.30625 s; Young's interval
    # sqrt(2 x 0.30625 x 274,721.8) = 410.2 s, longer than the 5.6 s write
    assert g["checkpoint_block_s"] == pytest.approx(0.306, abs=1e-3)
    assert g["checkpoint_interval_min"] == pytest.approx(math.sqrt(2 * 0.30625 * 274721.8) / 60, abs=1e-3)


def test_findings_short_interval_low_ettr_and_spares_short_carry_figures_and_remedies():
    # one failure an hour on 128 GPUs: Young's interval for a 5.6 s write is
    # sqrt(2 x 5.6 x 3,600) = 200.8 s, 35.9 writes (no short-interval finding). A cold
    # restart loses 10 min + the 30 min wait for a node (no spare) + 2.8 s reload + half an
    # interval, 2,503.2 s an hour: ETTR (1 - 2,503.2 / 3,600) x 200.8 / 206.4 = 29.6 %, below
    # half: the job cannot train, an error
    rates = dict(ROUND_RATES, gpu_failures_per_1000_gpu_days=1000 * 24 / 128, node_failures_per_1000_node_days=0,
                 switch_failures_per_1000_switch_days=0, link_failures_per_1000_link_days=0,
                 software_failures_per_1000_node_days=0)
    _, g, codes = evaluate(medium(**rates))
    assert g["mtbf_h"] == pytest.approx(1.0)
    interval = math.sqrt(2 * 5.6 * 3600)
    assert g["ettr"] == pytest.approx((1 - (600 + 1800 + 2.8 + interval / 2) / 3600) * interval / (interval + 5.6),
                                      abs=1e-4)
    low = codes["goodput.ettr.cannot_train"]
    assert low.severity == "error" and "below 90% and below 50%: the job cannot train" in low.message
    assert "asynchronous checkpoints" in low.message
    # a faster restart path is offered as the remedy, though none reaches 90 % without spares
    assert low.remedy.kind == "set_restart_path" and "the best modelled path" in low.message
    # each duration in the unit that reads: an hour, the 200.8 s interval, the 10 min restart
    assert "an interruption every 1.0 h, checkpoints every 3.3 min" in low.message
    assert "goodput.checkpoint.interval_short" not in codes
    # 24 node failures a day x 3-day repair = 72 nodes down at once, no spare kept; 93 for 99 %
    # of the failures (Poisson(72) below 93: 99.01 %, below 92: 98.69 %)
    short = codes["goodput.spares.short"]
    assert "72.0 nodes" in short.message and "keep at least 93 spare nodes" in short.message
    assert spares_for(72.0) == 93
    # a fixed 30 s interval is 30 / 5.6 = 5.4 writes, fewer than the 10 asked for
    plan = medium(min_interval_write_multiple=10.0, **ROUND_RATES)
    plan.settings.storage = plan.settings.storage.model_copy(update={"checkpoint_interval_min": 0.5})
    _, _, codes = evaluate(plan)
    short = codes["goodput.checkpoint.interval_short"]
    assert "5.4 times the 6 s" in short.message and "asynchronous checkpoints" in short.message


def test_enough_spares_silence_the_spares_finding():
    # 120 job GPUs x 187.5 + 15 nodes x 2 per 1,000 days = 22.53 a day, x 3 days = 67.6 down
    rates = dict(ROUND_RATES, gpu_failures_per_1000_gpu_days=1000 * 24 / 128)
    _, g, codes = evaluate(medium(spare_nodes=1, **rates))
    assert g["node_failures_per_repair"] == pytest.approx(67.59, abs=0.01) and "goodput.spares.short" in codes
    # (120 x 1 + 15 x 2) / 1,000 x 3 days = 0.45 nodes down: one spare covers it
    _, g, codes = evaluate(medium(spare_nodes=1, **ROUND_RATES))
    assert g["node_failures_per_repair"] < 1 and "goodput.spares.short" not in codes


def test_the_curve_runs_from_one_node_past_the_plan_and_marks_it():
    _, g, _ = evaluate(medium(**ROUND_RATES))
    curve = g.curve
    assert [p.nodes for p in curve] == [1, 2, 4, 8, 16, 32, 64]  # to 4 x the plan's 16 nodes
    (plan,) = [p for p in curve if p.plan]
    assert (plan.nodes, plan.ettr, plan.goodput_tokens_per_s) == (16, g.ettr, g.goodput_tokens_per_s)
    assert plan.checkpoint_interval_min == g.checkpoint_interval_min
    # one node alone: 8 GPUs x 1 + 2 + 3 software, round(11 / 16) = 1 switch x 4 and
    # round(125 / 16) = 8 optical links x 0.5: 21 per 1,000 days, MTBF 1,142.86 h = 4,114,285.7 s;
    # its write 980 GB / min(175, 1 x 100 GB/s) = 9.8 s; Young: sqrt(2 x 9.8 x 4,114,285.7)
    # = 8,980.0 s = 149.67 min
    one = curve[0]
    assert one.checkpoint_interval_min == pytest.approx(149.67, abs=1e-2)
    assert [p.ettr for p in curve] == sorted((p.ettr for p in curve), reverse=True)  # larger jobs lose more


def test_durations_read_in_seconds_minutes_or_hours_by_their_size_once_rounded():
    from planner.goodput.findings import duration_text

    assert [duration_text(x) for x in (2.82, 59.94, 59.96, 219.3, 3596.9, 3597.1, 36_000)] == [
        "2.8 s", "59.9 s", "1.0 min", "3.7 min", "59.9 min", "1.0 h", "10.0 h"]


def test_a_million_training_tokens_costs_more_with_failures_by_one_over_ettr():
    # the horizon's hours are priced whatever fails; the job trains ETTR of them, so each token
    # the build trains costs the failure-free figure / ETTR: at 0.98813 (worked out above) a
    # failure-free $X per million tokens is $X / 0.98813, 1.2 % more
    report, g, _ = evaluate(medium(**ROUND_RATES))
    free = report.sections["cost"]["cost_per_million_tokens_usd"]
    assert free > 0 and g["ettr"] == pytest.approx(0.98813, abs=1e-4)
    assert g["cost_per_million_tokens_usd"] == pytest.approx(free / 0.98813, rel=1e-4)
    # nothing trains: no figure
    plan = medium()
    plan.settings.workload = plan.settings.workload.model_copy(update={"enabled": False})
    _, g, _ = evaluate(plan)
    assert g["cost_per_million_tokens_usd"] is None
