"""The report's sections are frozen typed models; their fields carry the titles and units every
surface shows, and ``check --json`` is written from them."""

from __future__ import annotations

import dataclasses

import pytest

from planner.costs.section import CostSection
from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.commands import RemoveDevices
from planner.report import labels
from planner.report.evaluate import Evaluator, evaluate
from planner.report.network_section import FabricRow, NetworkSection
from planner.storage.section import StorageSection

CAT = default_catalog()


def test_sections_are_typed_and_their_json_has_one_key_per_figure():
    report = evaluate(build_template("medium", catalog=CAT), CAT)
    for section, model in ((report.network, NetworkSection), (report.storage, StorageSection),
                           (report.cost, CostSection)):
        assert type(section) is model
        assert list(section.to_json()) == model.figure_names()
        for meta, _ in section.figures():
            assert meta.title and meta.title != meta.name
    # the figures are worked out in test_template_figures; here the attributes and the JSON agree
    assert report.to_json()["network"]["leaf_switches"] == report.network.leaf_switches
    assert all(isinstance(r, FabricRow) for r in report.network.fabrics)


def test_sections_and_totals_cannot_be_changed_by_a_reader():
    report = evaluate(build_template("medium", catalog=CAT), CAT)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.network.leaf_switches = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.totals.cdus = 0


def test_labels_come_from_the_models_metadata():
    assert labels.label("storage", "checkpoint_gb") == StorageSection.meta("checkpoint_gb").title
    assert labels.unit("network", "allreduce_ms") == NetworkSection.meta("allreduce_ms").unit == "ms"
    assert labels.describe("cost", "break_even_months", {"spot": None})[1] == "spot not within the horizon"
    assert labels.column("fabrics", "allreduce_ms") == "All-reduce (ms)"


def test_cdus_short_is_a_flag_of_the_totals():
    plan = build_template("medium", catalog=CAT)
    ev = Evaluator(plan, CAT)
    # medium: 16 liquid-cooled nodes at one CDU per 8 nodes need 2 CDUs; the template places 2
    assert (ev.evaluate().totals.cdus, ev.evaluate().totals.cdus_placed, ev.report.totals.cdus_short) == (2, 2, False)
    cdu = next(p for p in plan.placements if CAT.get(p.device).category == "cdu")
    changes = RemoveDevices([cdu.id]).do(plan, CAT)
    totals = ev.evaluate(changes).totals
    assert (totals.cdus, totals.cdus_placed, totals.cdus_short) == (2, 1, True)
    assert any(f.code == "cooling.cdu.short" for f in ev.report.findings)


def test_the_fabric_is_sized_once_per_evaluation(monkeypatch):
    import planner.costs.section as cost_module
    import planner.report.network_section as network_module

    calls = []
    real = network_module.plan_fabric

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    plan = build_template("medium", catalog=CAT)  # the design evaluates what it makes: counted from here
    monkeypatch.setattr(network_module, "plan_fabric", counting)
    monkeypatch.setattr(cost_module, "plan_fabric", counting)
    evaluate(plan, CAT)
    assert len(calls) == 1
