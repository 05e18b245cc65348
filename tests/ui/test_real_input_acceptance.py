"""File > Import acceptance results… with real keys (xdotool on Xvfb): the menu opened from the
keyboard, the folder typed in the folder dialog, the verdicts shown, the As-built variant
recorded with the dialog's key and taken back with Ctrl+Z. The app starts on the medium
template; its cross-node all-reduce passes at 262.9 GB/s and the slow log measures 140.0."""

from __future__ import annotations

from pathlib import Path

from tests.ui.real_input import real_app  # noqa: F401  (fixture)

DATA = Path(__file__).parents[1] / "data" / "acceptance"


def test_import_results_from_the_keyboard_then_record_and_undo(real_app, tmp_path):
    app = real_app
    folder = tmp_path / "measured"
    folder.mkdir()
    for name in ("nccl_all_reduce_cluster_slow.log", "ib_write_bw_mlx5_0.log", "nccl_truncated.log"):
        (folder / name).write_text((DATA / name).read_text())
    (folder / "notes.txt").write_text("rack 3 cabled on Tuesday")
    app.key("alt+f")
    app.wait_state(lambda s: s["popup"] == "&File", "the File menu")
    app.key("c")  # Import a&cceptance results…
    app.wait_state(lambda s: s["dialog"] == "Import acceptance results from", "the folder dialog", timeout=60)
    app.key("ctrl+a")
    app.xdotool("type", "--delay", "20", str(folder))
    app.key("Return")
    state = app.wait_state(lambda s: s["status"].startswith("Acceptance results from"), "the verdicts", timeout=90)
    # the slow cluster log fails, ib_write_bw passes; the pack's other 6 of its 8 tests (node
    # all-reduce, DCGM, four fio jobs) have no result and are missing; notes.txt and the
    # truncated log are listed
    assert state["status"] == ("Acceptance results from measured: 1 passed, 1 failed, 6 test(s) missing, "
                               "1 file(s) not recognised, 1 log(s) could not be read")
    app.screenshot("acceptance-verdicts")
    app.key("alt+r")  # &Record as As-built variant
    state = app.wait_state(lambda s: any(v["name"] == "As built" for v in s["plan"].get("variants", [])),
                           "the As built variant", timeout=60)
    assert state["undo_count"] == 1
    app.wait_state(lambda s: s["status"].startswith("Recorded the measured results"), "the status", timeout=30)
    app.settle(1.0)
    app.screenshot("acceptance-compare")
    app.xdotool("windowfocus", "--sync", app.window)  # back to the main window, as a click on it would
    app.key("ctrl+z")
    state = app.wait_state(lambda s: not s["plan"].get("variants"), "Ctrl+Z to remove the variant", timeout=60)
    assert state["undo_index"] == 0
    assert "Traceback" not in app.output()
