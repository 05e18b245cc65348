"""Variants in the app: the chooser, Compare view colours, the Sweep dialog (progress, cancel,
Pareto chart, a point opened as a variant); undo covers every variant edit."""

from __future__ import annotations

from PySide6.QtCore import Qt

from planner.plan.autoplace import AutoPlace
from planner.plan.commands import SetSetting
from planner.report import palette


def test_variant_chooser_create_switch_rename_delete_and_undo(window):
    doc, vc = window.doc, window.variant_controls
    assert [vc.combo.itemText(i) for i in range(vc.combo.count())] == ["Base"]
    assert vc.new_variant("Nameplate")
    doc.apply(SetSetting("facility", "power_basis", "nameplate"))
    assert vc.combo.currentText() == "Nameplate" and vc.combo.count() == 2
    vc.combo.activated.emit(vc.combo.findText("Base"))  # the user picks Base in the chooser
    assert doc.plan.current_variant == "Base" and doc.report.power_basis == "typical"
    assert window.summary.isVisible()
    vc.combo.activated.emit(vc.combo.findText("Nameplate"))
    assert doc.report.power_basis == "nameplate"
    assert vc.rename("Nameplate power")
    assert vc.combo.currentText() == "Nameplate power"
    assert vc.delete(confirm=False)
    assert [vc.combo.itemText(i) for i in range(vc.combo.count())] == ["Base"]
    assert doc.report.power_basis == "typical"
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.plan.variant_names == ["Base"] and doc.report.power_basis == "typical"
    doc.undo_stack.redo()  # New variant
    doc.undo_stack.redo()  # its power basis
    assert vc.combo.currentText() == "Nameplate" and doc.report.power_basis == "nameplate"


def test_compare_view_colours_better_green_and_worse_red(window, qtbot):
    doc, vc = window.doc, window.variant_controls
    vc.new_variant("More nodes, PUE 1.3")
    doc.apply(AutoPlace("hgx-h100-8", 4, new_rack_prefix="GPU"))
    doc.apply(SetSetting("facility", "pue", 1.3))
    dialog = vc.compare()
    qtbot.addWidget(dialog)
    t = dialog.totals
    rows = {t.item(r, 0).text(): r for r in range(t.rowCount())}
    diff_col = 3  # Figure, Base, the variant, the difference
    capex = t.item(rows["Capex"], diff_col)
    # 4 more HGX H100 nodes at the catalog's $315,000: capex rises, which is worse (red).
    assert capex.text().startswith("+$1.") and "worse" in capex.text()
    assert capex.background().color().name().upper() == palette.VERDICT_FILLS["worse"].upper()
    # Facility power = IT x PUE: 170.648 x 1.3 = 221.8 kW against 142.648 x 1.56 = 222.5 kW: lower, better (green).
    facility = t.item(rows["Facility power (typical)"], diff_col)  # both sides on the typical basis
    assert facility.text().startswith("−0.7 kW") and "better" in facility.text()
    assert facility.background().color().name().upper() == palette.VERDICT_FILLS["better"].upper()
    # GPUs are neither better nor worse: no colour.
    gpus = t.item(rows["GPUs"], diff_col)
    assert gpus.text() == "+32" and gpus.background().style() == Qt.BrushStyle.NoBrush
    # BOM: the added nodes are a changed line, and the total is the capex difference.
    bom = dialog.bom
    texts = [[bom.item(r, c).text() if bom.item(r, c) else "" for c in range(bom.columnCount())]
             for r in range(bom.rowCount())]
    assert any(row[2] == "GPU servers" and row[4] == "16 → 20 (+4)" for row in texts)
    assert texts[-1][5] == capex.text().split()[0]
    # The first rows count each side's errors and warnings: gaining errors is worse (red).
    errors = [t.item(rows["Errors"], c).text() for c in range(4)]
    from planner.plan.variants import resolve_variant
    from planner.report.evaluate import evaluate
    base, variant = (sum(f.severity == "error" for f in evaluate(resolve_variant(doc.plan, name), doc.catalog).findings)
                     for name in ("Base", "More nodes, PUE 1.3"))
    assert rows["Errors"] == 0 and rows["Warnings"] == 1 and variant > base
    assert errors == ["Errors", str(base), str(variant), f"+{variant - base}  worse"]
    assert t.item(0, diff_col).background().color().name().upper() == palette.VERDICT_FILLS["worse"].upper()
    # Findings: gained errors are red.
    f = dialog.findings
    gained = [r for r in range(f.rowCount()) if f.item(r, 1).text().startswith("gained") and
              f.item(r, 2).text() == "error"]
    assert gained and f.item(gained[0], 1).background().color().name().upper() == \
        palette.VERDICT_FILLS["worse"].upper()
    # Settings: what the variant changed, in the Settings panel's words.
    s = dialog.settings
    rows = [[s.item(r, c).text() for c in range(s.columnCount())] for r in range(s.rowCount())]
    assert ["More nodes, PUE 1.3 − Base", "PUE", "facility", "1.56", "1.3"] in rows
    assert dialog.tabs.tabText(dialog.tabs.indexOf(s)) == f"Settings ({len(rows)})"
    # Unticking a side leaves one: nothing to compare, said in words.
    dialog.set_checked(["Base"])
    assert dialog.comparison is None and "Tick two sides" in dialog.note.text()


