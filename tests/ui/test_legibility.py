"""What a new user reads: settings labels and inspector citations whole, combos named in
full, placeholders that say what an empty field means, fraction hints, undo buttons that
name their step, one palette for the app and the exports."""

from PySide6.QtWidgets import QApplication, QLabel

from planner.plan.commands import AddDevice, AddRack
from planner.report import palette
from ui import theme


def _enter(editor, text):
    editor.widget.setText(text)
    editor.widget.editingFinished.emit()


def _whole(label: QLabel) -> bool:
    """The label is tall enough for its text wrapped at the width it was given."""
    return label.height() >= label.heightForWidth(label.width())


def test_every_settings_label_gets_the_height_its_wrapped_text_needs(window):
    panel = window.settings_panel
    clipped = []
    for i, (section, form) in enumerate(panel.forms.items()):
        panel.setCurrentIndex(i)
        QApplication.processEvents()
        for name, label in form.labels.items():
            if not _whole(label):
                clipped.append(f"{section}.{name}: {label.text()!r} {label.height()} < "
                               f"{label.heightForWidth(label.width())}")
    assert not clipped, clipped
    # the two-line labels the reviewer saw clipped really wrap onto two lines here
    label = panel.forms["costs"].labels["electricity_usd_per_kwh"]
    assert label.heightForWidth(label.width()) > label.fontMetrics().height() * 1.5 or \
        label.fontMetrics().horizontalAdvance(label.text()) <= label.width()


def test_a_combo_names_its_whole_choice_in_its_tooltip_and_list(window):
    combo = window.settings_panel.forms["fabric"].editors["technology"].widget
    assert combo.currentText() == "400G InfiniBand (NDR)"  # the technology's one title, as the report names it
    assert "400G InfiniBand (NDR)" in combo.toolTip()
    assert "Source of the default" in combo.toolTip()
    view = combo.view()  # the open list is wide enough for the longest name
    longest = max(view.fontMetrics().horizontalAdvance(combo.itemText(i)) for i in range(combo.count()))
    assert view.minimumWidth() >= longest
    combo.setCurrentIndex(combo.findData("eth100_tcp"))
    assert "100GbE (TCP)" in combo.toolTip()  # follows the choice


def test_optional_fields_say_what_empty_means(window):
    forms = window.settings_panel.forms
    # "Optional: a vendor or article figure...": empty means no claim to check
    assert forms["workload"].editors["claimed_tokens_per_s"].widget.placeholderText() == "none"
    # "Empty: from the nodes' storage NICs (line rate / 8)."
    assert forms["storage"].editors["node_storage_gbs"].widget.placeholderText() == "from the nodes' storage NICs"
    assert forms["storage"].editors["checkpoint_interval_min"].widget.placeholderText() == (
        "Young's interval for the plan's failure rate")
    assert not any(e.widget.placeholderText() == "automatic" for f in forms.values() for e in f.editors.values()
                   if hasattr(e.widget, "placeholderText"))


def test_a_percentage_in_a_fraction_field_is_refused_with_the_fraction_to_type(window):
    form = window.settings_panel.forms["costs"]
    util = form.editors["utilisation"]
    _enter(util, "80")
    assert window.doc.plan.settings.costs.utilisation == 1.0  # unchanged
    assert "Utilisation" in form.message.text() and "enter 0.8" in form.message.text(), form.message.text()
    status = window.statusBar().currentMessage()
    assert status.startswith("Refused: Utilisation") and "enter 0.8" in status, status
    # the next good edit clears the refusal from the status bar
    _enter(util, "80%")  # a percentage typed as such is the fraction 0.8
    assert window.doc.plan.settings.costs.utilisation == 0.8
    assert not window.statusBar().currentMessage().startswith("Refused")
    assert form.message.isHidden()


def test_inspector_shows_where_a_devices_price_and_figures_come_from_in_full(window, qtbot):
    catalog = window.doc.catalog
    pid = next(p.id for p in window.doc.plan.placements if catalog[p.device].category == "gpu_server")
    device = catalog[window.doc.plan.placement(pid).device]
    window.view.select(pid)
    QApplication.processEvents()
    fields = window.inspector.fields
    assert fields["source"].text() == device.source
    assert fields["price_source"].text() == device.price_source
    for key in ("source", "price_source", "type"):
        assert _whole(fields[key]), (key, fields[key].height(), fields[key].heightForWidth(fields[key].width()))
    # a long citation runs under its label across the inspector, not squeezed into the value column
    assert fields["source"].width() > 0.8 * window.inspector.width()


def test_undo_and_redo_buttons_are_labelled_and_name_the_step(window):
    doc = window.doc
    undo, redo = window.undo_button_action, window.redo_button_action
    assert undo.text() == "Undo" and redo.text() == "Redo"
    assert not undo.isEnabled() and undo.toolTip().startswith("Nothing to undo")
    assert doc.apply(AddRack())
    assert doc.apply(AddDevice("dgx-h100", doc.plan.racks[-1].id, 1))
    step = doc.undo_stack.undoText()
    assert doc.catalog["dgx-h100"].title in step and undo.isEnabled(), step
    assert undo.toolTip() == f"Undo {step} (Ctrl+Z)", undo.toolTip()
    undo.trigger()
    assert redo.isEnabled() and redo.toolTip().startswith(f"Redo {step} (Ctrl+Shift+Z")
    assert undo.toolTip() == "Undo Add rack (Ctrl+Z)"
    undo.trigger()
    assert not undo.isEnabled() and undo.toolTip().startswith("Nothing to undo")


def _hue(hex_colour: str) -> int:
    from PySide6.QtGui import QColor
    return QColor(hex_colour).hsvHue()


def test_one_palette_for_app_and_exports_with_the_readmes_hues():
    for category in ("gpu_server", "switch", "storage", "cdu", "pdu", "other"):
        assert theme.category_colour(category).name().upper() == palette.category_color(category).upper()
    # README: GPU servers blue, switches violet, storage teal, CDUs cyan (HSV hue, degrees)
    assert 205 <= _hue(palette.category_color("gpu_server")) <= 235
    assert 250 <= _hue(palette.category_color("switch")) <= 285
    assert 160 <= _hue(palette.category_color("storage")) <= 185
    assert 186 <= _hue(palette.category_color("cdu")) <= 204
    # one 80% threshold: the app's bar and the exports agree on each side of it
    for fraction in (0.79, 0.8, 0.93, 1.0, 1.01):
        assert theme.bar_colour(fraction).name().upper() == palette.load_color(fraction).upper()
    assert palette.load_color(0.79) == palette.LOAD_OK and palette.load_color(0.8) == palette.LOAD_HIGH
    assert not hasattr(theme, "BAR_WARN_FROM")



def test_the_plans_own_choice_is_the_gpu_blue_in_the_charts_and_the_workbook(window):
    from planner.export.xlsx import build_workbook
    from ui.charts.base import ACCENT

    gpu_blue = palette.category_color("gpu_server")
    assert ACCENT == gpu_blue  # the fabric comparison's and the scaling chart's highlight
    chart = window.charts.build_vs_rent
    chart.update_report(window.doc.report)
    assert chart.curves["build"].opts["pen"].color().name().upper() == gpu_blue.upper()
    # the workbook's chart of the same curves: its first series is the build
    book = build_workbook(window.doc.plan, window.doc.catalog, window.doc.report)
    series = book["Costs"]._charts[0].series[0]
    assert str(series.graphicalProperties.line.solidFill.srgbClr).upper() == gpu_blue.lstrip("#").upper()
