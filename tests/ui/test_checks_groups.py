"""The checks list shows findings of one cause as one row that counts the racks; clicking
the row selects the first rack and lists them all in the inspector, where a click selects
one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget

from planner.plan.commands import EditRack
from tests.ui.conftest import rack_named


def _row_starting(checks, text: str) -> int:
    model = checks.model()
    return next(i for i in range(model.rowCount()) if (model.index(i).data() or "").startswith(text))


def _click_row(qtbot, checks, row: int) -> None:
    index = checks.model().index(row)
    checks.scrollTo(index)
    qtbot.mouseClick(checks.viewport(), Qt.MouseButton.LeftButton, pos=checks.visualRect(index).center())


def test_the_nameplate_warnings_of_medium_are_one_row_and_a_click_lists_the_racks(window, qtbot):
    doc, checks = window.doc, window.checks
    # medium: 4 GPU racks of 4 DGX H100 under a 30 kW cap: 4 x 7.0 kW = 28 kW typical fits,
    # 4 x 10.2 kW = 40.8 kW nameplate does not (DGX H100 datasheet: 10.2 kW max): 4 warnings
    warnings = checks.messages("warning")
    assert [m for m in warnings if "nameplate" in m] == [
        "4 racks fit their power cap at typical draw but not at nameplate: circuits and PDUs must carry the "
        "rating, and a power spike can trip the breaker. Confirm the facility allows it, or plan on the "
        "nameplate basis"]
    _click_row(qtbot, checks, _row_starting(checks, "4 racks"))
    gpu = [rack_named(doc.plan, f"GPU-0{i}") for i in range(1, 5)]
    assert window.view.selected_rack() == gpu[0].id  # the first of them, in the middle
    listing = window.inspector.fields["places"]
    assert isinstance(listing, QListWidget)
    assert [listing.item(i).text() for i in range(listing.count())] == ["GPU-01", "GPU-02", "GPU-03", "GPU-04"]
    assert window.inspector.heading.text() == "4 racks of one check"
    assert window.inspector.fields["code"].text() == "rack.power.nameplate_over_cap"
    # a rack of the list: selected, and the list stays
    item = listing.item(2)
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=listing.visualItemRect(item).center())
    assert window.view.selected_rack() == gpu[2].id
    assert window.inspector.fields["places"] is listing
    # another finding's row: the inspector shows what it selects
    doc.apply(EditRack(gpu[0].id, power_cap_kw=10))  # GPU-01 over its cap: an error row of its own
    assert any(m.startswith("3 racks fit") for m in checks.messages("warning"))
    _click_row(qtbot, checks, _row_starting(checks, "Rack GPU-01 draws"))
    assert window.view.selected_rack() == gpu[0].id
    assert "places" not in window.inspector.fields and window.inspector.heading.text() == "Rack GPU-01"


def test_the_listed_racks_follow_the_edits_that_mend_them(window, qtbot):
    doc, checks = window.doc, window.checks
    _click_row(qtbot, checks, _row_starting(checks, "4 racks"))
    gpu = [rack_named(doc.plan, f"GPU-0{i}") for i in range(1, 5)]
    # a 45 kW cap carries GPU-01's 4 x 10.2 = 40.8 kW nameplate: it leaves the list, and the
    # line reads as the checks list now does (3 racks)
    doc.apply(EditRack(gpu[0].id, power_cap_kw=45))
    listing = window.inspector.fields["places"]
    assert [listing.item(i).text() for i in range(listing.count())] == ["GPU-02", "GPU-03", "GPU-04"]
    assert window.inspector.heading.text() == "3 racks of one check"
    assert window.inspector.fields["finding"].text().startswith("3 racks fit their power cap at typical draw")
    for rack in gpu[1:3]:
        doc.apply(EditRack(rack.id, power_cap_kw=45))
    assert window.inspector.heading.text() == "1 rack of one check"  # GPU-04 alone left
    for rack in gpu[3:]:
        doc.apply(EditRack(rack.id, power_cap_kw=45))
    # all mended: no list of a check that no longer holds; the selection (GPU-01) shows again
    assert "places" not in window.inspector.fields
    assert window.inspector.heading.text() == "Rack GPU-01"
    doc.undo_stack.undo()  # GPU-04 over again at nameplate: its own warning, the inspector keeps the rack
    assert window.inspector.heading.text() == "Rack GPU-01"


def test_a_row_of_many_racks_has_a_tooltip_that_says_how_to_see_them(window):
    checks = window.checks
    index = checks.model().index(_row_starting(checks, "4 racks"))
    tip = index.data(Qt.ItemDataRole.ToolTipRole)
    assert "list all 4 in the inspector" in tip and "The first: Rack GPU-01 fits its 30 kW cap" in tip


def test_fix_on_a_row_of_several_racks_mends_each_of_them_in_one_undo_step(window):
    doc, checks = window.doc, window.checks
    for name in ("GPU-01", "GPU-02"):  # 28 kW typical each under a 20 kW cap: over by 8 kW, a split mends it
        doc.apply(EditRack(rack_named(doc.plan, name).id, power_cap_kw=20))
    row = checks.model().index(_row_starting(checks, "2 racks draw more than their power cap"))
    checks.setCurrentIndex(row)
    assert checks.fix_button.isEnabled() and "one by one" in checks.fix_button.toolTip()
    racks = len(doc.plan.racks)
    steps = doc.undo_stack.count()
    checks.fix_button.click()
    assert not [m for m in checks.messages("error") if "power cap" in m]
    assert len(doc.plan.racks) == racks + 2  # one split each
    # one Fix, one undo step: Ctrl+Z takes both splits back, and says so
    assert doc.undo_stack.count() == steps + 1
    assert doc.undo_stack.undoText().startswith("Fix 2 findings (the first: ")
    assert window.statusBar().currentMessage().startswith("Fixed 2 findings, the first: ")
    doc.undo_stack.undo()
    assert len(doc.plan.racks) == racks
    assert len([m for m in checks.messages("error") if "power cap" in m]) == 1  # the row of 2 racks again
    # the status bar no longer says "Fixed": it says what the undo did
    assert window.statusBar().currentMessage().startswith("Undone: Fix 2 findings (the first: ")
    doc.undo_stack.redo()
    assert len(doc.plan.racks) == racks + 2 and not [m for m in checks.messages("error") if "power cap" in m]


def test_a_rack_taller_than_the_view_is_shown_from_its_top_when_a_check_selects_it(window, qtbot):
    # zoomed in until a 42U rack is three times the view's height: selecting it (as a finding's
    # row does) brings its name and power bar into view, not its middle or its foot
    view = window.view
    window.resize(1200, 800)
    qtbot.waitExposed(window)
    view.set_zoom(view.transform().m11() * 6)
    rack = rack_named(window.doc.plan, "GPU-03")
    bar = view.verticalScrollBar()
    for start in (bar.minimum(), bar.maximum()):  # scrolled above the rack, and below its top
        bar.setValue(start)
        assert view.select(rack.id)
        item = view.racks[rack.id].sceneBoundingRect()
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        assert item.height() > 2 * shown.height()
        assert shown.top() <= item.top() < shown.top() + 0.5 * shown.height(), start


def test_a_row_of_one_place_names_it_as_the_plan_does(window):
    doc, checks = window.doc, window.checks
    gpu01 = rack_named(doc.plan, "GPU-01")
    doc.apply(EditRack(gpu01.id, power_cap_kw=10))  # over its cap: an error of that one rack
    index = checks.model().index(_row_starting(checks, "Rack GPU-01 draws"))
    tip = index.data(Qt.ItemDataRole.ToolTipRole)
    assert "\nClick to select GPU-01\n" in tip and gpu01.id not in tip.split("Click to select")[1].split("\n")[0]


def test_another_plan_opened_clears_the_listed_check(window, qtbot):
    # the list of the last plan's racks is not the new plan's (its racks may have the same ids)
    from planner.design.templates import build_template

    doc, checks = window.doc, window.checks
    _click_row(qtbot, checks, _row_starting(checks, "4 racks"))
    assert "places" in window.inspector.fields
    doc.replace(build_template("medium", catalog=doc.catalog), None)
    assert "places" not in window.inspector.fields and window.inspector.heading.text() == "Plan"


def test_the_selected_row_follows_its_check_and_a_mended_one_leaves_none(window):
    doc, checks = window.doc, window.checks
    gpu = [rack_named(doc.plan, f"GPU-0{i}") for i in range(1, 5)]
    checks.setCurrentIndex(checks.model().index(_row_starting(checks, "4 racks")))
    doc.apply(EditRack(gpu[0].id, power_cap_kw=45))  # one rack mended: the line now counts 3
    assert checks.currentIndex().data().startswith("3 racks fit their power cap")
    doc.apply(EditRack(gpu[1].id, power_cap_kw=10))  # GPU-02 over its cap: an error row
    checks.setCurrentIndex(checks.model().index(_row_starting(checks, "Rack GPU-02 draws")))
    assert checks.fix_button.isEnabled()
    checks.fix_button.click()  # mended: no row is selected (not the next, unrelated one)
    assert not checks.currentIndex().isValid() and not checks.fix_button.isEnabled()


def test_a_right_click_shows_its_row_in_the_inspector_as_a_click_does(window):
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMenu

    def close() -> None:  # in the menu's own event loop: Escape closes it (the menu is another test's)
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(50, close)
            return
        QTest.keyClick(menu, Qt.Key.Key_Escape)

    checks = window.checks
    QTimer.singleShot(50, close)
    index = checks.model().index(_row_starting(checks, "4 racks"))
    pos = checks.visualRect(index).center()
    checks.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, checks.viewport().mapToGlobal(pos)))
    assert checks.currentIndex() == index and window.inspector.heading.text() == "4 racks of one check"
