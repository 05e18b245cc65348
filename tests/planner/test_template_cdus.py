"""CDUs stand in liquid-cooled racks: in the GPU racks they serve when power and space
allow on both bases, else a liquid-cooled row-end CDU rack; never in the air-cooled NET rack."""

from __future__ import annotations

import pytest

from planner.hardware.catalog import default_catalog
from planner.report.evaluate import evaluate
from planner.design.templates import build_template

CAT = default_catalog()


def cdu_racks(plan):
    return {plan.rack(p.rack).name: plan.rack(p.rack).cooling for p in plan.placements
            if CAT[p.device].category == "cdu"}


@pytest.mark.parametrize("name, cdus", [("medium", 2), ("massive", 3)])
def test_typical_basis_cdus_in_a_liquid_cooled_row_end_rack(name, cdus):
    # CDUs by capacity on design heat, N+1: medium 16 x 10.2 kW x 0.8 to liquid = 130.56 kW
    # -> one 250 kW CDU + 1 = 2; massive 48 x 10.2 x 0.8 = 391.68 kW -> 2 + 1 = 3.
    # GPU racks hold 4 nodes: 28 kW typical (+1.5 kW CDU would fit) but 40.8 kW nameplate,
    # already over the 30 kW cap: no CDU joins them. The CDUs (4U, 1.5 kW typical each)
    # go to CDU-01: medium 2 x 4U = 8U, 3 kW; massive 3 x 4U = 12U, 4.5 kW.
    plan = build_template(name)
    assert cdu_racks(plan) == {"CDU-01": "liquid"}
    report = evaluate(plan, CAT)
    cdu = next(r for r in report.racks if r.name == "CDU-01")
    assert (cdu.used_u, cdu.power_kw) == (4 * cdus, pytest.approx(1.5 * cdus))
    gpu = [r for r in report.racks if r.nodes]
    assert all(r.power_kw == pytest.approx(28.0) for r in gpu)  # the guide's 4 x 7 kW
    assert report.totals.cdus == report.totals.cdus_placed == cdus
    assert not report.has_errors


def test_nameplate_basis_cdus_join_the_gpu_racks_they_serve():
    # 2 nodes per rack = 20.4 kW nameplate; + one CDU 3 kW = 23.4 <= 30, 16 + 4 = 20U <= 42:
    # each of the first two GPU racks takes one CDU; no CDU rack.
    plan = build_template("medium", power_basis="nameplate")
    racks = cdu_racks(plan)
    assert racks == {"GPU-01": "liquid", "GPU-02": "liquid"}
    assert not any(r.name.startswith("CDU") for r in plan.racks)


def test_frontier_cdus_join_its_gpu_racks_and_switch_racks_stay_air_cooled():
    # frontier-100k: liquid GPU racks capped at 69 kW on the nameplate basis. Resized to 100
    # nodes: 6 nodes a rack (6 x 10.2 = 61.2 kW; 7 would be 71.4), 17 GPU racks. CDUs by
    # capacity on the design heat, N+1: 100 x 10.2 kW x 0.8 = 816 kW / 250 = 3.3 -> 4, + 1 = 5;
    # a GPU rack takes one (61.2 + 3.0 = 64.2 kW <= 69, 24U + 4U <= 42U), so GPU-01..05 hold them.
    # The switches are air-cooled, so the NET racks are air-cooled (a liquid-cooled rack
    # of switches would put all its heat into the air and warn about it).
    plan = build_template("frontier-100k", nodes=100)
    assert cdu_racks(plan) == {f"GPU-{i:02d}": "liquid" for i in range(1, 6)}
    assert {r.cooling for r in plan.racks if r.name.startswith("NET")} == {"air"}
    report = evaluate(plan, CAT)
    assert report.totals.cdus_placed == 5
    assert not [f for f in report.findings if f.code == "rack.cooling.air_remainder"]
