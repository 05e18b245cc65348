"""Saving from the app with QSaveFile: atomic, same backups as the core, old file kept on failure."""

from __future__ import annotations

import os
import stat

import pytest

from planner.plan.fileio import PlanSaveError, backups_of, load_plan, save_plan
from planner.plan.model import Plan, Rack
from ui.saving import save_plan_qt


def _plan(name):
    return Plan(name=name, racks=[Rack(id="r1", name="A")])


def test_qt_save_writes_the_plan_and_keeps_backups_like_the_core(qtbot, tmp_path):
    qt_target, core_target = tmp_path / "qt.json", tmp_path / "core.json"
    for i in range(1, 6):
        save_plan_qt(_plan(f"v{i}"), qt_target, keep=3)
        save_plan(_plan(f"v{i}"), core_target, keep=3)
    assert qt_target.read_bytes() == core_target.read_bytes()
    # Five saves keeping three: backups v4, v3, v2, newest first, with the same names as the core's.
    assert [load_plan(p).name for p in backups_of(qt_target)] == ["v4", "v3", "v2"]
    assert [p.name.replace("qt", "core") for p in backups_of(qt_target)] == [p.name for p in backups_of(core_target)]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("qt")) == [
        "qt.json", "qt.json.1.bak", "qt.json.2.bak", "qt.json.3.bak"]


def test_qt_save_keeps_permissions(qtbot, tmp_path):
    target = tmp_path / "p.json"
    save_plan_qt(_plan("a"), target)
    os.chmod(target, 0o640)
    save_plan_qt(_plan("b"), target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and load_plan(target).name == "b"


def test_missing_folder_is_a_one_line_error(qtbot, tmp_path):
    with pytest.raises(PlanSaveError, match=r"^cannot save p\.json: the folder .* does not exist \(nothing was written\)$"):
        save_plan_qt(_plan("x"), tmp_path / "gone" / "p.json")


def test_failure_to_replace_leaves_the_target_untouched(qtbot, tmp_path):
    target = tmp_path / "p.json"
    target.mkdir()  # something that cannot be replaced by a file
    (target / "inside").write_text("keep me")
    with pytest.raises(PlanSaveError, match=r"^cannot save p\.json: "):
        save_plan_qt(_plan("x"), target)
    assert (target / "inside").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json"]  # no temporary file left


def test_qt_save_with_a_real_failing_write_leaves_the_old_file(qtbot, tmp_path):
    # The same child as the core's test (files may not grow past 4 KiB), saving through QSaveFile.
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "core_save_tests", Path(__file__).resolve().parents[1] / "planner" / "test_fileio_save.py")
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    msg = core.run_out_of_space(tmp_path, module="ui.saving", func="save_plan_qt")
    assert msg.startswith("cannot save p.json: ") and msg.endswith("(the previous file is unchanged)")
