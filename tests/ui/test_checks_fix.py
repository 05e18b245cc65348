"""Fix from the checks list: a finding's remedy as one undo step named after what it did,
and Fix all (the medium template: 10 QM9700 for 8 leaf + 2 spine; TP 8 x PP 4 x DP 4)."""

from PySide6.QtCore import Qt

from planner.findings import Remedy
from planner.plan.commands import RemoveDevices, SetSetting
from planner.remedies.commands import REMEDY_KINDS, SetWorkload
from ui.checks_panel import CODE_ROLE, FINDING_ROLE


def _row(checks, code):
    model = checks.model()
    return next(model.index(i) for i in range(model.rowCount()) if model.index(i).data(CODE_ROLE) == code)


def _actions(menu):
    return {a.text(): a for a in menu.actions()}


def _switches(doc):
    return sum(1 for p in doc.plan.placements if p.device == "qm9700")


def test_fix_from_the_context_menu_adds_the_switches_and_undo_takes_them_away(window):
    doc = window.doc
    doc.apply(RemoveDevices([p.id for p in doc.plan.placements if p.device == "qm9700"][:2]))
    assert _switches(doc) == 8
    label = "Fix: Add 2 x Quantum-2 QM9700 (64 x NDR 400G) to the network racks"
    actions = _actions(window.checks.context_menu(_row(window.checks, "network.ports.short")))
    assert "Fix all (1 with a remedy)" in actions
    actions[label].trigger()
    assert _switches(doc) == 10
    assert not [m for m in window.checks.messages("error") if "ports missing" in m]
    assert doc.undo_stack.undoText() == "Add 2 x Quantum-2 QM9700 (64 x NDR 400G) to the network racks"
    # the status bar says what the fix did
    assert window.statusBar().currentMessage() == "Fixed: Add 2 x Quantum-2 QM9700 (64 x NDR 400G) to the network racks"
    doc.undo_stack.undo()
    assert _switches(doc) == 8
    assert [m for m in window.checks.messages("error") if "128 ports missing (2 switches)" in m]


def test_a_finding_without_remedy_says_it_has_no_automatic_fix(window):
    checks = window.checks
    row = _row(checks, "rack.power.nameplate_over_cap")
    menu = checks.context_menu(row)
    reason = "No automatic fix: whether the circuits carry the nameplate is the facility's call"
    assert [a.text() for a in menu.actions()] == [reason, "What this check means (rack.power.nameplate_over_cap)"]
    assert not menu.actions()[0].isEnabled()
    checks.setCurrentIndex(row)
    assert not checks.fix_button.isEnabled() and checks.fix_button.toolTip() == reason
    assert reason in row.data(Qt.ItemDataRole.ToolTipRole)


def test_fix_all_is_one_undo_step_per_fix(window):
    doc = window.doc
    doc.apply(RemoveDevices([p.id for p in doc.plan.placements if p.device == "qm9700"][:2]))
    doc.apply(SetSetting("workload", "dp", 8))  # 8 x 4 x 8 = 256 GPUs on 128
    steps = doc.undo_stack.count()
    assert window.checks.fix_all() == 2
    assert doc.undo_stack.count() == steps + 2
    assert window.statusBar().currentMessage().startswith("Fixed 2 findings, the first: ")
    w = doc.plan.settings.workload
    assert w.tp * w.pp * w.dp == 128 and _switches(doc) == 10
    assert window.checks.messages("error") == []
    doc.undo_stack.undo()
    assert doc.plan.settings.workload.dp == 8 and _switches(doc) == 10


def test_the_fix_button_fixes_the_selected_finding(window, qtbot):
    doc, checks = window.doc, window.checks
    assert not checks.fix_all_button.isEnabled()  # the medium template has nothing to fix
    doc.apply(SetSetting("workload", "global_batch_tokens", 1021 * 4096))  # DP 4: 1,020 is nearest
    assert checks.fix_all_button.text() == "Fix all (1)"
    checks.setCurrentIndex(_row(checks, "rack.power.nameplate_over_cap"))
    assert not checks.fix_button.isEnabled()
    checks.setCurrentIndex(_row(checks, "workload.batch.uneven"))
    assert checks.fix_button.isEnabled()
    qtbot.mouseClick(checks.fix_button, Qt.MouseButton.LeftButton)
    assert doc.plan.settings.workload.global_batch_tokens == 1020 * 4096
    assert doc.undo_stack.undoText() == "Set the global batch to 1,020 sequences"
    assert checks.fix_all_button.text() == "Fix all"


class _Unrelated(SetWorkload):
    """A batch remedy that sets something else: the uneven batch stays."""

    def __init__(self, remedy):
        super().__init__(Remedy("set_workload", remedy.label, (("recompute", "full"),)))


def test_a_fix_that_leaves_its_finding_is_taken_back_and_said(window, monkeypatch):
    doc, checks = window.doc, window.checks
    doc.apply(SetSetting("workload", "global_batch_tokens", 1021 * 4096))  # DP 4: 1,021 sequences are uneven
    before = doc.plan_json()
    monkeypatch.setitem(REMEDY_KINDS, "set_batch", _Unrelated)
    assert checks.fix(_row(checks, "workload.batch.uneven").data(FINDING_ROLE)) is False
    assert doc.plan_json() == before
    assert doc.undo_stack.undoText() != "Set the global batch to 1,020 sequences"
    message = window.statusBar().currentMessage()
    assert "not applied, it does not mend workload.batch.uneven" in message
