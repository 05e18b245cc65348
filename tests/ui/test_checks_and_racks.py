"""Acceptance 3 and 5: the over-cap error in the checks panel, selecting its rack, and the rack editor.

Why it is long: the rack-level edits a user makes (editor, auto-place, inspector, nudges,
duplicate, delete) each with what the window shows after it; one concern, editing racks."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from planner.plan.commands import AddDevice
from tests.ui.conftest import rack_named, send_drag, slot_pos
from ui import theme
from ui.rack_dialogs import RackEditor


def _drop_fifth_node(window):
    gpu1 = rack_named(window.doc.plan, "GPU-01")
    # GPU-01 holds 4 x 7 kW nodes at U1-U32: a fifth at U33 (U33-U40) fits in space but
    # brings the rack to 5 x 7.0 = 35.0 kW against its 30 kW cap
    send_drag(window.view, window.palette_panel.mime_for("hgx-h100-8"), slot_pos(window.view, gpu1.id, 33))
    return gpu1


def _row_with(checks, text):
    model = checks.model()
    return next(model.index(i) for i in range(model.rowCount()) if text in model.index(i).data())


def test_fifth_node_shows_over_cap_error_and_clicking_it_selects_the_rack(window, qtbot):
    gpu1 = _drop_fifth_node(window)
    errors = window.checks.messages("error")
    # the fabric grows to 17 x 8 = 136 leaf uplinks -> ceil(136 / 64) = 3 spines where 2 are
    # placed; the CDUs still suffice: 17 x 10.2 kW x 0.8 = 138.72 kW of design heat to liquid
    # -> one 250 kW CDU + 1 spare = 2, and 2 are placed
    assert errors[0] == "Rack GPU-01 draws 35.0 kW (typical) against its 30 kW cap (5.0 kW over)"
    assert not any("CDU" in e for e in errors)
    assert any("64 ports missing (1 switch)" in e for e in errors)
    assert window.checks_dock.windowTitle().startswith(f"Checks ({len(errors)} errors,")
    assert window.view.racks[gpu1.id].power_text() == "35.0 / 30 kW"
    assert window.view.racks[gpu1.id].power_bar_colour() == theme.BAR_OVER  # red: over the cap

    window.view.scene().clearSelection()
    rect = window.checks.visualRect(_row_with(window.checks, "GPU-01 draws"))
    qtbot.mouseClick(window.checks.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.view.selected_rack() == gpu1.id
    assert window.inspector.heading.text() == "Rack GPU-01"


def test_power_bar_turns_amber_from_80_percent(window):

    gpu1 = rack_named(window.doc.plan, "GPU-01")
    stor = rack_named(window.doc.plan, "STOR-01")
    assert window.view.racks[gpu1.id].power_bar_colour() == theme.BAR_WARN  # 28 / 30 = 93%
    assert window.view.racks[stor.id].power_bar_colour() == theme.BAR_OK  # 3.6 / 25 = 14%


def _editor(window, rack_id) -> RackEditor:
    dialog = window.edit_rack(rack_id)
    assert dialog is not None and dialog.isVisible()
    return dialog


def _ok(dialog):
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def test_raising_the_cap_to_40_kw_in_the_rack_editor_clears_the_error(window):
    gpu1 = _drop_fifth_node(window)
    dialog = _editor(window, gpu1.id)
    dialog.entries["power_cap_kw"].widget.setText("40")
    _ok(dialog)
    assert not dialog.isVisible()
    assert window.doc.plan.rack(gpu1.id).power_cap_kw == 40.0
    assert [m for m in window.checks.messages("error") if "cap" in m] == []
    # 35 / 40 = 87.5%: amber, no longer red
    assert window.view.racks[gpu1.id].power_text() == "35.0 / 40 kW"
    window.undo_action.trigger()
    assert window.doc.plan.rack(gpu1.id).power_cap_kw == 30.0
    assert len([m for m in window.checks.messages("error") if "GPU-01 draws" in m]) == 1


def test_rack_editor_refuses_negative_and_non_numeric_entries(window):
    gpu1 = rack_named(window.doc.plan, "GPU-01")
    before = window.doc.plan.rack(gpu1.id).model_dump()
    steps = window.doc.undo_stack.count()
    dialog = _editor(window, gpu1.id)
    for text, reason in (("-5", "Power cap (kW): takes more than 0 (not -5)"), ("abc", "'abc' is not a number"),
                         ("", "enter a value")):
        dialog.entries["power_cap_kw"].widget.setText(text)
        _ok(dialog)
        assert dialog.isVisible(), text
        assert reason in dialog.message.text(), (text, dialog.message.text())
        assert window.doc.plan.rack(gpu1.id).model_dump() == before
    dialog.entries["power_cap_kw"].widget.setText("30")
    dialog.entries["height_u"].widget.setText("4.5")
    _ok(dialog)
    assert "whole number" in dialog.message.text()
    dialog.entries["height_u"].widget.setText("10")  # 4U nodes sit up to U16: the rack cannot shrink
    _ok(dialog)
    assert "cannot shrink" in dialog.message.text()
    dialog.entries["height_u"].widget.setText("42")
    dialog.entries["name"].widget.setText("NET-01")  # another rack's name
    _ok(dialog)
    assert "a rack named 'NET-01' is already in the plan" in dialog.message.text()
    assert window.doc.undo_stack.count() == steps
    dialog.reject()


def test_rack_editor_renames_and_changes_cooling(window):
    stor = rack_named(window.doc.plan, "STOR-01")
    dialog = _editor(window, stor.id)
    dialog.entries["name"].widget.setText("Storage A")
    combo = dialog.entries["cooling"].widget
    combo.setCurrentIndex(combo.findData("liquid"))
    _ok(dialog)
    rack = window.doc.plan.rack(stor.id)
    assert (rack.name, rack.cooling) == ("Storage A", "liquid")
    assert window.undo_action.text().endswith("Edit rack")


def test_add_remove_and_auto_place_racks(window):
    doc = window.doc
    racks = len(doc.plan.racks)
    window.add_rack_action.trigger()
    new = doc.plan.racks[-1]
    assert len(doc.plan.racks) == racks + 1 and new.id in window.view.racks
    assert window.view.selected_rack() == new.id
    assert window.summary.text("racks") == str(racks + 1)

    # auto-place 5 x 7 kW air-cooled DGX H100 into the new air-cooled 30 kW rack: the plan's 25 kW
    # air-cooling limit lets 3 in (21 kW; a fourth would make 28), the other 2 open an air-cooled rack
    # capped at the 25 kW limit. Neither rack is over its cap, the air limit or its weight (the
    # nameplate warning stays, as on the guide's own racks: 3 x 10.2 = 30.6 kW); labels continue node-16.
    dialog = window.auto_place([new.id])
    dialog.device.setCurrentIndex(dialog.device.findData("dgx-h100"))
    dialog.count.setValue(5)
    dialog.accept()
    assert len(doc.plan.rack_members(new.id)) == 3
    assert len(doc.plan.racks) == racks + 2
    opened = doc.plan.racks[-1]
    assert (opened.cooling, opened.power_cap_kw, len(doc.plan.rack_members(opened.id))) == ("air", 25, 2)
    assert window.view.racks[new.id].power_text() == "21.0 / 30 kW"
    assert window.view.racks[opened.id].power_text() == "14.0 / 25 kW"
    for rid in (new.id, opened.id):
        codes = {f.code for f in doc.report.rack(rid).findings}
        assert not codes & {"rack.power.over_cap", "rack.cooling.air_limit", "rack.weight.over_limit"}
    labels = sorted(p.label for rid in (new.id, opened.id) for p in doc.plan.rack_members(rid).values())
    assert labels == ["node-17", "node-18", "node-19", "node-20", "node-21"]
    assert window.summary.text("nodes") == "21"  # 16 + 5

    window.undo_action.trigger()  # the auto-place is one step
    assert len(doc.plan.racks) == racks + 1 and not doc.plan.rack_members(new.id)
    window.view.select(new.id)
    window.remove_rack_action.trigger()
    assert doc.plan.rack(new.id) is None and new.id not in window.view.racks
    window.undo_action.trigger()
    assert doc.plan.rack(new.id) is not None and new.id in window.view.racks


def test_delete_removes_the_selected_device_and_undo_restores_it(window):
    doc, view = window.doc, window.view
    gpu1 = rack_named(doc.plan, "GPU-01")
    node = next(p for p in doc.plan.rack_members(gpu1.id).values() if p.u == 1)
    assert view.select(node.id)
    assert window.inspector.heading.text() == node.label
    view.delete_action.trigger()
    assert doc.plan.placement(node.id) is None
    assert view.racks[gpu1.id].power_text() == "21.0 / 30 kW"
    window.undo_action.trigger()
    assert doc.plan.placement(node.id) is not None and node.id in view.racks[gpu1.id].devices


def test_duplicate_places_a_copy_in_the_lowest_free_slot(window):
    doc, view = window.doc, window.view
    stor = rack_named(doc.plan, "STOR-01")
    pfs = next(p for p in doc.plan.rack_members(stor.id).values() if p.u == 1)
    view.duplicate(pfs.id)
    # seven 2U appliances at U1-U14: the copy goes to U15
    copies = [p.u for p in doc.plan.rack_members(stor.id).values() if p.device == pfs.device]
    assert sorted(copies) == [1, 3, 5, 7, 9, 11, 13, 15]
    assert view.selected_devices() == [p.id for p in doc.plan.rack_members(stor.id).values() if p.u == 15]


def test_only_touched_racks_are_redrawn(window, monkeypatch):
    from ui.rack_items import RackItem

    synced = []
    original = RackItem.sync
    monkeypatch.setattr(RackItem, "sync", lambda self, *a, **k: (synced.append(self.rack_id), original(self, *a, **k)))
    stor = rack_named(window.doc.plan, "STOR-01")
    items_before = dict(window.view.racks)
    assert window.doc.apply(AddDevice("blank-1u", stor.id, 30))
    assert synced == [stor.id]
    assert window.view.racks == items_before  # same items: no scene rebuild


def test_inspector_edits_a_device_label_and_u_through_commands(window):
    doc, view = window.doc, window.view
    stor = rack_named(doc.plan, "STOR-01")
    pfs = next(p for p in doc.plan.rack_members(stor.id).values() if p.u == 13)  # the top of seven
    view.select(pfs.id)
    label = window.inspector.fields["label"]
    label.setText("lustre-b")
    label.editingFinished.emit()
    assert doc.plan.placement(pfs.id).label == "lustre-b"
    window.inspector.fields["u"].setValue(20)
    assert doc.plan.placement(pfs.id).u == 20
    assert window.inspector.fields["power_typical"].text() == "1.8 kW"  # catalog: 1,800 W typical
    window.inspector.fields["u"].setValue(1)  # occupied by another appliance: refused
    assert doc.plan.placement(pfs.id).u == 20
    assert "overlaps" in window.statusBar().currentMessage()
    assert window.inspector.fields["u"].value() == 20  # the field shows the U the device keeps
    # a name another device holds is refused, and the field shows the name the device keeps
    other = next(p for p in doc.plan.rack_members(stor.id).values() if p.id != pfs.id)
    label.setText(other.label)
    label.editingFinished.emit()
    assert doc.plan.placement(pfs.id).label == "lustre-b" and label.text() == "lustre-b"
    assert f"'{other.label}' already names a device in rack STOR-01" in window.statusBar().currentMessage()


def test_arrow_key_nudges_merge_into_one_undo_step(window, qtbot):
    doc, view = window.doc, window.view
    stor = rack_named(doc.plan, "STOR-01")
    pfs = next(p for p in doc.plan.rack_members(stor.id).values() if p.u == 13)  # the top of seven
    view.select(pfs.id)
    steps = doc.undo_stack.count()
    view.setFocus()
    for _ in range(3):
        qtbot.keyClick(view, Qt.Key.Key_Up)
    assert doc.plan.placement(pfs.id).u == 16
    assert doc.undo_stack.count() == steps + 1
    window.undo_action.trigger()
    assert doc.plan.placement(pfs.id).u == 13
    view.select(pfs.id)
    qtbot.keyClick(view, Qt.Key.Key_Down)  # U12 overlaps the appliance at U11-U12: refused, nothing pushed
    assert doc.plan.placement(pfs.id).u == 13


def test_a_taller_rack_is_laid_out_again_with_bottoms_aligned(window):
    from planner.plan.commands import EditRack

    view = window.view
    gpu1, gpu2 = (rack_named(window.doc.plan, n) for n in ("GPU-01", "GPU-02"))
    assert window.doc.apply(EditRack(gpu1.id, height_u=48))
    a, b = view.racks[gpu1.id].sceneBoundingRect(), view.racks[gpu2.id].sceneBoundingRect()
    assert a.bottom() == b.bottom()

    assert a.height() - b.height() == 6 * theme.U_PX  # 48U - 42U = 6 more slots


def test_auto_place_offers_the_plans_own_node_type_first(window):
    # the default plan holds 16 HGX H100: the dialog offers more of them, not the catalog's
    # first GPU server (a DGX H100 then mixed two node types into the job, silently)
    dialog = window.auto_place(None)
    assert dialog.device.currentData() == "hgx-h100-8"
    dialog.reject()


def test_auto_place_128_dgx_b200_keeps_the_design_whole_and_the_summary_filled(window):
    # The default plan (16 HGX H100) + 128 DGX B200 = 1,152 GPUs: the switches, storage and
    # CDUs come with them and the parallelism is re-picked, so no error and no blank figure.
    doc = window.doc
    dialog = window.auto_place(None)
    dialog.device.setCurrentIndex(dialog.device.findData("dgx-b200"))
    dialog.count.setValue(128)
    dialog.accept()
    assert window.summary.text("gpus") == "1,152"
    assert not [f.message for f in doc.report.findings if f.severity == "error"]
    for key in ("tokens_per_s", "gpu_idle_pct", "idle_cause", "mfu", "time_to_train"):
        assert window.summary.text(key) not in ("", "–"), key
    assert window.undo_action.text().replace("&", "").startswith("Undo Auto-place 128 x")
    window.undo_action.trigger()
    assert window.summary.text("gpus") == "128"


def test_auto_place_past_the_plans_switch_is_refused_in_the_dialog_which_grows_for_it(window, qtbot):
    # 36-port switches: three tiers hold 36^3 / 4 = 11,664 endpoints; the default plan's 16 nodes
    # and 1,500 more have 12,128 NICs. The dialog says so and keeps its fields whole (it grows
    # for the wrapped message), the plan unchanged.
    from planner.plan.commands import SetSetting

    doc = window.doc
    doc.apply(SetSetting("fabric", "switch_device", "q3200"))
    before = doc.plan.model_dump()
    dialog = window.auto_place(None)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.count.setValue(1500)
    dialog.accept()
    assert dialog.isVisible() and dialog.message.isVisible()
    assert "12,128 endpoints" in dialog.message.text() and "11,664" in dialog.message.text()
    for field in (dialog.device, dialog.count):
        assert field.height() >= field.sizeHint().height()
    assert dialog.height() >= dialog.sizeHint().height()
    assert doc.plan.model_dump() == before


def test_zoomed_out_a_rack_s_tab_names_it_above_its_load(window):
    from PySide6.QtGui import QFont, QFontMetricsF

    font = QFont(window.font())
    font.setPixelSize(40)  # text as large, in scene units, as a far zoom draws it
    font.setBold(True)
    metrics = QFontMetricsF(font)
    racks = [window.view.racks[rack_named(window.doc.plan, f"GPU-0{i}").id] for i in range(1, 5)]
    # wide enough for "28.0 / 30 kW" (4 x 7 kW nodes on a 30 kW cap): the whole name above it
    wide = metrics.horizontalAdvance("28.0 / 30 kW") + 8
    assert racks[0].zoomed_out_lines(metrics, wide) == ["GPU-01", "28.0 / 30 kW"]
    # only "93 %" fits (28 / 30): the name cut in its middle keeps the end that tells the racks apart
    narrow = metrics.horizontalAdvance("93 %") + 8
    lines = [r.zoomed_out_lines(metrics, narrow) for r in racks]
    assert all(line[1] == "93 %" and "…" in line[0] for line in lines)
    assert [line[0][-1] for line in lines] == ["1", "2", "3", "4"]
    assert racks[0].zoomed_out_lines(metrics, metrics.horizontalAdvance("93") + 8) == []  # nothing fits