def _wait(qtbot, dialog):
    qtbot.waitUntil(lambda: dialog.thread is None, timeout=120_000)


def test_sweep_dialog_runs_shows_the_front_and_opens_a_point_as_a_variant(window, qtbot):
    doc = window.doc
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.nodes.setText("8, 16")
    assert dialog.count.text().startswith("2 points")
    assert dialog.start()
    _wait(qtbot, dialog)
    assert dialog.progress.value() == 2 and len(dialog.rows) == 2
    # 8 and 16 nodes of 8 GPUs; half the nodes cost less.
    assert [r["gpus"] for r in dialog.rows] == [64, 128] and dialog.rows[0]["capex_usd"] < dialog.rows[1]["capex_usd"]
    # Fewer nodes cost less and train slower: both points are on the front of capex vs time to train.
    assert dialog.front == [0, 1]
    assert len(dialog.chart.front.data) == 2
    dialog.choose(0)
    assert dialog.open_point()
    assert doc.plan.current_variant.startswith("Sweep: ") and doc.report.totals.gpus == 64
    # named in the table's words, not the CSV's ids
    model = doc.catalog["hgx-h100-8"].model
    assert doc.plan.current_variant == f"Sweep: {model}, 8 nodes, 400G InfiniBand (NDR), typical"
    assert doc.plan.variants[-1].own_layout  # a layout of its own: the base's edits do not reach it
    doc.undo_stack.undo()
    assert doc.plan.current_variant == "Base" and doc.report.totals.gpus == 128


def test_sweep_dialog_cancel_stops_before_the_points_run_and_bad_entries_are_said(window, qtbot):
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.nodes.setText("8, x")
    assert "'x' is not a number" in dialog.count.text() and not dialog.run_button.isEnabled()
    dialog.nodes.setText(", ".join(str(n) for n in range(4, 204, 2)))
    assert dialog.count.text().startswith("100 points")
    assert dialog.start()
    dialog.cancel()
    _wait(qtbot, dialog)
    assert "(cancelled)" in dialog.message.text() and len(dialog.rows) < 100


def test_sweep_pareto_axes_can_be_changed(window, qtbot):
    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.nodes.setText("8, 16, 24")
    assert dialog.start()
    _wait(qtbot, dialog)
    assert dialog.front == [0, 1, 2]  # more nodes: more capex, less time to train
    # Against racks (fewer is better) the smallest design wins alone: 5 racks for 8 nodes, 7 for 16, 9 for 24.
    dialog.y_axis.setCurrentIndex(dialog.y_axis.findData("racks"))
    assert dialog.axes == ("capex_usd", "racks") and dialog.front == [0]
    assert dialog.table.item(0, 0).text() == "yes" and dialog.table.item(1, 0).text() == ""


