"""Fix from the checks list with a real pointer and keyboard (xdotool on its own Xvfb).

The medium template with rack GPU-01 capped at 20 kW: its 4 HGX H100 nodes draw 4 x 7.0 =
28.0 kW typical, 8.0 kW over, an error (rack.power.over_cap) whose remedy splits the rack:
3 nodes are still 21.0 kW, 2 are 14.0 kW, so 2 nodes move into a new rack GPU-05.
"""

import subprocess
import time

import pytest

from tests.system_tools import require_tool
from tests.ui.real_input import TOOLS, RealApp

SPLIT = "Split rack GPU-01: move 2 devices into GPU-05"


@pytest.fixture
def over_cap_app(tmp_path):
    from planner.design.templates import build_template
    from planner.plan.fileio import save_plan

    require_tool(*TOOLS)
    plan = build_template("medium")
    plan.racks[0].power_cap_kw = 20.0
    path = tmp_path / "over-cap.json"
    save_plan(plan, path)
    app = RealApp(tmp_path, [str(path)])
    yield app
    app.screenshot("at-exit")
    app.stop()


def _centre(rect):
    x, y, w, h = rect
    return x + w // 2, y + h // 2


def _glide(app, start, end, steps=16):
    """The pointer from ``start`` to ``end`` in small steps, as a hand moves it."""
    for i in range(1, steps + 1):
        app.move(start[0] + (end[0] - start[0]) * i / steps, start[1] + (end[1] - start[1]) * i / steps)
        time.sleep(0.02)


def _click(app, start, end):
    _glide(app, start, end)
    app.xdotool("click", "1")
    app.settle()


def _row(state, code):
    return next((r for r in state["geometry"]["checks"]["rows"] if r["code"] == code), None)


def _nodes_in(state, rack_name):
    rack = next(r["id"] for r in state["plan"]["racks"] if r["name"] == rack_name)
    return sum(1 for p in state["plan"]["placements"] if p["rack"] == rack and p["device"] == "hgx-h100-8")


def test_fix_in_the_checks_list_mends_the_error_and_ctrl_z_brings_it_back(over_cap_app):
    app = over_cap_app
    state = app.state()
    row = _row(state, "rack.power.over_cap")
    assert row is not None and row["severity"] == "error"
    assert state["geometry"]["checks"]["title"].startswith("Checks (1 error")
    assert not state["geometry"]["checks"]["fix"]["enabled"]  # nothing selected yet
    view = state["geometry"]["view"]
    here = (view[0] + view[2] // 2, view[1] + view[3] // 2)

    _click(app, here, _centre(row["rect"]))  # select the finding
    state = app.wait_state(lambda s: s["geometry"]["checks"]["fix"]["enabled"], "Fix enabled for the finding")
    fix = state["geometry"]["checks"]["fix"]
    assert fix["tooltip"] == "Fix: Split rack GPU-01: move 2 devices into a rack of its kind with room, or a new one"
    _crop(app, app.screenshot("checks-with-fix"), state["geometry"]["checks"], "checks-list")

    app.xdotool("click", "3")  # the context menu offers the same Fix, by name
    app.wait_state(lambda s: s["popup"] is not None, "the context menu open")
    _crop(app, app.screenshot("checks-menu"), state["geometry"]["checks"], "checks-menu", above=150)
    app.key("Escape")
    app.wait_state(lambda s: s["popup"] is None and s["undo_count"] == 0, "the menu closed, nothing done")

    _click(app, _centre(row["rect"]), _centre(fix["rect"]))
    state = app.wait_state(lambda s: s["undo_count"] == 1 and _row(s, "rack.power.over_cap") is None,
                           "the error gone after Fix")
    assert state["geometry"]["checks"]["title"].startswith("Checks (0 errors")
    assert state["undo_text"] == SPLIT  # the undo step is named after what it did
    assert (_nodes_in(state, "GPU-01"), _nodes_in(state, "GPU-05")) == (2, 2)
    app.screenshot("after-fix")

    app.key("ctrl+z")
    state = app.wait_state(lambda s: s["undo_index"] == 0 and _row(s, "rack.power.over_cap") is not None,
                           "the error back after Ctrl+Z")
    assert _nodes_in(state, "GPU-01") == 4
    assert "GPU-05" not in [r["name"] for r in state["plan"]["racks"]]
    assert state["geometry"]["checks"]["title"].startswith("Checks (1 error")


def _crop(app, shot, checks, name, above=0):
    """The checks list (its Fix bar and rows) cut out of the screenshot, to look at; ``above``
    more pixels over it and a list's width to its right (a context menu at the foot of the
    screen opens up there)."""
    rects = [checks["fix"]["rect"], checks["fix_all"]["rect"], *[r["rect"] for r in checks["rows"]]]
    left, top = min(r[0] for r in rects) - 8, min(r[1] for r in rects) - 8
    right, bottom = max(r[0] + r[2] for r in rects) + 8, max(r[1] + r[3] for r in rects) + 8
    if above:
        right, top = right + (right - left), top - above
    subprocess.run(["convert", str(shot), "-crop", f"{right - left}x{bottom - top}+{left}+{top}", "+repage",
                    str(app.tmp / f"{name}.png")], capture_output=True, timeout=60)
