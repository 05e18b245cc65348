"""Replace all … with … driven by a real pointer and keyboard (xdotool on its own Xvfb).

The medium template: GPU-01..GPU-04 each hold 4 HGX H100 (7 kW typical, 4U) at U1, U5, U9,
U13. As DGX B200 (10 kW, 10U) 3 stay in each 30 kW rack and 4 move to 2 new air racks
(25 kW air limit, 2 each): tests/planner/test_replace_devices.py works the figures.
"""

from tests.ui.real_input import real_app  # noqa: F401  (fixture)


def placements(state, device):
    return [p for p in state["plan"]["placements"] if p["device"] == device]


def test_replace_all_from_the_context_menu_then_ctrl_z(real_app):
    app = real_app
    before = app.state()["plan"]
    node1 = next(p for p in before["placements"] if p["label"] == "node-1")
    app.click(*app.slot("GPU-01", 2))
    app.wait_state(lambda s: s["selected_devices"] == [node1["id"]], "node-1 selected")
    app.move(*app.slot("GPU-01", 3))
    app.xdotool("click", "3")
    app.wait_state(lambda s: s["popup"] is not None, "the device's context menu")
    app.key("Down", "Down", "Down")  # Duplicate, Remove, Replace all … with …
    app.key("Return")
    app.wait_state(lambda s: s["dialog"] == "Replace devices", "the Replace devices dialog")
    app.key("alt+w")  # the "With" choice: DGX H100, DGX H200, DGX B200, … (catalog order)
    app.key("Down", "Down")
    app.screenshot("replace-dialog")
    steps = app.state()["undo_count"]
    app.key("Return")
    state = app.wait_state(lambda s: s["dialog"] is None and len(placements(s, "dgx-b200")) == 16,
                           "every HGX H100 replaced by a DGX B200")
    assert not placements(state, "hgx-h100-8") and state["undo_count"] == steps + 1
    names = {r["id"]: r["name"] for r in state["plan"]["racks"]}
    per_rack = {}
    for p in placements(state, "dgx-b200"):
        per_rack[names[p["rack"]]] = per_rack.get(names[p["rack"]], 0) + 1
    assert per_rack == {"GPU-01": 3, "GPU-02": 3, "GPU-03": 3, "GPU-04": 3, "GPU-05": 2, "GPU-06": 2}
    app.screenshot("replaced")
    app.click(*app.slot("GPU-01", 40))  # back to the racks (Xvfb has no window manager to refocus them)
    app.key("ctrl+z")
    state = app.wait_state(lambda s: len(placements(s, "hgx-h100-8")) == 16, "Ctrl+Z to undo the replacement")
    assert state["plan"]["racks"] == before["racks"] and state["plan"]["placements"] == before["placements"]
