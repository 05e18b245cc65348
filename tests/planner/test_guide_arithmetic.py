"""The planning guide's power arithmetic, worked by hand:

16 nodes x 7 kW = 112 kW; a 30 kW rack holds floor(30 / 7) = 4 nodes -> 16 / 4 = 4 racks;
one CDU per 8 liquid-cooled nodes -> 16 / 8 = 2 CDUs. 48 nodes -> 336 kW, 12 racks, 6 CDUs.
On the nameplate basis a node draws 10.2 kW: floor(30 / 10.2) = 2 nodes per rack.
"""

import pytest

from planner.report.evaluate import evaluate
from planner.design.templates import build_template
from tests.planner.template_cases import everyday_templates

GUIDE_CDUS = {"facility": {"cdu_policy": "per_nodes"}}  # the guide's rule, selectable


def gpu_racks(report):
    return [r for r in report.racks if r.nodes]


@pytest.mark.parametrize("name, nodes, kw, racks, cdus", [("medium", 16, 112.0, 4, 2), ("massive", 48, 336.0, 12, 6)])
def test_typical_basis_matches_the_guide(catalog, name, nodes, kw, racks, cdus):
    report = evaluate(build_template(name, power_basis="typical", catalog=catalog, settings=GUIDE_CDUS), catalog)
    t = report.totals
    assert t.nodes == nodes
    assert t.gpus == nodes * 8
    assert sum(r.power_kw for r in gpu_racks(report)) == pytest.approx(kw)
    assert len(gpu_racks(report)) == racks == t.gpu_racks
    assert all(r.nodes == 4 for r in gpu_racks(report))
    assert t.cdus == cdus and t.cdus_placed == cdus
    # the guide's layout holds only at typical draw: each GPU rack's nameplate, 4 x 10.2 = 40.8 kW,
    # is above its 30 kW cap, and the planner says so for every GPU rack (and warns of nothing else)
    warnings = [f for f in report.findings if f.severity != "info"]
    assert {f.code for f in warnings} == {"rack.power.nameplate_over_cap"}
    assert {r.id for r in gpu_racks(report)} <= {f.where for f in warnings}
    assert "40.8 kW" in warnings[0].message


@pytest.mark.parametrize("name, nodes", [("medium", 16), ("massive", 48)])
def test_nameplate_basis_fits_two_nodes_per_rack(catalog, name, nodes):
    report = evaluate(build_template(name, power_basis="nameplate", catalog=catalog, settings=GUIDE_CDUS), catalog)
    racks = gpu_racks(report)
    assert len(racks) == nodes // 2
    # 2 x 10.2 = 20.4 kW of nodes per rack; with room on both bases (20.4 + 3 kW nameplate
    # = 23.4 <= 30 kW, 16 + 4 U <= 42) the liquid-cooled GPU racks also hold the CDUs that
    # serve them (medium 2, massive 6), one in each of the first racks.
    cdus = 2 if name == "medium" else 6
    assert all(r.nodes == 2 for r in racks)
    assert sorted(round(r.power_kw, 1) for r in racks) == [20.4] * (len(racks) - cdus) + [23.4] * cdus
    assert not report.has_errors


def test_facility_power_is_it_power_times_pue(catalog, medium):
    report = evaluate(medium, catalog)
    t = report.totals
    assert t.facility_power_kw == pytest.approx(t.it_power_kw * medium.settings.facility.pue)


def test_every_template_builds_without_errors(catalog):
    from planner.design.templates import template_names

    assert {"single-node", "medium", "massive", "inference"} <= set(template_names())
    for name in everyday_templates():
        report = evaluate(build_template(name, catalog=catalog), catalog)
        assert report.totals.nodes >= 1
        assert not [f for f in report.findings if f.severity == "error" and not f.code.startswith("workload.")], name
