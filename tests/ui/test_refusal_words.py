"""A refused setting says, in the product's words, what range is allowed and why, and the
field goes back to the plan's value without an error frame around a value that is fine."""

from planner.plan.commands import CommandError, SetSetting


def _enter(editor, text):
    editor.widget.setText(text)
    editor.widget.editingFinished.emit()


def test_pue_below_one_is_refused_with_the_reason_and_the_field_reverts_unframed(window):
    form = window.settings_panel.forms["facility"]
    pue = form.editors["pue"]
    _enter(pue, "0.5")
    assert window.doc.plan.settings.facility.pue == 1.56
    assert pue.widget.text() == "1.56"
    assert "border" not in pue.widget.styleSheet()  # 1.56 is valid: nothing to outline
    message = form.message.text()
    assert message.startswith("PUE is at least 1.0: a facility cannot use less power than its IT load"), message
    assert "(allowed: 1.0 to 3.0)" in message
    assert "Input should" not in message
    assert window.statusBar().currentMessage() == f"Refused: {message}"
    _enter(pue, "4")
    assert form.message.text().startswith("PUE is at most 3.0: ")


def test_a_bound_without_a_reason_of_its_own_gives_the_general_one(window, catalog):
    plan = window.doc.plan
    # gt=0, le=200 kW (planner.settings.facility): zero is refused, with both ends of the range
    try:
        SetSetting("facility", "air_cooling_limit_kw", 0.0).do(plan, catalog)
    except CommandError as exc:
        text = str(exc)
    assert text == ("Air-cooling limit per rack is more than 0 kW: zero would leave nothing to size "
                    "(allowed: more than 0 kW, at most 200 kW)")
