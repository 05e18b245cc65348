"""The generated settings panels for Fabric, Workload, Storage and Costs in the real window:
every field type edits, a bad value is refused with a message (model unchanged), a good
value changes the summary or the checks through one undoable command.

Hand figures for the ``medium`` template (the guide's 70B case: 128 H100, TP 8 PP 4 DP 4,
NDR400 rail-optimised with SHARP, 7 racks, 7 parallel-filesystem appliances):
- tokens/s limit = GPUs x peak / FLOPs per token = 128 x 989e12 / (6 x 70e9 + 12 x 80 x 4096 x 8192)
  = 279,939.3 (H100 SXM dense BF16 989 TFLOPS; attention FLOPs per PaLM appendix B);
- capex holds 7 rack enclosures at $2,500: raising the price to $12,500 adds 7 x 10,000 = $70,000;
- checkpoint write per node: 7 appliances x 25 GB/s = 175 GB/s shared by 16 nodes = 10.9 GB/s,
  above the 10 GB/s minimum; one node alone min(2 x 400G = 100, 175) = 100 GB/s.
"""

import typing

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit

from ui import fmt
from ui.binding import FieldEditor, describe_annotation


def enter(editor, text):
    editor.widget.setText(text)
    editor.widget.editingFinished.emit()


def choose(editor, value):
    editor.widget.setCurrentIndex(editor.widget.findData(value))


def section(window, name):
    return window.doc.report.sections[name].to_json()


def allreduce_tip(window) -> str:
    """The summary's word on the all-reduce: in the tooltip of GPU idle's cause."""
    return window.summary.figures["idle_cause"].toolTip()


def refused(window, form, editor, text, reason, field, before):
    steps = window.doc.undo_stack.count()
    enter(editor, text)
    assert getattr(getattr(window.doc.plan.settings, form.section), field) == before
    assert not form.message.isHidden() and reason in form.message.text(), form.message.text()
    assert window.doc.undo_stack.count() == steps


def test_every_section_has_its_tab_with_units_and_sources(window):
    panel = window.settings_panel
    assert [panel.tabText(i) for i in range(panel.count())] == ["Facility", "Power", "Floor", "Fabric", "Workload", "Storage", "Costs",
                                                                   "Reliability", "Schedule"]
    forms = panel.forms
    label = forms["costs"].labels["rack_usd"]
    assert label.text() == "Rack enclosure ($)"
    assert "Source of the default" in forms["fabric"].editors["sharp"].widget.toolTip()
    assert "989" not in forms["workload"].editors["mfu"].widget.toolTip()  # tooltips name sources, not figures
    assert "Narayanan et al." in forms["workload"].editors["mfu"].widget.toolTip()
    kinds = {(s, n): type(e.widget) for s, f in forms.items() for n, e in f.editors.items()}
    assert issubclass(kinds[("fabric", "technology")], QComboBox) and issubclass(kinds[("costs", "opex_mode")], QComboBox)
    assert kinds[("costs", "node_leaf_dac")] is QCheckBox and kinds[("storage", "separate_checkpoint_pool")] is QCheckBox
    assert kinds[("workload", "claimed_tokens_per_s")] is QLineEdit and kinds[("costs", "horizon_months")] is QLineEdit


def test_fabric_technology_changes_the_all_reduce_to_what_the_comparison_predicted(window):
    form = window.settings_panel.forms["fabric"]
    predicted = next(f for f in section(window, "network")["fabrics"] if f["fabric"] == "eth100_tcp")
    assert "all-reduce takes 93.1 ms" in allreduce_tip(window)  # 4.375 GB / 47 GB/s (measured NDR) + 10 us
    choose(form.editors["technology"], "eth100_tcp")
    assert window.doc.plan.settings.fabric.technology == "eth100_tcp"
    # the plan on 100GbE TCP is the comparison's 100GbE row: same workload, same bytes, that fabric
    assert f"all-reduce takes {predicted['allreduce_ms']:,.1f} ms" in allreduce_tip(window)
    assert predicted["allreduce_ms"] > 5 * 93.1  # the guide's table: TCP is many times slower than NDR
    assert window.undo_action.text() == "&Undo Set Compute fabric technology"
    window.undo_action.trigger()
    assert form.editors["technology"].widget.currentData() == "ib400"
    assert "all-reduce takes 93.1 ms" in allreduce_tip(window)  # 4.375 GB / 47 GB/s (measured NDR) + 10 us


