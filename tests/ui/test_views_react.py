"""Views update what they show instead of rebuilding it: the inspector keeps its editors
through an edit, the checks list keeps the rows of findings that stay (their selection and
the scroll position), and the document pushes the undo step before it tells the views."""

from hypothesis import given, settings, strategies as st
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, Qt
from PySide6.QtWidgets import QApplication

from planner.plan.commands import AddRack, EditRack, RenamePlan, SetSetting
from planner.findings import Finding
from planner.report.finding_groups import group_findings
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


def _rows(checks) -> dict[str, QPersistentModelIndex]:
    model = checks.model()
    return {model.index(i).data(): QPersistentModelIndex(model.index(i)) for i in range(model.rowCount())}


def test_the_checks_list_keeps_the_rows_of_findings_that_stay(window):
    doc, checks = window.doc, window.checks
    gpu1 = rack_named(doc.plan, "GPU-01")
    checks.resize(checks.width(), 60)  # a short list, so that it scrolls
    rows_before = _rows(checks)
    # medium: GPU-01..04 each warn that nameplate exceeds the 30 kW cap (one row of 4 racks),
    # and the workload's archetype is a note; select the note
    kept = next(row for text, row in rows_before.items() if "Type 2" in text)
    checks.setCurrentIndex(QModelIndex(kept))
    checks.verticalScrollBar().setValue(checks.verticalScrollBar().maximum())
    scroll = checks.verticalScrollBar().value()
    doc.apply(EditRack(gpu1.id, power_cap_kw=10))  # GPU-01 over its cap: its warning becomes an error
    assert any("GPU-01" in m for m in checks.messages("error"))
    assert any(m.startswith("3 racks fit their power cap") for m in checks.messages("warning"))
    assert checks.currentIndex().row() == kept.row() and checks.selectionModel().isSelected(QModelIndex(kept))
    assert checks.verticalScrollBar().value() == scroll
    # a row removed (or the list rebuilt) would have invalidated its persistent index
    same = {text: row for text, row in rows_before.items() if text in checks.messages()}
    assert same and all(row.isValid() and row.data() == text for text, row in same.items())
    gone = [row for text, row in rows_before.items() if text not in checks.messages()]
    assert gone and not any(row.isValid() for row in gone)  # the row of 4 racks went


def test_the_selected_finding_stays_selected_through_a_setting_and_a_new_rack(window):
    """Edits the change set does not place in racks (a facility setting re-evaluates every
    rack; a new rack changes the rack order) keep the rows of the findings that stay too."""
    doc, checks = window.doc, window.checks
    kept = next(row for text, row in _rows(checks).items() if text.startswith("4 racks"))
    checks.setCurrentIndex(QModelIndex(kept))
    for command in (SetSetting("facility", "pue", 1.4), AddRack()):  # neither touches the nameplate warnings
        assert doc.apply(command)
        assert kept.isValid() and kept.data().startswith("4 racks")
        assert checks.currentIndex().row() == kept.row() and checks.selectionModel().isSelected(QModelIndex(kept))


def test_the_checks_list_is_walked_with_the_arrow_keys_and_enter_selects_the_rack(window, qtbot):
    doc, checks = window.doc, window.checks
    gpu1 = rack_named(doc.plan, "GPU-01")
    doc.apply(EditRack(gpu1.id, power_cap_kw=10))  # GPU-01 over its cap: an error of its own, the first row
    rows = list(_rows(checks).values())
    checks.setFocus()
    checks.setCurrentIndex(QModelIndex(rows[0]))
    qtbot.keyClick(checks, Qt.Key.Key_Return)
    assert window.view.selected_rack() == gpu1.id
    qtbot.keyClick(checks, Qt.Key.Key_Down)  # the other three racks' nameplate warnings: one row
    assert checks.currentIndex().data().startswith("3 racks")
    qtbot.keyClick(checks, Qt.Key.Key_Return)
    assert window.view.selected_rack() == rack_named(doc.plan, "GPU-02").id  # the first of them


def test_the_document_pushes_the_undo_step_before_it_tells_the_views(window):
    doc = window.doc
    seen = []
    doc.changed.connect(lambda changes, report: seen.append((doc.undo_stack.count(), doc.undo_stack.undoText())))
    steps = doc.undo_stack.count()
    doc.apply(RenamePlan("another name"))
    assert seen == [(steps + 1, doc.undo_stack.undoText())] and seen[0][1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 40), unique=True, max_size=40), st.lists(st.integers(0, 40), unique=True, max_size=40))
