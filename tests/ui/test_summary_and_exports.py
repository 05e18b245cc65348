"""The summary strip reads the report (totals and optional sections); exports appear when they exist."""

import sys
import types
from dataclasses import replace
from importlib.machinery import ModuleSpec

import pytest

from ui import file_dialogs

from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.design.templates import build_template
from ui.summary_strip import SummaryStrip


def test_summary_shows_totals_and_hides_missing_sections(qtbot):
    strip = SummaryStrip()
    qtbot.addWidget(strip)
    report = evaluate(build_template("medium"), default_catalog())
    report.sections.pop("cost", None)
    # a network section without the workload figures
    report.sections["network"] = replace(report.network, allreduce_ms=None, gpu_idle_pct=None, tokens_per_s=None)
    report.sections["workload"] = replace(report.workload, idle_share=None)
    strip.show_report(report)
    # medium: 16 nodes x 8 GPUs = 128; 16 nodes need ceil(16 / 8) = 2 CDUs, 2 are placed
    assert (strip.text("gpus"), strip.text("nodes"), strip.text("racks")) == ("128", "16", "7")
    assert strip.text("cdus") == "2 / 2"
    for key in ("gpu_idle_pct", "idle_cause", "tokens_per_s", "capex", "break_even"):
        assert strip.text(key) == "–"  # the slot stays, with a dash
        assert ": not available." in strip.figures[key].toolTip()


def test_summary_shows_network_and_cost_sections_when_present(qtbot):
    strip = SummaryStrip()
    qtbot.addWidget(strip)
    strip.show()
    report = evaluate(build_template("medium"), default_catalog())
    report.sections["network"] = replace(report.network, allreduce_ms=123.456, tokens_per_s=98765.4)
    report.sections["workload"] = replace(report.workload, idle_share=0.0725)
    report.sections["cost"] = replace(report.cost, capex_usd=5_432_100.0,
                                      break_even_months={"reserved_1yr": 17.14, "spot": None})
    strip.show_report(report)
    assert "all-reduce takes 123.5 ms" in strip.figures["idle_cause"].toolTip()
    assert strip.text("gpu_idle_pct") == "7.2 %"  # 7.25 rounds half to even
    assert strip.text("tokens_per_s") == "98,765"
    assert strip.text("capex") == "$5.43M"
    assert strip.text("break_even") == "17.1 mo"
    assert "Spot / preemptible: never" in strip.figures["break_even"].toolTip()
    # months of running, beside 'energized' months after the order: the caption says which,
    # the tooltip gives the Schedule's month counted from the order too
    assert strip.figures["break_even"].caption.text() == "running to beat 1-yr rent"
    after = report.sections["schedule"].break_even_month_after_order["reserved_1yr"]
    assert f"Reserved 1-yr: month {after:,.1f}" in strip.figures["break_even"].toolTip().split("from the order")[1]
    report.sections["cost"] = replace(report.cost, capex_usd=1500.0, break_even_months={})
    strip.show_report(report)
    assert strip.text("capex") == "$2k" and strip.text("break_even") == "–"
    assert strip.figures["break_even"].toolTip() == ("Running to beat renting: not available. "
                                                      "There is no rental option to compare with.")
    # a plan that trains nothing: no token budget named under its days to train
    assert strip.figures["time_to_train"].caption.text().startswith("to train ") and strip.text("time_to_train") != "–"
    idle = build_template("medium")
    idle.settings.workload = idle.settings.workload.model_copy(update={"enabled": False})
    strip.show_report(evaluate(idle, default_catalog()))
    assert strip.text("time_to_train") == "–" and strip.figures["time_to_train"].caption.text() == "to train"


def test_excel_export_calls_the_workbook_writer_when_it_exists(qtbot, monkeypatch, tmp_path, catalog):
    calls = []
    fake = types.ModuleType("planner.export.xlsx")
    fake.__spec__ = ModuleSpec("planner.export.xlsx", None)
    fake.write_workbook = lambda plan, cat, path, report=None, inputs=(), progress=None: calls.append((plan, cat, path))
    monkeypatch.setitem(sys.modules, "planner.export.xlsx", fake)
    from ui.document import Document
    from ui.main_window import MainWindow

    window = MainWindow(Document(build_template("single-node", catalog=catalog), catalog))
    qtbot.addWidget(window)
    assert window.export_xlsx_action.isEnabled()
    target = tmp_path / "plan.xlsx"
    monkeypatch.setattr("ui.file_actions.file_dialogs.save_file_name", lambda *a, **k: (str(target), ""))
    window.export_xlsx_action.trigger()
    assert calls == [(window.doc.plan, catalog, target)]


