"""Numbers typed as people type them: the app's locale decides the decimal separator, an
ambiguous entry is refused naming both readings, a unit typed with the number is converted
when it fits the field and refused when it does not."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtTest import QTest

from planner.numbers import NumberFormat, parse_number
from planner.plan.fileio import save_plan
from ui.binding import FieldEditor
from ui.locale import LOCALE_KEY, number_format


@pytest.fixture
def locale():
    """Set the app's locale for one test; the default comes back afterwards."""
    before = QLocale()

    def use(name: str) -> None:
        QLocale.setDefault(QLocale(name))

    yield use
    QLocale.setDefault(before)


def typed(qtbot, text: str, unit: str, start: float = 7.0):
    """Type ``text`` into a float field measured in ``unit`` that holds ``start``; press Enter.
    Returns (the field's value afterwards, the messages shown, the text the field shows)."""
    value, errors = [start], []

    def commit(v):
        value[0] = v

    editor = FieldEditor("float", (), False, "Cap", commit=commit, on_error=errors.append, unit=unit)
    qtbot.addWidget(editor.widget)
    editor.show(start)
    editor.widget.selectAll()
    QTest.keyClicks(editor.widget, text)
    QTest.keyClick(editor.widget, "\r")
    return value[0], errors, editor.widget.text()


# (text, unit) -> the field's value in each locale; a str is (part of) the refusal
CASES = [
    ("12,5", "kW", {"de_DE": 12.5, "en_US": "did you mean 12.5 or 125?"}),
    ("12.5", "kW", {"de_DE": "did you mean 12,5 or 125?", "en_US": 12.5}),
    ("1.234", "kW", {"de_DE": "did you mean 1,234 or 1234?", "en_US": 1.234}),
    ("30 kW", "kW", {"de_DE": 30.0, "en_US": 30.0}),
    ("1.2 MW", "kW", {"de_DE": "did you mean 1,2 or 12?", "en_US": 1200.0}),  # 1.2 MW = 1,200 kW
    ("1,2 MW", "kW", {"de_DE": 1200.0, "en_US": "did you mean 1.2 or 12?"}),
    ("30 kg", "kW", {"de_DE": "takes kW, not kg", "en_US": "takes kW, not kg"}),
    ("80 %", "fraction", {"de_DE": 0.8, "en_US": 0.8}),
    ("80 %", "kW", {"de_DE": "takes kW, not %", "en_US": "takes kW, not %"}),
    ("2500 W", "kW", {"de_DE": 2.5, "en_US": 2.5}),
]


@pytest.mark.parametrize("name", ["de_DE", "en_US"])
@pytest.mark.parametrize("text, unit, expect", CASES, ids=[f"{t} in {u}" for t, u, _ in CASES])
def test_typing_in_a_field_follows_the_locale(qtbot, locale, name, text, unit, expect):
    locale(name)
    value, errors, shown = typed(qtbot, text, unit)
    wanted = expect[name]
    if isinstance(wanted, float):
        assert errors == [] and value == pytest.approx(wanted, rel=1e-12)
    else:
        assert value == 7.0, "a refused entry leaves the value alone"
        assert len(errors) == 1 and wanted in errors[0] and errors[0].startswith("Cap: "), errors
        assert text.split()[0] in errors[0]  # the entry as typed is named
        assert shown == "7"  # the field shows the value it still holds


@pytest.mark.parametrize("name, shown", [("de_DE", "12,5"), ("en_US", "12.5")])
def test_the_field_shows_the_locale_decimal_separator(qtbot, locale, name, shown):
    locale(name)
    editor = FieldEditor("float", (), False, "Cap", commit=lambda v: None, on_error=lambda m: None, unit="kW")
    qtbot.addWidget(editor.widget)
    editor.show(12.5)
    assert editor.widget.text() == shown


