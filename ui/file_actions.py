"""File handling of the main window: new from template, open, save, recent files, exports
(off the GUI thread behind a progress dialog, ``ui.export_runner``), and the unsaved-changes
prompt. Mixed into ``MainWindow`` (which provides doc, view, settings).

Why it is long: each file action (new, open, save, save as, recent files, every export,
import prices) has its own dialog and error handling.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from planner.design.templates import build_template
from planner.errors import PlannerError
from planner.plan.commands import SetPriceOverrides
from planner.plan.fileio import open_plan
from planner.plan.names import file_slug
from ui import fmt
from ui.export_runner import run_export
from ui.last_folder import last_folder, remember_folder
from ui.plan_lock import PlanGuard
from ui.new_plan_dialog import NewPlanDialog
from ui import file_dialogs

APP_TITLE = "GPU Cluster Planner"
PLAN_FILTER = "Plans (*.json);;All files (*)"
MAX_RECENT = 8


def optional_function(module: str, attr: str):
    """A function another part of the product provides, or None while it does not exist.

    A module not imported yet is imported on the first call, not here: the exports pull in
    openpyxl and numpy (0.2 s), which would otherwise delay the first paint of the app."""
    try:
        if module in sys.modules:
            return getattr(sys.modules[module], attr, None)
        if importlib.util.find_spec(module) is None:
            return None
    except (ImportError, ValueError):
        return None

    def call(*args, **kwargs):
        return getattr(importlib.import_module(module), attr)(*args, **kwargs)

    return call


class FileActions:
    @property
    def plan_guard(self) -> PlanGuard:
        """The lock on the open plan's file and its state as read (``ui.plan_lock``)."""
        guard = getattr(self, "_plan_guard", None)
        if guard is None:
            guard = self._plan_guard = PlanGuard()
        return guard

    def ask_plan_in_use(self, path: Path, holder: str) -> str:
        """Another instance has ``path`` open: "read_only", "anyway" or "cancel"."""
        box = QMessageBox(QMessageBox.Icon.Question, APP_TITLE,
                          f"{path.name} is open in another window ({holder}).\n"
                          "Saving here could overwrite the changes made there.", parent=self)
        read_only = box.addButton("Open &read-only", QMessageBox.ButtonRole.AcceptRole)
        anyway = box.addButton("Open &anyway", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(read_only)
        box.exec()
        clicked = box.clickedButton()
        return "read_only" if clicked is read_only else "anyway" if clicked is anyway else "cancel"

    def ask_overwrite_changed(self, path: Path) -> bool:
        """The file changed on disk since it was read here: overwrite it?"""
        answer = QMessageBox.warning(
            self, APP_TITLE, f"{path.name} was changed on disk by another program or window since you opened "
            "it.\nOverwrite those changes with yours? (Cancel, then Save As, keeps both.)",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Save

    def claim(self, path: Path) -> str:
        """How to open ``path``: "edit" when no other instance has it, else what the user chose."""
        holder = self.plan_guard.holder(Path(path))
        return "edit" if holder is None else self.ask_plan_in_use(Path(path), holder)

    def plan_json(self) -> str:
        """The current plan as file text (for autosave and crash recovery)."""
        return self.doc.plan_json()

    def ask_unsaved(self) -> QMessageBox.StandardButton:
        name = self.doc.path.name if self.doc.path else self.doc.plan.name
        return QMessageBox.question(
            self, APP_TITLE, f"Save the changes to {name} before closing it?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.warning(self, title, message)

    def maybe_save(self) -> bool:
        """True when the current plan may be replaced or closed (saved, discarded or unchanged)."""
        if not self.doc.is_modified:
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_from_template(self) -> None:
        # the unsaved plan is asked about once a new one is ready to take its place: a New plan
        # dialog cancelled asks nothing
        # and Cancel on that question returns to the dialog as it was, its fields kept
        dialog = NewPlanDialog(self.doc.catalog, self)
        while dialog.exec() and dialog.design is not None:
            if self.maybe_save():
                self.show_plan(dialog.design.plan, unsaved_work=True)
                return

    def new_plan(self, template: str) -> None:
        try:
            plan = build_template(template, catalog=self.doc.catalog)
        except PlannerError as exc:
            self.show_error("New plan", str(exc))
            return
        self.show_plan(plan)

    def show_plan(self, plan, *, unsaved_work: bool = False) -> None:
        """A new plan in the window: no file, no history (``unsaved_work``: one the user made,
        a design or an import, which closing asks to save: ``Document.replace``)."""
        self.doc.replace(plan, None, unsaved_work=unsaved_work)
        self.plan_guard.take(None)
        self.view.zoom_to_rack_height()

    def last_folder(self) -> Path:
        """Where file dialogs start: the folder last used (QSettings), else the plan's, else the working folder."""
        return last_folder(self.doc.path.parent if self.doc.path else None)

    def _remember_folder(self, path: str | Path) -> None:
        remember_folder(path)

    def default_file(self, suffix: str) -> str:
        """A file in the last folder named after the plan ("16-node-llm-cluster-128-x-h100-ndr400.xlsx")."""
        return str(self.last_folder() / f"{file_slug(self.doc.plan.title)}{suffix}")

    def open_dialog(self) -> None:
        path, _ = file_dialogs.open_file_name(self, "Open plan", str(self.last_folder()), PLAN_FILTER)
        if path:  # the unsaved plan asked about once a file is chosen (a cancelled dialog asks nothing)
            self._remember_folder(path)
            self.open_file(Path(path))

    def open_file(self, path: Path, ask: bool = True) -> bool:
        if ask and not self.maybe_save():
            return False
        try:
            plan = open_plan(path, self.doc.catalog)
        except PlannerError as exc:
            self.show_error("Open plan", str(exc))
            return False
        mode = self.claim(Path(path))
        if mode == "cancel":
            return False
        self.doc.replace(plan, Path(path))
        self.plan_guard.take(Path(path), read_only=mode == "read_only")
        self._remember_recent(Path(path))
        self.view.zoom_to_rack_height()
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        start = str(self.doc.path) if self.doc.path else self.default_file(".json")
        path, _ = file_dialogs.save_file_name(self, "Save plan as", start, PLAN_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += ".json"
        saved = self._save_to(Path(path))
        if saved:  # a folder that refused the plan is not where the next dialog should start
            self._remember_folder(path)
        return saved

    def _save_to(self, path: Path) -> bool:
        guard = self.plan_guard
        if guard.path is not None and Path(path) == guard.path:
            if guard.read_only:
                self.show_error("Save plan", f"{Path(path).name} is open read-only because another window has it "
                                "open.\nChoose File → Save As… to save your changes to another file.")
                return False
            if guard.changed_on_disk() and not self.ask_overwrite_changed(Path(path)):
                return False
        try:
            self.doc.save(path)
        except (PlannerError, OSError) as exc:
            reason = str(exc)
            self.show_error("Save plan", f"The plan was not saved: {reason[0].lower() + reason[1:] if reason else ''}.\n"
                            "Your changes are still open here; choose File → Save As… to save them elsewhere.")
            return False
        guard.saved(Path(path))
        self._remember_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _remember_recent(self, path: Path) -> None:
        path_text = str(Path(path).resolve())
        files = [path_text] + [f for f in self.recent_files() if f != path_text]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for f in files:
            self.recent_menu.addAction(Path(f).name, lambda f=f: self.open_file(Path(f))).setToolTip(f)
        if not files:
            self.recent_menu.addAction("No recent plans").setEnabled(False)

    def export_excel(self) -> None:
        write_workbook = optional_function("planner.export.xlsx", "write_workbook")
        if write_workbook is None:
            return
        path, _ = file_dialogs.save_file_name(self, "Export Excel workbook", self.default_file(".xlsx"),
                                              "Excel workbooks (*.xlsx)")
        if path:
            # the document's report: the plan cannot change while the export runs (its dialog is modal)
            self._export(lambda progress: write_workbook(self.doc.plan, self.doc.catalog, Path(path),
                                                        report=self.doc.report, inputs=self._inputs(),
                                                        progress=progress),
                         path, "Exporting the Excel workbook", remember=(path, False))

    def import_prices(self) -> None:
        """File > Import prices: unit prices edited in an exported workbook become price
        overrides of the open plan (one undoable edit); unmatched rows are listed."""
        read = optional_function("planner.costs.prices", "import_prices")
        if read is None:
            return
        start = str((self.doc.path or Path(self.doc.plan.name)).with_suffix(".xlsx"))
        path, _ = file_dialogs.open_file_name(self, "Import prices from a workbook", start, "Excel workbooks (*.xlsx)")
        if path:
            self.import_prices_from(Path(path))

    def import_prices_from(self, path: Path) -> str:
        """Import from ``path``; returns the message shown (for tests and the status bar)."""
        cost = self.doc.report.cost
        read = optional_function("planner.costs.prices", "import_prices")
        try:
            result = read(path, self.doc.plan.price_overrides, list(cost.bom) if cost is not None else [])
        except PlannerError as exc:
            self.show_error("Import prices", str(exc))
            return str(exc)
        lines = result.lines()
        if result.changed:
            self.doc.apply(SetPriceOverrides(result.overrides))
        message = (f"{fmt.counted(len(result.changed), 'price')} imported from {path.name}" if result.changed
                   else f"No unit price in {path.name} differs from the plan's: nothing imported")
        if lines:
            QMessageBox.information(self, "Import prices", "\n".join([message, ""] + lines))
        self.statusBar().showMessage(message, 8000)
        return "\n".join([message] + lines)

    def export_drawing(self, kind: str) -> None:
        export = optional_function("ui.export.files", "export_drawing")
        if export is None:
            return
        filters = "PDF (*.pdf)" if kind == "pdf" else "SVG drawing (*.svg);;PNG image (*.png)"
        path, _ = file_dialogs.save_file_name(self, "Export", self.default_file(f".{kind}"), filters)
        if not path:
            return
        # Prices go into the pack only when "Include prices in the vendor pack" is ticked.
        options = {"with_prices": self.pack_prices_action.isChecked()} if kind == "pdf" else {}
        self._export(lambda progress: export(self.doc.plan, self.doc.catalog, Path(path), report=self.doc.report,
                                             inputs=self._inputs(), **options),
                     path, "Exporting the vendor pack" if kind == "pdf" else "Exporting the drawing", cancellable=False,
                     remember=(path, False))

    def _inputs(self) -> list[Path]:
        """Files an export must not replace: the open plan's own file."""
        return [self.doc.path] if self.doc.path else []

    def export_netbox(self) -> None:
        write = optional_function("planner.export.netbox", "write_netbox")
        if write is None:
            return
        folder = file_dialogs.existing_directory(self, "Export NetBox import files into", str(self.last_folder()))
        if folder:
            from planner.export.netbox_files import other_files  # with the export's own modules, when used

            target = Path(folder)
            if other_files(target):  # the export replaces its folder whole: a folder of its own inside
                target = target / f"{file_slug(self.doc.plan.title)}-netbox"
            self._export(lambda progress: write(self.doc.plan, self.doc.catalog, target, progress=progress),
                         str(target), "Exporting the NetBox import files", remember=(folder, True))

    def export_acceptance(self) -> None:
        pack = optional_function("planner.acceptance.criteria", "acceptance_pack")
        write = optional_function("planner.acceptance.pack", "write_pack")
        if pack is None or write is None:
            return
        folder = file_dialogs.existing_directory(self, "Export the acceptance tests into", str(self.last_folder()))
        if folder:
            from planner.acceptance.pack import other_files  # with the export's own modules, when used

            target = Path(folder)
            if other_files(target):  # the pack replaces its folder whole: a folder of its own inside, as NetBox's
                target = target / f"{file_slug(self.doc.plan.title)}-acceptance"
            self._export(lambda progress: write(pack(self.doc.plan, self.doc.catalog), target), str(target),
                         "Exporting the acceptance tests", cancellable=False, remember=(folder, True))

    def import_acceptance_results(self) -> None:
        """File > Import acceptance results: a folder of measured logs judged against the plan."""
        folder = file_dialogs.existing_directory(self, "Import acceptance results from", str(self.last_folder()))
        if folder:
            self.import_acceptance_results_from(Path(folder))

    def import_acceptance_results_from(self, folder: Path):
        """The verdict dialog of ``folder`` (None: the folder could not be read, or reading was cancelled)."""
        from planner.acceptance.criteria import acceptance_pack
        from ui.acceptance_results import AcceptanceResultsDialog, read_folder, summary

        self._remember_folder(folder)
        try:
            pack = acceptance_pack(self.doc.plan, self.doc.catalog, self.doc.report)
            results = read_folder(self, pack, folder)
        except PlannerError as exc:
            self.show_error("Import acceptance results", str(exc))
            return None
        if results is None:
            self.statusBar().showMessage("Import of the acceptance results cancelled", 8000)
            return None
        self.statusBar().showMessage(f"Acceptance results from {folder.name}: {summary(results)}")
        dialog = self.acceptance_results_dialog = AcceptanceResultsDialog(self, pack, folder, results)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()  # its keys (Alt+R records) work at once
        return dialog

    def import_device_types(self) -> None:
        """NetBox device-type YAML -> a catalog file, and its devices in the palette at once."""
        importer = optional_function("planner.hardware.netbox_types", "import_into_catalog_file")
        if importer is None:
            return
        files, _ = file_dialogs.open_file_names(self, "Import NetBox device types", str(self.last_folder()),
                                                "NetBox device types (*.yaml *.yml);;All files (*)")
        if not files:
            return
        self._remember_folder(files[0])
        gpu = self._ask_gpu()
        if gpu is False:
            return
        start = str(self.last_folder() / "my-catalog.json")
        target, _ = file_dialogs.save_file_name(self, "Save the device types in the catalog file", start,
                                                "Catalog files (*.json)")
        if not target:
            return
        try:
            entries, problems = importer(files, Path(target), gpu=gpu, catalog=self.doc.catalog)
        except PlannerError as exc:
            self.show_error("Import device types", str(exc))
            return
        if not entries:
            self.show_error("Import device types", "Nothing was imported:\n" + "\n".join(problems))
            return
        if problems:  # the other files were imported
            self.show_error("Import device types", "These files were not imported:\n" + "\n".join(problems))
        self.doc.catalog.extend(tuple(entries), Path(target).name, allow_override=True)
        self.palette_panel.set_catalog(self.doc.catalog)
        todo = "\n".join(f"{d.title}: {d.notes}" for d in entries)
        QMessageBox.information(self, "Import device types",
                                f"{len(entries)} device types saved in {Path(target).name} and added to the "
                                f"palette. Start with --catalog {target} to have them next time.\n\n{todo}")

    def _ask_gpu(self):
        """The GPU the imported servers carry (NetBox's device types hold none): a block, None, or False to cancel."""
        from PySide6.QtWidgets import QInputDialog

        blocks = {d.gpu.model: d.gpu for d in self.doc.catalog if d.gpu}
        none = "None: import servers as 'other'"
        choice, ok = QInputDialog.getItem(self, "GPUs of the imported servers",
                                          "NetBox's device types do not say which GPUs a server holds.\n"
                                          "Servers among these files carry:", [none, *sorted(blocks)], 0, False)
        if not ok:
            return False
        if choice == none:
            return None
        count, ok = QInputDialog.getInt(self, "GPUs of the imported servers", f"{choice} per server:", 8, 1, 1024)
        return blocks[choice].model_copy(update={"count": count}) if ok else False

    def _export(self, write, path: str, title: str, cancellable: bool = True,
                remember: tuple[str, bool] | None = None) -> None:
        """``write(progress)`` off the GUI thread behind a progress dialog (``ui.export_runner``);
        ``cancellable`` when the writer calls ``progress``, which stops it on Cancel. ``remember``:
        (the file or folder chosen, whether a folder), the next dialog's folder once written (a
        folder that refused the export is not where the next one should start)."""
        try:
            written = run_export(self, title, write, cancellable)
        except (PlannerError, OSError) as exc:
            self.show_error("Export", str(exc))
            return
        if written:
            if remember is not None:
                remember_folder(remember[0], is_folder=remember[1])
            self.statusBar().showMessage(f"Exported {path}", 5000)
        else:
            self.statusBar().showMessage(f"Export cancelled: nothing was written ({path} is as it was)", 8000)
