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
