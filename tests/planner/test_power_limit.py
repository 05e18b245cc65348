"""A plan-wide GPU power limit, worked by hand.

Medium template: 16 HGX H100 nodes of 8 x H100 SXM 80GB (TDP 700 W, 989 TFLOP/s BF16 dense:
NVIDIA H100 datasheet; nvidia-smi Min Power Limit 200 W), 128 GPUs, 7,000 W typical and
10,200 W nameplate a node.
"""

from __future__ import annotations

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.hardware.power_limit import capped_catalog
from planner.hardware.nodes import summarise_nodes
from planner.plan.commands import CommandError, History, RemoveDevices, SetSetting
from planner.report.evaluate import Evaluator, evaluate

CATALOG = default_catalog()

# The cube law of dynamic power under DVFS (P ~ f^3): sustained clock at 500 W of 700 W is
# (5/7)^(1/3): 5/7 = 0.714286, and 0.8939^3 = 0.71428, so 0.8939; 989 x 0.8939 = 884.1 TFLOP/s.
CLOCK_AT_500 = 0.8939
GPUS = 128
CUT_W = GPUS * (700 - 500)  # 25,600 W off both bases: 1,600 W a node


@pytest.fixture
def history():
    return History(build_template("medium"), CATALOG)


def test_a_500_w_cap_on_h100_lowers_throughput_by_the_curve_and_node_power_by_the_cut(history):
    before = evaluate(history.plan, CATALOG)
    history.apply(SetSetting("facility", "gpu_power_limit_w", 500.0))
    after = evaluate(history.plan, CATALOG)
    # each node: 7,000 -> 5,400 W typical, 10,200 -> 8,600 W nameplate
    assert before.totals.typical_milliwatts - after.totals.typical_milliwatts == CUT_W * 1000
    assert before.totals.nameplate_milliwatts - after.totals.nameplate_milliwatts == CUT_W * 1000
    # throughput at 100% of peak is GPUs x peak / FLOPs per token: it falls by the clock factor alone
    limit0, limit1 = before.sections["workload"]["tokens_per_s_limit"], after.sections["workload"]["tokens_per_s_limit"]
    assert limit1 / limit0 == pytest.approx(CLOCK_AT_500, abs=1e-4)
    # the whole step slows, by less than the clock: its memory-bound kernels and communication keep their time
    step0, step1 = before.sections["workload"]["step_time_s"], after.sections["workload"]["step_time_s"]
    assert step0 < step1 < step0 / CLOCK_AT_500
    # the facility's UPS load follows the nameplate
    assert after.sections["facility"]["ups_load_kw"] == pytest.approx(
        before.sections["facility"]["ups_load_kw"] - CUT_W / 1000, abs=1e-3)


def test_the_cap_is_undone_with_its_setting(history):
    before = evaluate(history.plan, CATALOG).totals.typical_milliwatts
    history.apply(SetSetting("facility", "gpu_power_limit_w", 500.0))
    history.undo()
    assert evaluate(history.plan, CATALOG).totals.typical_milliwatts == before


@pytest.mark.parametrize("watts, words", [
    (150.0, "below the 200 W the H100 SXM 80GB accepts"),  # nvidia-smi Min Power Limit: 200 W
    (800.0, "above the GPUs' TDP (H100 SXM 80GB 700 W)"),
])
def test_a_cap_outside_what_the_gpu_accepts_is_refused_with_its_range(history, watts, words):
    with pytest.raises(CommandError, match=r"GPU power limit") as exc:
        history.apply(SetSetting("facility", "gpu_power_limit_w", watts))
    assert words in str(exc.value)
    assert history.plan.settings.facility.gpu_power_limit_w is None


def test_a_plan_file_with_a_cap_below_the_minimum_is_an_error_evaluated_at_the_minimum(history):
    # as a file written by hand would carry it: past the command's refusal
    history.plan.settings.facility.gpu_power_limit_w = 150.0
    report = evaluate(history.plan, CATALOG)
    codes = [f.code for f in report.global_findings if f.severity == "error"]
    assert "facility.gpu_power_limit.out_of_range" in codes
    uncapped = evaluate(build_template("medium"), CATALOG)
    # evaluated at 200 W, the lowest the H100 SXM accepts: 128 x (700 - 200) = 64,000 W less
    assert uncapped.totals.typical_milliwatts - report.totals.typical_milliwatts == GPUS * 500 * 1000


def test_a_node_summary_under_the_cap_carries_the_sustained_peak():
    capped = capped_catalog(CATALOG, 500.0, 3.0, 0.5)
    assert summarise_nodes({"dgx-h100": 1}, capped).bf16_tflops == pytest.approx(989 * CLOCK_AT_500, abs=0.1)
    assert capped["dgx-h100"].power_typical_w == 5_400 and capped["dgx-h100"].power_max_w == 8_600
    assert capped["dgx-h100"].gpu.memory_bandwidth_tbs == 3.35  # the memory clock is not what the cap throttles


def test_an_edit_under_a_cap_is_evaluated_as_a_full_evaluation_would(history):
    history.apply(SetSetting("facility", "gpu_power_limit_w", 500.0))
    ev = Evaluator(history.plan, CATALOG)
    ev.evaluate()
    node = next(p for p in history.plan.placements if CATALOG[p.device].gpu is not None)
    incremental = ev.evaluate(history.apply(RemoveDevices([node.id])))
    full = evaluate(history.plan, CATALOG)
    # one node fewer, at its capped 5,400 W typical
    assert incremental.totals.typical_milliwatts == full.totals.typical_milliwatts
    assert incremental.totals.nameplate_milliwatts == full.totals.nameplate_milliwatts


def test_auto_place_fills_racks_to_the_draw_the_cap_leaves(history):
    from planner.plan.autoplace import AutoPlace

    # on the nameplate basis a 30 kW rack takes 2 HGX H100 at 10.2 kW (3 x 10.2 = 30.6 kW is
    # over); at 500 W a GPU a node is 8.6 kW nameplate and 3 fit (25.8 kW)
    history.apply(SetSetting("facility", "power_basis", "nameplate"))
    history.apply(SetSetting("facility", "gpu_power_limit_w", 500.0))
    racks_before = {r.id for r in history.plan.racks}
    history.apply(AutoPlace("hgx-h100-8", 6, new_rack_prefix="CAP", label_prefix="cap-node"))
    new = [r for r in history.plan.racks if r.id not in racks_before]
    per_rack = sorted(sum(1 for p in history.plan.placements if p.rack == r.id) for r in new)
    assert per_rack == [3, 3]
    # the new racks hold within their cap (the template's racks of 4 nodes, 34.4 kW, do not)
    ids = {r.id for r in new}
    assert not [f for f in evaluate(history.plan, CATALOG).findings
                if f.code.startswith("rack.power") and f.where in ids]
