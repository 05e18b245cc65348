"""The pipeline bubble's remedy on the medium template (16 x HGX H100 = 128 GPUs, an
80-layer 70B model, micro-batch 1), figures by hand from (p-1)/(v m + p-1)."""

import pytest

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import History, SetSetting
from planner.remedies.commands import remedy_command
from planner.report.evaluate import evaluate
from planner.design.layout import gpu_counts
from planner.hardware.nodes import summarise_nodes
from planner.workload.bubble import bubble_remedy
from planner.workload.checks import job_shape
from planner.workload.fit import fit_training
from planner.workload.models import model_shape

CATALOG = default_catalog()


def _bubble(tp, pp, dp, sequences):
    h = History(build_template("medium"), CATALOG)
    for name, value in dict(tp=tp, pp=pp, dp=dp, global_batch_tokens=sequences * 4096).items():
        h.apply(SetSetting("workload", name, value))
    found = [f for f in evaluate(h.plan, CATALOG).findings if f.code == "workload.pipeline.bubble"]
    return h, (found[0] if found else None)


def test_interleaving_wins_when_it_shrinks_the_bubble_most():
    # PP 4, 16 sequences over DP 4: m = 4, bubble 3/7 = 43%. Interleaved (m a multiple of 4; 20
    # layers a stage): v = 4, the fewest dividing 20 with 3/(4v+3) <= 1/4, bubble 3/19 = 16%;
    # PP 2 (DP 8): m = 2, 1/3 = 33%; the batch raised to m = 9 (36 sequences): 3/12 = 25%
    h, f = _bubble(8, 4, 4, 16)
    assert f.remedy.label == "Use the interleaved schedule with 4 virtual stages: pipeline bubble 43% to 16%"
    assert dict(f.remedy.figures) == {"pp_schedule": "interleaved", "virtual_stages": 4}
    h.apply(remedy_command(f.remedy))
    w = h.plan.settings.workload
    assert (w.pp_schedule, w.virtual_stages) == ("interleaved", 4)
    assert evaluate(h.plan, CATALOG).sections["workload"].pipeline_bubble == pytest.approx(3 / 19, abs=1e-4)
    h.undo()
    assert h.plan.settings.workload.pp_schedule == "1f1b"


def test_a_larger_batch_when_neither_interleaving_nor_a_lower_pp_can_split_it():
    # 20 sequences over DP 4: m = 5, bubble 3/8 = 38%; 5 is not a multiple of PP 4 (no
    # interleaving), 20 does not split over DP 8 (no PP 2); m = 9: 36 sequences, 25%
    h, f = _bubble(8, 4, 4, 20)
    assert f.remedy.label == "Raise the global batch to 36 sequences: pipeline bubble 38% to 25%"
    h.apply(remedy_command(f.remedy))
    assert h.plan.settings.workload.global_batch_tokens == 36 * 4096
    assert not [f for f in evaluate(h.plan, CATALOG).findings if f.code == "workload.pipeline.bubble"]


def test_a_lower_pp_when_it_removes_the_bubble_and_still_fits():
    # PP 2 x DP 8, 16 sequences: m = 2, bubble 1/3 = 33%. PP 1 (DP 16) has no bubble and fits
    # (with more sharding); interleaving gives 1/(2 x 2 + 1) = 20%
    h, f = _bubble(8, 2, 8, 16)
    assert f.remedy.label == "Lower PP to 1 (DP 16): pipeline bubble 33% to 0%"
    h.apply(remedy_command(f.remedy))
    w = h.plan.settings.workload
    assert (w.tp, w.pp, w.dp) == (8, 1, 16)
    report = evaluate(h.plan, CATALOG)
    assert not [f for f in report.findings if f.code in ("workload.pipeline.bubble", "workload.memory.does_not_fit")]


def test_a_remedy_that_does_not_fit_memory_is_not_offered():
    # The first case on GPUs of 15.3 GB: interleaving holds more activations (1 + (p-1)/(p v) of
    # the 1F1B stage's) and does not fit there, the job as it is does (ZeRO-3, full recompute:
    # 16 B x 70B / 128 = 8.75 GB of states, and two gathered layers' weights and one layer's
    # gradients, 3 x 2 B x 70B / (TP 8 x 80 layers) = 0.66 GB); so the batch (25%) wins over
    # PP 2 (33%)
    h, _ = _bubble(8, 4, 4, 16)
    w, fabric = h.plan.settings.workload, h.plan.settings.fabric
    model = model_shape(w)
    interleaved = w.model_copy(update={"pp_schedule": "interleaved", "virtual_stages": 4})
    assert fit_training(interleaved, model, available_gb=15.3).fits is False
    assert fit_training(w, model, available_gb=15.3).fits is True
    shape = job_shape(summarise_nodes(gpu_counts(h.plan, CATALOG), CATALOG), fabric)
    remedy = bubble_remedy(w, fabric, shape, model, 3 / 7, available_gb=15.3)
    assert remedy.label == "Raise the global batch to 36 sequences: pipeline bubble 43% to 25%"
