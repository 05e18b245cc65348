"""Save a workbook with the computed value of every formula cell (openpyxl cannot).

openpyxl writes a formula as ``<c r="B4"><f>BOM_Total</f><v/></c>``: no result, so until
a spreadsheet program recalculates (Excel's Protected View, mail and file previewers and
pandas never do) the cell reads blank. The planner knows what each of its formulas
computes (``xlsx_cells.formula(value=...)``); this module saves the workbook with openpyxl
and then writes those values into the sheets' XML as the cells' cached results. The
workbook still asks Excel to recalculate on open (``fullCalcOnLoad``), so an edited input
is never shown with a stale result. Reading the file back with openpyxl is unchanged.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from typing import Any, BinaryIO
from xml.sax.saxutils import escape

from planner.export.xlsx_cells import NA, cached_values

# A formula cell as openpyxl writes it (attributes r, optional s; no t) with an empty result.
_FORMULA_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"((?: s="[0-9]+")?)><f>([^<]*)</f><v\s*/></c>')


def save_with_values(wb, fh: BinaryIO) -> None:
    """Save ``wb`` to the open binary file ``fh``, formula cells carrying their values."""
    values = cached_values(wb)
    raw = io.BytesIO()
    wb.save(raw)
    by_part: dict[str, dict[bytes, Any]] = {}
    for ws in wb.worksheets:
        cells = {coord.encode(): v for (title, coord), v in values.items() if title == ws.title}
        if cells:
            by_part[ws.path.lstrip("/")] = cells
    raw.seek(0)
    with zipfile.ZipFile(raw) as src, zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            cells = by_part.get(info.filename)
            if cells:
                data = _fill(data, cells)
            dst.writestr(info, data)


def _fill(xml: bytes, cells: dict[bytes, Any]) -> bytes:
    def put(m: re.Match) -> bytes:
        coord, style, expr = m.group(1), m.group(2), m.group(3)
        if coord not in cells:
            return m.group(0)
        kind, text = _cached(cells[coord])
        t = b"" if kind == b"n" else b' t="' + kind + b'"'
        return b'<c r="' + coord + b'"' + style + t + b"><f>" + expr + b"</f><v>" + text + b"</v></c>"

    return _FORMULA_CELL.sub(put, xml)


def _cached(value: Any) -> tuple[bytes, bytes]:
    """(cell type, text of <v>) for a formula's result: number, string, bool or #N/A."""
    if value is None:
        return b"str", b""
    if value is NA or value == NA:
        return b"e", NA.encode()
    if isinstance(value, bool):
        return b"b", b"1" if value else b"0"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return b"e", b"#NUM!"
        return b"n", repr(float(value) if isinstance(value, float) else int(value)).encode()
    return b"str", escape(str(value)).encode("utf-8")
