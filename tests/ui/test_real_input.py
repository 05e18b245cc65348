"""The app used as a person uses it: real X11 pointer and keyboard (xdotool) on its own Xvfb.

Each test starts the app as a subprocess, drives it with xdotool, reads the plan's state
from the app's state dump (CLUSTER_PLANNER_STATE_DUMP) and keeps screenshots in its
temporary folder. The medium template: NET-01 (air, 25 kW cap) holds ib-1..ib-10 at
U1-U10, stor-sw-1 at U11-U12 and mgmt-1 at U13, 15.0 kW typical, 20.35 kW nameplate;
U14-U42 are free.

Why it is long: each interaction a person has with the main window (drags from the palette
and between racks, keys, menus, the New plan dialog, the campus floor, fields and their
undo) is one test here, sharing the one app fixture that starts and reads the real process.
"""

import zipfile

import pytest

from tests.system_tools import require_tool
from tests.ui.real_input import real_app  # noqa: F401  (fixture)

WORKHORSE = "h100x4-workhorse"  # 4U, 3.6 kW typical, air-cooled
MGMT = "mgmt-1g-48"  # the medium template's management switch, 1U


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


@pytest.fixture
def floor_app(tmp_path):
    """The app on a 291-rack plan (massive with 1,000 nodes): Home zooms out to the floor,
    where every rack is a block a dozen pixels wide."""
    from planner.plan.fileio import save_plan
    from planner.design.templates import build_template
    from tests.ui.real_input import TOOLS, RealApp

    require_tool(*TOOLS)
    path = tmp_path / "floor.json"
    save_plan(build_template("massive", nodes=1000), path)
    app = RealApp(tmp_path, [str(path)])
    yield app
    app.screenshot("at-exit")
    app.stop()


