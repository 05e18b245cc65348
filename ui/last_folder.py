"""The folder file dialogs start in: the one last used for any file (remembered in QSettings
across sessions), shared by the plan, export, import and chart dialogs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

LAST_FOLDER_KEY = "files/lastFolder"


def last_folder(fallback: Path | None = None) -> Path:
    """The folder last used, if it still exists; else ``fallback``; else the working folder."""
    value = QSettings().value(LAST_FOLDER_KEY, "")
    if value and Path(str(value)).is_dir():
        return Path(str(value))
    return fallback if fallback is not None else Path.cwd()


def remember_folder(path: str | Path, *, is_folder: bool = False) -> None:
    """Remember the folder of ``path`` (a file just opened or written), or ``path`` itself when
    it is a folder chosen (an export into a folder, a folder of logs imported)."""
    resolved = Path(path).resolve()
    QSettings().setValue(LAST_FOLDER_KEY, str(resolved if is_folder else resolved.parent))
