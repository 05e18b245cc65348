"""File > Import acceptance results…, driven as a user would: the menu item, the folder dialog
answered, the verdict dialog read, "Record as As-built variant" pressed and Ctrl+Z.

The medium template (16 HGX H100 nodes, 8 NDR 400 Gb/s NICs each). Its cross-node
all-reduce, worked by hand: the ring's bottleneck is min(8 NICs x 50 GB/s x 0.94 NDR
efficiency = 376, NVLink 900 / 2 x 0.8 = 360) = 360 GB/s per GPU over 128 ranks with 5 us a
step; at 8 GiB t = 254 x 5 us + 254/128 x 8 GiB / 360 GB/s = 48.62 ms, busbw = 8 GiB / t x
254/128 = 350.6 GB/s, pass at 75 % = 262.9. The slow log measures 140.0 GB/s: FAIL, 140 of
the node's 8 x 50 = 400 GB/s line rate = 35 %.
"""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pytest

from ui import file_dialogs
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

import planner.acceptance.results as results_module
from planner.acceptance.asbuilt import AS_BUILT
from planner.plan.variants import resolve_variant
from planner.report.evaluate import evaluate
from tests.system_tools import require_tool
from ui.last_folder import LAST_FOLDER_KEY

DATA = Path(__file__).parents[1] / "data" / "acceptance"
LOGS = ("nccl_all_reduce_cluster_slow.log", "ib_write_bw_mlx5_0.log", "nccl_all_reduce_node_srun.log",
        "nccl_truncated.log")


@pytest.fixture
def results_folder(tmp_path):
    folder = tmp_path / "measured"
    folder.mkdir()
    for name in LOGS:
        (folder / name).write_text((DATA / name).read_text())
    (folder / "notes.txt").write_text("rack 3 cabled on Tuesday")
    return folder


def _import(window, monkeypatch, folder: Path):
    starts = []
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda _p, _t, start, *a, **k: starts.append(start)
                        or str(folder))
    window.import_results_action.trigger()
    return getattr(window, "acceptance_results_dialog", None), starts


def _rows(dialog) -> dict[str, dict[str, str]]:
    t = dialog.table
    heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    return {t.item(r, 0).text(): {h: t.item(r, c).text() for c, h in enumerate(heads)} for r in range(t.rowCount())}


def _cut_line(name: str) -> int:
    """The first table row of fewer than 13 columns: where the log was cut."""
    lines = (DATA / name).read_text().splitlines()
    return next(i for i, ln in enumerate(lines, 1) if ln.strip() and not ln.startswith("#") and len(ln.split()) < 13)


def test_the_menu_item_sits_in_the_file_menu(window):
    bar = window.menuBar()
    file_action = bar.actions()[0]
    file_menu = file_action.menu()
    assert file_action.text() == "&File" and window.import_results_action in file_menu.actions()
    assert window.import_results_action.text() == "Import a&cceptance results…"


