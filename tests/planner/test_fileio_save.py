"""Atomic saves with backups; a failed save leaves the old file intact and says why."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from planner.plan.fileio import (
    PlanSaveError,
    backup_path,
    backups_of,
    load_plan,
    plan_to_json,
    save_plan,
)
from planner.plan.model import Plan, Rack
from tests.unprivileged import as_unprivileged, shared_folder


def _plan(name: str) -> Plan:
    return Plan(name=name, racks=[Rack(id="r1", name="A")])


def test_save_keeps_the_previous_versions_as_numbered_backups(tmp_path):
    target = tmp_path / "p.json"
    for i in range(1, 6):  # five saves, keep the last three earlier versions
        save_plan(_plan(f"v{i}"), target, keep=3)
    assert load_plan(target).name == "v5"
    # After saves v1..v5: .1.bak = v4 (the one before the last save), .2 = v3, .3 = v2; v1 dropped.
    assert [load_plan(p).name for p in backups_of(target)] == ["v4", "v3", "v2"]
    assert not backup_path(target, 4).exists()
    # No temporary files left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json", "p.json.1.bak", "p.json.2.bak", "p.json.3.bak"]


def test_first_save_and_keep_zero_make_no_backup(tmp_path):
    target = tmp_path / "p.json"
    save_plan(_plan("one"), target)
    assert backups_of(target) == []
    save_plan(_plan("two"), target, keep=0)
    assert backups_of(target) == [] and load_plan(target).name == "two"


def test_backup_is_a_separate_file_not_changed_by_later_saves(tmp_path):
    target = tmp_path / "p.json"
    save_plan(_plan("old"), target)
    save_plan(_plan("new"), target)
    before = backup_path(target, 1).read_bytes()
    assert before == plan_to_json(_plan("old")).encode()
    target.write_text("overwritten in place by someone else")  # must not reach the backup
    assert backup_path(target, 1).read_bytes() == before


def test_save_keeps_the_file_permissions(tmp_path):
    target = tmp_path / "p.json"
    save_plan(_plan("a"), target)
    os.chmod(target, 0o640)
    save_plan(_plan("b"), target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_save_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    link = tmp_path / "link.json"
    save_plan(_plan("a"), real)
    link.symlink_to(real)
    save_plan(_plan("b"), link)
    assert link.is_symlink() and load_plan(real).name == "b"


def _fail_writes_after(monkeypatch, limit: int, err: int):
    """Let the first ``limit`` bytes reach the temporary file, then fail like a full disk."""
    real_write = os.write
    written = {"n": 0}

    def write(fd, data):
        if written["n"] + len(data) > limit:
            n = real_write(fd, bytes(data[: max(0, limit - written["n"])]))
            written["n"] += n
            raise OSError(err, os.strerror(err))
        written["n"] += len(data)
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


def test_disk_full_leaves_the_old_file_and_backups_intact(tmp_path, monkeypatch):
    target = tmp_path / "p.json"
    save_plan(_plan("first"), target)
    save_plan(_plan("second"), target)
    old, old_backup = target.read_bytes(), backup_path(target, 1).read_bytes()
    _fail_writes_after(monkeypatch, 100, errno.ENOSPC)
    with pytest.raises(PlanSaveError) as info:
        save_plan(_plan("third " + "x" * 150), target)
    monkeypatch.undo()
    msg = str(info.value)
    assert msg == "cannot save p.json: the disk is full (the previous file is unchanged)"
    assert target.read_bytes() == old and backup_path(target, 1).read_bytes() == old_backup
    assert not backup_path(target, 2).exists()  # the failed save did not rotate backups
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json", "p.json.1.bak"]  # temp file removed


def test_no_permission_to_create_the_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "p.json"
    save_plan(_plan("old"), target)
    old = target.read_bytes()

    def refuse(*a, **k):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(PlanSaveError, match=r"^cannot save p\.json: no permission to write in .+ \(the previous file is unchanged\)$"):
        save_plan(_plan("new"), target)
    monkeypatch.undo()
    assert target.read_bytes() == old


def test_rename_refused_leaves_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "p.json"
    save_plan(_plan("old"), target, keep=0)
    old = target.read_bytes()
    real_replace = os.replace

    def replace(src, dst):
        if str(dst) == str(target):
            raise PermissionError(errno.EPERM, "Operation not permitted")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(PlanSaveError, match="no permission"):
        save_plan(_plan("new"), target, keep=0)
    monkeypatch.undo()
    assert target.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_saving_into_a_folder_that_takes_no_files_says_so_not_that_it_is_missing():
    # /proc exists, but no file can be created in it (ENOENT, even as root)
    with pytest.raises(PlanSaveError, match=r"cannot save campus.json: files cannot be created in /proc "
                                            r"\(nothing was written\)"):
        save_plan(_plan("new"), Path("/proc/campus.json"), keep=0)


def test_saving_into_a_missing_folder_says_so(tmp_path):
    with pytest.raises(PlanSaveError, match=r"the folder .*nowhere does not exist \(nothing was written\)"):
        save_plan(_plan("x"), tmp_path / "nowhere" / "p.json")


def test_read_only_folder_is_refused_with_the_reason():
    """Run as an unprivileged user (root drops to nobody in a child), so it runs in CI too."""
    folder = shared_folder("ro-folder", 0o755)  # root's folder: others may not write in it
    try:
        target = folder / "p.json"
        save_plan(_plan("old"), target)
        os.chmod(target, 0o666)  # the file may be written; the folder (for the rename) may not
        outcome = as_unprivileged(save_plan, _plan("new"), target)
        assert outcome.startswith("SaveError: cannot save p.json: no permission to write in "), outcome
        assert load_plan(target).name == "old" and sorted(p.name for p in folder.iterdir()) == ["p.json"]
    finally:
        shutil.rmtree(folder)


FULL_DISK_CHILD = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)          # fail the write with EFBIG instead of dying
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # no file may grow past 4 KiB
from planner.errors import PlannerError
from planner.plan.model import Plan
from {module} import {func} as save
try:
    save(Plan(name="new", description="x" * 4000), sys.argv[1])
except PlannerError as exc:
    print(exc)
"""


