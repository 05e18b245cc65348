"""The app's file dialogs stay responsive in folders whose files never answer a read.

Qt's own dialog named a file's type by reading its first bytes; opened in /proc it read
/proc/kmsg, which waits for the next kernel message, and the window froze for good. Run in
a process of its own (a frozen dialog cannot be closed from the test), the dialog opens
in /proc and a timer closes it: the event loop runs, the dialog returns nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QFileInfo

from ui.file_dialogs import NameOnlyIcons

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from ui import file_dialogs

app = QApplication([])

def close():
    print("event loop alive", flush=True)
    for w in app.topLevelWidgets():
        w.close()

QTimer.singleShot(3000, close)
chosen = getattr(file_dialogs, sys.argv[1])(None, "Open", "/proc", *sys.argv[2:])
print("returned", repr(chosen), flush=True)
"""


@pytest.mark.skipif(not os.access("/proc/kmsg", os.R_OK), reason="needs a readable /proc/kmsg (as root on Linux)")
@pytest.mark.parametrize("function, args", [("open_file_name", ["Plans (*.json)"]), ("existing_directory", [])])
def test_a_dialog_opened_in_proc_stays_responsive(function, args):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, function, *args], capture_output=True, text=True,
                          timeout=60, env=env, cwd=ROOT)
    assert "event loop alive" in done.stdout and "returned" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 0, done.stderr


def test_types_and_icons_come_from_the_name(qapp, tmp_path):
    icons = NameOnlyIcons()
    plan = tmp_path / "plan.json"
    plan.write_text("{}")
    assert "JSON" in icons.type(QFileInfo(str(plan)))
    assert icons.type(QFileInfo(str(tmp_path))) == "Folder"
    assert not icons.icon(QFileInfo(str(plan))).isNull()
    # a file without a known extension is named by that alone, not by what it holds
    (tmp_path / "notes").write_text("{}")
    assert "JSON" not in icons.type(QFileInfo(str(tmp_path / "notes")))
