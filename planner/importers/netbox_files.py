"""Reading NetBox's own exports of one site: the list views' "All data" CSV files and the
device types' YAML export, with NetBox's display values ("42U", "1360 kg", "Front",
"NDR (100 Gbps)").

Column titles are those NetBox 4.4 writes for each list (``netbox/dcim/tables/``): a file
without a column the import needs is refused, naming the file and the column; a value that
cannot be read is refused naming the file, the row (as a spreadsheet numbers it: the header
is row 1) and the object. A file cut short (a row of fewer cells than the header, or no line
end at its end, where NetBox writes one) is refused: it would import part of the site. Files
are read size-limited (``planner.readfile``).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from planner.errors import PlannerError, one_line, quote
from planner.hardware.netbox_types import INFINIBAND_GBPS, KG_PER
from planner.readfile import YamlLimitError, read_limited, safe_yaml

MAX_CSV_BYTES = 64 * 1024 * 1024  # ~250,000 interfaces of NetBox's "All data" export
MAX_TYPES_BYTES = 16 * 1024 * 1024
DEVICE_TYPES = "device-types.yaml"

# file -> the columns the import reads; a file of this table must be there
REQUIRED = {
    "sites.csv": ("Name",),
    "racks.csv": ("Name", "Location", "Height", "Max Weight", "Description"),
    "devices.csv": ("Name", "Rack", "Position", "Rack face", "Manufacturer", "Type"),
    "cables.csv": ("ID", "Device A", "Termination A", "Device B", "Termination B"),
}
# files the import uses when they are there
OPTIONAL = {
    "power-feeds.csv": ("Name", "Power Panel", "Rack", "Type", "Voltage", "Amperage", "Phase"),
    "power-ports.csv": ("Device", "Maximum draw (W)", "Allocated draw (W)"),
    "interfaces.csv": ("Name", "Device", "Type", "Management Only"),
    "locations.csv": ("Name", "Parent", "Slug", "Description"),
}


class NetBoxReadError(PlannerError):
    """A file of the export that cannot be used: one line naming the file (and row)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One data row of a CSV file, with where it came from for messages."""

    file: str
    number: int  # as a spreadsheet numbers it: the header is row 1
    cells: dict[str, str]

    def __getitem__(self, column: str) -> str:
        return (self.cells.get(column) or "").strip()

    def where(self) -> str:
        name = self["Name"] or self["ID"]
        return f"{self.file} row {self.number}" + (f" ({quote(name, 40)})" if name else "")


def read_csv(folder: Path, name: str, columns: tuple[str, ...]) -> list[Row]:
    """The rows of ``folder/name``; NetBoxReadError if it is missing, not UTF-8 CSV, or lacks a column."""
    text = _read_text(folder / name, MAX_CSV_BYTES, f"NetBox's {_list_title(name)} list of the site")
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader, None)
        if not header:
            raise NetBoxReadError(f"{name}: empty; it needs a header row with {', '.join(columns)}")
        header = [h.strip() for h in header]
        missing = [c for c in columns if c not in header]
        if missing:
            raise NetBoxReadError(f"{name}: no column {', '.join(quote(c) for c in missing)} (its header has "
                                  f"{one_line(', '.join(header[:8]), 200)}{' ...' if len(header) > 8 else ''}); "
                                  "export the list with Export > All data, not the current view")
        rows = []
        for number, cells in enumerate(reader, start=2):
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):  # NetBox writes every column of every row
                cut = " (the file is cut short: export it again)" if len(cells) < len(header) else ""
                raise NetBoxReadError(f"{name} row {number}: {len(cells)} cells under {len(header)} column "
                                      f"titles{cut}")
            rows.append(Row(name, number, dict(zip(header, cells))))
    except csv.Error as exc:
        raise NetBoxReadError(f"{name}: not a CSV file NetBox writes ({exc})") from None
    return rows


def _read_text(path: Path, limit: int, what: str) -> str:
    """The text of one exported file; NetBoxReadError naming it when it is missing or not UTF-8."""
    if not path.exists():
        raise NetBoxReadError(f"{path}: missing; export {what} with Export > All data into this folder")
    raw = read_limited(path, limit, "NetBox export file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NetBoxReadError(f"{path.name}: not a UTF-8 text file (NetBox exports UTF-8)") from None
    if text.strip() and not text.endswith("\n"):  # NetBox ends every file with a line end
        raise NetBoxReadError(f"{path.name}: ends in the middle of a line, so the file is cut short: "
                              "export it again")
    return text


def _list_title(name: str) -> str:
    return name.removesuffix(".csv").replace("-", " ").title()


def read_device_types(folder: Path) -> list[dict]:
    """The documents of NetBox's device-type YAML export (one document per type, "---" between them)."""
    text = _read_text(folder / DEVICE_TYPES, MAX_TYPES_BYTES, "NetBox's Device Types list (written as YAML)")
    docs: list[dict] = []
    line = 1
    for chunk in re.split(r"(?m)^---[ \t]*$", text):
        if chunk.strip():
            try:
                data = safe_yaml(chunk)
            except YamlLimitError as exc:
                raise NetBoxReadError(f"{DEVICE_TYPES}, document {len(docs) + 1}: {exc}") from None
            except yaml.YAMLError as exc:
                mark = getattr(exc, "problem_mark", None)
                at = f" at line {line + mark.line}" if mark is not None else ""
                raise NetBoxReadError(f"{DEVICE_TYPES}: not valid YAML{at} (document {len(docs) + 1})") from None
            if not isinstance(data, dict) or not data.get("model"):
                raise NetBoxReadError(f"{DEVICE_TYPES}, document {len(docs) + 1}: not a device type "
                                      "(a mapping with manufacturer, model, slug, u_height ...)")
            docs.append(data)
        line += chunk.count("\n")  # the next document starts on the separator's line
    return docs