def test_fabric_bad_oversubscription_is_refused(window):
    form = window.settings_panel.forms["fabric"]
    refused(window, form, form.editors["oversubscription"], "0.5",
            "Leaf oversubscription (down:up) is at least 1.0: 1:1 is non-blocking", "oversubscription", 1.0)
    refused(window, form, form.editors["nics_per_gpu"], "one", "'one' is not a number", "nics_per_gpu", 1.0)


def test_workload_claim_above_the_limit_is_flagged_and_an_empty_field_means_none(window):
    form = window.settings_panel.forms["workload"]
    claim = form.editors["claimed_tokens_per_s"]
    assert claim.widget.text() == "" and claim.widget.placeholderText() == "none"  # empty: no claim to check
    # 128 x 989e12 / (6 x 70e9 + 12 x 80 x 4096 x 8192 FLOPs per token) = 279,939.3
    assert section(window, "network")["tokens_per_s_limit"] == pytest.approx(279_939.3, abs=0.1)
    enter(claim, "400 000")  # above 279,939: impossible (a space groups digits in every locale)
    assert window.doc.plan.settings.workload.claimed_tokens_per_s == 400_000.0
    warnings = window.checks.messages("warning")
    assert any("claimed 400,000 tokens/s is impossible" in m and "279,939" in m for m in warnings), warnings
    enter(claim, "")
    assert window.doc.plan.settings.workload.claimed_tokens_per_s is None
    assert not any("claimed" in m for m in window.checks.messages())
    window.undo_action.trigger()  # back to the claim
    assert window.doc.plan.settings.workload.claimed_tokens_per_s == 400_000.0
    assert claim.widget.text() == "400000"


def test_workload_bad_values_are_refused(window):
    form = window.settings_panel.forms["workload"]
    refused(window, form, form.editors["mfu"], "1.5", "Math kernel efficiency (fraction of peak while computing) is at most 1.0: a fraction runs from 0 to 1",
            "mfu", None)
    refused(window, form, form.editors["tp"], "2.5", "not a whole number", "tp", 8)
    refused(window, form, form.editors["claimed_tokens_per_s"], "inf", "not a finite number", "claimed_tokens_per_s",
            None)


def test_workload_model_size_changes_the_summary(window):
    form = window.settings_panel.forms["workload"]
    enter(form.editors["mfu"], "0.55")  # one kernel efficiency: compute follows the FLOPs
    compute_70b = section(window, "network")["compute_ms"]
    shown_70b = window.summary.text("tokens_per_s")
    tokens_70b = section(window, "network")["tokens_per_s"]
    enter(form.editors["model_params_b"], "35")
    net = section(window, "network")
    # compute per step = (6 x parameters + 12 x layers x seq x hidden) x tokens / (GPUs x peak x
    # efficiency): the attention term (32.2e9 FLOPs per token) stays when the parameters halve
    attention = 12 * 80 * 4096 * 8192
    assert net["compute_ms"] == pytest.approx(compute_70b * (6 * 35e9 + attention) / (6 * 70e9 + attention),
                                              rel=1e-6)
    assert window.summary.text("tokens_per_s") == fmt.count(round(net["tokens_per_s"]))
    assert net["tokens_per_s"] > tokens_70b
    window.undo_action.trigger()
    assert window.summary.text("tokens_per_s") == shown_70b


