"""The recompute ladder's first fitting rung, found as a linear walk would find it."""

from __future__ import annotations

from planner.workload.fit import first_fitting


def test_the_first_fitting_rung_is_the_linear_walks_in_few_probes():
    # none, selective, then full recompute of k = 1 .. 99,999 layers a stage, then every layer:
    # memory falls as k grows; here k >= 70,000 fits. A walk rung by rung would probe 70,002
    # rungs; the run of full-k rungs is bisected: at most 2 + 17 probes, the same answer.
    rungs = [("none", None), ("selective", None)] + [("full", k) for k in range(1, 100_000)] + [("full", None)]
    probed = []

    def fits(i):
        probed.append(i)
        return rungs[i][0] == "full" and (rungs[i][1] is None or rungs[i][1] >= 70_000)

    assert rungs[first_fitting(rungs, fits)] == ("full", 70_000)
    assert len(probed) <= 2 + 17
    # nothing partial fits: the whole-stage rung after the run; nothing at all: None
    assert first_fitting(rungs, lambda i: rungs[i] == ("full", None)) == len(rungs) - 1
    assert first_fitting(rungs, lambda i: False) is None
    # selective fits: found before any full rung is probed
    probed.clear()
    assert first_fitting(rungs, lambda i: probed.append(i) or i >= 1) == 1 and probed == [0, 1]
