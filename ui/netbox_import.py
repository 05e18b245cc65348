"""File > Import > From NetBox…: a folder of NetBox's exports of one site opens as a new,
unsaved plan (``planner.importers.netbox``), with what could not be mapped shown.
Mixed into ``MainWindow`` beside ``FileActions`` (which provides the dialogs' helpers)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from planner.errors import PlannerError
from planner.plan.names import file_slug
from ui import file_dialogs

TITLE = "Import from NetBox"


class NetBoxImportActions:
    def import_from_netbox(self) -> None:
        folder = file_dialogs.existing_directory(self, "Folder of NetBox's exports of one site",
                                                  str(self.last_folder()))
        if folder:
            self._remember_folder(Path(folder) / "sites.csv")
            self.import_from_netbox_folder(Path(folder))

    def import_from_netbox_folder(self, folder: Path) -> str:
        """Import ``folder`` and open the plan; returns the report shown (for tests and the status bar)."""
        from planner.importers.netbox import import_netbox, write_types

        try:
            result = import_netbox(folder, self.doc.catalog)
        except PlannerError as exc:
            self.show_error(TITLE, str(exc))
            return str(exc)
        lines = result.sentences()
        if result.new_types:
            start = str(self.last_folder() / f"{file_slug(result.plan.name)}.types.json")
            target, _ = file_dialogs.save_file_name(
                self, f"Save the {len(result.new_types)} device types the catalog does not have", start,
                "Catalog files (*.json)")
            if not target:
                return "cancelled: the plan needs its device types saved"
            try:
                write_types(result.new_types, target)
            except PlannerError as exc:
                self.show_error(TITLE, str(exc))
                return str(exc)
            self.doc.catalog.extend(tuple(result.new_types), Path(target).name, allow_override=True)
            self.palette_panel.set_catalog(self.doc.catalog)
            lines.append(f"{len(result.new_types)} device types saved in {Path(target).name}: start with "
                         f"--catalog {target} to open this plan again")
        if not self.maybe_save():  # asked once the import is ready to take the plan's place
            return "cancelled: the plan's unsaved changes kept"
        self.show_plan(result.plan, unsaved_work=True)
        report = "\n".join(lines)
        QMessageBox.information(self, TITLE, f"Imported {folder.name} as a new plan (not saved yet).\n\n{report}")
        self.statusBar().showMessage(f"Imported {result.plan.name} from NetBox: not saved yet", 8000)
        return report
