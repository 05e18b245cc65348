"""The connector a fibre cable ends in, read from its form factor as a catalog writes it; a
form factor that names none fits any optic (a user's catalog never stops the bill)."""

from __future__ import annotations

import pytest

from planner.costs.parts import cable_part
from planner.hardware.catalog import load_catalog
from planner.hardware.parts import Component


def cable(form_factor: str, length_m: float = 300, price: float = 1.0, cid: str = "x") -> Component:
    return Component(id=cid, vendor="v", model="m", price_usd=price, source="s", kind="cable", gbps=800,
                     form_factor=form_factor, power_w=0, length_m=length_m, medium="SMF")


@pytest.mark.parametrize("form, connector", [
    ("MPO-12", "MPO"), ("MTP-16", "MPO"), ("mpo-12", "MPO"), ("LC", "LC"), ("LC/UPC duplex", "LC"),
    ("-", ""), ("- MPO", ""), ("", ""), ("LCX", ""), ("SC", "")])
def test_the_connector_is_the_form_factors_first_word(form, connector):
    assert cable(form).fibre_connector == connector


def test_a_cable_that_names_no_connector_fits_any_optic():
    catalog = load_catalog()
    catalog.components = {k: c for k, c in catalog.components.items() if c.medium != "SMF"}
    catalog.components["odd"] = cable("- MPO", cid="odd")
    assert cable_part(catalog, "SMF", 400, 150, "LC").id == "odd"
    assert cable_part(catalog, "SMF", 400, 150, "MPO").id == "odd"
