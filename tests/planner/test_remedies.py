"""Remedies as data on findings, applied as undoable commands (hand-worked on the medium
template: 16 x HGX H100 = 128 GPUs, a fabric of 8 leaf + 2 spine QM9700 (64 ports), 2
CDUs of 250 kW for 130.6 kW of liquid heat (N+1), TP 8 x PP 4 x DP 4, 1,024 sequences of
4,096 tokens)."""

import pytest

from planner.design.templates import build_template
from planner.findings import Remedy
from planner.hardware.catalog import default_catalog
from planner.plan.commands import CommandError, History, RemoveDevices, SetSetting
from planner.plan.fileio import plan_to_json
from planner.remedies.commands import remedy_command
from planner.cli.cmd_check import render_text
from planner.remedies.fix import fix_all
from planner.report.compare import report_json
from planner.report.evaluate import evaluate

CATALOG = default_catalog()


@pytest.fixture
def history():
    return History(build_template("medium"), CATALOG)


def _finding(plan, code):
    found = [f for f in evaluate(plan, CATALOG).findings if f.code == code]
    return found[0] if found else None


def _count(plan, device):
    return sum(1 for p in plan.placements if p.device == device)


def test_two_leaf_switches_removed_are_added_back(history):
    plan = history.plan
    history.apply(RemoveDevices([p.id for p in plan.placements if p.device == "qm9700"][:2]))
    f = _finding(plan, "network.ports.short")
    # 10 x 64 = 640 ports needed, 8 x 64 = 512 placed: 128 missing, 2 switches
    assert "128 ports missing (2 switches)" in f.message
    assert f.remedy.kind == "add_switches"
    assert dict(f.remedy.figures) == {"device": "qm9700", "count": 2}
    before = plan_to_json(plan)
    command = remedy_command(f.remedy)
    history.apply(command)
    assert _count(plan, "qm9700") == 10
    assert _finding(plan, "network.ports.short") is None
    # the switches go into the network rack, which has room (no new rack)
    assert {plan.rack(p.rack).name for p in plan.placements if p.device == "qm9700"} == {"NET-01"}
    assert command.label == "Add 2 x Quantum-2 QM9700 (64 x NDR 400G) to the network racks"
    history.undo()
    assert plan_to_json(plan) == before


def test_missing_cdus_are_added(history):
    plan = history.plan
    history.apply(RemoveDevices([p.id for p in plan.placements if p.device == "cdu-inrack-250"]))
    f = _finding(plan, "cooling.cdu.short")
    assert "need 2 CDUs" in f.message and "0 placed" in f.message
    assert dict(f.remedy.figures) == {"device": "cdu-inrack-250", "count": 2}
    history.apply(remedy_command(f.remedy))
    assert _count(plan, "cdu-inrack-250") == 2
    assert _finding(plan, "cooling.cdu.short") is None
    assert all(plan.rack(p.rack).cooling == "liquid" for p in plan.placements if p.device == "cdu-inrack-250")
    # into the row-end CDU rack their removal left empty, not a second one beside it
    assert {plan.rack(p.rack).name for p in plan.placements if p.device == "cdu-inrack-250"} == {"CDU-01"}
    assert [r.name for r in plan.racks if r.name.startswith("CDU")] == ["CDU-01"]


def test_parallelism_is_chosen_for_every_gpu(history):
    plan = history.plan
    history.apply(SetSetting("workload", "dp", 8))  # 8 x 4 x 8 = 256 GPUs asked, 128 placed
    f = _finding(plan, "workload.parallelism.mismatch")
    assert dict(f.remedy.figures) == {"gpus": 128}
    command = remedy_command(f.remedy)
    history.apply(command)
    w = plan.settings.workload
    assert w.tp * w.cp * w.pp * w.dp == 128
    assert _finding(plan, "workload.parallelism.mismatch") is None
    assert command.label == f"Set the parallelism to TP {w.tp} x PP {w.pp} x DP {w.dp}"


def test_a_tensor_parallel_wider_than_a_node_is_chosen_again_within_it(history):
    # TP 16 x PP 2 x DP 4 uses the 128 GPUs, but TP 16 spans two 8-GPU NVLink domains
    plan = history.plan
    for name, value in (("tp", 16), ("pp", 2), ("dp", 4)):
        history.apply(SetSetting("workload", name, value))
    f = _finding(plan, "workload.tp.spans_nodes")
    assert f.remedy.label == "Choose a parallelism for all 128 GPUs, TP within the NVLink domain"
    history.apply(remedy_command(f.remedy))
    w = plan.settings.workload
    assert w.tp <= 8 and w.tp * w.cp * w.pp * w.dp == 128
    assert _finding(plan, "workload.tp.spans_nodes") is None


