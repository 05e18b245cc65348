"""Views update what they show instead of rebuilding it: the inspector keeps its editors
through an edit, the checks list keeps the rows of findings that stay, and the document
pushes the undo step before it tells the views."""

from hypothesis import given, settings, strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from planner.plan.commands import EditRack, RenamePlan
from tests.ui.conftest import rack_named


def test_three_up_presses_in_lowest_u_move_the_device_three_units_in_one_undo_step(window, qtbot):
    doc, view = window.doc, window.view
    stor = rack_named(doc.plan, "STOR-01")
    pfs = next(p for p in doc.plan.rack_members(stor.id).values() if p.u == 13)  # the top appliance: room above
    view.select(pfs.id)
    editor = window.inspector.fields["u"]
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    steps = doc.undo_stack.count()
    for _ in range(3):
        qtbot.keyClick(editor, Qt.Key.Key_Up)
    assert doc.plan.placement(pfs.id).u == 13 + 3
    assert window.inspector.fields["u"] is editor and editor.value() == 16
    assert QApplication.focusWidget() is editor
    assert doc.undo_stack.count() == steps + 1
    doc.undo_stack.undo()
    assert doc.plan.placement(pfs.id).u == 13
    assert editor.value() == 13  # the same editor follows the undo


def test_the_inspector_keeps_its_rows_for_edits_elsewhere(window):
    doc, view = window.doc, window.view
    gpu1 = rack_named(doc.plan, "GPU-01")
    view.select(gpu1.id)
    power = window.inspector.fields["power"]
    before = power.text()
    doc.apply(RenamePlan("renamed"))
    assert window.inspector.fields["power"] is power and power.text() == before
    doc.apply(EditRack(gpu1.id, power_cap_kw=50))
    assert window.inspector.fields["power"] is power and power.text().endswith("of 50 kW cap")


def test_the_checks_list_keeps_the_rows_of_findings_that_stay(window):
    doc, checks = window.doc, window.checks
    gpu1 = rack_named(doc.plan, "GPU-01")
    rows_before = {checks.item(i).text(): checks.item(i) for i in range(checks.count())}
    # medium: GPU-01..04 each warn that nameplate exceeds the 30 kW cap; select GPU-02's warning
    kept = next(checks.item(i) for i in range(checks.count()) if "GPU-02" in checks.item(i).text())
    checks.setCurrentItem(kept)
    checks.verticalScrollBar().setValue(checks.verticalScrollBar().maximum())
    scroll = checks.verticalScrollBar().value()
    doc.apply(EditRack(gpu1.id, power_cap_kw=10))  # GPU-01 over its cap: its warning becomes an error
    assert any("GPU-01" in m for m in checks.messages("error"))
    assert checks.currentItem() is kept and kept.isSelected()
    assert checks.verticalScrollBar().value() == scroll
    same = [checks.item(i) for i in range(checks.count()) if checks.item(i).text() in rows_before]
    assert same and all(item is rows_before[item.text()] for item in same)


def test_the_document_pushes_the_undo_step_before_it_tells_the_views(window):
    doc = window.doc
    seen = []
    doc.changed.connect(lambda changes, report: seen.append((doc.undo_stack.count(), doc.undo_stack.undoText())))
    steps = doc.undo_stack.count()
    doc.apply(RenamePlan("another name"))
    assert seen == [(steps + 1, doc.undo_stack.undoText())] and seen[0][1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=40), st.lists(st.integers(0, 40), max_size=40))
def test_the_checks_list_diff_keeps_a_longest_common_run_and_rebuilds_the_new_list(old, new):
    from ui.checks_panel import kept_rows

    kept = kept_rows(old, new)
    assert all(old[i] == new[j] for i, j in kept)
    assert [i for i, _ in kept] == sorted({i for i, _ in kept}) and [j for _, j in kept] == sorted({j for _, j in kept})
    rows = [x for i, x in enumerate(old) if i in {i for i, _ in kept}]  # what the panel does: remove, then insert
    for j, x in enumerate(new):
        if j not in {j for _, j in kept}:
            rows.insert(j, x)
    assert rows == new
    # as many rows kept as the longest common subsequence (worked out by dynamic programming here)
    lcs = [[0] * (len(new) + 1) for _ in range(len(old) + 1)]
    for a in range(len(old) - 1, -1, -1):
        for b in range(len(new) - 1, -1, -1):
            lcs[a][b] = lcs[a + 1][b + 1] + 1 if old[a] == new[b] else max(lcs[a + 1][b], lcs[a][b + 1])
    if len(set(old)) == len(old) and len(set(new)) == len(new):  # unique rows, as findings (they name their rack)
        assert len(kept) == lcs[0][0]