def test_recent_files_and_window_layout_are_remembered(window, qtbot, tmp_path, catalog):
    from ui.document import Document
    from ui.main_window import MainWindow

    path = tmp_path / "a.json"
    window._save_to(path)
    window.recent_menu.aboutToShow.emit()
    assert [a.text() for a in window.recent_menu.actions()] == ["a.json"]
    window.resize(760, 540)  # within the offscreen screen (800 x 600)
    window.checks_dock.hide()
    window.save_layout()
    again = MainWindow(Document(build_template("single-node", catalog=catalog), catalog))
    qtbot.addWidget(again)
    again.show()
    assert (again.width(), again.height()) == (760, 540)
    assert again.checks_dock.isHidden()


def test_summary_shows_end_to_end_mfu_and_time_to_train(qtbot):
    strip = SummaryStrip()
    qtbot.addWidget(strip)
    strip.show()
    report = evaluate(build_template("medium"), default_catalog())
    work = report.workload
    strip.show_report(report)
    # MFU = FLOPs per token x tokens/s / (GPUs x peak); days = 15e12 tokens / tokens/s / 86,400
    fpt = 6 * 70e9 + 12 * 80 * 4096 * 8192
    assert work.mfu == pytest.approx(fpt * work.tokens_per_s / (128 * 989e12), abs=1e-4)
    assert strip.text("mfu") == f"{100 * work.mfu:,.1f} %"
    days = 15e12 / work.tokens_per_s / 86_400
    # shown with failures: the failure-free days over the effective training time ratio
    goodput = report.sections["goodput"]
    failing = goodput.time_to_train_days
    assert 0.9 < goodput.ettr < 1 and failing == pytest.approx(days / goodput.ettr, rel=1e-4)
    assert strip.text("time_to_train") == f"{failing:,.0f} days"
    assert strip.figures["time_to_train"].caption.text() == "to train 15T tokens"
    tip = strip.figures["time_to_train"].toolTip()
    assert f"{failing:,.1f} with failures" in tip and f"{days:,.1f} if nothing failed" in tip
    assert "rent spot" in tip


def test_a_run_that_interruptions_stall_never_trains_rather_than_showing_failure_free_days(qtbot):
    strip = SummaryStrip()
    qtbot.addWidget(strip)
    plan = build_template("medium")
    # a GPU failure each 10 GPU-days is 12.8 a day on 128 GPUs; 200 minutes lost at each is
    # 2,560 minutes of a 1,440-minute day: no progress, however long the run
    plan.settings.reliability = plan.settings.reliability.model_copy(
        update={"gpu_failures_per_1000_gpu_days": 100.0, "restart_min": 200.0})
    report = evaluate(plan, default_catalog())
    goodput, work = report.sections["goodput"], report.workload
    assert goodput.ettr == 0 and goodput.time_to_train_days is None and work.time_to_train_days > 0
    strip.show_report(report)
    assert strip.text("time_to_train") == "never"
    assert strip.figures["time_to_train"].caption.text() == "to train 15T tokens"
    tip = strip.figures["time_to_train"].toolTip()
    assert "ETTR) of 0 %" in tip and f"{work.time_to_train_days:,.1f} days if nothing failed" in tip
    # about 12.8 interruptions a day on 128 GPUs (the other parts add a few), each losing the
    # 200-minute restart and the half interval's work: every 1.9 h, 3.9 h lost at each
    assert 12.8 < goodput.interruptions_per_day < 13.2 and 200 < goodput.lost_per_interruption_min < 240
    assert "an interruption every 1.9 h, each losing 3.9 h" in tip


def test_a_plan_whose_parts_never_fail_trains_in_the_failure_free_days(qtbot):
    strip = SummaryStrip()
    qtbot.addWidget(strip)
    plan = build_template("medium")
    plan.settings.reliability = plan.settings.reliability.model_copy(update={
        "gpu_failures_per_1000_gpu_days": 0.0, "node_failures_per_1000_node_days": 0.0,
        "switch_failures_per_1000_switch_days": 0.0, "link_failures_per_1000_link_days": 0.0,
        "software_failures_per_1000_node_days": 0.0})
    report = evaluate(plan, default_catalog())
    goodput, work = report.sections["goodput"], report.workload
    assert goodput.mtbf_h is None and goodput.ettr == 1.0  # nothing fails: no time lost
    strip.show_report(report)
    assert strip.text("time_to_train") == f"{work.time_to_train_days:,.0f} days"
    assert "no interruptions" in strip.figures["time_to_train"].toolTip()