def test_a_tensor_parallel_that_does_not_split_the_heads_is_warned_and_chosen_again(history):
    # the custom model given 12 heads (4 KV groups): TP 8 leaves 1.5 heads a rank; TP 1, 2 or 4
    # split them. The fix's search keeps to those.
    plan = history.plan
    history.apply(SetSetting("workload", "heads", 12))
    history.apply(SetSetting("workload", "kv_heads", 4))
    plan.settings.workload = plan.settings.workload.model_copy(update={"tp": 8, "pp": 4, "dp": 4})
    f = _finding(plan, "workload.tp.heads")
    assert "Tensor parallel 8 does not divide the model's 12 attention heads" in f.message
    assert f.message.endswith("(1, 2, 4)")
    history.apply(remedy_command(f.remedy))
    w = plan.settings.workload
    assert 12 % w.tp == 0 and w.tp * w.cp * w.pp * w.dp == 128
    assert _finding(plan, "workload.tp.heads") is None


def test_one_job_on_two_gpu_models_is_warned_at_the_slowest_ones_pace(history):
    # medium's 16 HGX H100 (128 H100) and one DGX B200 (8 B200) in one job
    from planner.plan.commands import AddDevice, AddRack

    plan = history.plan

    history.apply(AddRack(name="B200-01", cooling="liquid", power_cap_kw=40))
    history.apply(AddDevice("dgx-b200", plan.racks[-1].id, 1))
    f = _finding(plan, "workload.gpus.mixed")
    assert f.severity == "warning"
    assert "One job on 2 GPU models (8 B200 180GB, 128 H100 SXM 80GB)" in f.message
    assert "at the H100 SXM 80GB's pace" in f.message


def test_batch_goes_to_the_nearest_multiple_of_dp_times_micro_batch(history):
    plan = history.plan
    # 1,021 sequences over DP 4 x micro-batch 1: 1,020 is 1 away, 1,024 is 3 away
    history.apply(SetSetting("workload", "global_batch_tokens", 1021 * 4096))
    f = _finding(plan, "workload.batch.uneven")
    assert dict(f.remedy.figures) == {"sequences": 1020, "tokens": 4_177_920}
    history.apply(remedy_command(f.remedy))
    assert plan.settings.workload.global_batch_tokens == 4_177_920
    assert _finding(plan, "workload.batch.uneven") is None


def test_an_interleaved_batch_goes_to_a_multiple_of_pp_micro_batches_too(history):
    # medium's 128 GPUs as TP 8 x PP 4 x DP 4, interleaved: 100 sequences over DP 4 x
    # micro-batch 1 are 25 a replica, which splits, but the interleaved schedule needs a
    # replica's micro-batches a multiple of PP 4: 24 (96 sequences) or 28 (112); 96 is 4 away,
    # 112 twelve. 102 sequences: uneven (25.5 a replica); 96 and 112 again, 96 the nearest, so
    # one fix mends both (the nearest multiple of DP alone, 104, would leave 26 micro-batches).
    plan = history.plan
    for name, value in (("tp", 8), ("pp", 4), ("dp", 4), ("cp", 1), ("micro_batch_size", 1),
                        ("pp_schedule", "interleaved"), ("virtual_stages", 2)):
        history.apply(SetSetting("workload", name, value))
    history.apply(SetSetting("workload", "global_batch_tokens", 100 * 4096))
    f = _finding(plan, "workload.pipeline.interleaved_batches")
    assert dict(f.remedy.figures)["sequences"] == 96 and "96 sequences give 24 a replica" in f.message
    history.apply(SetSetting("workload", "global_batch_tokens", 102 * 4096))
    f = _finding(plan, "workload.batch.uneven")
    assert dict(f.remedy.figures)["sequences"] == 96 and "use 96 or 112 sequences" in f.message
    history.apply(remedy_command(f.remedy))
    assert _finding(plan, "workload.batch.uneven") is None
    assert _finding(plan, "workload.pipeline.interleaved_batches") is None


def test_a_tie_rounds_the_batch_up(history):
    history.apply(SetSetting("workload", "global_batch_tokens", 1022 * 4096))  # 1,020 and 1,024 both 2 away
    f = _finding(history.plan, "workload.batch.uneven")
    assert f.remedy.figure("sequences") == 1024


def test_fix_all_mends_three_problems_in_three_undo_steps(history):
    plan = history.plan
    original = plan_to_json(plan)
    history.apply(RemoveDevices([p.id for p in plan.placements if p.device == "qm9700"][:2]))
    history.apply(RemoveDevices([p.id for p in plan.placements if p.device == "cdu-inrack-250"][:1]))
    history.apply(SetSetting("workload", "dp", 8))
    broken = plan_to_json(plan)
    result = fix_all(history)
    assert len(result.applied) == 3 and not result.refused
    assert not evaluate(plan, CATALOG).has_errors
    for _ in result.applied:
        history.undo()
    assert plan_to_json(plan) == broken
    for _ in range(3):
        history.undo()
    assert plan_to_json(plan) == original