def test_the_findings_model_shows_the_new_list_and_keeps_the_rows_of_findings_in_both(qapp, old, new):
    from ui.checks_panel import NO_FINDINGS_TEXT, FindingsModel

    def finding(k):  # made anew each time: equal, not the same object, as a re-evaluated rack's
        return Finding("warning", "power.nameplate_over_cap", f"finding {k}", f"rack-{k}")

    model = FindingsModel()
    model.set_findings(group_findings([finding(k) for k in old]))  # texts of their own: a row each
    rows = {k: QPersistentModelIndex(model.index(i)) for i, k in enumerate(old)}
    model.set_findings(group_findings([finding(k) for k in new]))
    shown = [model.index(i).data() for i in range(model.rowCount())]
    assert shown == ([f"finding {k}" for k in new] or [NO_FINDINGS_TEXT])
    both = set(old) & set(new)
    if [k for k in old if k in both] == [k for k in new if k in both]:  # the findings that stay keep their order
        assert all(rows[k].isValid() and rows[k].data() == f"finding {k}" for k in both)
    assert not any(rows[k].isValid() for k in set(old) - both)  # a row that went is not kept for another


def test_a_long_finding_is_one_row_as_wide_as_the_list_and_its_tooltip_has_the_whole_text(qtbot):
    from ui.checks_panel import ChecksPanel

    long_text = "Rack GPU-01 draws 35.0 kW (nameplate) against its 30 kW cap (5.0 kW over); " * 6
    short = Finding("warning", "power.nameplate_over_cap", "Rack GPU-02 is close to its cap", "rack-2")
    checks = ChecksPanel()
    qtbot.addWidget(checks)
    checks.resize(420, 200)
    checks.findings.set_findings(group_findings([short, Finding("error", "rack.power.over_cap", long_text, "rack-1")]))
    checks.show()
    qtbot.waitExposed(checks)
    first, second = (checks.visualRect(checks.findings.index(i)) for i in (0, 1))
    assert second.height() == first.height() < 2 * checks.fontMetrics().height() + 4  # one line each
    assert second.width() == checks.viewport().width()  # cut at the list's edge, no sideways scrolling
    assert not checks.horizontalScrollBar().isVisible()
    assert checks.findings.index(1).data(Qt.ItemDataRole.ToolTipRole).startswith(long_text)


def test_a_long_checks_list_shows_its_rows_and_keeps_its_place_right_after_an_edit(qtbot, catalog, monkeypatch):
    """65 findings, each a row of its own (the group texts taken away, so that racks' findings
    of one cause do not make one row): more rows than a layout batch would take. After a drop
    the rows on screen are there at the next paint, and a list scrolled down stays where it was."""
    import planner.report.finding_groups
    from planner.design.templates import build_template
    from planner.plan.commands import MoveDevice
    from planner.plan.space import lowest_free_u
    from ui.checks_panel import ChecksPanel
    from ui.document import Document

    monkeypatch.setattr(planner.report.finding_groups, "GROUP_TEXTS", {})
    doc = Document(build_template("massive", nodes=200, catalog=catalog), catalog)
    checks = ChecksPanel(doc)
    qtbot.addWidget(checks)
    doc.changed.connect(checks.on_changed)
    checks.resize(600, 200)
    checks.show()
    checks.show_report(doc.report)
    qtbot.waitExposed(checks)
    assert checks.model().rowCount() > 60
    checks.scrollTo(checks.model().index(40, 0), checks.ScrollHint.PositionAtTop)
    QApplication.processEvents()
    top_row = checks.indexAt(checks.viewport().rect().topLeft() + QPoint(2, 2)).row()
    assert top_row >= 30
    node = next(p for p in doc.plan.placements if doc.catalog[p.device].gpus)
    d = doc.catalog[node.device]
    target = next(r for r in doc.plan.racks if r.id != node.rack and lowest_free_u(doc.plan, doc.catalog, r, d.u_height)
                  and doc.apply(MoveDevice(node.id, r.id, lowest_free_u(doc.plan, doc.catalog, r, d.u_height))))
    assert doc.plan.placement(node.id).rack == target.id
    QApplication.processEvents()
    assert checks.indexAt(checks.viewport().rect().topLeft() + QPoint(2, 2)).row() == top_row
