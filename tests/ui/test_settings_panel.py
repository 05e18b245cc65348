"""Settings panels generated from the settings models: units, sources, refusal of bad values, undo."""

from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit

from planner.settings import Settings, field_meta


def _enter(editor, text):
    editor.widget.setText(text)
    editor.widget.editingFinished.emit()


def test_every_field_of_every_section_has_an_editor_with_unit_and_source(window):
    panel = window.settings_panel
    for section, info in Settings.model_fields.items():
        form = panel.forms[section]
        assert set(form.editors) == set(info.annotation.model_fields)
        for name, editor in form.editors.items():
            meta = field_meta(info.annotation, name)
            assert meta["source"] in editor.widget.toolTip()
            label = form.labels[name]
            assert isinstance(label, QLabel)
            # the unit after the title, unless the title says it ("Liquid-cooled nodes per CDU", not
            # "... (nodes)") or it is a bare count or factor ("values", "x"); the tooltip gives it always
            unit = meta["unit"]
            said = unit.lower() in meta["title"].lower().replace("-", " ").split() or unit in ("values", "x")
            assert label.text() == (f"{meta['title']} ({unit})" if unit and not said else meta["title"]), name
            assert not unit or f"in {unit}" in editor.widget.toolTip(), name


def test_widget_kinds_follow_the_field_types(window):
    forms = window.settings_panel.forms
    assert isinstance(forms["facility"].editors["power_basis"].widget, QComboBox)  # Literal
    assert isinstance(forms["fabric"].editors["sharp"].widget, QCheckBox)  # bool
    assert isinstance(forms["facility"].editors["pue"].widget, QLineEdit)  # float
    assert isinstance(forms["workload"].editors["tp"].widget, QLineEdit)  # int
    assert forms["facility"].editors["air_cooling_limit_kw"].widget.toolTip().count("Source of the default") == 1


def test_bad_values_are_refused_with_a_message_and_the_model_unchanged(window):
    form = window.settings_panel.forms["facility"]
    pue = form.editors["pue"]
    steps = window.doc.undo_stack.count()
    for text, reason in (("abc", "'abc' is not a number"), ("0.5", "PUE is at least 1.0: a facility cannot use less power than its IT load (allowed: 1.0 to 3.0)"),
                         ("nan", "not a finite number")):
        _enter(pue, text)
        assert window.doc.plan.settings.facility.pue == 1.56
        assert pue.widget.text() == "1.56"
        assert form.message.isVisible() and reason in form.message.text(), form.message.text()
    tp = window.settings_panel.forms["workload"].editors["tp"]
    _enter(tp, "2.5")
    assert window.doc.plan.settings.workload.tp == 8
    assert window.doc.undo_stack.count() == steps


def test_a_change_is_an_undoable_command_and_the_summary_follows(window):
    pue = window.settings_panel.forms["facility"].editors["pue"]
    _enter(pue, "1.3")
    assert window.doc.plan.settings.facility.pue == 1.3
    # facility power = IT power x PUE = 142.648 x 1.3 = 185.44 kW (IT power: tests/ui/test_drag_drop.py)
    assert window.summary.text("facility_kw") == "185.4 kW"
    assert window.undo_action.text().endswith("Set PUE")
    window.undo_action.trigger()
    assert window.doc.plan.settings.facility.pue == 1.56
    assert pue.widget.text() == "1.56"  # model -> widget on undo
    assert window.summary.text("facility_kw") == "222.5 kW"  # 142.648 x 1.56 = 222.53


def test_power_basis_combo_switches_every_rack_to_nameplate(window):
    combo = window.settings_panel.forms["facility"].editors["power_basis"].widget
    combo.setCurrentIndex(combo.findData("nameplate"))
    assert window.doc.plan.settings.facility.power_basis == "nameplate"
    # nameplate: 16 x 10.2 (nodes) + 10 x 1.72 (QM9700) + 3.0 (SN5600) + 2 x 3.0 (CDUs)
    #            + 0.15 (mgmt) + 7 x 2.4 (storage) = 206.35 kW
    assert window.summary.text("it_kw") == "206.3 kW"
    gpu1 = next(r for r in window.doc.plan.racks if r.name == "GPU-01")
    assert window.view.racks[gpu1.id].power_text() == "40.8 / 30 kW"  # 4 x 10.2
    window.undo_action.trigger()
    assert combo.currentData() == "typical"
    assert window.view.racks[gpu1.id].power_text() == "28.0 / 30 kW"


def test_checkbox_and_optional_fields(window):
    sharp = window.settings_panel.forms["fabric"].editors["sharp"].widget
    sharp.setChecked(False)
    assert window.doc.plan.settings.fabric.sharp is False
    node_gbs = window.settings_panel.forms["storage"].editors["node_storage_gbs"]
    assert node_gbs.widget.text() == "" and node_gbs.widget.placeholderText() == "from the nodes' storage NICs"
    _enter(node_gbs, "25")
    assert window.doc.plan.settings.storage.node_storage_gbs == 25.0
    _enter(node_gbs, "")
    assert window.doc.plan.settings.storage.node_storage_gbs is None


