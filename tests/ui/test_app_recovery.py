"""Work is never lost in the real app (issue 7, acceptance 3 and items 3, 6).

The first session is the program's own entry point (``cluster_planner.main``) in a
child process, with a 0.3 s autosave (``CLUSTER_PLANNER_AUTOSAVE_S``) and a temporary state
folder (``CLUSTER_PLANNER_STATE_DIR``); a small driver registered in ``ui.app.STARTUP_HOOKS``
makes the edits through the real MainWindow's document. The next start is ``ui.app.run``
in this process, answering the real recovery prompt.
"""

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

from planner.design.templates import build_template
from planner.plan.fileio import save_plan
from tests.ui.app_runner import run_app
from ui.recovery import find_recoverable
from ui.session import AUTOSAVE_ENV, STATE_DIR_ENV

ROOT = Path(__file__).resolve().parents[2]

DRIVER = r"""
import sys
from pathlib import Path
from PySide6.QtWidgets import QMessageBox
import ui.app
from cluster_planner import main
from planner.plan.commands import AddRack

report, mode, argv = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]

def drive(window):
    state = {"n": 0}

    def edit():
        state["n"] += 1
        window.doc.apply(AddRack(name=f"EDIT-{state['n']}"))

    def on_saved(path):
        n = state["n"]
        print(f"autosaved {n}", flush=True)
        if mode == "quit":
            window.ask_unsaved = lambda: QMessageBox.StandardButton.Discard  # the user's answer
            window.close()
        elif n < 3:
            edit()
        elif n == 3:
            report.write_text(window.plan_json())  # the plan as of this autosave
            window.autosave.set_interval(3600)     # no more autosaves: the next edit is never saved
            edit()
            print("edited 4", flush=True)

    window.autosave.saved.connect(on_saved)
    edit()

ui.app.STARTUP_HOOKS.append(drive)
sys.exit(main(argv))
"""


@pytest.fixture
def session(tmp_path, monkeypatch, catalog):
    plan_path = tmp_path / "cluster.json"
    save_plan(build_template("medium", catalog=catalog), plan_path)
    state = tmp_path / "state"
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), **{STATE_DIR_ENV: str(state), AUTOSAVE_ENV: "0.3"})
    monkeypatch.setenv(STATE_DIR_ENV, str(state))  # this process's "next start" looks in the same place

    def child(mode: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", DRIVER, str(tmp_path / "last-autosave.json"), mode,
                                 str(plan_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env, cwd=tmp_path)
    return child, plan_path, state


def wait_for_line(proc, wanted: str, timeout: float = 60) -> list[str]:
    lines, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.strip())
        if lines[-1] == wanted:
            return lines
    proc.kill()
    raise AssertionError(f"no '{wanted}' from the app: {lines} {proc.stderr.read()[-2000:]}")


def test_killed_app_is_offered_at_the_next_start_and_restores_the_last_autosave(qtbot, session, monkeypatch, tmp_path):
    child, plan_path, state = session
    proc = child("crash")
    lines = wait_for_line(proc, "edited 4")
    assert find_recoverable(state / "recovery") == []  # the session is alive: nothing to offer
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()
    assert [line for line in lines if line.startswith("autosaved")] == ["autosaved 1", "autosaved 2", "autosaved 3"]
    expected = json.loads((tmp_path / "last-autosave.json").read_text())
    assert [r["name"] for r in expected["racks"]][-3:] == ["EDIT-1", "EDIT-2", "EDIT-3"]  # not EDIT-4

    (copy,) = find_recoverable(state / "recovery")
    assert datetime.now() - copy.saved_at < timedelta(seconds=60)
    seen = {}

    def restore(box):
        seen["text"] = box.text() + "\n" + box.informativeText()
        box.restore_button.click()

    def check(window):
        seen["plan"] = json.loads(window.plan_json())
        seen["modified"] = window.doc.is_modified and window.isWindowModified()
        seen["path"] = window.doc.path
        seen["title"] = window.windowTitle()

    prompts = run_app(monkeypatch, [str(plan_path)], check, restore)
    assert len(prompts) == 1
    assert "did not close normally" in seen["text"]
    assert f"at {copy.saved_at:%H:%M:%S}" in seen["text"] and str(plan_path) in seen["text"]
    assert seen["plan"] == expected  # the plan as of the last autosave: EDIT-1..3, not EDIT-4
    assert seen["modified"] and seen["path"] == plan_path and "cluster.json[*]" in seen["title"]
    # The file on disk was never touched: it is still the medium template without the edits.
    assert "EDIT-1" not in plan_path.read_text()
    # That second session exited normally: nothing is left to offer.
    assert find_recoverable(state / "recovery") == []
    assert [p.name for p in (state / "recovery").iterdir()] == []


def test_after_a_normal_exit_the_next_start_offers_nothing(qtbot, session, monkeypatch):
    child, plan_path, state = session
    proc = child("quit")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-2000:]
    assert "autosaved 1" in out  # a recovery copy existed while the edit was unsaved
    assert find_recoverable(state / "recovery") == []
    assert [p.name for p in (state / "recovery").iterdir()] == []
    prompts = run_app(monkeypatch, [str(plan_path)], lambda window: None)
    assert prompts == []


def test_discarding_the_offer_removes_the_copy(qtbot, session, monkeypatch):
    child, plan_path, state = session
    proc = child("crash")
    wait_for_line(proc, "edited 4")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()
    seen = {}
    prompts = run_app(monkeypatch, [str(plan_path)], lambda w: seen.update(plan=json.loads(w.plan_json())),
                      lambda box: box.discard_button.click())
    assert len(prompts) == 1
    assert [r["name"] for r in seen["plan"]["racks"]] == ["GPU-01", "GPU-02", "GPU-03", "GPU-04", "NET-01", "STOR-01",
                                                         "CDU-01"]
    assert find_recoverable(state / "recovery") == []
