"""The plan's name is the user's; exports are named after it; file dialogs start in the last folder used."""

from ui import file_dialogs
from PySide6.QtWidgets import QLineEdit

from planner.plan.names import file_slug


def test_slug_of_a_template_name():
    assert file_slug("16-node LLM cluster (128 x H100, NDR400)") == "16-node-llm-cluster-128-x-h100-ndr400"
    assert file_slug("  ../..  ") == "plan"  # nothing safe left: a neutral name
    # a count's thousands separators are not a word break: 1,024 GPUs read as 1024, not "1-024"
    assert file_slug("128 x DGX B200 (1,024 GPUs)") == "128-x-dgx-b200-1024-gpus"
    assert file_slug("A, B and 1,5 or 10,0000") == "a-b-and-1-5-or-10-0000"  # not a thousands group
    assert file_slug("Ünïcode / cluster: A") == "n-code-cluster-a"
    # a long name is cut at the end of a word within 60 characters, not inside one
    long = "16-node cluster (128 x Instinct MI355X 288GB), from template inference"
    assert file_slug(long) == "16-node-cluster-128-x-instinct-mi355x-288gb-from-template"
    assert file_slug("x" * 80) == "x" * 60  # one word: cut at 60


def test_exports_default_to_the_plan_name_in_the_last_folder(window, monkeypatch, tmp_path):
    asked = []

    def fake_save(parent, title, start, filters):
        asked.append(start)
        return str(tmp_path / "out" / "chosen.xlsx"), ""
    (tmp_path / "out").mkdir()
    monkeypatch.setattr(file_dialogs, "save_file_name", fake_save)
    # each export "writes" (nothing on disk): the folder is remembered once an export is written
    monkeypatch.setattr("ui.file_actions.run_export", lambda parent, title, write, cancellable: True)
    monkeypatch.chdir(tmp_path)

    # the user renames the plan in the inspector (nothing selected: the plan's own fields)
    window.view.scene().clearSelection()
    name = window.inspector.findChild(QLineEdit)
    assert name.text() == "16-node LLM cluster (128 x H100, NDR400)"  # the template's until edited
    name.setText("Lab cluster B")
    name.editingFinished.emit()
    assert window.doc.plan.name == "Lab cluster B"

    window.export_excel()
    assert asked[-1] == str(tmp_path / "lab-cluster-b.xlsx")  # no folder used yet: the working folder
    window.export_drawing("pdf")
    assert asked[-1] == str(tmp_path / "out" / "lab-cluster-b.pdf")  # where the last export went

    window.doc.undo_stack.setClean()  # no unsaved-changes question before the open dialog
    opened = []
    monkeypatch.setattr(file_dialogs, "open_file_name",
                        lambda parent, title, start, filters: (opened.append(start), ("", ""))[1])
    window.open_dialog()
    assert opened == [str(tmp_path / "out")]
    # remembered in QSettings, so a new window starts there too
    assert window.settings.value("files/lastFolder") == str(tmp_path / "out")


def test_chart_export_starts_in_the_last_folder_and_is_remembered_for_the_others(window, monkeypatch, tmp_path):
    (tmp_path / "plans").mkdir()
    (tmp_path / "charts").mkdir()
    window.settings.setValue("files/lastFolder", str(tmp_path / "plans"))  # a plan was saved there
    chart = window.charts.chart_at(0)
    asked = []

    def fake_save(parent, title, start, filters):
        asked.append(start)
        return str(tmp_path / "charts" / "power.png"), ""
    monkeypatch.setattr(file_dialogs, "save_file_name", fake_save)
    chart.export_dialog()
    assert asked[-1].startswith(str(tmp_path / "plans") + "/")  # starts where the plan went
    assert (tmp_path / "charts" / "power.png").stat().st_size > 0
    window.doc.undo_stack.setClean()
    opened = []
    monkeypatch.setattr(file_dialogs, "open_file_name",
                        lambda parent, title, start, filters: (opened.append(start), ("", ""))[1])
    window.open_dialog()
    assert opened == [str(tmp_path / "charts")]  # the chart's folder is the last one used


def test_the_netbox_and_acceptance_folder_dialogs_start_in_the_last_folder_and_are_remembered(
        window, monkeypatch, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "netbox").mkdir()
    window.settings.setValue("files/lastFolder", str(tmp_path / "out"))  # a workbook was exported there
    monkeypatch.setattr("ui.file_actions.run_export", lambda parent, title, write, cancellable: True)
    asked = []
    monkeypatch.setattr(file_dialogs, "existing_directory",
                        lambda parent, title, start, *a, **k: (asked.append(start), str(tmp_path / "netbox"))[1])
    window.export_netbox()
    assert asked == [str(tmp_path / "out")]
    window.export_acceptance()  # the folder chosen for NetBox is the last one used
    assert asked[-1] == str(tmp_path / "netbox")


def test_a_folder_that_refused_an_export_is_not_where_the_next_dialog_starts(window, monkeypatch, tmp_path):
    from planner.errors import PlannerError

    (tmp_path / "plans").mkdir()
    window.settings.setValue("files/lastFolder", str(tmp_path / "plans"))
    errors = []
    monkeypatch.setattr(window, "show_error", lambda title, text: errors.append(text))

    def refused(parent, title, write, cancellable):
        raise PlannerError("files cannot be created in /proc/sys (nothing was written)")
    monkeypatch.setattr("ui.file_actions.run_export", refused)
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda parent, title, start, filters: ("/proc/sys/x.xlsx", ""))
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda parent, title, start, *a, **k: "/proc/sys")
    window.export_excel()
    window.export_drawing("pdf")
    window.export_netbox()
    window.export_acceptance()
    assert len(errors) == 4 and all("/proc/sys" in e for e in errors)
    assert window.settings.value("files/lastFolder") == str(tmp_path / "plans")  # still where the plan went

    # a plan saved nowhere: Save As into a folder that refuses it leaves the last folder too
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda parent, title, start, filters: ("/proc/sys/p.json", ""))
    assert window.save_as() is False
    assert window.settings.value("files/lastFolder") == str(tmp_path / "plans")


def test_a_long_plan_name_reads_from_its_start_in_the_inspector(window):
    window.view.scene().clearSelection()
    name = window.inspector.findChild(QLineEdit)
    assert name.text().startswith("16-node LLM cluster")
    assert name.cursorPosition() == 0  # the field shows "16-node LLM …", not the name's tail
    # an edit elsewhere refreshes the field: still from the start
    window.add_rack_action.trigger()
    window.view.scene().clearSelection()
    name = window.inspector.findChild(QLineEdit)
    assert name.cursorPosition() == 0
