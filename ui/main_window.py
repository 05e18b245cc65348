"""The main window: rack elevations in the middle, palette, inspector, settings and checks docked.

Recovery/autosave can hook in with ``plan_json()`` (the current plan as file text) and
``is_modified``; ``ui.app.STARTUP_HOOKS`` run once the window is shown.

Why it is long: it assembles the window: docks, actions, menus, toolbars and the wiring
between views; file handling lives in ``ui.file_actions``.
"""

from __future__ import annotations


from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence
from shiboken6 import isValid
from PySide6.QtWidgets import (QDockWidget, QMainWindow, QScrollArea, QStackedWidget, QStyle, QToolBar,
                               QVBoxLayout, QWidget)

from planner.plan.commands import AddRack, RemoveRack
from ui.charts.panel import ChartsPanel
from ui.checks_panel import ChecksPanel
from ui.file_actions import APP_TITLE, FileActions, optional_function
from ui.help_dialogs import ShortcutsDialog, shortcut_rows, shortcut_text, show_about
from ui.document import Document
from ui.inspector import Inspector
from ui.netbox_import import NetBoxImportActions
from ui.overview import add_overview_dock
from ui.session import start_autosave
from ui.device_palette import DevicePalette
from ui.plan_properties import PlanPropertiesDialog
from ui.preferences import PreferencesDialog
from ui.rack_dialogs import AutoPlaceDialog, RackEditor
from ui.rack_navigation import VIEW_KEYS
from ui.rack_view import RackView
from ui.replace_dialog import ReplaceDialog
from ui.settings_panel import SettingsPanel
from ui.summary_strip import SummaryArea, SummaryStrip
from ui.variants import VariantControls

REFUSED = "Refused: "
SETTLE_AFTER_MS = 300
"""How long after it is built the window lets the document put away what the views made
(``Document.settle``)."""


