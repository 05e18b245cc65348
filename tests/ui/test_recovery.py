"""Autosave and crash recovery: a recovery copy while there are unsaved changes, found after a kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths

from planner.hardware.catalog import default_catalog
from planner.plan.fileio import PlanLoadError, plan_to_json
from planner.plan.model import Plan, Rack
from ui.recovery import AutosaveManager, default_recovery_dir, find_recoverable

ROOT = Path(__file__).resolve().parents[2]


class Doc:
    """Stands in for the main window's document: a plan and a modified flag."""

    def __init__(self):
        self.plan = Plan(name="first", racks=[Rack(id="r1", name="A")])
        self.modified = False

    def edit(self, name):
        self.plan.name, self.modified = name, True


def test_copy_written_only_while_there_are_unsaved_changes(qtbot, tmp_path):
    doc = Doc()
    mgr = AutosaveManager(lambda: plan_to_json(doc.plan), lambda: doc.modified, interval_s=0.1, folder=tmp_path)
    mgr.start()
    qtbot.wait(350)  # three ticks, nothing modified
    assert not mgr.copy_path.exists()
    doc.edit("second")
    with qtbot.waitSignal(mgr.saved, timeout=2000):
        pass
    assert json.loads(mgr.copy_path.read_text())["name"] == "second"
    doc.modified = False  # the user saved: the copy is obsolete
    qtbot.waitUntil(lambda: not mgr.copy_path.exists(), timeout=2000)
    mgr.stop()


def test_interval_is_sixty_seconds_unless_configured(qtbot, tmp_path):
    mgr = AutosaveManager(lambda: "{}", lambda: False, folder=tmp_path)
    assert mgr.interval_s == 60
    mgr.set_interval(5)
    assert mgr.interval_s == 5


def test_live_session_is_not_offered_and_normal_exit_leaves_nothing(qtbot, tmp_path):
    doc = Doc()
    doc.edit("changed")
    mgr = AutosaveManager(lambda: plan_to_json(doc.plan), lambda: doc.modified, interval_s=60, folder=tmp_path)
    mgr.start()
    assert mgr.save_now()
    assert mgr.copy_path.exists() and Path(mgr.lock.fileName()).exists()
    assert find_recoverable(tmp_path) == []  # this session holds the lock: not a crash
    mgr.stop()
    assert list(tmp_path.iterdir()) == [] and find_recoverable(tmp_path) == []


def test_default_folder_is_in_the_app_local_data_location(qtbot):
    QStandardPaths.setTestModeEnabled(True)
    try:
        base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
        assert default_recovery_dir() == Path(base) / "recovery"
    finally:
        QStandardPaths.setTestModeEnabled(False)


CHILD = r"""
import json, sys
from PySide6.QtCore import QCoreApplication, QTimer
from planner.hardware.catalog import default_catalog
from planner.plan.fileio import PlanLoadError, plan_to_json
from planner.plan.model import Plan
from ui.recovery import AutosaveManager

app = QCoreApplication([])
plan = Plan(name="edit 0")
state = {"n": 0, "modified": False}
mgr = AutosaveManager(lambda: plan_to_json(plan), lambda: state["modified"], interval_s=0.2,
                      folder=sys.argv[1], source_path=lambda: "/plans/cluster.json")

def on_saved(path):
    name = json.loads(open(path).read())["name"]
    print("saved", name, flush=True)
    if name == "edit 10" and state["n"] == 10:
        mgr.set_interval(3600)          # no more autosaves: the next edit is never saved
        plan.name = "edit 11, after the last autosave"
        state["n"] = 11
        print("edited 11", flush=True)

def edit():
    if state["n"] < 10:
        state["n"] += 1
        plan.name = f"edit {state['n']}"
        state["modified"] = True

mgr.saved.connect(on_saved)
timer = QTimer()
timer.timeout.connect(edit)
timer.start(70)
mgr.start()
if sys.argv[2] == "quit":
    QTimer.singleShot(700, app.quit)   # a normal exit after some autosaves
app.exec()
print("exited normally", flush=True)
"""


def _child(folder: Path, mode: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen([sys.executable, "-c", CHILD, str(folder), mode], stdout=subprocess.PIPE,
                            text=True, env=env)


def test_sigkilled_session_is_recovered_as_of_its_last_autosave(qtbot, tmp_path):
    child = _child(tmp_path, "run")
    lines, deadline = [], time.monotonic() + 30
    while time.monotonic() < deadline:
        line = child.stdout.readline().strip()
        lines.append(line)
        if line == "edited 11":
            break
    assert find_recoverable(tmp_path) == []  # while the session runs, its copy is not offered
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert lines[-1] == "edited 11", lines
    saved = [int(line.split()[2]) for line in lines if line.startswith("saved")]
    assert saved == sorted(saved) and saved[-1] == 10 and len(saved) >= 2  # several autosaves at 0.2 s

    copies = find_recoverable(tmp_path)  # the next start, in another process
    assert len(copies) == 1
    copy = copies[0]
    assert datetime.now() - copy.saved_at < timedelta(seconds=30)
    assert copy.source == "/plans/cluster.json" and copy.name == "edit 10"
    # The plan as of the last autosave: edit 10, not the unsaved edit 11.
    assert copy.load().name == "edit 10"
    assert copy.load(default_catalog()).name == "edit 10"
    assert find_recoverable(tmp_path)[0].path == copy.path  # still offered until discarded
    copy.discard()
    assert find_recoverable(tmp_path) == [] and list(tmp_path.iterdir()) == []


def test_after_a_normal_exit_nothing_is_offered(qtbot, tmp_path):
    child = _child(tmp_path, "quit")
    out, _ = child.communicate(timeout=30)
    assert "saved edit" in out and out.strip().endswith("exited normally")
    assert find_recoverable(tmp_path) == [] and list(tmp_path.iterdir()) == []


def test_a_damaged_recovery_copy_is_refused_cleanly(qtbot, tmp_path):
    (tmp_path / "session-x.json").write_text('{"schema_version": 1, "name": ')  # cut off mid-write by hand
    (copy,) = find_recoverable(tmp_path)  # no lock: its session is gone
    with pytest.raises(PlanLoadError, match="not a valid plan file"):
        copy.load()
