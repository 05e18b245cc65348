"""fix on plans that need many remedies: it goes on until no remedy applies (not 20), the
parallelism it sets leaves the hot spares out, and a remedy that leaves its finding is
taken back and said.

The plans are 1,024 or 64 GPUs of DGX H100 (8 GPUs, 8U, 7.0 kW typical each: NVIDIA DGX
H100 user guide, and the planning guide's 7 kW a node), designed with 2 hot spares."""

from planner.cli import main
from planner.design.build import design
from planner.design.intent import Intent
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, MoveDevice
from planner.plan.fileio import load_plan, plan_to_json, save_plan
from planner.plan.space import lowest_free_u
from planner.remedies import commands as remedy_commands
from planner.remedies.fix import fix_all
from planner.report.evaluate import evaluate

CATALOG = default_catalog()


def _nodes(plan, rack_id):
    return [p for p in plan.placements if p.rack == rack_id and p.device == "dgx-h100"]


def _packed():
    """128 + 2 spare DGX H100 (1,040 GPUs) packed 5 to a 42U rack on the design's 25 kW
    caps: 5 x 8U = 40U fit, 5 x 7.0 = 35 kW is over the cap. 130 / 5 = 26 full racks, each
    over its cap; the design had put 3 in a rack (21 kW)."""
    plan = design(Intent(system="dgx-h100", gpus=1024, spare_nodes=2), CATALOG).plan
    history = History(plan, CATALOG)
    gpu_racks = [r.id for r in plan.racks if _nodes(plan, r.id)]
    for i, rack_id in enumerate(gpu_racks):
        donors = [d for d in gpu_racks[i + 1:] if _nodes(plan, d)]
        while donors and len(_nodes(plan, rack_id)) < 5:
            node = _nodes(plan, donors[-1])[-1]
            history.apply(MoveDevice(node.id, rack_id, lowest_free_u(plan, CATALOG, plan.rack(rack_id), 8)))
            donors = [d for d in donors if _nodes(plan, d)]
    full = [r for r in plan.racks if len(_nodes(plan, r.id)) == 5]
    assert len(full) == 26 and all(r.power_cap_kw == 25 for r in full)
    return plan


def test_fix_mends_an_overloaded_plan_to_the_end(tmp_path, capsys):
    plan = _packed()
    # and a parallelism for the 130 nodes' 1,040 GPUs, where the job has 128 nodes: a mismatch
    plan.settings.workload = plan.settings.workload.model_copy(update={"tp": 8, "pp": 1, "cp": 1, "dp": 130})
    over = [f for f in evaluate(plan, CATALOG).findings if f.code == "rack.power.over_cap"]
    assert len(over) == 26  # more than the 20 fixes fix used to stop at
    src, out = tmp_path / "packed.json", tmp_path / "fixed.json"
    save_plan(plan, src)
    assert main(["fix", str(src), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    # each rack of 5 keeps 3 (21 kW <= 25; 4 would be 28 kW): 26 splits moving 2 nodes each
    assert text.count("move 2 devices into") == 26
    assert "0 errors left" in text and "stopped" not in text
    fixed = load_plan(out)
    left = evaluate(fixed, CATALOG).findings
    assert [f.code for f in left if f.severity == "error"] == []
    assert [f.code for f in left if f.remedy is not None and f.severity != "info"] == []
    assert sum(len(_nodes(fixed, r.id)) for r in fixed.racks) == 130
    assert max(len(_nodes(fixed, r.id)) for r in fixed.racks) == 3
    w = fixed.settings.workload
    assert w.tp * w.cp * w.pp * w.dp == 1024  # 130 nodes less 2 spares = 128 x 8


def test_the_parallelism_remedy_leaves_the_hot_spares_out(tmp_path, capsys):
    # 64 GPUs = 8 DGX H100 for the job, 2 spares beside them: 10 placed, 80 GPUs; the job's
    # parallelism covers 80 - 2 x 8 = 64 (the old remedy set it over all 80)
    plan = design(Intent(system="dgx-h100", gpus=64, spare_nodes=2), CATALOG).plan
    assert sum(1 for p in plan.placements if p.device == "dgx-h100") == 10
    plan.settings.workload = plan.settings.workload.model_copy(update={"dp": 3})
    assert "workload.parallelism.mismatch" in {f.code for f in evaluate(plan, CATALOG).findings}
    src, out = tmp_path / "spares.json", tmp_path / "fixed.json"
    save_plan(plan, src)
    assert main(["fix", str(src), "-o", str(out)]) == 0
    assert "0 errors left" in capsys.readouterr().out
    w = load_plan(out).settings.workload
    assert w.tp * w.cp * w.pp * w.dp == 64
    assert "workload.parallelism.mismatch" not in {f.code for f in evaluate(load_plan(out), CATALOG).findings}


class _Nothing(remedy_commands.SetWorkload):
    """A remedy that changes a setting which does not mend the batch."""

    def __init__(self, remedy):
        super().__init__(remedy.__class__("set_workload", remedy.label, (("recompute", "full"),)))


def test_a_remedy_that_leaves_its_finding_is_taken_back_and_said(monkeypatch):
    plan = design(Intent(system="dgx-h100", gpus=64, spare_nodes=0), CATALOG).plan
    history = History(plan, CATALOG)
    w = plan.settings.workload
    # one sequence more than whole micro-batches on every replica: the batch is uneven
    sequences = w.global_batch_tokens // w.seq_len + 1
    plan.settings.workload = w.model_copy(update={"global_batch_tokens": sequences * w.seq_len})
    assert "workload.batch.uneven" in {f.code for f in evaluate(plan, CATALOG).findings}
    before = plan_to_json(plan)
    monkeypatch.setitem(remedy_commands.REMEDY_KINDS, "set_batch", _Nothing)
    result = fix_all(history)
    assert result.applied == []
    [(command, reason)] = result.refused
    assert reason.startswith("it does not mend workload.batch.uneven")
    assert plan_to_json(plan) == before


def test_a_rack_just_over_its_cap_says_by_how_much():
    """3 DGX H100 draw 3 x 7.0 = 21.0 kW typical; under a 20.99 kW cap the rack is 10 W over:
    said to the digit that shows it ("21.00 kW ... 0.01 kW over"), not "21.0 ... 0.0 kW over"."""
    plan = design(Intent(system="dgx-h100", gpus=24), CATALOG).plan
    (rack,) = [r for r in plan.racks if _nodes(plan, r.id)]
    rack.power_cap_kw = 20.99
    (over,) = [f.message for f in evaluate(plan, CATALOG).findings if f.code == "rack.power.over_cap"]
    assert over == f"Rack {rack.name} draws 21.00 kW (typical) against its 20.99 kW cap (0.01 kW over)"
    rack.power_cap_kw = 20.9996  # 0.4 W over: still said, to the digit
    (over,) = [f.message for f in evaluate(plan, CATALOG).findings if f.code == "rack.power.over_cap"]
    assert over.endswith("draws 21.0000 kW (typical) against its 20.9996 kW cap (0.0004 kW over)")
    rack.power_cap_kw = 16.0
    (over,) = [f.message for f in evaluate(plan, CATALOG).findings if f.code == "rack.power.over_cap"]
    assert over.endswith("draws 21.0 kW (typical) against its 16 kW cap (5.0 kW over)")