class MainWindow(FileActions, NetBoxImportActions, QMainWindow):
    def __init__(self, doc: Document, parent=None, *, open_problem: str | None = None):
        super().__init__(parent)
        self.doc = doc
        self.settings = QSettings()
        self.open_problem: str | None = open_problem
        """Why the plan asked for on the command line could not be opened, if it could not."""
        self.autosave = None
        """The recovery copies' AutosaveManager, once ``start_autosave`` runs (not in tests and --smoke)."""
        self.setObjectName("MainWindow")
        self.setDockNestingEnabled(True)

        self.view = RackView(doc)
        self.summary = SummaryStrip()
        self.charts = self.chart_page = ChartsPanel()
        """The one set of charts: in the Charts dock, or at a reading size as the Charts page
        beside the racks (the dock's panel moved into the middle, the dock hidden meanwhile)."""
        # pages switched from the toolbar and View menu (Ctrl+1 / Ctrl+2): a tab bar would take the
        # height or width the racks are fitted to
        self.pages = QStackedWidget()
        self.pages.setObjectName("CentralPages")
        self.pages.addWidget(self.view)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.summary_area = SummaryArea(self.summary)
        layout.addWidget(self.summary_area)
        layout.addWidget(self.pages, 1)
        self.setCentralWidget(central)

        self.palette_panel = DevicePalette(doc.catalog)
        self.inspector = Inspector(doc)
        self.settings_panel = SettingsPanel(doc)
        self.checks = ChecksPanel(doc)
        self.palette_dock = self._dock("Devices", "PaletteDock", self.palette_panel, Qt.DockWidgetArea.LeftDockWidgetArea)
        inspector_scroll = QScrollArea()
        inspector_scroll.setWidgetResizable(True)
        inspector_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        inspector_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inspector_scroll.setWidget(self.inspector)
        self.inspector_dock = self._dock("Inspector", "InspectorDock", inspector_scroll, Qt.DockWidgetArea.RightDockWidgetArea)
        self.settings_dock = self._dock("Settings", "SettingsDock", self.settings_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.checks_dock = self._dock("Checks", "ChecksDock", self.checks, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.splitDockWidget(self.inspector_dock, self.settings_dock, Qt.Orientation.Vertical)
        self.overview_dock = add_overview_dock(self)
        self.overview = self.overview_dock.widget()
        self.splitDockWidget(self.palette_dock, self.overview_dock, Qt.Orientation.Vertical)
        self.charts_dock = self._dock("Charts", "ChartsDock", self.charts, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._dock_shown_before_page = True  # whether the dock shows the charts again when the page gives them back
        self.splitDockWidget(self.checks_dock, self.charts_dock, Qt.Orientation.Horizontal)

        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self.variant_controls = VariantControls(self)
        self.statusBar().showMessage("Drag devices from the palette into a rack. Ctrl+wheel zooms, drag the "
                                     "background to pan.")

        for view in (self.summary, self.checks, self.charts):  # views of the report, not the document
            doc.changed.connect(view.on_changed)
        doc.changed.connect(self.on_changed)
        doc.error.connect(self._show_refusal)
        self.settings_panel.refused.connect(self._show_refusal)  # the field by its title, with a hint
        doc.undo_stack.cleanChanged.connect(self._clean_changed)
        doc.pathChanged.connect(self._update_title)
        self.view.selectionChangedTo.connect(self._selection_changed)
        self.view.hint.connect(lambda text: self.statusBar().showMessage(text, 5000))
        self.view.editRackRequested.connect(self.edit_rack)
        self.view.autoPlaceRequested.connect(lambda rid: self.auto_place([rid]))
        self.view.replaceRequested.connect(self.replace_devices)
        self.view.propertiesRequested.connect(lambda: (self.inspector_dock.show(), self.inspector_dock.raise_()))
        self.inspector.editRackRequested.connect(self.edit_rack)
        self.inspector.selectRequested.connect(self.view.select)
        self.checks.titleChanged.connect(self.checks_dock.setWindowTitle)
        self.checks.fixable.connect(lambda one, every: (self.fix_action.setEnabled(one),
                                                         self.fix_all_action.setEnabled(every)))
        self.fix_action.setEnabled(self.checks.fix_button.isEnabled())
        self.fix_all_action.setEnabled(self.checks.fix_all_button.isEnabled())
        self.checks.findingActivated.connect(self._select_finding)
        self.checks.placesListed.connect(self._list_places)
        self.checks.helpRequested.connect(self.show_guide)
        self.checks.fixed.connect(lambda text: self.statusBar().showMessage(text, 8000))
        # an undone Fix's "Fixed: ..." would stay for its 8 s: an undo or redo says what it did instead
        self.doc.undo_stack.stepped.connect(lambda text: self.statusBar().showMessage(text, 5000))
        self.charts.rackClicked.connect(self._chart_rack_clicked)
        # the dock asked for from the View menu while the page holds the charts: they go back to it
        self.charts_dock.toggleViewAction().triggered.connect(self._charts_dock_toggled)

        for view in (self.summary, self.checks, self.charts, self):
            view.on_changed(None, doc.report)
        self._update_title()
        self._restore_layout()
        # Once the window is on screen: on a big plan this is a full garbage collection of
        # everything the views made (0.2-0.3 s on campus-1m), which need not hold up the
        # first paint (the document holds older collections back until then).
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_AFTER_MS)
        self._settle.timeout.connect(doc.settle)
        self._settle.start()

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # -- actions and menus ----------------------------------------------------------------
    def edit_plan_properties(self) -> PlanPropertiesDialog:
        dialog = PlanPropertiesDialog(self.doc, self)
        dialog.open()
        return dialog

    def _action(self, text: str, slot, shortcut=None, icon=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        if tip:
            action.setStatusTip(tip)
        keys = shortcut_text(action)
        action.setToolTip((tip or text.replace("&", "").rstrip("…")) + (f" ({keys})" if keys else ""))
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        sp = QStyle.StandardPixmap
        self.new_action = self._action("&New plan…", self.new_from_template, QKeySequence.StandardKey.New,
                                       sp.SP_FileIcon, "Start a new plan from a reference design")
        self.open_action = self._action("&Open…", self.open_dialog, QKeySequence.StandardKey.Open, sp.SP_DialogOpenButton,
                                        "Open a plan file")
        self.save_action = self._action("&Save", self.save, QKeySequence.StandardKey.Save, sp.SP_DialogSaveButton,
                                        "Save the plan")
        self.save_as_action = self._action("Save &As…", self.save_as, QKeySequence("Ctrl+Shift+S"))
        # Not StandardKey.Quit: without a desktop's key theme (offscreen, some window managers)
        # it is the "Exit" key no keyboard has; Ctrl+Q is what Linux and Windows apps use.
        self.quit_action = self._action("&Quit", self.close, QKeySequence("Ctrl+Q"))
        self.preferences_action = self._action("Pre&ferences…", lambda: PreferencesDialog(self).open(),
                                               QKeySequence("Ctrl+,"), tip="Autosave interval and number format")
        self.shortcuts_action = self._action("&Keyboard shortcuts", self.show_shortcuts, QKeySequence("F1"))
        self.about_action = self._action("&About", lambda: show_about(self))
        self.guide_action = self._action("&Guide", lambda: self.show_guide(), QKeySequence("Shift+F1"),
                                         tip="What the planner computes and what each check means, searchable")
        self.export_xlsx_action = self._action("&Excel workbook…", self.export_excel, QKeySequence("Ctrl+Shift+E"),
                                               tip="The plan, its checks and assumptions as an Excel workbook")
        self.export_pack_action = self._action("Vendor pack (&PDF)…", lambda: self.export_drawing("pdf"),
                                               tip="Elevations and bill of materials as a PDF")
        self.pack_prices_action = self._action("Include &prices in the vendor pack", lambda *_: None,
                                               tip="Unit prices, capex, opex and TCO in the PDF vendor pack "
                                                   "(left out by default; the workbook always has them)")
        self.pack_prices_action.setCheckable(True)
        self.pack_prices_action.setChecked(False)
        self.export_drawing_action = self._action("Elevations (&SVG/PNG)…", lambda: self.export_drawing("svg"),
                                                  tip="The rack elevations as a drawing")
        self.export_netbox_action = self._action("&NetBox import files…", self.export_netbox,
                                                 tip="Sites, racks, device types, devices, power feeds and cables "
                                                     "as NetBox bulk-import CSV files")
        self.export_acceptance_action = self._action("&Acceptance tests…", self.export_acceptance,
                                                     tip="nccl-tests, ib_write_bw, fio and DCGM commands with the "
                                                         "plan's expected figures and pass thresholds: a runbook, "
                                                         "its JSON and the fio job files")
        self.import_types_action = self._action("&Import device types…", self.import_device_types,
                                                tip="NetBox device-type YAML files into a catalog file")
        self.export_xlsx_action.setEnabled(optional_function("planner.export.xlsx", "write_workbook") is not None)
        drawing = optional_function("ui.export.files", "export_drawing") is not None
        self.export_pack_action.setEnabled(drawing)
        self.pack_prices_action.setEnabled(drawing)
        self.export_drawing_action.setEnabled(drawing)

        stack = self.doc.undo_stack
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence("Ctrl+Z"))
        self.undo_action.setIcon(QIcon.fromTheme("edit-undo", self.style().standardIcon(sp.SP_ArrowBack)))
        self.redo_action = stack.createRedoAction(self, "&Redo")
        # Not StandardKey.Redo: on X11 it is Ctrl+Shift+Z again, and a key bound twice runs neither.
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo_action.setIcon(QIcon.fromTheme("edit-redo", self.style().standardIcon(sp.SP_ArrowForward)))
        for action, what in ((self.undo_action, "Undo"), (self.redo_action, "Redo")):
            action.setProperty("shortcut_name", what)  # its text names the step ("Redo Move node-3")
        self.undo_button_action = self._step_button("Undo", self.undo_action, stack.undo)
        self.redo_button_action = self._step_button("Redo", self.redo_action, stack.redo)

        self.add_rack_action = self._action("&Add rack", self.add_rack, QKeySequence("Ctrl+R"),
                                            sp.SP_FileDialogNewFolder, "Add an empty rack at the end of the row")
        self.edit_rack_action = self._action("&Edit rack…", lambda: self.edit_rack(self.view.selected_rack()),
                                             QKeySequence("Ctrl+E"))
        self.remove_rack_action = self._action("&Remove rack", self.remove_rack)
        self.auto_place_action = self._action("Auto-&place nodes…", lambda: self.auto_place(
            [self.view.selected_rack()] if self.view.selected_rack() else None), QKeySequence("Ctrl+P"),
            sp.SP_MediaSeekForward, "Place N nodes, filling racks to their power cap")
        # the Checks list's Fix and Fix all, from anywhere in the window (Ctrl+. as editors' quick fix)
        self.fix_action = self._action("&Fix the selected finding", lambda: self.checks.fix_button.click(),
                                       QKeySequence("Ctrl+."), tip="Apply the remedy of the finding selected in Checks")
        self.fix_all_action = self._action("Fix a&ll findings", lambda: self.checks.fix_all_button.click(),
                                           QKeySequence("Ctrl+Shift+."),
                                           tip="Apply every remedy the findings carry, one undo step each")
        self.replace_action = self._action(
            "Replace &all … with …", self.replace_devices, QKeySequence("Ctrl+H"),
            tip="Replace every device of one type (in the plan or the selection) with another type of the same "
                "kind; racks are re-fitted by power, cooling and height, as one undo step")
        self.zoom_in_action = self._action("Zoom &in", lambda: self.view.zoom_by(1.25), QKeySequence.StandardKey.ZoomIn)
        self.zoom_out_action = self._action("Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.StandardKey.ZoomOut)
        self.zoom_height_action = self._action("Fit rack &height", self.view.zoom_to_rack_height, QKeySequence("Ctrl+9"))
        self.zoom_fit_action = self._action("Zoom to &fit", self.view.zoom_to_fit, QKeySequence("Ctrl+0"),
                                            sp.SP_TitleBarMaxButton, "Show every rack")
        self.racks_page_action = self._action("&Racks", self.show_racks_page, QKeySequence("Ctrl+1"),
                                              tip="The rack elevations in the middle of the window")
        self.charts_page_action = self._action("&Charts", self.show_charts_page, QKeySequence("Ctrl+2"),
                                               tip="The charts at a reading size in the middle of the window")
        self.page_actions = QActionGroup(self)
        for action in (self.racks_page_action, self.charts_page_action):
            action.setCheckable(True)
            self.page_actions.addAction(action)
        self.racks_page_action.setChecked(True)
        self._update_rack_actions()

    def _step_button(self, verb: str, menu_action: QAction, slot) -> QAction:
        """A toolbar twin of the Undo/Redo menu item: fixed text, tooltip "Undo Add rack (Ctrl+Z)"."""
        action = QAction(menu_action.icon(), verb, self)
        action.triggered.connect(slot)

        def sync(*_args) -> None:
            if not (isValid(menu_action) and isValid(action)):
                return  # the window is being torn down
            step = menu_action.text().replace("&", "")
            keys = shortcut_text(menu_action)
            enabled = menu_action.isEnabled()
            action.setEnabled(enabled)
            action.setToolTip((step if enabled else f"Nothing to {verb.lower()}") + (f" ({keys})" if keys else ""))
            action.setStatusTip(step if enabled else "")
        menu_action.changed.connect(sync)  # the stack renames and enables its menu action after every step
        sync()
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addActions([self.save_action, self.save_as_action])
        file_menu.addSeparator()
        self.import_prices_action = self._action("&Import prices…", self.import_prices,
                                                 tip="Unit prices edited in an exported workbook's BOM sheet "
                                                     "become price overrides of this plan")
        file_menu.addAction(self.import_prices_action)
        self.import_netbox_action = self._action("From &NetBox…", self.import_from_netbox,
                                                 tip="A folder of NetBox's exports of one site (All data CSV files "
                                                     "and the device types' YAML) as a new plan")
        self.import_menu = file_menu.addMenu("&Import")
        self.import_menu.addAction(self.import_netbox_action)
        self.plan_properties_action = self._action("Plan &properties…", self.edit_plan_properties,
                                                   tip="Customer, site, contact, revision and dates: the vendor "
                                                       "pack's cover shows them")
        file_menu.addAction(self.plan_properties_action)
        self.export_menu = file_menu.addMenu("&Export")
        self.export_menu.addActions([self.export_xlsx_action, self.export_pack_action, self.pack_prices_action,
                                     self.export_drawing_action, self.export_netbox_action,
                                     self.export_acceptance_action])
        self.import_results_action = self._action("Import a&cceptance results…", self.import_acceptance_results,
                                                  tip="A folder of measured nccl-tests, fio and ib_write_bw logs "
                                                      "judged against the plan's acceptance tests; the measured "
                                                      "figures can be recorded as an 'As built' variant")
        file_menu.addAction(self.import_results_action)
        file_menu.addAction(self.import_types_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit = bar.addMenu("&Edit")
        edit.addActions([self.undo_action, self.redo_action])
        edit.addSeparator()
        edit.addAction(self.view.delete_action)
        edit.addAction(self.replace_action)
        edit.addSeparator()
        edit.addActions([self.fix_action, self.fix_all_action])
        edit.addSeparator()
        edit.addAction(self.preferences_action)
        racks = bar.addMenu("&Racks")
        racks.addActions([self.add_rack_action, self.edit_rack_action, self.remove_rack_action])
        racks.addSeparator()
        racks.addAction(self.auto_place_action)
        view = bar.addMenu("&View")
        view.addActions([self.racks_page_action, self.charts_page_action])
        view.addSeparator()
        view.addActions([self.zoom_in_action, self.zoom_out_action, self.zoom_height_action, self.zoom_fit_action])
        self.go_to_menu = view.addMenu("&Go to hall or building")
        self.go_to_menu.aboutToShow.connect(self._fill_go_to_menu)
        view.aboutToShow.connect(lambda: self.go_to_menu.setEnabled(self.view.campus.outlined))
        view.addSeparator()
        for dock in (self.palette_dock, self.overview_dock, self.inspector_dock, self.settings_dock,
                     self.checks_dock, self.charts_dock):
            view.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.guide_action, self.shortcuts_action, self.about_action])

    def _fill_go_to_menu(self) -> None:
        """Every building, and under it each of its halls: zoom the rack view to it."""
        self.go_to_menu.clear()
        campus = self.view.campus
        for b in campus.buildings:
            self.go_to_menu.addAction(b.name, lambda b=b.id: self.view.zoom_to_building(b))
            for hall_id in b.halls:
                self.go_to_menu.addAction(f"    {campus.hall(hall_id).name}",
                                          lambda h=hall_id: self.view.zoom_to_hall(h))

    def _build_toolbar(self) -> None:
        tb = QToolBar("Main", self)
        tb.setObjectName("MainToolbar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tb.setMovable(False)
        tb.addActions([self.new_action, self.open_action, self.save_action])
        tb.addSeparator()
        # Steady "Undo"/"Redo" buttons (the menu items name the step; a toolbar that changed width
        # with every edit would jump); their tooltips name the step and the key.
        tb.addActions([self.undo_button_action, self.redo_button_action])
        tb.addSeparator()
        tb.addActions([self.add_rack_action, self.auto_place_action])
        tb.addSeparator()
        tb.addAction(self.zoom_fit_action)
        tb.addSeparator()
        tb.addActions([self.racks_page_action, self.charts_page_action])
        self.addToolBar(tb)

    def start_autosave(self):
        """Write recovery copies of the plan from now on (``ui.session``)."""
        self.autosave = start_autosave(self)
        return self.autosave

    # -- reacting to the document ---------------------------------------------------------
    def on_changed(self, changes, report) -> None:
        """The window's own part of an edit: the status bar, the title and the rack actions."""
        if self.statusBar().currentMessage().startswith(REFUSED):  # the next good edit clears a refusal
            self.statusBar().clearMessage()
        if changes is None or changes.plan:
            self._update_title()
        self._update_rack_actions()

    def charts_on_page(self) -> bool:
        """Whether the charts are the Charts page (else they are in their dock)."""
        return self.pages.indexOf(self.charts) >= 0

    def show_racks_page(self) -> None:
        """The racks in the middle; the charts back in their dock, shown if it was before the page."""
        self.pages.setCurrentWidget(self.view)
        if self.charts_on_page():
            self.pages.removeWidget(self.charts)
            self.charts_dock.setWidget(self.charts)
            self.charts.show()  # the page's stack hid it on the way out
            self.charts_dock.setVisible(self._dock_shown_before_page)
        self.racks_page_action.setChecked(True)

    def show_charts_page(self) -> None:
        """The charts at a reading size in the middle: the dock's panel moves there and the dock
        hides, so the charts are never shown twice."""
        if not self.charts_on_page():
            self._dock_shown_before_page = not self.charts_dock.isHidden()
            self.charts_dock.hide()
            self.pages.addWidget(self.charts)  # takes the panel out of the dock
        self.pages.setCurrentWidget(self.charts)
        self.charts_page_action.setChecked(True)

    def _chart_rack_clicked(self, rack_id: str) -> None:
        """A bar clicked selects its rack; on the Charts page the racks come up to show it."""
        self.view.select(rack_id)
        if self.charts_on_page():
            self.show_racks_page()

    def _charts_dock_toggled(self, shown: bool) -> None:
        if shown and self.charts_on_page():
            self._dock_shown_before_page = True
            self.show_racks_page()

    def show_guide(self, code: str | None = None):
        """Help > Guide, at a finding's section when ``code`` is given."""
        from ui.help_guide import open_guide

        self.guide = open_guide(self, code)
        return self.guide

    def show_shortcuts(self) -> ShortcutsDialog:
        actions = [a for a in self.findChildren(QAction) if a.shortcuts()]
        actions = sorted(set(actions), key=lambda a: a.text().replace("&", ""))
        dialog = ShortcutsDialog(shortcut_rows(actions, VIEW_KEYS), self)
        dialog.open()
        return dialog

    def _show_refusal(self, message: str) -> None:
        self.statusBar().showMessage(f"{REFUSED}{message}", 8000)

    def _clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def _selection_changed(self) -> None:
        self.inspector.show_selection(self.view.selected_devices(), self.view.selected_rack())
        self._update_rack_actions()

    def _select_finding(self, where: str | None) -> None:
        """A finding's row clicked: its place selected, and shown in the inspector (a row of
        many lists them there next: ``_list_places``)."""
        self.inspector.show_places(None)
        self.view.select(where)

    def _list_places(self, row) -> None:
        """A row of the checks list that concerns many racks: listed in the inspector, shown."""
        self.inspector.show_places(row)
        self.inspector_dock.show()
        self.inspector_dock.raise_()

    def _update_rack_actions(self) -> None:
        has_rack = self.view.selected_rack() is not None
        self.edit_rack_action.setEnabled(has_rack)
        self.remove_rack_action.setEnabled(has_rack)

    def _update_title(self, *_args) -> None:
        name = self.doc.path.name if self.doc.path else f"{self.doc.plan.name} (unsaved)"
        self.setWindowTitle(f"{name}[*] — {APP_TITLE}")
        self.setWindowModified(self.doc.is_modified)

    # -- racks --------------------------------------------------------------------------
    def add_rack(self) -> None:
        command = AddRack()
        if self.doc.apply(command):
            self.view.select(command.rack_id)

    def remove_rack(self) -> None:
        rid = self.view.selected_rack()
        if rid:
            self.doc.apply(RemoveRack(rid))

    def edit_rack(self, rack_id: str | None) -> RackEditor | None:
        if not rack_id or self.doc.plan.rack(rack_id) is None:
            return None
        dialog = RackEditor(self.doc, rack_id, self)
        dialog.open()
        return dialog

    def auto_place(self, racks: list[str] | None) -> AutoPlaceDialog:
        dialog = AutoPlaceDialog(self.doc, racks, self)
        dialog.open()
        return dialog

    def replace_devices(self) -> ReplaceDialog:
        dialog = ReplaceDialog(self.doc, self.view.selected_devices(), self)
        dialog.open()
        return dialog

    def locale_changed(self) -> None:
        """The number format changed in Preferences: show every entry and figure in the new notation."""
        for form in self.settings_panel.forms.built():  # the others are made in the new notation
            form.refresh()
        if self.doc.report is not None:
            self.summary.show_report(self.doc.report)
        self.inspector.rebuild()
        self.view.viewport().update()

    # -- window state -------------------------------------------------------------------
    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:  # 1500 x 920, or the whole screen when it is smaller (a 1440 x 900 laptop)
            screen = self.screen().availableGeometry() if self.screen() is not None else None
            self.resize(min(1500, screen.width()) if screen else 1500, min(920, screen.height()) if screen else 920)
        if state is not None:
            self.restoreState(state)
        else:
            self._needs_default_docks = True

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if getattr(self, "_needs_default_docks", False):
            self._needs_default_docks = False
            self._default_dock_sizes()

    def _default_dock_sizes(self) -> None:
        # the rack view keeps most of the height: its racks are fitted to it, and text is drawn
        # no smaller than the normal font less 2 pt, so a taller view shows more
        self.resizeDocks([self.palette_dock, self.inspector_dock], [270, 330], Qt.Orientation.Horizontal)
        self.resizeDocks([self.checks_dock], [max(170, min(290, round(self.height() * 0.24)))], Qt.Orientation.Vertical)
        self.resizeDocks([self.checks_dock, self.charts_dock], [480, 720], Qt.Orientation.Horizontal)
        self.resizeDocks([self.inspector_dock, self.settings_dock], [280, 420], Qt.Orientation.Vertical)

    def save_layout(self) -> None:
        on_page = self.charts_on_page()
        if on_page:  # the docks as they are on the racks page: the Charts page hides the dock only while shown
            self.show_racks_page()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        if on_page:
            self.show_charts_page()

    def closeEvent(self, event) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.save_layout()
        self.plan_guard.release()
        event.accept()
