"""Each write of a save or export fails in turn (ENOSPC, EIO, EACCES at the nth file-system
call of the planner's writer, tests/faults.py): the old file is intact, the message names the
cause, no temporary file is left; for files a library writes itself, a file-size limit at
several sizes. Plan save, workbook, cables CSV, NetBox folder and autosave here; PDF, SVG
and PNG in tests/ui/test_fault_injection_drawings.py."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

import planner.export.netbox as netbox
import planner.export.netbox_files as netbox_files
import planner.safefile as safefile
from planner.design.templates import build_template
from planner.export.xlsx import write_workbook
from planner.hardware.catalog import default_catalog
from planner.network.cables import build_schedule
from planner.plan.fileio import load_plan, save_plan
from planner.safefile import write_file
from tests.faults import CAUSES, each_failure, run_with_file_limit

CODES = [errno.ENOSPC, errno.EIO, errno.EACCES]


@pytest.fixture(scope="module")
def medium():
    return build_template("medium", catalog=default_catalog())


def _left(folder: Path, expected: set[str]) -> None:
    assert {p.name for p in folder.iterdir()} == expected  # nothing half-made, no temporary


def _check(code, old: Path, before, folder: Path, names: set[str]):
    def failed(message: str) -> None:
        assert CAUSES[code] in message, message
        assert old.read_bytes() == before["bytes"]  # as it was before this save
        _left(folder, names)
    return failed


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_plan_save(tmp_path, monkeypatch, medium, code):
    path = tmp_path / "p.json"
    old = build_template("single-node")

    def prepare():
        for p in tmp_path.iterdir():
            p.unlink()
        save_plan(old, path)
        save_plan(old, path)  # and one backup to rotate

    prepare()
    before = path.read_bytes()

    def failed(message):
        assert CAUSES[code] in message, message
        assert path.read_bytes() == before
        backups = {p.name for p in tmp_path.iterdir()} - {"p.json"}
        assert backups <= {"p.json.1.bak", "p.json.2.bak"}  # no temporary left
        assert all(load_plan(tmp_path / b).name == old.name for b in backups)  # each backup a whole plan

    made = each_failure(monkeypatch, [safefile], code, prepare, lambda: save_plan(medium, path, keep=3), failed,
                        lambda: load_plan(path).name == medium.name)
    assert made >= 6  # mkstemp, write, fchmod, fsync, link, replace ... each failed once


def _old_file(path: Path, write):
    """A prepare() that writes the old file afresh, and what it holds (as of the last prepare)."""
    before = {}

    def prepare():
        for p in path.parent.iterdir():
            p.unlink()
        write()
        before["bytes"] = path.read_bytes()
    prepare()
    return prepare, before


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_workbook(tmp_path, monkeypatch, medium, code):
    path = tmp_path / "p.xlsx"
    prepare, before = _old_file(path, lambda: write_workbook(build_template("single-node"), default_catalog(), path))
    made = each_failure(monkeypatch, [safefile], code, prepare, lambda: write_workbook(medium, default_catalog(), path),
                        _check(code, path, before, tmp_path, {"p.xlsx"}), lambda: path.read_bytes() != before["bytes"])
    assert made >= 4


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_cables_csv(tmp_path, monkeypatch, medium, code):
    path = tmp_path / "c.csv"
    prepare, before = _old_file(path, lambda: path.write_text("old\n"))
    text = build_schedule(medium, default_catalog()).to_csv().encode()
    made = each_failure(monkeypatch, [safefile], code, prepare, lambda: write_file(path, text, kind=".csv"),
                        _check(code, path, before, tmp_path, {"c.csv"}), lambda: path.read_bytes() == text)
    assert made >= 4


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_netbox_folder(tmp_path, monkeypatch, medium, code):
    out = tmp_path / "nb"

    def prepare():
        shutil.rmtree(out, ignore_errors=True)
        netbox.write_netbox(build_template("single-node"), default_catalog(), out)

    prepare()
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def failed(message):
        assert CAUSES[code] in message, message
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the previous export, whole
        _left(tmp_path, {"nb"})

    made = each_failure(monkeypatch, [safefile, netbox_files], code, prepare,
                        lambda: netbox.write_netbox(medium, default_catalog(), out), failed,
                        lambda: (out / "01-sites.csv").read_text().count(medium.name) == 1)
    assert made >= 3  # making the staging folder, its mode, the renames


def test_a_folder_that_cannot_be_made_names_where_it_goes(tmp_path, monkeypatch):
    # the export folder is made beside its target: a parent nobody may write in is the place
    # to name (as root the mode is no bar, so the refusal is what the system call answers)
    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(safefile.tempfile, "mkdtemp", refused)
    out = tmp_path / "ro" / "nb"
    with pytest.raises(safefile.SaveError) as caught:
        netbox.write_netbox(build_template("single-node"), default_catalog(), out)
    assert str(caught.value) == (f"cannot write the files into {out}: no permission to write in {out.parent} "
                                 "(nothing was written)")


@pytest.mark.parametrize("args, out", [
    (["export", "p.json", "-o", "p.xlsx"], "p.xlsx"),
    (["cables", "p.json", "--csv", "c.csv"], "c.csv"),
    # one file per object type (parts of 100 rows are each below the largest limit)
    (["export", "p.json", "-o", "nb", "--netbox", "--chunk-rows", "100000"], "nb"),
])
def test_file_size_limits_leave_the_old_output(tmp_path, medium, args, out):
    save_plan(build_template("single-node"), tmp_path / "p.json", keep=0)
    assert run_with_file_limit(1 << 30, *args, cwd=tmp_path).returncode == 0
    target = tmp_path / out
    snapshot = (lambda: {p.name: p.read_bytes() for p in target.iterdir()}) if target.is_dir() else target.read_bytes
    before = snapshot()
    save_plan(medium, tmp_path / "p.json", keep=0)
    for limit in (1, 512, 4096, 32768):
        done = run_with_file_limit(limit, *args, cwd=tmp_path)
        assert done.returncode == 2, (limit, done.stderr)
        assert ("larger than this disk or account allows" in done.stderr
                or "the disk may be full" in done.stderr), done.stderr
        assert snapshot() == before
        _left(tmp_path, {"p.json", out})


def test_a_share_root_is_written_file_by_file(tmp_path, monkeypatch, medium):
    # A mount point (the root of a share) cannot be renamed, which is how a folder is replaced
    # whole: the files are staged inside it and renamed in one by one, over the previous export.
    out = tmp_path / "share"
    out.mkdir()
    monkeypatch.setattr(safefile.os.path, "ismount", lambda p: Path(p) == out)
    netbox.write_netbox(build_template("single-node"), default_catalog(), out)
    first = sorted(p.name for p in out.iterdir())
    netbox.write_netbox(medium, default_catalog(), out)
    names = sorted(p.name for p in out.iterdir())
    assert names[0] == "01-sites.csv" and not any(n.startswith(safefile.TMP_PREFIX) for n in names)
    assert (out / "01-sites.csv").read_text().count(medium.name) == 1  # the second export's, whole
    fresh = tmp_path / "fresh"
    netbox.write_netbox(medium, default_catalog(), fresh)
    assert names == sorted(p.name for p in fresh.iterdir()) != first  # medium's files alone
    _left(tmp_path, {"share", "fresh"})


@pytest.mark.parametrize("below", ["nb", "sub/nb"])
def test_a_file_where_a_folder_goes_is_named(tmp_path, below):
    (tmp_path / "plan.pdf").write_text("a pdf")
    out = tmp_path / "plan.pdf" / below
    with pytest.raises(safefile.SaveError) as caught:
        netbox.write_netbox(build_template("single-node"), default_catalog(), out)
    assert str(caught.value) == (f"cannot write the files into {out}: {tmp_path / 'plan.pdf'} is a file, not a "
                                 "folder (nothing was written)")
    assert (tmp_path / "plan.pdf").read_text() == "a pdf"
