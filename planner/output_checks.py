"""Whether a written file is complete of its kind, before it replaces the old one: a PDF ends
with its trailer, an SVG parses as XML, a PNG's chunks and image data decode, a workbook opens
as a zip with its workbook part, a plan parses as JSON (``planner.safefile.write_file``)."""

from __future__ import annotations

import json
import os
import re
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from xml.parsers import expat

from planner.save_target import SaveError


def verify_written(tmp: str | Path, suffix: str) -> None:
    """Raise SaveError if the file at ``tmp`` is not a complete file of its kind."""
    check = _VERIFIERS.get(suffix.lower())
    if check is None:
        return
    problem = check(Path(tmp))
    if problem:
        raise SaveError(f"the written {suffix.lstrip('.').upper()} is incomplete or damaged ({problem}); "
                        "the disk may be full")


def _verify_pdf(path: Path) -> str | None:
    with open(path, "rb") as fh:
        if fh.read(5) != b"%PDF-":
            return "no PDF header"
        size = fh.seek(0, os.SEEK_END)
        fh.seek(max(0, size - 2048))
        tail = fh.read()
    if b"%%EOF" not in tail or b"startxref" not in tail:
        return "no trailer"
    offset = re.search(rb"startxref\s+(\d+)", tail)
    if not offset or int(offset.group(1)) >= size:
        return "the cross-reference offset points outside the file"
    with open(path, "rb") as fh:
        fh.seek(int(offset.group(1)))
        head = fh.read(16)
    if not (head.startswith(b"xref") or re.match(rb"\d+ \d+ obj", head)):
        return "the cross-reference table is missing"
    return None


def _verify_xml(path: Path) -> str | None:
    parser = expat.ParserCreate()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        return f"not valid XML: {expat.ErrorString(exc.code)} at line {exc.lineno}"
    return None


def _verify_png(path: Path) -> str | None:
    """Walk the chunks checking each CRC, and inflate the image data to its end."""
    inflate = zlib.decompressobj()
    with open(path, "rb") as fh:
        if fh.read(8) != b"\x89PNG\r\n\x1a\n":
            return "no PNG signature"
        while True:
            head = fh.read(8)
            if len(head) < 8:
                return "it ends before its last chunk"
            length, kind = int.from_bytes(head[:4], "big"), head[4:]
            data = fh.read(length)
            crc = fh.read(4)
            if len(data) < length or len(crc) < 4 or zlib.crc32(kind + data) != int.from_bytes(crc, "big"):
                return "a damaged chunk"
            if kind == b"IDAT":
                try:
                    while data:
                        inflate.decompress(data, 1 << 20)
                        data = inflate.unconsumed_tail
                except zlib.error:
                    return "the image data do not decode"
            elif kind == b"IEND":
                return None if inflate.eof else "the image data stop early"


def _verify_zip_workbook(path: Path) -> str | None:
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if "xl/workbook.xml" not in names:
                return "no workbook inside"
            if archive.testzip() is not None:
                return "a damaged part"
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        return f"does not open: {exc}"
    return None


def _verify_json(path: Path) -> str | None:
    try:
        with open(path, "rb") as fh:
            json.load(fh)
    except (ValueError, RecursionError) as exc:
        return f"not valid JSON: {exc}"
    return None


_VERIFIERS: dict[str, Callable[[Path], str | None]] = {
    ".pdf": _verify_pdf, ".svg": _verify_xml, ".png": _verify_png, ".xlsx": _verify_zip_workbook,
    ".json": _verify_json,
}