def test_storage_threshold_raises_a_warning_and_undo_clears_it(window):
    form = window.settings_panel.forms["storage"]
    assert section(window, "storage")["write_gbs_per_node"] == 100.0
    before = window.checks_dock.windowTitle()
    enter(form.editors["min_write_gbs_per_node"], "60")  # 10.9 GB/s per node all writing is now below it
    assert any("60" in m and "GB/s" in m for m in window.checks.messages("warning")), window.checks.messages()
    assert window.checks_dock.windowTitle() != before
    window.undo_action.trigger()
    assert window.checks_dock.windowTitle() == before
    refused(window, form, form.editors["max_stall_pct"], "-5",
            "Checkpoint stall limit is more than 0 % of interval: zero would leave nothing to size", "max_stall_pct", 5.0)
    enter(form.editors["checkpoint_bytes_per_param"], "16")
    # 70e9 parameters x 16 bytes = 1,120 GB; at 175 GB/s it writes in 6.4 s
    assert section(window, "storage")["checkpoint_gb"] == pytest.approx(1120.0)
    assert section(window, "storage")["checkpoint_write_s"] == pytest.approx(6.4)


def test_costs_rack_price_changes_capex_and_bad_values_are_refused(window):
    form = window.settings_panel.forms["costs"]
    capex = section(window, "cost")["capex_usd"]
    assert window.summary.text("capex") == "$7.73M"  # 7,728,545.16 (tests/planner/test_check_text.py)
    enter(form.editors["rack_usd"], "12500")
    assert section(window, "cost")["capex_usd"] == pytest.approx(capex + 70_000)  # 7 racks x $10,000 more
    assert window.summary.text("capex") == "$7.80M"  # 7,728,545.16 + 70,000 = 7,798,545.16
    assert window.undo_action.text() == "&Undo Set Rack enclosure"
    window.undo_action.trigger()
    assert window.summary.text("capex") == "$7.73M"
    refused(window, form, form.editors["utilisation"], "1.5", "Utilisation is at most 1.0: a fraction runs from 0 to 1", "utilisation", 1.0)
    refused(window, form, form.editors["horizon_months"], "2.5", "not a whole number", "horizon_months", 36)
    choose(form.editors["opex_mode"], "owned")
    assert window.doc.plan.settings.costs.opex_mode == "owned"
    form.editors["node_leaf_dac"].widget.setChecked(True)
    assert window.doc.plan.settings.costs.node_leaf_dac is True


@pytest.mark.parametrize("annotation, value, shown", [
    (dict[str, float], {"spot": 2.1}, '{"spot": 2.1}'),
    (typing.Union[int, str], 3, "3"),
    (list[int], [1, 2], "[1, 2]"),
])
def test_unusual_field_types_are_shown_read_only_without_crashing(qtbot, annotation, value, shown):
    kind, choices, optional = describe_annotation(annotation)
    assert kind == "other"
    errors = []
    editor = FieldEditor(kind, choices, optional, "Odd", commit=lambda v: None, on_error=errors.append)
    qtbot.addWidget(editor.widget)
    editor.show(value)
    assert isinstance(editor.widget, QLabel) and editor.widget.text() == shown and not errors


def test_optional_choice_shows_none_without_crashing(qtbot):
    kind, choices, optional = describe_annotation(typing.Optional[typing.Literal["a", "b"]])
    assert (kind, choices, optional) == ("choice", ("a", "b"), True)
    editor = FieldEditor(kind, choices, optional, "Odd", commit=lambda v: None, on_error=lambda m: None)
    qtbot.addWidget(editor.widget)
    editor.show(None)
    assert editor.widget.currentData() is None


def test_a_label_does_not_repeat_a_counting_unit_its_title_says():
    from ui.binding import field_label

    assert field_label("Transformer layers", "layers") == "Transformer layers"
    assert field_label("Attention heads", "heads") == "Attention heads"
    assert field_label("Rack power cap", "kW") == "Rack power cap (kW)"  # a unit the title does not say
    assert field_label("Sequence length", "tokens") == "Sequence length (tokens)"
    assert field_label("Hidden size", "values") == "Hidden size"  # the tooltip says "in values"
    assert field_label("Expert capacity factor (MoE)", "x") == "Expert capacity factor (MoE)"