def test_verdict_rows_files_not_recognised_and_parse_errors(window, monkeypatch, results_folder):
    dialog, _ = _import(window, monkeypatch, results_folder)
    rows = _rows(dialog)
    assert set(rows) == {"nccl.all_reduce.cluster", "nccl.all_reduce.node", "ib_write_bw", "dcgm.diag",
                         "fio.checkpoint_write.node", "fio.checkpoint_write.aggregate", "fio.dataset_read.node",
                         "fio.dataset_read.aggregate"}
    # the tests no log answers are listed, never left out: a vendor signs only when all passed
    assert {k for k, row in rows.items() if row["Verdict"] == "MISSING"} == {
        "dcgm.diag", "fio.checkpoint_write.node", "fio.checkpoint_write.aggregate", "fio.dataset_read.node",
        "fio.dataset_read.aggregate"}
    slow = rows["nccl.all_reduce.cluster"]
    assert (slow["Expected (GB/s)"], slow["Measured (GB/s)"], slow["Pass at (GB/s)"], slow["Share of line rate"],
            slow["Verdict"]) == ("350.6", "140.0", "262.9", "35 %", "FAIL")
    assert slow["Where"] == "all_reduce_perf, all 16 nodes (128 GPUs)"
    # one node, no latency in NVLink's ring: 360 GB/s expected, 270 pass, 300.02 measured, 300 / 450 line = 67 %
    node = rows["nccl.all_reduce.node"]
    assert (node["Expected (GB/s)"], node["Measured (GB/s)"], node["Share of line rate"], node["Verdict"]) == (
        "360.0", "300.0", "67 %", "PASS")
    # one NIC: 400 Gb/s / 8 x 0.94 = 47.0 GB/s expected; 390.40 Gb/s / 8 = 48.8 measured, 97.6 % of 50
    ib = rows["ib_write_bw"]
    assert (ib["Expected (GB/s)"], ib["Measured (GB/s)"], ib["Share of line rate"], ib["Verdict"]) == (
        "47.0", "48.8", "98 %", "PASS")
    # the word says it and the colour repeats it: PASS and FAIL fills differ
    column = list(rows["ib_write_bw"]).index("Verdict")
    fills = {dialog.table.item(r, column).text(): dialog.table.item(r, column).background().color().name()
             for r in range(dialog.table.rowCount())}
    assert fills["PASS"] != fills["FAIL"]
    assert not dialog.unrecognised.isHidden() and "notes.txt: not nccl-tests stdout" in dialog.unrecognised.text()
    assert f"nccl_truncated.log, line {_cut_line('nccl_truncated.log')}: a table row of 13 columns" in (
        dialog.errors.text())
    assert "Traceback" not in dialog.errors.text()
    assert window.statusBar().currentMessage().endswith(
        "2 passed, 1 failed, 5 test(s) missing, 1 file(s) not recognised, 1 log(s) could not be read")


def test_record_as_built_then_compare_shows_the_lower_throughput(window, monkeypatch, results_folder, qtbot):
    dialog, _ = _import(window, monkeypatch, results_folder)
    planned_name = window.doc.plan.current_variant
    planned = window.doc.report.workload.tokens_per_s
    qtbot.mouseClick(dialog.record_button, Qt.MouseButton.LeftButton)
    plan = window.doc.plan
    assert plan.variant_names == [planned_name, AS_BUILT] and plan.current_variant == planned_name
    assert window.doc.undo_stack.undoText() == "Record as-built results"
    # the fabric efficiency scaled by 140 / 350.6: 0.94 x 0.3993 = 0.375
    assert "0.940 -> 0.375" in dialog.note.text()
    comparison = dialog.compare_dialog.comparison
    assert [s.name for s in comparison.sides] == [planned_name, AS_BUILT]
    shown = {s.name: comparison.totals(s)["tokens_per_s"] for s in comparison.sides}
    assert shown[planned_name] == pytest.approx(planned)
    built = evaluate(resolve_variant(plan, AS_BUILT), window.doc.catalog).workload.tokens_per_s
    assert shown[AS_BUILT] == pytest.approx(built) and built < planned
    dialog.compare_dialog.close()


def test_ctrl_z_removes_the_as_built_variant(window, monkeypatch, results_folder, qtbot):
    before = window.doc.plan_json()
    steps = window.doc.undo_stack.count()
    dialog, _ = _import(window, monkeypatch, results_folder)
    assert window.doc.undo_stack.count() == steps  # reading changes nothing
    assert dialog.record()
    assert window.doc.undo_stack.count() == steps + 1  # one step
    dialog.compare_dialog.close()
    dialog.close()
    window.activateWindow()
    qtbot.waitActive(window)
    window.view.setFocus()
    QTest.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert AS_BUILT not in window.doc.plan.variant_names
    assert window.doc.plan_json() == before


def test_a_folder_of_nothing_judged_says_why_and_changes_nothing(window, monkeypatch, tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "nccl_truncated.log").write_text((DATA / "nccl_truncated.log").read_text())
    (folder / "photo.jpg").write_bytes(bytes(range(256)) * 40)
    before, steps = window.doc.plan_json(), window.doc.undo_stack.count()
    dialog, _ = _import(window, monkeypatch, folder)
    # nothing judged: each of the pack's 8 tests is a MISSING row, and nothing can be recorded
    assert dialog.table.rowCount() == 8 and not dialog.record_button.isEnabled()
    assert {row["Verdict"] for row in _rows(dialog).values()} == {"MISSING"}
    assert "photo.jpg: not nccl-tests stdout" in dialog.unrecognised.text()
    assert "nccl_truncated.log, line" in dialog.errors.text()
    assert window.statusBar().currentMessage().endswith("0 passed, 0 failed, 8 test(s) missing, 1 file(s) not "
                                                        "recognised, 1 log(s) could not be read")
    assert window.doc.plan_json() == before and window.doc.undo_stack.count() == steps