def test_a_tab_is_made_when_first_shown_and_shows_the_plans_current_values(window):
    """The window opens with only the visible tab's form made; a tab shown later gets its form
    then, reading the plan as it is by then (an edit made before it existed included)."""
    from planner.plan.commands import SetSetting

    panel = window.settings_panel
    first = panel.sections[panel.currentIndex()]
    assert [f.section for f in panel.forms.built()] == [first]
    assert window.doc.apply(SetSetting("storage", "checkpoint_interval_min", 45.0))  # before its tab exists
    assert panel.forms.made("storage") is None
    panel.setCurrentIndex(panel.sections.index("storage"))
    form = panel.forms.made("storage")
    assert form is not None and panel.widget(panel.currentIndex()).widget() is form
    assert form.editors["checkpoint_interval_min"].widget.text() == "45"
    window.doc.undo_stack.undo()  # a made form follows edits from then on
    assert form.editors["checkpoint_interval_min"].widget.text() != "45"


def test_every_section_is_listed_one_click_away(window):
    """The dock shows four or five of the nine tabs; the corner button lists them all, the shown
    one checked, and choosing one shows it (its form made then)."""
    panel = window.settings_panel
    menu = panel.all_sections.menu()
    titles = [a.text() for a in menu.actions()]
    assert titles == [panel.tabText(i) for i in range(panel.count())] and len(titles) == len(panel.sections)
    assert "Schedule" in titles
    menu.aboutToShow.emit()
    assert [a.isChecked() for a in menu.actions()] == [i == panel.currentIndex() for i in range(panel.count())]
    menu.actions()[titles.index("Schedule")].trigger()
    assert panel.sections[panel.currentIndex()] == "schedule" and panel.forms.made("schedule") is not None


def test_a_model_preset_greys_the_custom_shape_fields(window):
    """Under a preset the custom shape's fields reach no figure: their editors and labels are
    greyed, and they come back with 'custom'."""
    from planner.plan.commands import SetSetting

    form = window.settings_panel.forms["workload"]
    custom_layers = window.doc.plan.settings.workload.layers
    assert window.doc.apply(SetSetting("workload", "model", "qwen3-235b-a22b"))
    assert not form.editors["layers"].widget.isEnabled() and not form.labels["hidden_size"].isEnabled()
    assert form.editors["tp"].widget.isEnabled() and form.editors["expert_tp"].widget.isEnabled()
    # greyed, they show the preset's own shape (Qwen3-235B-A22B: 94 layers, hidden 4,096, 128
    # experts, 8 a token; its model card), not the custom shape kept for 'custom'
    from ui.binding import format_value

    def shown(name):
        return form.editors[name].widget.text()

    assert (shown("layers"), shown("hidden_size")) == (format_value(94), format_value(4096))
    assert (shown("experts"), shown("experts_per_token")) == (format_value(128), format_value(8))
    assert window.doc.plan.settings.workload.layers == custom_layers  # shown, not stored
    assert window.doc.apply(SetSetting("workload", "model", "custom"))
    assert form.editors["layers"].widget.isEnabled() and form.labels["hidden_size"].isEnabled()
    assert shown("layers") == format_value(custom_layers)


def _entries(combo):
    return [combo.itemData(i) for i in range(combo.count())]


def test_the_fabric_switch_list_offers_switches_of_the_fabric_technology(window):
    """An InfiniBand NDR fabric offers the catalog's 400G InfiniBand switches; set to 400GbE
    RoCE, the list offers the 400G Ethernet switches, and the plan's own InfiniBand switch
    stays listed (it is what is set) until the user picks another."""
    form = window.settings_panel.forms["fabric"]
    catalog = window.doc.catalog
    fabric = window.doc.plan.settings.fabric
    assert fabric.technology == "ib400"
    combo = form.editors["switch_device"].widget
    ib = [d.id for d in catalog if d.switch is not None and d.switch.technology == "infiniband"
          and d.switch.gbps_per_port == 400]
    assert ib and _entries(combo) == ib
    tech = form.editors["technology"].widget
    tech.setCurrentIndex(tech.findData("eth400_roce"))
    assert window.doc.plan.settings.fabric.technology == "eth400_roce"
    eth = [d.id for d in catalog if d.switch is not None and d.switch.technology == "ethernet"
           and d.switch.gbps_per_port == 400]
    assert eth and _entries(combo) == eth + [fabric.switch_device]
    assert combo.currentData() == fabric.switch_device  # shown as set, not changed by the list
    assert combo.itemText(combo.count() - 1).endswith(" — not for 400GbE (RoCE v2)")  # and marked
    combo.setCurrentIndex(combo.findData(eth[0]))
    assert window.doc.plan.settings.fabric.switch_device == eth[0]
    assert _entries(combo) == eth  # the InfiniBand switch is no longer set, so no longer offered
    window.doc.undo_stack.undo()
    assert _entries(combo) == eth + [fabric.switch_device] and combo.currentData() == fabric.switch_device
