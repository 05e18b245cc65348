"""The Variants menu and the toolbar's variant chooser: create from the current state, switch,
rename, delete (each one undoable step, ``planner.plan.variants``), Compare and Sweep."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QComboBox, QInputDialog, QLabel, QMessageBox, QToolBar

from planner.plan.variants import CreateVariant, DeleteVariant, RenameVariant, SwitchVariant


class VariantControls(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window, self.doc = window, window.doc
        self.combo = QComboBox()
        self.combo.setObjectName("VariantCombo")
        self.combo.setMinimumContentsLength(14)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.combo.setToolTip("The variant shown and edited. A variant overrides the base's settings, racks and "
                              "devices; the file stores only what it changes")
        self.combo.activated.connect(lambda i: self.switch(self.combo.itemText(i)))
        a = window._action
        self.new_action = a("&New variant from current…", lambda: self.new_variant(), QKeySequence("Ctrl+Shift+N"),
                            tip="A new variant of the plan as it is now; it becomes the one you edit")
        self.rename_action = a("&Rename variant…", lambda: self.rename())
        self.delete_action = a("&Delete variant", lambda: self.delete(),
                               tip="Delete the variant shown (the base cannot be deleted)")
        self.compare_action = a("&Compare…", lambda: self.compare(), QKeySequence("Ctrl+Shift+C"),
                                tip="Variants or plan files side by side: totals, BOM and findings with differences")
        self.sweep_action = a("Design &sweep…", lambda: self.sweep(), QKeySequence("Ctrl+Shift+D"),
                              tip="Evaluate a grid of GPU systems, node counts, fabrics, racks and power bases")
        bar = window.menuBar()
        menu = bar.addMenu("Va&riants")
        help_action = next((m for m in bar.actions() if m.text().replace("&", "") == "Help"), None)
        if help_action is not None:
            bar.removeAction(menu.menuAction())
            bar.insertMenu(help_action, menu)
        menu.addActions([self.new_action, self.rename_action, self.delete_action])
        menu.addSeparator()
        menu.addActions([self.compare_action, self.sweep_action])
        self.menu = menu
        toolbar = window.findChild(QToolBar, "MainToolbar")
        if toolbar is not None:
            toolbar.addSeparator()
            for widget in (QLabel(" Variant "), self.combo):
                toolbar.addWidget(widget).setToolTip(self.combo.toolTip())
            toolbar.addAction(self.compare_action)
        self.dialogs: list = []
        self.doc.changed.connect(self.refresh)
        self.refresh(None, None)

    def refresh(self, changes, _report) -> None:
        if changes is not None and not changes.plan:
            return
        plan = self.doc.plan
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItems(plan.variant_names)
        self.combo.setCurrentText(plan.current_variant)
        self.combo.blockSignals(False)
        self.delete_action.setEnabled(plan.current_variant != plan.base_variant)

    # -- the edits (each an undoable command) ---------------------------------------------
    def switch(self, name: str) -> bool:
        if name == self.doc.plan.current_variant:
            return True
        return self.doc.apply(SwitchVariant(name))

    def _suggested_name(self) -> str:
        names = set(self.doc.plan.variant_names)
        return next(f"Variant {i}" for i in range(2, 10_000) if f"Variant {i}" not in names)

    def new_variant(self, name: str | None = None) -> bool:
        if name is None:
            name, ok = QInputDialog.getText(self.window, "New variant", "Name of the new variant (a copy of the "
                                            "plan as it is now):", text=self._suggested_name())
            if not ok:
                return False
        return self.doc.apply(CreateVariant(name))

    def rename(self, name: str | None = None) -> bool:
        current = self.doc.plan.current_variant
        if name is None:
            name, ok = QInputDialog.getText(self.window, "Rename variant", f"New name of '{current}':", text=current)
            if not ok:
                return False
        return self.doc.apply(RenameVariant(current, name))

    def delete(self, confirm: bool = True) -> bool:
        current = self.doc.plan.current_variant
        if confirm:
            answer = QMessageBox.question(self.window, "Delete variant",
                                          f"Delete the variant '{current}'? (Undo brings it back.)")
            if answer != QMessageBox.StandardButton.Yes:
                return False
        return self.doc.apply(DeleteVariant(current))

    # -- views -------------------------------------------------------------------------------
    def compare(self):
        from ui.compare_view import CompareDialog

        dialog = CompareDialog(self.doc, self.window)
        self.dialogs.append(dialog)
        dialog.show()
        return dialog

    def sweep(self):
        from ui.sweep_dialog import SweepDialog

        dialog = SweepDialog(self.doc, self.window)
        self.dialogs.append(dialog)
        dialog.show()
        return dialog