def test_groups_are_read_where_they_cannot_be_decimals():
    en, de = NumberFormat(".", ","), NumberFormat(",", ".")
    assert parse_number("1,234,567", en) == 1234567  # two group separators: no decimal reading
    assert parse_number("1.234.567", de) == 1234567
    assert parse_number("1,234.5", en) == 1234.5
    assert parse_number("1.234,5", de) == 1234.5
    assert parse_number("1 234,5", de) == 1234.5  # a space never is a decimal separator
    for text, fmt in (("1.234,5", en), ("1,234.5", de), ("1,23,4", en)):
        with pytest.raises(ValueError):
            parse_number(text, fmt)


def test_a_price_may_be_typed_with_its_dollar_sign():
    en, de = NumberFormat(".", ","), NumberFormat(",", ".")
    assert parse_number("$0.15", en, "$/kWh") == 0.15  # as a price list writes it
    assert parse_number(" $ 0,15 ", de, "$/kWh") == 0.15
    assert parse_number("-$5", en, "$") == -5
    with pytest.raises(ValueError, match="is not a number"):
        parse_number("$5", en, "kW")  # not a price field: a dollar sign means nothing there


def test_german_entries_in_the_settings_panel_reach_the_plan_and_files_stay_plain(window, locale, tmp_path):
    locale("de_DE")
    form = window.settings_panel.forms["facility"]
    form.refresh()
    cap = form.editors["default_rack_cap_kw"]
    assert cap.widget.text() == "30"
    cap.widget.setText("12,5")
    cap.widget.editingFinished.emit()
    assert window.doc.plan.settings.facility.default_rack_cap_kw == 12.5
    assert cap.widget.text() == "12,5"
    workload = window.settings_panel.forms["workload"]
    workload.editors["mfu"].widget.setText("45 %")
    workload.editors["mfu"].widget.editingFinished.emit()
    assert window.doc.plan.settings.workload.mfu == pytest.approx(0.45)
    # the saved file holds plain JSON numbers, whatever the locale
    path = tmp_path / "p.json"
    save_plan(window.doc.plan, path)
    data = json.loads(path.read_text())
    assert data["settings"]["facility"]["default_rack_cap_kw"] == 12.5


def test_the_rack_editor_takes_a_cap_in_megawatts(window, locale):
    locale("en_US")
    rack_id = window.doc.plan.racks[0].id
    dialog = window.edit_rack(rack_id)
    dialog.entries["power_cap_kw"].widget.setText("0.05 MW")  # 50 kW
    dialog.entries["max_weight_kg"].widget.setText("1.5 t")  # 1,500 kg
    dialog.accept()
    rack = window.doc.plan.rack(rack_id)
    assert (rack.power_cap_kw, rack.max_weight_kg) == (50.0, 1500.0)


def test_the_locale_is_chosen_in_preferences_and_the_fields_follow(window, locale):
    from ui.preferences import PreferencesDialog

    locale("en_US")
    dialog = PreferencesDialog(window)
    assert dialog.locale.currentData() == ""  # the system's by default
    dialog.locale.setCurrentIndex(dialog.locale.findData("de_DE"))
    dialog.accept()
    assert window.settings.value(LOCALE_KEY) == "de_DE"
    assert number_format() == NumberFormat(",", ".")
    nvlink = window.settings_panel.forms["fabric"].editors["nvlink_efficiency"]  # 0.8 by default
    assert nvlink.widget.text() == "0,8"  # the fields show the new notation at once


def test_figures_in_the_window_follow_the_locale(window, locale):
    from PySide6.QtWidgets import QLabel

    from ui.preferences import PreferencesDialog

    locale("en_US")
    dialog = PreferencesDialog(window)
    dialog.locale.setCurrentIndex(dialog.locale.findData("de_DE"))
    dialog.accept()
    # medium: 16 nodes x 7 kW + switches, storage, CDUs = 136.1 kW of IT power (the report's figure)
    it_kw = window.doc.report.totals.it_power_kw
    shown = {label.text() for label in window.summary.findChildren(QLabel)}
    german = f"{it_kw:,.1f} kW".translate({ord(","): ".", ord("."): ","})
    assert german in shown and "," in german, shown
    rack = next(iter(window.view.racks.values()))
    assert rack.power_text() == "28,0 / 30 kW"  # GPU-01: 4 nodes x 7 kW typical against its 30 kW cap