def test_gpu_idle_is_what_the_step_loses_and_beside_it_its_cause(qtbot):
    strip = SummaryStrip()
    qtbot.addWidget(strip)
    report = evaluate(build_template("medium"), default_catalog())
    work = report.workload
    # the step is compute + pipeline bubble + communication not hidden; idle is the two losses
    assert work.step_time_s == pytest.approx(work.compute_s + work.bubble_s + work.exposed_comm_s, abs=1e-3)
    lost = (work.exposed_comm_s + work.bubble_s) / work.step_time_s
    assert work.idle_share == pytest.approx(lost, abs=1e-4)
    assert work.idle_share > report.network.gpu_idle_pct / 100  # more than the exposed communication alone
    strip.show_report(report)
    assert strip.text("gpu_idle_pct") == f"{100 * lost:.1f} %"
    tip = strip.figures["gpu_idle_pct"].toolTip()
    assert "exposed communication" in tip and "pipeline bubble" in tip
    assert f"{work.exposed_comm_s:,.2f} s" in tip and f"{work.bubble_s:,.2f} s" in tip
    # medium (TP 8 x PP 4 x DP 4 over NDR400): the communication outweighs the bubble
    assert work.exposed_comm_s > work.bubble_s
    assert strip.text("idle_cause") == f"{work.exposed_comm_s:,.2f} s/step"
    assert strip.figures["idle_cause"].caption.text() == "exposed comm"
    # the two sit side by side however the strip wraps
    assert strip.figures["gpu_idle_pct"].parent() is strip.figures["idle_cause"].parent()
    report.sections["workload"] = replace(work, exposed_comm_s=0.1, exposed_comm_share=0.003)
    strip.show_report(report)
    assert strip.figures["idle_cause"].caption.text() == "pipeline bubble"
    assert strip.text("idle_cause") == f"{work.bubble_s:,.2f} s/step"


def test_an_inference_plan_heads_with_its_serving_figures_and_a_training_plan_gets_its_own_back(qtbot):
    from planner.design.build import design
    from planner.design.intent import Intent

    strip = SummaryStrip()
    qtbot.addWidget(strip)
    strip.show()
    catalog = default_catalog()
    # DeepSeek-V3 in FP8 for 20 requests/s: replicas of TP 8 x PP 2 on DGX H100
    plan = design(Intent(system="dgx-h100", inference=True, requests_per_s=20, model="deepseek-v3"), catalog).plan
    report = evaluate(plan, catalog)
    inf, work = report.workload.inference, report.workload
    strip.show_report(report)
    # whole replicas of 16 GPUs, each serving its requests: the plan's requests/s
    replicas = report.totals.gpus // 16
    assert replicas * inf.requests_per_s_per_replica >= 20
    assert work.inference_requests_per_s == pytest.approx(replicas * inf.requests_per_s_per_replica, abs=1e-3)
    assert strip.text("tokens_per_s") == f"{work.inference_requests_per_s:,.1f}"
    assert strip.figures["tokens_per_s"].caption.text() == "requests/s"
    # the time per output token a user sees (decode steps and the prefills between): whole ms from 10
    assert inf.decode_s_per_token < inf.tpot_s <= 0.050
    assert strip.text("gpu_idle_pct") == f"{inf.tpot_s * 1e3:,.0f} ms"
    assert strip.figures["gpu_idle_pct"].caption.text() == "TPOT"
    assert strip.text("idle_cause") == f"{inf.prefill_s * 1e3:,.0f} ms"
    assert f"each GPU produces {round(inf.output_tokens_per_s_per_gpu):,} output tokens/s" in strip.figures[
        "tokens_per_s"].toolTip()
    assert strip.text("mfu") == f"{inf.batch:,}" and strip.figures["mfu"].caption.text() == "batch"
    cost = work.inference_usd_per_m_output_tokens["rent_reserved_1yr"]
    assert strip.text("time_to_train") == f"${cost:,.2f}"
    assert strip.figures["time_to_train"].caption.text() == "per M tokens (1-yr)"
    # the captions fit the slots the training figures size: nothing clipped, nothing reflows
    for key in ("tokens_per_s", "gpu_idle_pct", "idle_cause", "mfu", "time_to_train"):
        fig = strip.figures[key]
        assert fig.caption.fontMetrics().horizontalAdvance(fig.caption.text()) <= fig.width() - 14, key
    # a training plan shown next gets the training captions back
    strip.show_report(evaluate(build_template("medium"), catalog))
    assert strip.figures["tokens_per_s"].caption.text() == "tokens/s"
    assert strip.figures["gpu_idle_pct"].caption.text() == "GPU idle"
    assert strip.figures["mfu"].caption.text() == "MFU"
    assert strip.figures["time_to_train"].caption.text() == "to train 15T tokens"
