"""Auto-place keeps the design whole: N nodes come with the switches, storage, CDUs and
parallelism they need, as one undo step (the issue's case: 128 DGX B200 on the default plan
left 3,072 fabric ports missing and TP x PP x DP = 128 against 1,152 GPUs)."""

from __future__ import annotations

from collections import Counter

import pytest

from planner.design.build import design
from planner.design.grow import PlaceNodes
from planner.design.intent import Intent
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History
from planner.report.evaluate import evaluate

CAT = default_catalog()


def test_placing_128_dgx_b200_on_the_default_plan_leaves_no_error():
    plan = build_template("medium", catalog=CAT)
    before = plan.model_dump_json()
    cmd = PlaceNodes("dgx-b200", 128)
    cmd.do(plan, CAT)
    report = evaluate(plan, CAT)
    # 16 HGX H100 x 8 + 128 DGX B200 x 8 = 128 + 1,024 = 1,152 GPUs.
    assert report.totals.gpus == 1152
    assert not [f.message for f in report.findings if f.severity == "error"]
    net = report.network
    assert net.switch_ports_placed >= net.switch_ports_needed
    w = plan.settings.workload
    assert w.tp * w.cp * w.pp * w.dp == 1152
    assert report.workload.tokens_per_s  # the summary's workload figures are there
    assert report.totals.cdus_placed >= report.totals.cdus
    # One undo step restores the plan exactly.
    cmd.undo(plan, CAT)
    assert plan.model_dump_json() == before


def test_auto_place_is_one_step_in_the_history_and_redo_gives_the_same_plan():
    plan = build_template("medium", catalog=CAT)
    history = History(plan, CAT)
    history.apply(PlaceNodes("hgx-h100-8", 16))
    after = plan.model_dump_json()
    # 32 nodes of 8 x H100: twice the medium template's nodes.
    assert evaluate(plan, CAT).totals.nodes == 32
    history.undo()
    assert evaluate(plan, CAT).totals.nodes == 16
    history.redo()
    assert plan.model_dump_json() == after


def test_auto_place_on_a_plan_with_hot_spares_leaves_them_out_of_the_parallelism():
    # 8 DGX H100 for the job and 2 spares (80 GPUs), then 8 more auto-placed: 18 nodes, 144
    # GPUs; the job's are 144 - 2 x 8 = 128, which TP x CP x PP x DP must cover.
    plan = design(Intent(system="dgx-h100", gpus=64, spare_nodes=2), CAT).plan
    History(plan, CAT).apply(PlaceNodes("dgx-h100", 8))
    report = evaluate(plan, CAT)
    assert report.totals.gpus == 144
    assert not [f.code for f in report.findings if f.severity == "error"]
    w = plan.settings.workload
    assert w.tp * w.cp * w.pp * w.dp == 128


def test_auto_place_fills_a_rack_no_more_than_its_pdu_positions_carry():
    """MI355X platforms (15 kW nameplate, about 11 kW typical) in 60 kW racks on the typical
    basis: five fit the cap (55 kW) but their 75 kW nameplate needs 3 of the 34.5 kW PDUs
    (415 V 60 A at 80%) on each 2N feed, which takes 2. Four (60 kW) is what the feeds carry:
    the design places four a rack and the check raises no rack.power.pdu_positions."""
    from planner.design.intent import Intent
    from planner.plan.autoplace import pdu_feeds_kw
    from planner.report.evaluate import evaluate

    catalog = default_catalog()
    plan = design(Intent(system="amd-mi355x-8", gpus=512, rack_kw=60), catalog).plan
    assert pdu_feeds_kw(plan, catalog) == pytest.approx(2 * 415 * 60 * 3 ** 0.5 * 0.8 / 1000)  # 69.0 kW
    per_rack = Counter(p.rack for p in plan.placements if p.device == "amd-mi355x-8")
    assert max(per_rack.values()) == 4
    assert not [f for f in evaluate(plan, catalog).findings if f.code == "rack.power.pdu_positions"]


def test_auto_place_keeps_the_plans_fabric_switch_and_refuses_nodes_it_cannot_hold():
    """A QM3200-class 36-port switch: three tiers hold 36^3/4 = 11,664 endpoints. The medium
    plan's 16 nodes plus 1,500 more have 1,516 x 8 = 12,128 NICs: auto-place says so and places
    nothing, rather than building the fabric of another switch model behind the user's back
    (the 36-port switches already placed left unused, and undo not giving the plan back)."""
    from planner.plan.commands import CommandError, SetSetting

    plan = build_template("medium", catalog=CAT)
    history = History(plan, CAT)
    history.apply(SetSetting("fabric", "switch_device", "q3200"))
    before = plan.model_dump()
    with pytest.raises(CommandError, match="12,128 endpoints .* 36-port switches holds .11,664"):
        history.apply(PlaceNodes("hgx-h100-8", 1500))
    assert plan.model_dump() == before
    history.apply(PlaceNodes("hgx-h100-8", 100))  # 116 x 8 = 928 NICs: two tiers of 36 ports hold 648, three do
    assert plan.settings.fabric.switch_device == "q3200"