def test_check_json_gives_each_finding_its_remedy_or_null(history):
    plan = history.plan
    history.apply(RemoveDevices([p.id for p in plan.placements if p.device == "qm9700"][:2]))
    findings = report_json(plan, CATALOG, evaluate(plan, CATALOG))["findings"]
    short = next(f for f in findings if f["code"] == "network.ports.short")
    assert short["remedy"] == {"kind": "add_switches", "label": "Add 2 x Quantum-2 QM9700 (64 x NDR 400G) to the "
                               "network racks", "device": "qm9700", "count": 2}
    over_cap = next(f for f in findings if f["code"] == "rack.power.nameplate_over_cap")
    assert over_cap["remedy"] is None


def test_a_fractional_batch_goes_to_whole_sequences(history):
    # 1,024 x 4,096 + 2,047 tokens = 1,024.4998 sequences: 1,024 whole ones (4,194,304 tokens)
    history.apply(SetSetting("workload", "global_batch_tokens", 1024 * 4096 + 2047))
    f = _finding(history.plan, "workload.batch.fractional_sequences")
    assert dict(f.remedy.figures) == {"sequences": 1024, "tokens": 4_194_304}
    history.apply(remedy_command(f.remedy))
    assert _finding(history.plan, "workload.batch.fractional_sequences") is None
    assert _finding(history.plan, "workload.batch.uneven") is None  # 1,024 is a multiple of DP 4


def test_a_batch_below_one_sequence_is_an_error_fixed_to_one(history):
    # 1 token of 4,096-token sequences: no step can run; the fix sets one sequence, 4,096 tokens
    history.apply(SetSetting("workload", "global_batch_tokens", 1))
    f = _finding(history.plan, "workload.batch.fractional_sequences")
    assert f.severity == "error" and f.message.startswith("The global batch of 1 token is less than one sequence")
    assert f.remedy.label == "Set the global batch to 1 sequence"
    assert dict(f.remedy.figures) == {"sequences": 1, "tokens": 4096}
    history.apply(remedy_command(f.remedy))
    assert _finding(history.plan, "workload.batch.fractional_sequences") is None


def test_a_remedy_the_plan_cannot_take_is_refused_and_leaves_the_plan_unchanged(history):
    plan = history.plan
    plan.placements = [p for p in plan.placements if p.device != "hgx-h100-8"]  # no GPU nodes left
    before = plan_to_json(plan)
    with pytest.raises(CommandError, match="no GPU nodes"):
        history.apply(remedy_command(Remedy("add_switches", "Add 2", (("device", "qm9700"), ("count", 2)))))
    assert plan_to_json(plan) == before


def test_check_text_gives_each_error_and_warning_its_fix_or_says_it_has_none(history):
    history.apply(SetSetting("workload", "dp", 8))
    text = render_text(evaluate(history.plan, CATALOG), CATALOG).splitlines()
    mismatch = next(i for i, line in enumerate(text) if "workload.parallelism.mismatch" in line)
    assert text[mismatch + 1].strip() == "Fix: Choose a parallelism for all 128 GPUs"
    # the 4 GPU racks' nameplate warnings: one line, where they are, then the fix
    nameplate = next(i for i, line in enumerate(text) if "rack.power.nameplate_over_cap" in line)
    assert text[nameplate + 1].strip() == "Where: GPU-01, GPU-02, GPU-03, GPU-04"
    assert text[nameplate + 2].strip() == ("No automatic fix: whether the circuits carry the nameplate is the "
                                           "facility's call")


def test_nics_faster_than_the_switch_ports_are_run_at_the_ports_rate(history):
    # The medium template's 16 HGX H100 (8 x 400G ConnectX-7 each) on a QM9700 split into
    # 128 x NDR200: the NICs train down, an error. Its remedy runs the NIC links at 200 Gb/s:
    # 16 x 8 = 128 links, one a NIC, which one 128-port switch holds.
    plan = history.plan
    history.apply(SetSetting("fabric", "technology", "ib200"))
    history.apply(SetSetting("fabric", "switch_device", "qm9700-ndr200"))
    f = _finding(plan, "network.nic.faster_than_switch")
    assert f.severity == "error" and f.remedy.kind == "set_nic_rate" and dict(f.remedy.figures) == {"gbps": 200}
    result = fix_all(history)
    assert "Run the compute NIC links at 200 Gb/s, the switch ports' rate" in [c.label for c in result.applied]
    assert plan.settings.fabric.nic_link_gbps == 200
    left = evaluate(plan, CATALOG)
    assert [x.code for x in left.findings if x.severity == "error"] == []
    assert "network.nic.link_rate" in {x.code for x in left.findings}  # said, as a note
    network = report_json(plan, CATALOG, left)["network"]
    assert (network["tiers"], network["leaf_switches"]) == (1, 1)
