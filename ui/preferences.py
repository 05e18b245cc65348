"""Edit -> Preferences: the autosave interval (QSettings ``autosave/intervalSeconds``) and the
number format (QSettings ``locale/name``, default the system's)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QVBoxLayout

from ui.locale import CHOICES, LOCALE_KEY, apply_locale, chosen_locale_name, describe

from ui.session import INTERVAL_KEY, MAX_INTERVAL_S, MIN_INTERVAL_S, autosave_interval_s, interval_override


class PreferencesDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.window_ = window
        self.setObjectName("PreferencesDialog")
        self.setWindowTitle("Preferences")
        self.interval = QSpinBox()
        self.interval.setRange(MIN_INTERVAL_S, MAX_INTERVAL_S)
        self.interval.setSuffix(" s")
        self.interval.setValue(int(round(min(max(autosave_interval_s(window.settings), MIN_INTERVAL_S), MAX_INTERVAL_S))))
        self.interval.setToolTip("While the plan has unsaved changes, a recovery copy is written this often; "
                                 "after a crash the next start offers it. Default 60 s.")
        self.locale = QComboBox()
        self.locale.setObjectName("locale")
        for name in ("",) + CHOICES:
            self.locale.addItem(describe(name), name)
        self.locale.setCurrentIndex(max(0, self.locale.findData(chosen_locale_name(window.settings))))
        self.locale.setToolTip("How numbers are typed and shown in the app (decimal and group separators). "
                               "Plan files, --json output and the workbook's values are the same in every locale. "
                               "Default: the system's.")
        form = QFormLayout()
        form.addRow("Autosave a recovery copy every", self.interval)
        form.addRow("Number format", self.locale)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        if interval_override() is not None:
            note = QLabel(f"CLUSTER_PLANNER_AUTOSAVE_S sets {interval_override():g} s for this session.")
            note.setWordWrap(True)
            layout.addWidget(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def accept(self) -> None:
        self.window_.settings.setValue(INTERVAL_KEY, self.interval.value())
        manager = getattr(self.window_, "autosave", None)
        if manager is not None:
            manager.set_interval(autosave_interval_s(self.window_.settings))
        if self.locale.currentData() != chosen_locale_name(self.window_.settings):
            self.window_.settings.setValue(LOCALE_KEY, self.locale.currentData())
            apply_locale(self.window_.settings)
            self.window_.locale_changed()
        super().accept()