def run_out_of_space(tmp_path, module="planner.plan.fileio", func="save_plan"):
    """Save a 4+ KiB plan in a process whose files may not exceed 4 KiB: a real failing write."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    target = tmp_path / "p.json"
    save_plan(_plan("old"), target)
    old = target.read_bytes()
    proc = subprocess.run([sys.executable, "-c", FULL_DISK_CHILD.format(module=module, func=func), str(target)],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(root),
                                                                    QT_QPA_PLATFORM="offscreen"), timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert target.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json"]  # no temporary file, no backup rotated
    return proc.stdout.strip()


def test_a_real_failing_write_leaves_the_old_file(tmp_path):
    msg = run_out_of_space(tmp_path)
    assert msg == "cannot save p.json: the file is larger than this disk or account allows (the previous file is unchanged)"


def test_only_this_writers_stale_temporary_files_are_removed(tmp_path):
    from planner.safefile import owner_tag

    dead = 4_000_000  # above Linux's largest pid: no such process
    host, namespace, live = owner_tag().split("~")
    ours = [f".~gcp-tmp~{host}~{namespace}~{dead}~abcd1234~plan.json"]
    theirs = [f".plan.json.{dead}.abcd1234.tmp", ".old.xlsx.abcd1234.tmp", ".photo.12345678.png", ".plan.json.1.bak",
              f".~gcp-tmp~{host}~{namespace}~{live}~x1y2z3w4~plan.json",  # this process: still writing
              f".~gcp-tmp~otherhost~{namespace}~{dead}~abcd1234~plan.json",  # another host's
              f".~gcp-tmp~{host}~1~{dead}~abcd1234~plan.json"]  # another PID namespace's
    for name in ours + theirs:
        (tmp_path / name).write_text("x")
    two_hours_ago = os.path.getmtime(tmp_path / ours[0]) - 7200
    for name in (".old.xlsx.abcd1234.tmp", ".photo.12345678.png"):
        os.utime(tmp_path / name, (two_hours_ago, two_hours_ago))
    save_plan(_plan("x"), tmp_path / "p.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(theirs + ["p.json"])
