"""File handling of the main window: new from template, open, save, recent files, exports,
and the unsaved-changes prompt. Mixed into ``MainWindow`` (which provides doc, view, settings)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from planner.errors import PlannerError
from planner.plan.fileio import open_plan
from planner.plan.templates import build_template
from ui.template_dialog import TemplateDialog

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
        if not self.maybe_save():
            return
        dialog = TemplateDialog(self)
        if dialog.exec() and dialog.template_name():
            self.new_plan(dialog.template_name())

    def new_plan(self, template: str) -> None:
        try:
            plan = build_template(template, catalog=self.doc.catalog)
        except PlannerError as exc:
            self.show_error("New plan", str(exc))
            return
        self.doc.replace(plan, None)
        self.view.zoom_to_rack_height()

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = str(self.doc.path.parent) if self.doc.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open plan", start, PLAN_FILTER)
        if path:
            self.open_file(Path(path), ask=False)

    def open_file(self, path: Path, ask: bool = True) -> bool:
        if ask and not self.maybe_save():
            return False
        try:
            plan = open_plan(path, self.doc.catalog)
        except PlannerError as exc:
            self.show_error("Open plan", str(exc))
            return False
        self.doc.replace(plan, Path(path))
        self._remember_recent(Path(path))
        self.view.zoom_to_rack_height()
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        start = str(self.doc.path) if self.doc.path else f"{self.doc.plan.name}.json"
        path, _ = QFileDialog.getSaveFileName(self, "Save plan as", start, PLAN_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += ".json"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.doc.save(path)
        except (PlannerError, OSError) as exc:
            reason = str(exc)
            self.show_error("Save plan", f"The plan was not saved: {reason[0].lower() + reason[1:] if reason else ''}.\n"
                            "Your changes are still open here; choose File → Save As… to save them elsewhere.")
            return False
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
        start = str((self.doc.path or Path(self.doc.plan.name)).with_suffix(".xlsx"))
        path, _ = QFileDialog.getSaveFileName(self, "Export Excel workbook", start, "Excel workbooks (*.xlsx)")
        if path:
            self._export(lambda: write_workbook(self.doc.plan, self.doc.catalog, Path(path)), path)

    def export_drawing(self, kind: str) -> None:
        export = optional_function("ui.export.files", "export_drawing")
        if export is None:
            return
        filters = "PDF (*.pdf)" if kind == "pdf" else "SVG drawing (*.svg);;PNG image (*.png)"
        start = str((self.doc.path or Path(self.doc.plan.name)).with_suffix(f".{kind}"))
        path, _ = QFileDialog.getSaveFileName(self, "Export", start, filters)
        if not path:
            return
        # Prices go into the pack only when "Include prices in the vendor pack" is ticked.
        options = {"with_prices": self.pack_prices_action.isChecked()} if kind == "pdf" else {}
        self._export(lambda: export(self.doc.plan, self.doc.catalog, Path(path), **options), path)

    def export_netbox(self) -> None:
        write = optional_function("planner.export.netbox", "write_netbox")
        if write is None:
            return
        start = str((self.doc.path.parent if self.doc.path else Path.home()))
        folder = QFileDialog.getExistingDirectory(self, "Export NetBox import files into", start)
        if folder:
            self._export(lambda: write(self.doc.plan, self.doc.catalog, Path(folder)), folder)

    def import_device_types(self) -> None:
        """NetBox device-type YAML -> a catalog file, and its devices in the palette at once."""
        importer = optional_function("planner.hardware.netbox_types", "import_into_catalog_file")
        if importer is None:
            return
        files, _ = QFileDialog.getOpenFileNames(self, "Import NetBox device types", "",
                                                "NetBox device types (*.yaml *.yml);;All files (*)")
        if not files:
            return
        gpu = self._ask_gpu()
        if gpu is False:
            return
        start = str((self.doc.path.parent if self.doc.path else Path.home()) / "my-catalog.json")
        target, _ = QFileDialog.getSaveFileName(self, "Save the device types in the catalog file", start,
                                                "Catalog files (*.json)")
        if not target:
            return
        try:
            entries, problems = importer(files, Path(target), gpu=gpu, catalog=self.doc.catalog)
        except PlannerError as exc:
            self.show_error("Import device types", str(exc))
            return
        if problems:
            self.show_error("Import device types", "Nothing was imported:\n" + "\n".join(problems))
            return
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

    def _export(self, write, path: str) -> None:
        try:
            write()
        except (PlannerError, OSError) as exc:
            self.show_error("Export", str(exc))
            return
        self.statusBar().showMessage(f"Exported {path}", 5000)
