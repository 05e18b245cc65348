"""Help -> About shows the version; Help -> Keyboard shortcuts lists the keys; toolbar buttons have tooltips."""

from PySide6.QtWidgets import QMenu, QMessageBox, QToolBar

import planner


def test_about_box_names_the_app_and_its_version(window):
    help_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Help")
    assert window.about_action in help_menu.actions() and window.shortcuts_action in help_menu.actions()
    window.about_action.trigger()
    box = window.findChild(QMessageBox, "AboutBox")
    assert box.isVisible()
    assert f"GPU Cluster Planner {planner.__version__}" in box.text()
    box.accept()


def test_every_toolbar_button_has_a_tooltip_naming_its_shortcut(window):
    toolbar = window.findChild(QToolBar, "MainToolbar")
    actions = [a for a in toolbar.actions() if not a.isSeparator()]
    assert len(actions) == 13  # ... Zoom to fit, Racks, Charts, the variant chooser (label, list), Compare
    assert window.charts_page_action.toolTip() == "The charts at a reading size in the middle of the window (Ctrl+2)"
    for action in actions:
        assert action.toolTip().strip(), action.text()
    assert window.save_action.toolTip() == "Save the plan (Ctrl+S)"
    assert window.add_rack_action.toolTip() == "Add an empty rack at the end of the row (Ctrl+R)"
