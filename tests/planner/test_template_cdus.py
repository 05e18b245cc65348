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


def test_liquid_cooled_infra_racks_keep_their_cdus():
    # frontier-100k declares liquid-cooled NET racks (69 kW): the CDUs stay there. Sized
    # by capacity on the design heat to liquid, N+1. Resized to 100 nodes here:
    # 100 x 10.2 kW x 0.8 = 816 kW / 250 = 3.3 -> 4, + 1 spare = 5 CDUs.
    plan = build_template("frontier-100k", nodes=100)
    racks = cdu_racks(plan)
    assert racks and all(name.startswith("NET") and cooling == "liquid" for name, cooling in racks.items())
    assert evaluate(plan, CAT).totals.cdus_placed == 5
