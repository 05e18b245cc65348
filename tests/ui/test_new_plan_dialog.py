"""File > New plan…: an intent's fields with a live preview, templates as starting points."""

from __future__ import annotations

from planner.hardware.catalog import default_catalog
from ui.new_plan_dialog import NewPlanDialog

CAT = default_catalog()


def choose(dialog, system, gpus, rack_kw):
    dialog.system.setCurrentIndex(dialog.system.findData(system))
    dialog.gpus.setValue(gpus)
    dialog.rack_kw.setValue(rack_kw)


def test_the_b200_intent_previews_its_totals_and_designs_without_errors(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "dgx-b200", 1024, 40)
    dialog.fabric.setCurrentIndex(dialog.fabric.findData("ib400"))
    dialog.model.setCurrentIndex(dialog.model.findData("llama3-70b"))
    dialog.refresh()  # the timer's work, now
    # 1,024 / 8 = 128 DGX B200; 4 a rack at 40 kW typical -> 32 GPU racks (+ network, storage, CDU).
    text = dialog.preview.text()
    assert text.startswith("1,024 GPUs in 128 nodes, ")
    assert "0 errors" in text and "tokens/s" in text
    plan = dialog.design.plan
    assert sum(1 for p in plan.placements if p.device == "dgx-b200") == 128


def test_a_template_fills_the_fields_and_a_changed_field_overrides_it(qtbot):
    dialog = NewPlanDialog(CAT, template="medium")
    qtbot.addWidget(dialog)
    # medium: 16 nodes x 8 H100 = 128 GPUs on NDR400.
    assert dialog.gpus.value() == 128 and dialog.fabric.currentData() == "ib400"
    assert dialog.preview.text().startswith("128 GPUs in 16 nodes")
    dialog.gpus.setValue(256)
    dialog.refresh()
    assert dialog.changes() == {"gpus": 256}
    assert dialog.preview.text().startswith("256 GPUs in 32 nodes")


def test_fields_that_cannot_hold_say_why_and_disable_create(qtbot):
    dialog = NewPlanDialog(CAT, template="")
    qtbot.addWidget(dialog)
    choose(dialog, "gb200-nvl72", 72, 5)
    dialog.refresh()
    # A rack-scale system is its own rack type: the 5 kW cap does not apply to it, so it holds.
    assert dialog.preview.text().startswith("72 GPUs in 1 nodes")
    dialog.system.setCurrentIndex(dialog.system.findData("dgx-b200"))
    dialog.refresh()
    # One 10 kW DGX B200 cannot go into a 5 kW rack: the intent's rack cap is named.
    assert dialog.design is None and dialog.preview.text().startswith("rack_kw")
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