def test_on_the_zoomed_out_floor_a_device_is_dragged_from_one_rack_block_to_another(floor_app):
    app = floor_app
    geo = app.state()["geometry"]
    app.click(geo["view"][0] + geo["view"][2] // 2, geo["view"][1] + 5)  # focus the view (a free spot)
    app.key("Home")
    state = app.wait_state(lambda s: s["floor_mode"], "the floor zoomed out")
    app.screenshot("floor")
    racks = state["geometry"]["racks"]
    gpu1, gpu3, net1 = (racks[n]["id"] for n in ("GPU-01", "GPU-03", "NET-01"))
    assert racks["GPU-01"]["u_px"] < 2  # a U is a pixel or two here: nobody can aim at one
    # GPU-01 holds node-1..node-4 (4U each) at U1, U5, U9, U13; press at U6, in node-2's span
    node2 = next(p for p in placements(state) if p["label"] == "node-2")
    assert (node2["rack"], node2["u"]) == (gpu1, 5)
    # to GPU-03 (node-9..node-12 at U1-U16), pointing at U6 (taken): the lowest free slot, U17
    app.drag(app.slot("GPU-01", 6), app.slot("GPU-03", 6), steps=24)
    state = app.wait_state(lambda s: next(p for p in placements(s) if p["id"] == node2["id"])["rack"] == gpu3,
                           "node-2 moved to GPU-03")
    app.screenshot("moved-on-floor")
    moved = next(p for p in placements(state) if p["id"] == node2["id"])
    assert moved["u"] == 17 and state["undo_count"] == 1
    assert state["floor_mode"] and state["selected_rack"] == gpu3  # still on the floor, the target selected
    # GPU-03 had 4 x 7.0 = 28.0 kW of its 30 kW cap: amber, and the status says the figure
    assert "GPU-03 would draw 35.0 / 30 kW" in state["status"]
    # onto NET-01 (air-cooled): refused, with the reason; nothing changes
    app.drag(app.slot("GPU-03", 18), app.slot("NET-01", 30), steps=24)
    state = app.wait_state(lambda s: s["status"].startswith("Not placed"), "the refusal")
    app.screenshot("refused-on-floor")
    assert "liquid-cooled only" in state["status"] and "NET-01" in state["status"]
    assert next(p for p in placements(state) if p["id"] == node2["id"])["rack"] == gpu3
    assert net1 not in {p["rack"] for p in placements(state) if p["device"] == node2["device"]}
    app.key("ctrl+z")
    state = app.wait_state(lambda s: next(p for p in placements(s) if p["id"] == node2["id"])["rack"] == gpu1,
                           "Ctrl+Z to bring node-2 back")
    assert next(p for p in placements(state) if p["id"] == node2["id"])["u"] == 5


pytestmark = pytest.mark.realinput


def test_new_plan_dialog_with_the_keyboard_designs_the_gpus_typed(real_app):
    # File > New plan… (Ctrl+N) starts from the medium template's intent (16 x 8 H100); two
    # tabs reach the GPU count; 256 typed and Enter: 256 / 8 = 32 HGX H100 nodes.
    app = real_app
    app.key("ctrl+n")
    app.wait_state(lambda s: s["dialog"] == "New plan", "the New plan dialog", timeout=60)
    app.key("Tab")
    app.key("Tab")
    app.key("ctrl+a")
    app.xdotool("type", "--delay", "40", "256")
    app.settle(1.0)
    app.screenshot("new-plan-dialog")
    app.key("Return")
    state = app.wait_state(lambda s: s["dialog"] is None and len(placements(s, "hgx-h100-8")) == 32,
                           "the 256-GPU plan", timeout=90)
    assert state["plan"]["name"].startswith("32-node cluster (256 x H100")
    app.screenshot("new-plan-created")


def _hold_over(app, device, rack, u):
    """Press on the palette row and move, in small steps, to the slot; the button stays down."""
    geo = app.state()["geometry"]
    start, end = geo["palette"][device], app.slot(rack, u)
    app.move(*start)
    app.xdotool("mousedown", "1")
    for i in range(1, 25):
        app.move(start[0] + (end[0] - start[0]) * i / 24, start[1] + (end[1] - start[1]) * i / 24)


def test_the_drag_ghost_says_in_words_what_the_drop_would_do(real_app):
    app = real_app
    # a 48-port 1 GbE management switch (1U, no GPUs: no fabric ports to count) on NET-01's free U30:
    # 15.0 kW typical and 20.35 kW nameplate of its 25 kW cap stay under it
    search = app.state()["geometry"]["search"]
    app.click(*search)
    app.xdotool("type", "mgmt")
    app.wait_state(lambda s: MGMT in s["geometry"]["palette"], "the management switch in the palette")
    _hold_over(app, MGMT, "NET-01", 30)
    app.wait_state(lambda s: s["ghost_label"] == "fits" and "NET-01" in (s["status"] or ""),
                   "the ghost over NET-01 to say it fits")
    app.screenshot("ghost-fits")
    # GPU-01 carries 4 x 10.2 kW = 40.8 kW nameplate against its 30 kW cap; the switch adds 0.15 kW (40.95 kW)
    app.move(*app.slot("GPU-01", 30))
    state = app.wait_state(lambda s: "GPU-01" in (s["status"] or "") and s["ghost_label"] not in (None, "fits"),
                           "the ghost over GPU-01 to give its figures")
    app.screenshot("ghost-over-cap")
    assert state["ghost_label"] == "41.0 / 30 kW (nameplate)", \
        state["ghost_label"]
    app.move(*app.slot("NET-01", 5))  # U5-U8 holds ib-5..ib-8
    state = app.wait_state(lambda s: (s["ghost_label"] or "").startswith("overlaps ib-"), "the ghost to name the overlap")
    app.screenshot("ghost-overlap")
    app.xdotool("key", "Escape")
    app.xdotool("mouseup", "1")
    app.settle()
    assert app.state()["ghost_label"] is None and app.state()["undo_count"] == 0


@pytest.fixture
def campus_app(tmp_path):
    from planner.hardware.catalog import default_catalog
    from planner.plan.fileio import save_plan
    from tests.ui.campus_plan import two_building_plan
    from tests.ui.real_input import TOOLS, RealApp

    require_tool(*TOOLS)
    path = tmp_path / "campus.json"
    save_plan(two_building_plan(default_catalog()), path)
    app = RealApp(tmp_path, [str(path)])
    yield app
    app.screenshot("at-exit")
    app.stop()


def _on_screen(state, key) -> bool:
    """The outline ``key`` ("building:N") is all in the rack view."""
    vx, vy, vw, vh = state["geometry"]["view"]
    x, y, w, h = state["geometry"]["campus"][key]
    return vx <= x and vy <= y and x + w <= vx + vw and y + h <= vy + vh


def _fills_view(state, key) -> bool:
    _, _, vw, vh = state["geometry"]["view"]
    _, _, w, h = state["geometry"]["campus"][key]
    return _on_screen(state, key) and (w > 0.85 * vw or h > 0.85 * vh)


def _double_click_beside_the_racks(app, state, hall) -> None:
    """In the right of the hall's name band, where no rack stands."""
    x, y, w, _h = state["geometry"]["campus"][hall]
    app.move(x + w - 10, y + 10)
    app.xdotool("click", "--repeat", "2", "--delay", "80", "1")
    app.settle()


def test_on_a_campus_home_a_double_click_and_page_up_go_from_campus_to_building_and_back(campus_app):
    app = campus_app
    geo = app.state()["geometry"]
    app.click(geo["view"][0] + geo["view"][2] - 10, geo["view"][1] + geo["view"][3] - 10)  # focus the view (a free spot)
    app.key("Home")
    state = app.wait_state(lambda s: all(_on_screen(s, k) for k in ("building:N", "building:S")), "the whole campus")
    app.screenshot("campus")
    # a double-click in hall S1 beside its racks: building South fills the view, then the hall
    _double_click_beside_the_racks(app, state, "hall:S1")
    state = app.wait_state(lambda s: _fills_view(s, "building:S"), "building South zoomed to")
    app.screenshot("building")
    _double_click_beside_the_racks(app, state, "hall:S1")
    state = app.wait_state(lambda s: _fills_view(s, "hall:S1"), "hall S1 zoomed to")
    assert state["selected_rack"] is None  # beside the racks: nothing was picked on the way
    app.screenshot("hall")
    app.key("Prior")  # Page Up: out a level, to the building
    app.wait_state(lambda s: _fills_view(s, "building:S"), "Page Up to building South")
    app.key("Prior")
    app.wait_state(lambda s: all(_on_screen(s, k) for k in ("building:N", "building:S")), "Page Up to the campus")


def test_the_wheel_over_a_settings_field_it_does_not_edit_changes_nothing(real_app):
    """Scrolling down the Settings panel with the wheel passes over its fields: one the user
    has not clicked into keeps its value (it was the power basis, typical to nameplate, with
    no word said); clicked into, the wheel edits it as Qt's fields do."""
    before = real_app.state()
    fields = before["geometry"]["settings"]
    name = next(n for n in ("facility.power_basis", "costs.currency", "fabric.technology") if n in fields)
    x, y, w, h = fields[name]
    section, field = name.split(".")
    value = before["plan"]["settings"][section][field]
    real_app.move(x + w // 2, y + h // 2)  # over the field, not clicked: it has not the focus
    for button in ("5", "5", "4", "5"):
        real_app.xdotool("click", button)
        real_app.settle(0.2)
    after = real_app.state()
    real_app.screenshot("after-wheel")
    assert after["plan"]["settings"][section][field] == value
    assert after["undo_count"] == before["undo_count"]


def test_ctrl_z_right_after_entering_a_value_undoes_it_in_the_plan(real_app):
    """PUE typed and entered, the cursor still in the field: Ctrl+Z takes the plan back (the
    field has no typing of its own left to undo), Ctrl+Shift+Z brings it again."""
    before = real_app.state()
    fields = before["geometry"]["settings"]
    assert "facility.pue" in fields
    x, y, w, h = fields["facility.pue"]
    pue = before["plan"]["settings"]["facility"]["pue"]
    real_app.click(x + w // 2, y + h // 2)
    real_app.key("ctrl+a")
    real_app.xdotool("type", "--delay", "60", "1.42")
    real_app.key("Return")
    assert real_app.state()["plan"]["settings"]["facility"]["pue"] == 1.42
    real_app.key("ctrl+z")
    assert real_app.state()["plan"]["settings"]["facility"]["pue"] == pue
    real_app.key("ctrl+shift+z")
    assert real_app.state()["plan"]["settings"]["facility"]["pue"] == 1.42


def test_ctrl_z_right_after_renaming_a_device_in_the_inspector_undoes_the_name(real_app):
    """ib-1 (NET-01, U1) selected, renamed in the Inspector's Label field and entered: Ctrl+Z
    in that field takes the plan's name back (not only the field's text), once."""
    real_app.click(*real_app.slot("NET-01", 1))
    state = real_app.state()
    (pid,) = state["selected_devices"]
    fields = state["geometry"]["inspector"]
    assert "label" in fields
    x, y, w, h = fields["label"]
    real_app.click(x + w // 2, y + h // 2)
    real_app.key("ctrl+a")
    real_app.xdotool("type", "--delay", "60", "leaf-a")
    real_app.key("Return")
    label = lambda: next(p["label"] for p in real_app.state()["plan"]["placements"] if p["id"] == pid)  # noqa: E731
    assert label() == "leaf-a"
    count = real_app.state()["undo_count"]
    real_app.key("ctrl+z")
    assert label() == "ib-1"
    real_app.key("Return")  # the field shows the plan's name: entering it again records nothing
    assert label() == "ib-1" and real_app.state()["undo_count"] == count
