"""A folder export that fails names the folder that stopped it. Writing into a read-only
mount (a folder that is itself a mount point, so its files are made inside it) said "/tmp is
on a read-only disk" for /tmp/rodir, and "the previous files are unchanged" of an empty one."""

from __future__ import annotations

import errno
import os

import pytest

import planner.safefile as safefile
from planner.save_target import SaveError


def _read_only_mount(monkeypatch, target):
    real = os.path.ismount
    monkeypatch.setattr(safefile.os.path, "ismount", lambda p: str(p) == str(target) or real(p))

    def refuse(*a, **k):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(safefile.tempfile, "mkdtemp", refuse)


def test_a_read_only_mount_is_named_itself(monkeypatch, tmp_path):
    target = tmp_path / "rodir"
    target.mkdir()
    _read_only_mount(monkeypatch, target)
    with pytest.raises(SaveError) as err:
        safefile.write_folder(target, lambda staging: (staging / "01-sites.csv").write_text("x"))
    assert str(err.value) == f"cannot write the files into {target}: {target} is on a read-only disk (nothing was written)"


def test_a_read_only_mount_with_an_earlier_export_keeps_it(monkeypatch, tmp_path):
    target = tmp_path / "rodir"
    target.mkdir()
    (target / "01-sites.csv").write_text("earlier")
    _read_only_mount(monkeypatch, target)
    with pytest.raises(SaveError, match=r"is on a read-only disk \(the previous files are unchanged\)"):
        safefile.write_folder(target, lambda staging: None)
    assert (target / "01-sites.csv").read_text() == "earlier"


def test_a_folder_beside_others_names_its_parent(monkeypatch, tmp_path):
    # not a mount point: the files are made beside it, so the parent is what stopped them
    target = tmp_path / "netbox"

    def refuse(*a, **k):
        raise OSError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(safefile.tempfile, "mkdtemp", refuse)
    with pytest.raises(SaveError, match=f"no permission to write in {tmp_path} \\(nothing was written\\)"):
        safefile.write_folder(target, lambda staging: None)
