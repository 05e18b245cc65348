"""File > Export > NetBox import files… with real keys (xdotool on Xvfb), cancelled with Escape
in its progress dialog: the folder stays empty and the status bar says so. The plan is the
medium template's design for 3,000 nodes (``new --nodes 3000``): over half a million NetBox
rows, several seconds of writing, so the dialog is up long enough to be cancelled."""

from __future__ import annotations

import subprocess
import sys

import pytest

from planner.safefile import TMP_PREFIX
from tests.system_tools import require_tool
from tests.ui.real_input import TOOLS, RealApp, ROOT

PROGRESS_TITLE = "Exporting the NetBox import files"


@pytest.fixture
def big_app(tmp_path):
    require_tool(*TOOLS)
    plan = tmp_path / "big.json"
    subprocess.run([sys.executable, "-m", "cluster_planner", "new", "--template", "medium", "--nodes", "3000",
                    "-o", str(plan)], cwd=ROOT, check=True, capture_output=True, timeout=300)
    app = RealApp(tmp_path, [str(plan)])
    yield app
    app.screenshot("at-exit")
    app.stop()


def test_escape_in_the_progress_dialog_cancels_the_netbox_export(big_app, tmp_path):
    app = big_app
    folder = tmp_path / "netbox"
    folder.mkdir()  # the folder dialog picks an existing folder
    app.key("alt+f")
    app.wait_state(lambda s: s["popup"] == "&File", "the File menu")
    app.key("e")  # &Export
    app.key("n")  # &NetBox import files…
    app.wait_state(lambda s: s["dialog"] == "Export NetBox import files into", "the folder dialog", timeout=60)
    app.key("ctrl+a")
    app.xdotool("type", "--delay", "20", str(folder))
    app.xdotool("key", "Return")
    dialog = app.find_window(PROGRESS_TITLE, timeout=60)
    app.screenshot("export-progress")
    app.xdotool("windowfocus", "--sync", dialog)
    app.xdotool("key", "Escape")
    state = app.wait_state(lambda s: s["status"].startswith("Export "), "the export to end", timeout=120)
    assert state["status"] == f"Export cancelled: nothing was written ({folder} is as it was)"
    assert list(folder.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(TMP_PREFIX)] == []  # no staging folder left
    assert "Traceback" not in app.output()
