"""Power distribution settings: rack feeds and PDUs, and the facility's UPS and generators."""

from __future__ import annotations

from typing import Literal

from planner.settings._base import Section, setting

Redundancy = Literal["2N", "N+1", "N"]


class PowerSettings(Section):
    feed_redundancy: Redundancy = setting(
        "2N",
        title="Rack feed redundancy",
        source="Uptime Institute Tier Standard: Topology: A+B redundant feeds (2N) must each carry the whole rack "
        "alone. N+1 adds one spare "
        "PDU to the PDUs the rack needs, split over two feeds; N is one feed with no spare.",
    )
    pdu_device: str = setting(
        "pdu-3ph-60a",
        title="Rack PDU model",
        source="Catalog PDUs by voltage, phase and breaker: 415 V 3-phase 60 A carries sqrt(3) x 415 V x 60 A "
        "= 43.1 kVA, 34.5 kW at the 80% continuous derating (NEC 210.20(A)).",
        min_length=1,
        max_length=64,
    )
    continuous_derating: float = setting(
        0.8,
        title="Continuous-load derating",
        unit="fraction",
        source="NEC 210.19(A)(1) and 210.20(A): a branch circuit and its breaker carry continuous loads "
        "(3 h or more) at 125% of the load, i.e. the load may use 80% of the breaker rating; 1.0 only for "
        "assemblies listed for 100% operation.",
        gt=0,
        le=1.0,
    )
    max_pdus_per_feed: int = setting(
        2,
        title="PDU positions per feed",
        unit="PDUs",
        source="A 42U 600 mm rack takes two full-height 0U PDUs in each rear side channel, one side per feed "
        "(APC NetShelter SX, Rittal VX IT rack accessories). Planner assumption; wider racks take more.",
        ge=1,
        le=20,
    )
    ups_redundancy: Redundancy = setting(
        "N+1",
        title="UPS redundancy",
        source="Uptime Institute Tier III: N+1 capacity components, concurrently maintainable; Tier IV 2N "
        "(fault tolerant).",
    )
    ups_module_kw: float = setting(
        500.0,
        title="UPS module size",
        unit="kW",
        source="Planner assumption: large three-phase UPS frames run 250-1,500 kW (e.g. Schneider Galaxy VX "
        "500-1,500 kW, Vertiv Liebert EXL S1 100-1,200 kVA); replace with the facility's design.",
        gt=0,
        le=100_000,
    )
    generator_redundancy: Redundancy = setting(
        "N+1",
        title="Generator redundancy",
        source="Uptime Institute Tier III: N+1 engine generators sized for the whole facility load.",
    )
    generator_kw: float = setting(
        2_000.0,
        title="Generator set size",
        unit="kW",
        source="Planner assumption: 2 MW diesel standby sets are the common data-centre unit (e.g. Caterpillar "
        "3516C, 2,000 ekW standby); replace with the facility's design.",
        gt=0,
        le=100_000,
    )
    plant_sizing: Literal["load", "entered"] = setting(
        "load",
        title="UPS and generator sizing",
        source="Planner assumption: 'load' sizes the plant from the load: as many units as the set sizes "
        "above need (N = ceil(load / set size)), each the load's share rounded up to 50 kW and at most the "
        "set size, with the redundancy (Uptime Institute tiers). 'entered' installs units of the set sizes "
        "as entered, and says when that is more than twice what the load needs.",
    )