def test_sweep_results_save_as_the_cli_csv_whole_or_not_at_all(window, qtbot, tmp_path):
    import csv

    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    assert not dialog.save_button.isEnabled()  # nothing to save before a run
    dialog.nodes.setText("8, 16")
    assert dialog.start()
    _wait(qtbot, dialog)
    assert dialog.save_button.isEnabled()
    dialog.y_axis.setCurrentIndex(dialog.y_axis.findData("racks"))  # the front of capex vs racks: 8 nodes alone
    out = tmp_path / "out"
    out.mkdir()
    target = out / "points.csv"
    assert dialog.save_csv(str(target))
    rows = list(csv.DictReader(target.open()))
    assert [(r["point"], r["nodes"], r["gpus"], r["pareto"]) for r in rows] == [("1", "8", "64", "yes"),
                                                                              ("2", "16", "128", "")]
    assert dialog.message.text() == f"Saved 2 points to {target}"
    # a folder that cannot be written (a file stands where it should be): said, nothing written
    (out / "not-a-folder").write_text("")
    assert not dialog.save_csv(str(out / "not-a-folder" / "points.csv"))
    assert dialog.message.text().startswith("Not saved: ")
    assert sorted(p.name for p in out.iterdir()) == ["not-a-folder", "points.csv"]


def test_sweep_table_says_a_rack_choice_in_words(window, qtbot):
    from planner.sweep import rack_choice_text

    dialog = window.variant_controls.sweep()
    qtbot.addWidget(dialog)
    dialog.nodes.setText("16")
    dialog.caps.setText("30, 41")
    assert dialog.start()
    _wait(qtbot, dialog)
    column = [dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())].index("Rack")
    shown = sorted(dialog.table.item(r, column).text() for r in range(dialog.table.rowCount()))
    assert shown == ["30.0 kW cap", "41.0 kW cap"]  # the CSV keeps {"power_cap_kw": 30.0}
    dialog.caps.setText("")  # no rack choice swept: each point keeps the plan's rack, and says so
    assert dialog.start()
    _wait(qtbot, dialog)
    assert {dialog.table.item(r, column).text() for r in range(dialog.table.rowCount())} == {"the plan's GPU rack"}
    # the warnings of each point beside its errors, as the CSV has them
    headings = [dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())]
    warned = headings.index("Warnings")
    assert headings[warned - 1] == "Errors"
    assert [dialog.table.item(r, warned).text() for r in range(dialog.table.rowCount())] == [
        str(row["warnings"]) for row in dialog.rows]
    assert rack_choice_text({"rack_type": "nvl72-mgx-48u"}, window.doc.catalog).startswith("NVIDIA MGX rack")
    assert rack_choice_text({"cooling": "liquid", "rear_door_hx": True}) == "liquid-cooled, rear-door heat exchanger"


def test_compare_view_of_a_basis_only_variant_shows_no_power_change(window, qtbot):
    doc, vc = window.doc, window.variant_controls
    vc.new_variant("Nameplate")
    doc.apply(SetSetting("facility", "power_basis", "nameplate"))
    dialog = vc.compare()
    qtbot.addWidget(dialog)
    t = dialog.totals
    rows = {t.item(r, 0).text(): r for r in range(t.rowCount())}
    # both sides read on Base's typical basis: 142.648 kW each (the medium template's typical draw)
    assert t.item(rows["IT power (typical)"], 1).text() == t.item(rows["IT power (typical)"], 2).text()
    diff = t.item(rows["IT power (typical)"], 3)
    assert "worse" not in diff.text() and "better" not in diff.text()
    assert diff.background().color().name().upper() not in {v.upper() for v in palette.VERDICT_FILLS.values()}
