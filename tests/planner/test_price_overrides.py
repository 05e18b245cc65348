"""A price set on a line of the bill applies to that line; one whose line the bill no longer
has (renamed by a newer planner, a part no longer needed) is said, not silently dropped."""

from __future__ import annotations

from planner.design.templates import build_template
from planner.hardware.catalog import default_catalog
from planner.plan.model import PriceOverride
from planner.report.evaluate import evaluate

CAT = default_catalog()


def test_an_override_applies_to_its_line_and_one_without_a_line_is_a_warning():
    plan = build_template("medium", catalog=CAT)
    line = next(b for b in evaluate(plan, CAT).sections["cost"].bom if b.item.startswith("Fabric cable"))
    # the single-mode lines of an older planner were named without their connector
    plan.price_overrides = [PriceOverride(item=line.item, unit_usd=1.5, source="quote 42"),
                            PriceOverride(item="Storage cable, single-mode fibre (OS2), 100 m", unit_usd=7.0,
                                          source="quote 43")]
    report = evaluate(plan, CAT)
    priced = next(b for b in report.sections["cost"].bom if b.item == line.item)
    assert (priced.unit_usd, priced.source) == (1.5, "quote 42")
    warned = [f for f in report.findings if f.code == "cost.price_override.unmatched"]
    assert len(warned) == 1
    assert warned[0].severity == "warning" and warned[0].message.startswith(
        "The price override of 'Storage cable, single-mode fibre (OS2), 100 m' ($7.00, quote 43) matches no line")


def test_a_parts_price_reprices_its_stocked_spares_unless_they_have_their_own():
    # medium: 16 HGX H100 nodes at the catalog's $315,000; with 2 spares stocked the bill has a
    # line of 2 of the same node. A quote of $300,000 for the node is the spares' price too:
    # capex falls by (315,000 - 300,000) x (16 + 2) = 270,000.
    plan = build_template("medium", catalog=CAT)
    plan.settings.reliability = plan.settings.reliability.model_copy(update={"spares_stocked": 2})
    before = evaluate(plan, CAT).sections["cost"]
    node = next(b for b in before.bom if b.part_id == "hgx-h100-8" and b.quantity == 16)
    spares = next(b for b in before.bom if b.item == "Spare nodes (stocked, not placed)")
    assert (spares.quantity, spares.unit_usd) == (2, 315_000)
    plan.price_overrides = [PriceOverride(item=node.item, unit_usd=300_000, source="quote 7")]
    after = evaluate(plan, CAT).sections["cost"]
    spares = next(b for b in after.bom if b.item == "Spare nodes (stocked, not placed)")
    assert (spares.unit_usd, spares.source) == (300_000, "quote 7")
    assert after["capex_usd"] - before["capex_usd"] == -270_000
    # the spares' own line priced apart keeps its own price
    plan.price_overrides.append(PriceOverride(item=spares.item, unit_usd=280_000, source="refurbished"))
    spares = next(b for b in evaluate(plan, CAT).sections["cost"].bom if b.item == spares.item)
    assert (spares.unit_usd, spares.source) == (280_000, "refurbished")
