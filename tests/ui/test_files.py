"""Acceptance 6 and 7: save / close / open, the unsaved marker, starting on the default plan."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui import file_dialogs
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from planner.design.templates import get_template
from planner.plan.commands import AddDevice
from planner.plan.fileio import load_plan
from tests.ui.conftest import rack_named
from ui.app import create_window

ROOT = Path(__file__).resolve().parents[2]


def test_save_close_open_gives_an_equal_plan_and_the_marker_follows_the_clean_state(window, qtbot, tmp_path):
    doc = window.doc
    stor = rack_named(doc.plan, "STOR-01")
    assert window.isWindowModified() is False
    assert doc.apply(AddDevice("sn5600", stor.id, 20, label="spare-leaf"))
    assert window.isWindowModified() is True
    window.undo_action.trigger()
    assert window.isWindowModified() is False  # back at the clean state
    window.redo_action.trigger()
    assert window.isWindowModified() is True

    path = tmp_path / "cluster.json"
    assert window._save_to(path)
    assert window.isWindowModified() is False
    assert window.windowTitle().startswith("cluster.json[*]")
    saved = doc.plan.model_dump()
    window.undo_action.trigger()  # undo past the save point: modified again
    assert window.isWindowModified() is True
    window.redo_action.trigger()
    assert window.isWindowModified() is False
    assert window.close()

    reopened = create_window([str(path)])
    qtbot.addWidget(reopened)
    assert reopened.doc.plan.model_dump() == saved
    assert reopened.doc.path == path and not reopened.isWindowModified()
    assert any(p.label == "spare-leaf" for p in reopened.doc.plan.placements)
    assert str(path.resolve()) in reopened.recent_files()


def test_closing_with_unsaved_changes_asks(window, monkeypatch):
    stor = rack_named(window.doc.plan, "STOR-01")
    window.doc.apply(AddDevice("blank-1u", stor.id, 30))
    asked = []
    monkeypatch.setattr(window, "ask_unsaved", lambda: asked.append(1) or QMessageBox.StandardButton.Cancel)
    assert window.close() is False and window.isVisible()
    monkeypatch.setattr(window, "ask_unsaved", lambda: asked.append(1) or QMessageBox.StandardButton.Discard)
    assert window.close() is True
    assert len(asked) == 2


def test_save_answer_saves_before_closing(window, monkeypatch, tmp_path):
    path = tmp_path / "p.json"
    window._save_to(path)
    stor = rack_named(window.doc.plan, "STOR-01")
    window.doc.apply(AddDevice("blank-1u", stor.id, 30))
    monkeypatch.setattr(window, "ask_unsaved", lambda: QMessageBox.StandardButton.Save)
    assert window.close()
    assert any(p.device == "blank-1u" for p in load_plan(path).placements)


def test_open_refuses_a_bad_file_with_a_message_and_keeps_the_plan(window, monkeypatch, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    shown = []
    monkeypatch.setattr(window, "show_error", lambda title, message: shown.append(message))
    before = window.doc.plan.model_dump()
    assert window.open_file(bad) is False
    assert shown and shown[0].startswith("bad.json: not a valid plan file")
    assert window.doc.plan.model_dump() == before


def test_new_from_template_replaces_the_plan_and_clears_history(window):
    window.doc.apply(AddRack_())
    window.doc.undo_stack.setClean()
    window.new_plan("single-node")
    assert window.doc.plan.name == get_template("single-node").title
    assert window.doc.undo_stack.count() == 0 and window.doc.path is None
    assert set(window.view.racks) == {r.id for r in window.doc.plan.racks}
    assert window.summary.text("gpus") == "4"  # one 4 x H100 workhorse


def AddRack_():
    from planner.plan.commands import AddRack

    return AddRack()


def test_template_dialog_lists_every_template_with_a_description(qtbot):
    from planner.design.templates import template_names
    from ui.template_dialog import NAME_ROLE, TemplateDialog

    dialog = TemplateDialog()
    qtbot.addWidget(dialog)
    names = [dialog.list.item(i).data(NAME_ROLE) for i in range(dialog.list.count())]
    assert names == template_names()
    assert dialog.template_name() == "medium"
    assert "\n" in dialog.list.item(0).text()  # title, then the one-line description


def test_starts_on_the_medium_template_and_the_window_is_not_blank(qtbot, tmp_path):
    window = create_window([])
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    assert window.doc.plan.name == get_template("medium").title
    assert window.summary.text("gpus") == "128"  # 16 nodes x 8 H100
    assert window.summary.text("racks") == "7"  # 4 GPU, NET, STOR, CDU
    assert window.windowTitle().endswith("— GPU Cluster Planner")
    path = tmp_path / "window.png"
    assert window.grab().save(str(path))
    image = QImage(str(path))
    assert image.width() >= 1000 and image.height() >= 600
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 50  # a blank or single-colour window has a handful
    # the rack view's canvas colour is on screen, and the GPU node blue
    assert any((c & 0xFFFFFF) == 0x23272E for c in colours)


def test_export_actions_are_enabled_only_when_the_exporters_exist(window):
    import importlib.util

    assert window.export_xlsx_action.isEnabled() == (importlib.util.find_spec("planner.export") is not None and
                                                     importlib.util.find_spec("planner.export.xlsx") is not None)
    assert window.plan_json().startswith("{")


def _run_smoke(env):
    return subprocess.run([sys.executable, "-m", "cluster_planner", "--smoke"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_smoke_start_offscreen(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}
    result = _run_smoke(env)
    assert result.returncode == 0, result.stderr


@pytest.mark.needs_tool("xvfb-run")
def test_smoke_start_under_xvfb(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env["XDG_CONFIG_HOME"] = str(tmp_path)
    result = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable, "-m", "cluster_planner",
                             "--smoke"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_a_bad_plan_on_the_command_line_is_reported_and_the_default_plan_shown(qtbot, tmp_path, monkeypatch):
    bad = tmp_path / "broken.json"
    bad.write_text('{"schema_version": 99}')
    shown = []
    monkeypatch.setattr("ui.main_window.MainWindow.show_error", lambda self, title, message: shown.append(message))
    window = create_window([str(bad)])
    qtbot.addWidget(window)
    assert window.open_problem.startswith("broken.json:")
    assert window.doc.plan.name == get_template("medium").title and window.doc.path is None
    qtbot.waitUntil(lambda: bool(shown))
    assert "Showing the default plan instead" in shown[0]
    result = _run_smoke_args([str(bad)], tmp_path)
    assert result.returncode == 2 and "broken.json" in result.stderr


def _run_smoke_args(args, tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "cluster_planner", *args, "--smoke"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_designed_plan_on_no_disk_asks_before_closing_until_saved(window, monkeypatch, tmp_path):
    """File > New plan…: the design exists nowhere but in the window, so it is unsaved work
    (the title's [*] marker on) and closing asks; once saved, it closes without asking."""
    from types import SimpleNamespace

    import ui.file_actions
    from planner.design.build import design
    from planner.design.intent import Intent

    made = design(Intent(system="dgx-b200", gpus=1024), window.doc.catalog)

    class Dialog:
        def __init__(self, *args, **kwargs):
            self.design = SimpleNamespace(plan=made.plan)

        def exec(self):
            return True

    monkeypatch.setattr(ui.file_actions, "NewPlanDialog", Dialog)
    window.new_from_template()
    assert window.doc.plan is made.plan and window.doc.path is None
    assert window.isWindowModified() is True
    asked = []
    monkeypatch.setattr(window, "ask_unsaved", lambda: asked.append(1) or QMessageBox.StandardButton.Cancel)
    assert window.close() is False and asked == [1]
    assert window._save_to(tmp_path / "b200.json")
    assert window.isWindowModified() is False
    assert window.close() is True and asked == [1]


def test_new_and_open_ask_about_unsaved_work_only_when_something_replaces_it(window, monkeypatch, tmp_path):
    """A cancelled New plan dialog or Open dialog leaves the edited plan and asks nothing; a
    design accepted asks, and Cancel there keeps the edited plan."""
    from types import SimpleNamespace

    import ui.file_actions
    from planner.design.build import design
    from planner.design.intent import Intent

    stor = rack_named(window.doc.plan, "STOR-01")
    window.doc.apply(AddDevice("blank-1u", stor.id, 30))
    edited = window.doc.plan
    asked = []
    monkeypatch.setattr(window, "ask_unsaved", lambda: asked.append(1) or QMessageBox.StandardButton.Cancel)
    made = design(Intent(system="dgx-b200", gpus=64), window.doc.catalog)
    accept = []  # what each exec of the dialog returns, in turn (then: cancelled)
    shown = []

    class Dialog:
        def __init__(self, *args, **kwargs):
            self.design = SimpleNamespace(plan=made.plan)

        def exec(self):
            shown.append(self)
            return accept.pop(0) if accept else False

    monkeypatch.setattr(ui.file_actions, "NewPlanDialog", Dialog)
    window.new_from_template()  # the dialog cancelled
    assert asked == [] and window.doc.plan is edited
    monkeypatch.setattr(ui.file_actions.file_dialogs, "open_file_name", lambda *a, **k: ("", ""))
    window.open_dialog()  # no file chosen
    assert asked == [] and window.doc.plan is edited
    accept.append(True)
    shown.clear()
    window.new_from_template()  # a design ready: asked, and Cancel keeps the edited plan
    assert asked == [1] and window.doc.plan is edited
    # and returns to the same dialog, its fields as they were (closed here: shown twice)
    assert len(shown) == 2 and shown[0] is shown[1]
