"""The app used as a person uses it: real X11 pointer and keyboard (xdotool) on its own Xvfb.

Each test starts the app as a subprocess, drives it with xdotool, reads the plan's state
from the app's state dump (CLUSTER_PLANNER_STATE_DUMP) and keeps screenshots in its
temporary folder. The medium template: NET-01 (air, 25 kW cap) holds ib-1..ib-10 at
U1-U10, stor-sw-1 at U11-U12 and mgmt-1 at U13, 15.0 kW typical, 20.35 kW nameplate;
U14-U42 are free.
"""

import zipfile

import pytest

from tests.ui.real_input import real_app  # noqa: F401  (fixture)

WORKHORSE = "h100x4-workhorse"  # 4U, 3.6 kW typical, air-cooled


def placements(state, device=None):
    return [p for p in state["plan"]["placements"] if device is None or p["device"] == device]


def palette_drag(app, device, rack, u, steps=24):
    """From the palette row, in small steps, into the view at its left edge, along to the slot."""
    geo = app.state()["geometry"]
    start = geo["palette"][device]
    end = app.slot(rack, u)
    left_edge = (geo["view"][0] + 2, end[1])
    app.drag(start, end, steps=steps, via=[left_edge])


def test_palette_drag_in_small_steps_from_the_left_edge_places_it_on_the_free_slot(real_app):
    app = real_app
    before = len(placements(app.state()))
    palette_drag(app, WORKHORSE, "NET-01", 20)
    state = app.wait_state(lambda s: placements(s, WORKHORSE), "the device placed")
    app.screenshot("after-drop")
    net = app.state()["geometry"]["racks"]["NET-01"]["id"]
    [placed] = placements(state, WORKHORSE)
    assert (placed["rack"], placed["u"], placed["label"]) == (net, 20, "node-17")
    assert len(placements(state)) == before + 1
    assert state["undo_count"] == 1
    # NET-01's nameplate: 10 x QM9700 at 1.72 + SN5600 3.0 + mgmt 0.15 = 20.35 kW, + 5.0 = 25.4 kW > 25
    assert "NET-01's nameplate would be 25.4 / 25 kW" in state["status"]


def test_a_drag_ending_on_an_occupied_slot_places_nothing_and_says_why(real_app):
    app = real_app
    plan = app.state()["plan"]
    palette_drag(app, WORKHORSE, "NET-01", 5)  # U5-U8 is ib-5..ib-8
    state = app.wait_state(lambda s: s["status"].startswith("Not placed"), "the status to say why")
    app.screenshot("refused")
    assert "overlaps ib-" in state["status"] and "NET-01" in state["status"]
    assert state["plan"] == plan and state["undo_count"] == 0


def test_escape_cancels_a_drag(real_app):
    app = real_app
    plan = app.state()["plan"]
    geo = app.state()["geometry"]
    start, end = geo["palette"][WORKHORSE], app.slot("NET-01", 20)
    app.move(*start)
    app.xdotool("mousedown", "1")
    for i in range(1, 25):
        app.move(start[0] + (end[0] - start[0]) * i / 24, start[1] + (end[1] - start[1]) * i / 24)
    # amber: NET-01's nameplate would be 20.4 + 5.0 = 25.4 kW of its 25 kW cap
    # the pointer crosses other racks on its way (GPU-04 is amber too): wait until it rests on NET-01
    state = app.wait_state(lambda s: s["ghost"] == "warning" and "NET-01" in (s["status"] or ""),
                           "the amber ghost over NET-01")
    assert "NET-01's nameplate would be 25.4 / 25 kW" in state["status"]
    app.xdotool("key", "Escape")
    app.xdotool("mouseup", "1")
    app.settle()
    app.screenshot("cancelled")
    state = app.state()
    assert state["plan"] == plan and state["undo_count"] == 0 and state["ghost"] is None


def test_move_between_racks_delete_and_the_undo_redo_keys(real_app):
    app = real_app
    palette_drag(app, WORKHORSE, "NET-01", 20)
    state = app.wait_state(lambda s: placements(s, WORKHORSE), "the device placed")
    pid = placements(state, WORKHORSE)[0]["id"]
    # grab the device by its middle (U21 of U20-U23) and carry it to U35 of GPU-04 (U33-U42 free)
    app.drag(app.slot("NET-01", 21), app.slot("GPU-04", 36), steps=24)
    gpu4 = app.state()["geometry"]["racks"]["GPU-04"]["id"]
    state = app.wait_state(lambda s: placements(s, WORKHORSE)[0]["rack"] == gpu4, "the device moved")
    app.screenshot("moved")
    assert placements(state, WORKHORSE)[0]["u"] == 35 and state["undo_count"] == 2
    # GPU-04 had 4 x 7.0 = 28.0 kW of 30: the move is allowed and the status names the figure
    assert "GPU-04 would draw 31.6 / 30 kW" in state["status"]

    app.click(*app.slot("GPU-04", 36))
    app.wait_state(lambda s: s["selected_devices"] == [pid], "the device selected")
    app.key("Delete")
    app.wait_state(lambda s: not placements(s, WORKHORSE), "Delete to remove it")
    app.key("ctrl+z")
    app.wait_state(lambda s: placements(s, WORKHORSE), "Ctrl+Z to bring it back")
    app.key("ctrl+shift+z")
    app.wait_state(lambda s: not placements(s, WORKHORSE), "Ctrl+Shift+Z to remove it again")
    app.key("ctrl+z")
    app.wait_state(lambda s: placements(s, WORKHORSE), "Ctrl+Z to bring it back again")
    app.key("ctrl+y")
    state = app.wait_state(lambda s: not placements(s, WORKHORSE), "Ctrl+Y to remove it again")
    app.screenshot("after-keys")
    assert state["undo_index"] == state["undo_count"] == 3
    assert "mbiguous" not in app.output()


def test_export_through_the_file_menu_with_the_keyboard(real_app, tmp_path):
    app = real_app
    target = tmp_path / "exported.xlsx"
    app.key("alt+f")
    app.wait_state(lambda s: s["popup"] == "&File", "the File menu")
    app.key("e")  # &Export
    app.wait_state(lambda s: s["popup"] == "&Export", "the Export menu")
    app.key("e")  # &Excel workbook…
    app.wait_state(lambda s: s["dialog"] == "Export Excel workbook", "the file dialog", timeout=60)
    app.screenshot("export-dialog")
    app.key("ctrl+a")
    app.xdotool("type", "--delay", "20", str(target))
    app.key("Return")
    state = app.wait_state(lambda s: s["status"].startswith("Exported"), "the export", timeout=90)
    assert str(target) in state["status"]
    with zipfile.ZipFile(target) as z:  # a real workbook
        assert "xl/workbook.xml" in z.namelist()
    app.screenshot("exported")


pytestmark = pytest.mark.realinput
