"""Small plans built by hand for the cost and workbook tests."""

from __future__ import annotations

from planner.hardware.catalog import Catalog, default_catalog
from planner.plan.model import Placement, Plan, Rack


def plan_with(racks: list[tuple[Rack, list[tuple[str, int]]]], **settings) -> Plan:
    """A plan of the given racks, each with (device type, lowest U) placements."""
    placements = []
    for rack, devices in racks:
        for i, (device, u) in enumerate(devices):
            placements.append(Placement(id=f"{rack.id}-d{i}", device=device, rack=rack.id, u=u, label=f"{device}-{i}"))
    plan = Plan(name="Hand-built plan", racks=[r for r, _ in racks], placements=placements)
    for section, values in settings.items():
        current = getattr(plan.settings, section)
        setattr(plan.settings, section, current.model_copy(update=values))
    return plan


def catalog_with_prices(**prices: float) -> Catalog:
    """The built-in catalog with some devices repriced (device id -> $)."""
    return Catalog([d.model_copy(update={"price_usd": prices[d.id]}) if d.id in prices else d
                    for d in default_catalog()])


def guide_server_plan(**costs) -> tuple[Plan, Catalog]:
    """The guide's break-even case: one 8 x H100 server at $315,000, nothing else costing
    anything (no opex, no uplift, no cabling, racks, PDUs or facility power)."""
    zero = {"electricity_usd_per_kwh": 0, "colocation_usd_per_kw_month": 0, "staffing_usd_per_year": 0,
            "rent_uplift": 0, "cable_usd": 0, "transceiver_usd": 0, "rack_usd": 0, "facility_power_usd_per_kw": 0}
    zero.update(costs)
    plan = plan_with([(Rack(id="R1", name="R1", cooling="liquid"), [("hgx-h100-8", 1)])], costs=zero)
    return plan, catalog_with_prices(**{"hgx-h100-8": 315_000, "pdu-3ph-60a": 0, "cdu-inrack-250": 0})
