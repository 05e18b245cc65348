"""New files get the user's normal permissions (0666 less the umask), not mkstemp's 0600;
an existing file keeps its mode. Plans (fileio) and the workbook alike."""

from __future__ import annotations

import os
import stat

import pytest

from planner.hardware.catalog import default_catalog
from planner.export.xlsx import write_workbook
from planner.plan.fileio import save_plan
from planner.design.templates import build_template


@pytest.fixture
def umask():
    def set_to(mask: int) -> None:
        os.umask(mask)
    old = os.umask(0o022)
    os.umask(old)
    yield set_to
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def write_xlsx(path) -> None:
    write_workbook(build_template("single-node"), default_catalog(), path)


def write_plan(path) -> None:
    save_plan(build_template("single-node"), path)


@pytest.mark.parametrize("write", [write_xlsx, write_plan], ids=["workbook", "plan"])
def test_new_file_gets_0666_less_the_umask(tmp_path, umask, write):
    umask(0o022)  # 0666 & ~0022 = 0644: colleagues on a shared drive can read it
    write(tmp_path / "a")
    assert mode(tmp_path / "a") == 0o644
    umask(0o027)  # 0666 & ~0027 = 0640
    write(tmp_path / "b")
    assert mode(tmp_path / "b") == 0o640
    umask(0o002)  # 0666 & ~0002 = 0664 (group-writable, e.g. a team folder)
    write(tmp_path / "c")
    assert mode(tmp_path / "c") == 0o664


@pytest.mark.parametrize("write", [write_xlsx, write_plan], ids=["workbook", "plan"])
def test_existing_file_keeps_its_mode(tmp_path, umask, write):
    umask(0o022)
    target = tmp_path / "x"
    write(target)
    os.chmod(target, 0o600)
    write(target)
    assert mode(target) == 0o600
    os.chmod(target, 0o664)
    write(target)
    assert mode(target) == 0o664
