"""The NetBox export's files: their columns in import order, and the streamed writer that puts
each type's rows into numbered files, in parts of at most ``chunk_rows`` rows.

Names keep the import order: "06-racks.csv", or "12-interfaces-01.csv", "12-interfaces-02.csv"
... for a type longer than one part. NetBox imports cells literally, so a name a spreadsheet
would take as a formula (``= + - @``, tab, carriage return first) is refused, naming the
objects, rather than altered (docs/safety.md).
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from planner.export.rack_columns import NETBOX_RACKS
from planner.export.table_columns import headers
from planner.save_target import SaveError, folder_failure, names_besides
from planner.text import FORMULA_STARTS, clean_text

# The order NetBox needs them imported in: each file refers only to objects of the files before it.
FILES: dict[str, tuple[str, ...]] = {
    "sites.csv": ("name", "slug", "status", "description", "comments"),
    "locations.csv": ("site", "parent", "name", "slug", "status", "description"),
    "manufacturers.csv": ("name", "slug"),
    "device-roles.csv": ("name", "slug", "color"),
    "device-types.csv": ("manufacturer", "model", "slug", "u_height", "is_full_depth", "airflow", "weight",
                         "weight_unit", "comments"),
    "racks.csv": tuple(headers(NETBOX_RACKS)),
    "devices.csv": ("name", "role", "manufacturer", "device_type", "status", "site", "location", "rack",
                    "position", "face", "description"),
    "power-panels.csv": ("site", "name", "description"),
    "power-feeds.csv": ("site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase",
                        "voltage", "amperage", "max_utilization", "description"),
    "power-ports.csv": ("device", "name", "maximum_draw", "allocated_draw", "description"),
    "power-outlets.csv": ("device", "name", "type", "power_port", "description"),
    "interfaces.csv": ("device", "name", "type", "description"),
    "cables.csv": ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
                   "side_b_type", "side_b_name", "type", "status", "label", "length", "length_unit"),
    "inventory-items.csv": ("device", "name", "manufacturer", "part_id", "description"),
    "power-cables.csv": ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site",
                         "side_b_device", "side_b_type", "side_b_name", "type", "status", "label", "length",
                         "length_unit"),
    # NetBox 4.5.8 and later: its cable import takes a power feed by its panel (side_a_power_panel)
    "power-feed-cables.csv": ("side_a_site", "side_a_power_panel", "side_a_type", "side_a_name", "side_b_site",
                              "side_b_device", "side_b_type", "side_b_name", "type", "status", "label"),
}

# Rows per file: NetBox imports a file in one web request, which a production NetBox behind
# gunicorn's default 120 s timeout cuts off. Planner assumption, from one import into NetBox 4.4:
# cables went in at about 2 rows/s (1,152 in 9 min), interfaces at about 4.5 rows/s (3,008 in
# 11 min); 100 rows are under a minute at the slower rate, half the timeout.
CHUNK_ROWS = 100

# Rows between two calls of the export's ``progress`` callback: a call every few thousand
# rows costs nothing measurable, and still comes about every 0.1 s on campus-1m.
PROGRESS_ROWS = 5_000
PROGRESS_TEXT = "NetBox files"

@dataclass(slots=True)
class NetBoxExport:
    """Rows per file name, and notes on what the plan could not say."""

    rows: dict[str, list[dict]] = field(default_factory=lambda: {name: [] for name in FILES})
    notes: list[str] = field(default_factory=list)
    site: str = ""  # the site's name: cables name it beside each device (NetBox finds devices by name within a site)

    def add(self, file: str, /, **row) -> None:
        self.rows[file].append(row)

    def count(self, file: str) -> int:
        """How many rows ``file`` has."""
        return len(self.rows[file])

    def tell(self, step: str) -> None:
        """A long step before the rows that follow it (the streamed export reports it)."""


def numbered(name: str) -> str:
    """"racks.csv" -> "06-racks.csv", its place in the import order."""
    return f"{list(FILES).index(name) + 1:02d}-{name}"


def part_names(name: str, rows: int, chunk_rows: int) -> list[str]:
    """The files ``rows`` rows of ``name`` go into: "12-interfaces.csv" when one file holds them,
    else "12-interfaces-01.csv", "12-interfaces-02.csv" ... (import them in that order)."""
    parts = max(1, -(-rows // chunk_rows))
    if parts == 1:
        return [numbered(name)]
    width = max(2, len(str(parts)))
    return [f"{numbered(name)[:-4]}-{k:0{width}d}.csv" for k in range(1, parts + 1)]


def file_names(export: NetBoxExport, chunk_rows: int = CHUNK_ROWS) -> list[str]:
    """The files to write, numbered in import order ("01-sites.csv", then the parts of a file
    longer than ``chunk_rows``); types with no rows are left out."""
    return [part for name in FILES if export.count(name) for part in part_names(name, export.count(name), chunk_rows)]


EXPORT_FILE = re.compile(r"^(\d\d)-([a-z-]+?)(?:-\d{2,})?\.csv$")
MAX_NAMED = 5


def is_export_file(name: str) -> bool:
    """Whether ``name`` is one an export writes (an earlier export's files may be replaced)."""
    m = EXPORT_FILE.match(name)
    return bool(m) and f"{m.group(1)}-{m.group(2)}.csv" in {numbered(n) for n in FILES}


def _some(items: list[str]) -> str:
    """The first few of ``items`` and how many more, for a one-line message."""
    more = f" and {len(items) - MAX_NAMED:,} more" if len(items) > MAX_NAMED else ""
    return ", ".join(items[:MAX_NAMED]) + more


class StreamedExport(NetBoxExport):
    """Rows written to their files in ``folder`` as they are made (a file opens at its first
    row, a new part after every ``chunk_rows`` rows), never held; a cell a spreadsheet would
    execute is noted, not written.

    ``progress(rows, 0, "NetBox files")`` (optional) is told every ``PROGRESS_ROWS`` rows
    (the total is not known in advance: 0); it may raise ``ExportCancelled`` to stop."""

    def __init__(self, folder: Path, chunk_rows: int = CHUNK_ROWS,
                 progress: Callable[[int, int, str], None] | None = None) -> None:
        super().__init__(rows={})
        self.folder = folder
        self.chunk_rows = chunk_rows
        self.progress = progress
        self.rows_made = 0
        self.counts: dict[str, int] = dict.fromkeys(FILES, 0)
        self.unsafe: list[str] = []
        self._files: dict[str, tuple] = {}

    def _part(self, file: str, k: int) -> Path:
        return self.folder / f"{numbered(file)[:-4]}.part{k}"

    def add(self, file: str, /, **row) -> None:
        for column, value in row.items():
            if isinstance(value, str) and value[:1] in FORMULA_STARTS:
                self.unsafe.append(f"{file[:-4]} {column} {clean_text(value, 'line')[:60]!r}")
        self.counts[file] += 1
        self.rows_made += 1
        if self.progress is not None and self.rows_made % PROGRESS_ROWS == 0:
            self.progress(self.rows_made, 0, PROGRESS_TEXT)
        if self.unsafe:
            return
        if (self.counts[file] - 1) % self.chunk_rows == 0:  # the first row of a part
            self._close(file)
            handle = open(self._part(file, (self.counts[file] - 1) // self.chunk_rows + 1), "w", encoding="utf-8",
                          newline="")
            writer = csv.DictWriter(handle, fieldnames=FILES[file], lineterminator="\n", extrasaction="raise")
            writer.writeheader()
            self._files[file] = (handle, writer)
        self._files[file][1].writerow(row)

    def _close(self, file: str) -> None:
        if file in self._files:
            handle = self._files.pop(file)[0]
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()

    def count(self, file: str) -> int:
        return self.counts[file]

    def tell(self, step: str) -> None:
        """``progress(0, 0, "NetBox files: <step>")``: a cancel is heard before a long step too."""
        if self.progress is not None:
            self.progress(0, 0, f"{PROGRESS_TEXT}: {step}")

    def finish(self) -> None:
        """Close every file, durably, and give the parts their names; SaveError naming the
        objects a spreadsheet would execute."""
        for file in list(self._files):
            self._close(file)
        if self.unsafe:
            raise SaveError(f"cannot export to NetBox: {_some(self.unsafe)} begin with "
                            "= + - @, a tab or a return, which a spreadsheet runs as a formula and NetBox stores "
                            "as typed; rename them (nothing was written)")
        for file, rows in self.counts.items():
            for k, name in enumerate(part_names(file, rows, self.chunk_rows) if rows else (), 1):
                os.replace(self._part(file, k), self.folder / name)

    def abandon(self) -> None:
        """Close what is still open, after a failure (the files are removed with their folder)."""
        for handle, _ in self._files.values():
            try:
                handle.close()
            except OSError:
                pass  # the buffered rest cannot be written either (the disk that failed)
        self._files.clear()


def other_files(directory: str | Path) -> list[str]:
    """The names in a folder that no NetBox export writes (empty for a folder that is not
    there, or cannot be read: ``check_export_folder`` says why)."""
    return names_besides(directory, is_export_file)


def check_export_folder(directory: str | Path) -> Path:
    """The folder an export replaces (through a symbolic link), or SaveError: a file, or a folder
    holding anything but an earlier export's numbered files (a plan or catalog among them)."""
    target = Path(os.path.realpath(directory))
    if target.exists() and not target.is_dir():
        raise SaveError(f"cannot export to {target}: it is a file; NetBox import files go into a folder")
    if target.is_dir():
        try:
            others = sorted(e.name for e in os.scandir(target) if not is_export_file(e.name))
        except OSError as exc:
            raise folder_failure(target, exc) from None
        if others:
            raise SaveError(f"cannot export to {target}: it holds other files ({_some(others)}), which would be lost "
                            "(the export replaces the folder whole); choose an empty or new folder (nothing was "
                            "written)")
    return target