# -- NetBox's display values ----------------------------------------------------------------

def number(row: Row, column: str, *, unit: str = "") -> float | None:
    """A number as NetBox shows it ("42U", "415", "80%"); None when the cell is empty."""
    text = row[column]
    if not text:
        return None
    body = text.removesuffix(unit).strip() if unit else text
    try:
        return float(body.replace(",", ""))
    except ValueError:
        raise NetBoxReadError(f"{row.where()}: {column} {quote(text, 30)} is not a number"
                              + (f" of {unit}" if unit else "")) from None


def weight_kg(row: Row, column: str) -> float | None:
    """A weight as NetBox shows it with its unit ("1360 kg", "3000 lb"), in kg; None when empty."""
    text = row[column]
    if not text:
        return None
    m = re.fullmatch(r"([0-9][0-9,]*(?:\.[0-9]+)?)\s*([A-Za-z]+)", text)
    if not m or m.group(2).lower() not in KG_PER:
        raise NetBoxReadError(f"{row.where()}: {column} {quote(text, 30)} is not a weight in "
                              f"{', '.join(KG_PER)}")
    return float(m.group(1).replace(",", "")) * KG_PER[m.group(2).lower()]


def interface_kind(label: str) -> str:
    """A NetBox interface type slug from its display label ("NDR (100 Gbps)" -> infiniband-ndr,
    "OSFP (400GE)" -> 400gbase-x, "1000BASE-T (1GE)" -> 1gbase-x); a slug stays as it is.

    NetBox labels InfiniBand types by generation with the per-lane rate in brackets, Ethernet
    types by form factor with the port's rate: the generation, or the port rate, is what says
    the speed."""
    text = label.strip()
    m = re.fullmatch(r"([A-Za-z0-9]+) \(.*\)", text)
    if m and m.group(1).lower() in INFINIBAND_GBPS:
        return f"infiniband-{m.group(1).lower()}"
    m = re.search(r"\((\d+(?:\.\d+)?)GE\)", text)
    if m:
        return f"{m.group(1)}gbase-x"
    return text.lower()
