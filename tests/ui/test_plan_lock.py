"""Two app instances on one plan: the second learns the first has it open and offers
read-only, open anyway or cancel; a save asks before overwriting a file changed on disk.

The first instance is the real app (``python -m cluster_planner plan.json``) in a child process;
the second is ``ui.app.create_window`` in this process, answering its questions.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from planner.design.templates import build_template
from planner.plan.commands import AddRack
from planner.plan.fileio import load_plan, save_plan
from PySide6.QtWidgets import QMessageBox

from ui import app as ui_app
from ui.file_actions import FileActions
from ui.plan_lock import lock_path
from ui.session import AUTOSAVE_ENV, STATE_DIR_ENV

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def plan_path(tmp_path):
    path = tmp_path / "plan.json"
    save_plan(build_template("single-node"), path, keep=0)
    return path


@pytest.fixture
def first_instance(plan_path, tmp_path):
    """The real app with ``plan_path`` open, in another process, until the test ends."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path / "home"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               **{STATE_DIR_ENV: str(tmp_path / "state"), AUTOSAVE_ENV: "3600"})
    proc = subprocess.Popen([sys.executable, "-m", "cluster_planner", str(plan_path)], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (lock_path(plan_path).exists() and lock_path(plan_path).stat().st_size > 0):  # created and written
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the first instance never locked its plan"
        time.sleep(0.1)
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    proc.stderr.close()


def second_window(qtbot, monkeypatch, plan_path, answer):
    asked, errors = [], []

    def ask(self, path, holder):
        asked.append((path.name, holder))
        return answer

    monkeypatch.setattr(FileActions, "ask_plan_in_use", ask)
    monkeypatch.setattr(FileActions, "show_error", lambda self, title, message: errors.append(message))
    window = ui_app.create_window([str(plan_path)])
    qtbot.addWidget(window)
    return window, asked, errors


def test_second_instance_is_told_and_can_open_read_only(qtbot, monkeypatch, plan_path, first_instance):
    before = plan_path.read_bytes()
    window, asked, errors = second_window(qtbot, monkeypatch, plan_path, "read_only")
    assert asked == [("plan.json", f"process {first_instance.pid} on {os.uname().nodename}")]
    assert window.doc.path == plan_path and window.plan_guard.read_only
    window.doc.apply(AddRack(name="MINE"))
    assert window._save_to(plan_path) is False
    assert "open read-only" in errors[-1] and "Save As" in errors[-1]
    assert plan_path.read_bytes() == before  # the first instance's file is untouched
    assert window._save_to(plan_path.with_name("mine.json")) is True  # Save As elsewhere works


def test_second_instance_may_cancel_or_open_anyway(qtbot, monkeypatch, plan_path, first_instance):
    window, asked, _ = second_window(qtbot, monkeypatch, plan_path, "cancel")
    assert len(asked) == 1 and window.doc.path is None  # the default plan instead
    window.close()
    window, asked, _ = second_window(qtbot, monkeypatch, plan_path, "anyway")
    assert len(asked) == 1 and window.doc.path == plan_path and not window.plan_guard.read_only
    window.doc.apply(AddRack(name="MINE"))
    assert window._save_to(plan_path) is True
    assert "MINE" in [r.name for r in load_plan(plan_path).racks]


@pytest.mark.parametrize("overwrite", [False, True], ids=["keep-theirs", "overwrite"])
def test_a_save_asks_before_overwriting_a_file_changed_on_disk(qtbot, monkeypatch, plan_path, overwrite):
    window, asked, _ = second_window(qtbot, monkeypatch, plan_path, "cancel")
    assert asked == []  # nobody else has it open: no question
    questions = []
    monkeypatch.setattr(FileActions, "ask_overwrite_changed", lambda self, path: questions.append(path) or overwrite)
    theirs = build_template("single-node")
    theirs.name = "saved by the other window"
    time.sleep(0.01)
    save_plan(theirs, plan_path)  # another instance's save, after this window read the file
    window.doc.apply(AddRack(name="MINE"))
    assert window._save_to(plan_path) is overwrite
    assert questions == [plan_path]
    expected = window.doc.plan.name if overwrite else "saved by the other window"
    assert load_plan(plan_path).name == expected
    if overwrite:  # saved here: the next save has nothing to ask
        window.doc.apply(AddRack(name="AGAIN"))
        assert window._save_to(plan_path) is True and questions == [plan_path]
    window.doc.undo_stack.setClean()  # the test's edits need no prompt when the window closes


def test_the_lock_of_a_killed_instance_is_taken_over_without_asking(qtbot, monkeypatch, plan_path, first_instance):
    os.kill(first_instance.pid, signal.SIGKILL)
    first_instance.wait(10)
    assert lock_path(plan_path).exists()  # left behind by the kill
    window, asked, _ = second_window(qtbot, monkeypatch, plan_path, "cancel")
    assert asked == [] and window.doc.path == plan_path and not window.plan_guard.read_only
    window.close()
    assert not lock_path(plan_path).exists()  # released on a normal close


# -- a restored recovery copy meets the plan's lock and a newer file ---------------------------

def _copy_of(tmp_path, plan_path, saved_at: float):
    from datetime import datetime

    from ui.recovery import RecoveryCopy

    mine = build_template("single-node")
    mine.name = "restored from the crash"
    copy_path = tmp_path / "session-crashed.json"
    save_plan(mine, copy_path, keep=0)
    return RecoveryCopy(copy_path, datetime.fromtimestamp(saved_at), str(plan_path), mine.name)


def _empty_window(qtbot, monkeypatch, answer):
    window, asked, errors = second_window(qtbot, monkeypatch, Path("no-such-plan.json"), answer)
    window.autosave = None  # the test's window keeps no recovery copies of its own
    monkeypatch.setattr(FileActions, "ask_unsaved", lambda self: QMessageBox.StandardButton.Discard)
    return window, asked, errors


def test_a_restored_copy_does_not_save_over_the_plan_another_instance_holds(qtbot, monkeypatch, tmp_path, plan_path,
                                                                          first_instance):
    from ui.session import restore_copy

    before = plan_path.read_bytes()
    window, asked, errors = _empty_window(qtbot, monkeypatch, "read_only")
    assert restore_copy(window, _copy_of(tmp_path, plan_path, time.time())) is True
    assert asked == [("plan.json", f"process {first_instance.pid} on {os.uname().nodename}")]
    assert window.doc.plan.name == "restored from the crash" and window.plan_guard.read_only
    assert window._save_to(plan_path) is False and "open read-only" in errors[-1]
    assert plan_path.read_bytes() == before  # the other instance's plan is untouched
    window.doc.undo_stack.setClean()


def test_a_restored_copy_asks_before_saving_over_a_plan_written_since(qtbot, monkeypatch, tmp_path, plan_path):
    from ui.session import restore_copy

    copy = _copy_of(tmp_path, plan_path, time.time() - 60)  # autosaved a minute ago, then the crash
    theirs = build_template("single-node")
    theirs.name = "saved by the other instance after the crash"
    save_plan(theirs, plan_path)
    window, asked, _ = _empty_window(qtbot, monkeypatch, "cancel")
    questions = []
    monkeypatch.setattr(FileActions, "ask_overwrite_changed", lambda self, path: questions.append(path) or False)
    assert restore_copy(window, copy) is True and asked == []  # nobody holds it now
    assert window._save_to(plan_path) is False and questions == [plan_path]
    assert load_plan(plan_path).name == "saved by the other instance after the crash"
    window.doc.undo_stack.setClean()


def test_this_windows_own_lock_is_no_one_elses_by_any_name(plan_path, monkeypatch):
    # opened from the command line as "plan.json", then a recovery copy of it (which names
    # it by its full path) is restored: the window holds the lock itself and must not ask
    # whether to open its own plan read-only
    from ui.plan_lock import PlanGuard

    monkeypatch.chdir(plan_path.parent)
    guard = PlanGuard()
    guard.take(Path("plan.json"))
    try:
        assert guard.holder(plan_path.resolve()) is None
        assert guard.holder(Path("plan.json")) is None
    finally:
        guard.release()