def test_a_missing_folder_is_a_message_not_a_dialog(window, monkeypatch, tmp_path):
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    before = window.doc.plan_json()
    dialog = window.import_acceptance_results_from(tmp_path / "gone")
    assert dialog is None and shown == [f"{tmp_path / 'gone'}: not a folder of measured logs"]
    assert window.doc.plan_json() == before


def test_the_dialog_starts_in_the_last_folder_and_remembers_this_one(window, monkeypatch, results_folder, tmp_path):
    QSettings().setValue(LAST_FOLDER_KEY, str(tmp_path))
    _, starts = _import(window, monkeypatch, results_folder)
    assert starts == [str(tmp_path)]
    assert Path(str(QSettings().value(LAST_FOLDER_KEY))) == results_folder.parent


def test_logs_are_read_while_the_window_goes_on_handling_events(window, monkeypatch, results_folder):
    # The read waits for a timer of the GUI thread: had it run on the GUI thread, the timer
    # could not fire and the read would give up after 10 s with nothing read.
    released = threading.Event()
    threads = []
    real = results_module.read_results

    def waiting_read(*args, **kwargs):
        threads.append(threading.get_ident())
        if not released.wait(10):
            raise results_module.ResultError("the window handled no event while the logs were read")
        return real(*args, **kwargs)

    monkeypatch.setattr("ui.acceptance_results.read_results", waiting_read)
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: pytest.fail(a[2]))
    QTimer.singleShot(50, released.set)
    dialog, _ = _import(window, monkeypatch, results_folder)
    assert threads and threads[0] != threading.get_ident()
    assert dialog is not None and dialog.table.rowCount() == 3 + 5  # 3 logs judged, 5 tests missing


def test_nothing_recordable_is_refused_in_the_dialog_and_changes_nothing(window, monkeypatch, tmp_path):
    # one node's all-reduce says nothing about the fabric between nodes or the storage
    folder = tmp_path / "node-only"
    folder.mkdir()
    (folder / "node.log").write_text((DATA / "nccl_all_reduce_node_srun.log").read_text())
    before, steps = window.doc.plan_json(), window.doc.undo_stack.count()
    dialog, _ = _import(window, monkeypatch, folder)
    assert _rows(dialog)["nccl.all_reduce.node"]["Verdict"] == "PASS"
    assert dialog.record() is False
    assert dialog.note.text().startswith("Nothing recorded: no measured nccl-tests, ib_write_bw or fio checkpoint")
    assert window.doc.plan_json() == before and window.doc.undo_stack.count() == steps


def test_a_real_fio_run_is_judged_and_recorded_as_the_node_storage_rate(window, monkeypatch, tmp_path):
    require_tool("fio")
    folder = tmp_path / "fio-results"
    folder.mkdir()
    out = subprocess.run(["fio", "--name=ckpt", f"--directory={tmp_path}", "--rw=write", "--bs=1M", "--size=8M",
                          "--output-format=json"], capture_output=True, text=True, check=True).stdout
    (folder / "checkpoint.json").write_text(out)
    measured = json.loads(out[out.index("{"):])["jobs"][0]["write"]["bw_bytes"] / 1e9  # bytes/s -> GB/s
    dialog, _ = _import(window, monkeypatch, folder)
    row = _rows(dialog)["fio.checkpoint_write.node"]
    # medium: 100 GB/s per node expected, pass at 75; a laptop-sized run of 8 MB is far below
    assert (row["Expected (GB/s)"], row["Pass at (GB/s)"], row["Verdict"]) == ("100.0", "75.0", "FAIL")
    assert float(row["Measured (GB/s)"].replace(",", "")) == pytest.approx(measured, abs=0.05)
    assert dialog.record()
    built = resolve_variant(window.doc.plan, AS_BUILT)
    assert built.settings.storage.node_storage_gbs == pytest.approx(measured, abs=1e-3)  # one host per HGX node
    dialog.compare_dialog.close()
