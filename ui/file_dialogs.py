"""The app's file dialogs: Qt's, with file types and icons named from a file's name alone.

Qt's own file dialog (the one used where the desktop offers no native dialog, as on a bare
X server) names each file's type and icon from its MIME type, and for a name with no
known extension it reads the file's first bytes to tell. Some files never answer a read:
typing ``/proc/`` into the dialog, or opening the folder, listed ``/proc/kmsg``, whose read
waits for the next kernel message, and the window froze for good (as root, who may open
it). Here a file's type and icon come from its name only, and the dialog never opens a file
it lists. The functions take and return what ``QFileDialog``'s static functions do.
"""

from __future__ import annotations

import functools

from PySide6.QtCore import QFileInfo, QMimeDatabase
from PySide6.QtGui import QAbstractFileIconProvider
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QHeaderView, QStyle, QTreeView, QWidget


class NameOnlyIcons(QAbstractFileIconProvider):
    """Icons and type names from a file's name and kind (folder or file), never its content."""

    def __init__(self) -> None:
        super().__init__()
        self._mime = QMimeDatabase()

    def icon(self, what):  # noqa: ANN001 - Qt's two overloads: an IconType or a QFileInfo
        if not isinstance(what, QFileInfo):
            return super().icon(what)
        style = QApplication.style()
        return style.standardIcon(QStyle.StandardPixmap.SP_DirIcon if what.isDir() else
                                  QStyle.StandardPixmap.SP_FileIcon)

    def type(self, info: QFileInfo) -> str:
        if info.isDir():
            return "Folder"
        return self._mime.mimeTypeForFile(info.fileName(), QMimeDatabase.MatchMode.MatchExtension).comment()


@functools.cache
def _icons() -> NameOnlyIcons:
    """One provider for every dialog (made once a QApplication runs)."""
    return NameOnlyIcons()


def _run(parent: QWidget | None, caption: str, start: str, filters: str, mode: QFileDialog.FileMode,
         save: bool = False) -> tuple[list[str], str]:
    dialog = QFileDialog(parent, caption, start, filters)
    dialog.setIconProvider(_icons())
    dialog.resize(820, 480)
    details = dialog.findChild(QTreeView, "treeView")  # Qt's own dialog: its size and date columns were cut
    if details is not None:  # ("12....KiB", "7 Dec ...:30:53"): they take their contents' width
        header = details.header()
        for column in range(1, header.count()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    dialog.setFileMode(mode)
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    if mode == QFileDialog.FileMode.Directory:
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    chosen = (dialog.selectedFiles(), dialog.selectedNameFilter()) if accepted else ([], "")
    dialog.deleteLater()
    return chosen


def open_file_name(parent: QWidget | None, caption: str, start: str = "", filters: str = "") -> tuple[str, str]:
    files, chosen = _run(parent, caption, start, filters, QFileDialog.FileMode.ExistingFile)
    return (files[0] if files else ""), chosen


def open_file_names(parent: QWidget | None, caption: str, start: str = "", filters: str = "") -> tuple[list[str], str]:
    return _run(parent, caption, start, filters, QFileDialog.FileMode.ExistingFiles)


def save_file_name(parent: QWidget | None, caption: str, start: str = "", filters: str = "") -> tuple[str, str]:
    files, chosen = _run(parent, caption, start, filters, QFileDialog.FileMode.AnyFile, save=True)
    return (files[0] if files else ""), chosen


def existing_directory(parent: QWidget | None, caption: str, start: str = "") -> str:
    files, _ = _run(parent, caption, start, "", QFileDialog.FileMode.Directory)
    return files[0] if files else ""
