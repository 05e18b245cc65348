"""Reading exported workbooks in tests: named cells, and LibreOffice recalculation.

``recalc`` makes LibreOffice recalculate every formula on load (its default for xlsx is
to trust the cached values the planner writes, which would test nothing) and returns the
recalculated copy read with ``data_only=True``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl

from tests.system_tools import require_tool

ERRORS = ("#NAME?", "#REF!", "#VALUE!", "#DIV/0!", "#N/A", "#NUM!", "#NULL!", "Err:")

# LibreOffice's "Recalculation on file load" for Excel 2007+ files: 0 = always.
_ALWAYS_RECALC = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">
<value>0</value></prop></item>
</oor:items>
"""


def find_soffice():
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe is None:
        require_tool("soffice")  # skips, or fails under CI
    return exe


def convert(exe, path, outdir, fmt, profile_dir):
    """``soffice --convert-to fmt`` with its own profile (parallel runs do not clash) that
    always recalculates; returns the converted file's path."""
    (profile_dir / "user").mkdir(parents=True, exist_ok=True)
    (profile_dir / "user" / "registrymodifications.xcu").write_text(_ALWAYS_RECALC)
    outdir.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([exe, f"-env:UserInstallation={profile_dir.as_uri()}", "--headless", "--convert-to", fmt,
                           "--outdir", str(outdir), str(path)], capture_output=True, text=True, timeout=300)
    result = outdir / (path.stem + "." + fmt.split(":")[0])
    assert result.exists(), proc.stdout + proc.stderr
    return result


def recalc(exe, path, tmp_path):
    """``path`` recalculated by LibreOffice, read with cached values."""
    out = convert(exe, path, tmp_path / "recalc", "xlsx", tmp_path / "lo-profile")
    return openpyxl.load_workbook(out, data_only=True)


def recalc_edited(exe, path, tmp_path, **inputs):
    """``path`` with each named input set to its value (openpyxl), saved to a copy and
    recalculated by LibreOffice."""
    wb = openpyxl.load_workbook(path)
    for name, value in inputs.items():
        cell_of(wb, name).value = value
    edited = tmp_path / "edited" / Path(path).name
    edited.parent.mkdir(exist_ok=True)
    wb.save(edited)
    return recalc(exe, edited, edited.parent)


def monthly_rows(ws):
    """The rows of the Costs sheet's month-by-month table (after its "Month" header) that
    show a month."""
    rows = list(ws.iter_rows(values_only=True))
    start = next(i for i, r in enumerate(rows) if r[0] == "Month") + 1
    return [r for r in rows[start:] if isinstance(r[0], int)]


def cell_of(wb, name):
    ((sheet, coord),) = list(wb.defined_names[name].destinations)
    return wb[sheet][coord.replace("$", "")]


def named(wb, name):
    return cell_of(wb, name).value


def error_cells(wb, skip_hidden=True):
    """Cells holding an error, except in hidden columns (the chart's #N/A gaps)."""
    out = []
    for ws in wb:
        hidden = {i for d in ws.column_dimensions.values() if d.hidden and skip_hidden
                  for i in range(d.min, d.max + 1)}
        for row in ws.iter_rows():
            for c in row:
                if c.column in hidden:
                    continue
                if c.data_type == "e" or (isinstance(c.value, str) and c.value.startswith(ERRORS)):
                    out.append((ws.title, c.coordinate, c.value))
    return out
