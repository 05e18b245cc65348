"""The floor: rows and aisles, rack enclosures, floor loading, and cable routing over it."""

from __future__ import annotations

from planner.settings._base import Section, setting


class FloorSettings(Section):
    racks_per_row: int = setting(
        12,
        title="Racks per row (racks without a row)",
        unit="racks",
        source="Planner assumption: rows of 10-14 racks keep a hot or cold aisle containment run under ~8 m; "
        "racks with a row name keep their own rows.",
        ge=1,
        le=1000,
    )
    cold_aisle_mm: float = setting(
        1_200.0,
        title="Cold aisle width",
        unit="mm",
        source="Two 600 mm floor tiles: the usual cold aisle (TIA-942 recommends at least 1.2 m in front of "
        "racks); also the front clearance.",
        ge=600,
        le=5_000,
    )
    hot_aisle_mm: float = setting(
        900.0,
        title="Hot aisle width",
        unit="mm",
        source="TIA-942: at least 0.9 m behind racks (also the NEC 110.26 working space in front of "
        "equipment up to 150 V to ground); the rear clearance.",
        ge=600,
        le=5_000,
    )
    enclosure_kg: float = setting(
        160.0,
        title="Rack enclosure weight (empty)",
        unit="kg",
        source="Empty 42U 600 x 1,200 mm IT racks weigh about 130-180 kg with doors and side panels (APC "
        "NetShelter SX AR3350 datasheet: ~164 kg shipping); added to the equipment for floor loading, "
        "except in a rack that is a rack-scale system's own (an NVL72 weighs 1.36 t in all, its rack "
        "included: NVIDIA DGX GB200 user guide, hardware).",
        ge=0,
        le=5_000,
    )
    aisle_share_mm: float = setting(
        0.0,
        title="Aisle depth counted with each rack",
        unit="mm",
        source="Planner assumption: 0 = the rack's own footprint only (the strict reading for raised-floor tiles "
        "under the feet); "
        "a slab design may spread the load over half of each adjoining aisle (e.g. 1,050 mm for a 1,200 mm "
        "cold and 900 mm hot aisle). Ask the structural engineer.",
        ge=0,
        le=5_000,
    )
    floor_rating_kg_m2: float = setting(
        1_224.0,
        title="Floor rating",
        unit="kg/m²",
        source="TIA-942 Rated-3: 12 kPa (250 lbf/ft²) superimposed live load = 12,000 / 9.807 = 1,224 kg/m². "
        "Set the raised floor's or slab's rating from the structural engineer.",
        gt=0,
        le=100_000,
    )
    tray_above_rack_mm: float = setting(
        300.0,
        title="Cable tray above the racks",
        unit="mm",
        source="Overhead ladder tray mounted ~300 mm above the rack tops (TIA-569 pathway clearance); every "
        "cable between racks rises to it and drops again.",
        ge=0,
        le=5_000,
    )
    cable_slack_m: float = setting(
        1.0,
        title="Cable slack per link",
        unit="m",
        source="Planner assumption: a 0.5 m service loop at each end for routing in the rack and later moves.",
        ge=0,
        le=100,
    )
    hall_loop_m: float = setting(
        3.0,
        title="Service loop at each hall's distribution area",
        unit="m",
        source="Planner assumption: a 3 m fibre service loop where a run leaves its hall at the hall's "
        "distribution area (TIA-942-B horizontal distribution area), for re-termination and moves; "
        "counted twice on every run between halls or buildings.",
        ge=0,
        le=100,
    )
    building_entrance_m: float = setting(
        20.0,
        title="Run through each building entrance",
        unit="m",
        source="Planner assumption: ~6 m from the overhead trays down to the campus duct bank below grade, "
        "plus ~14 m of slack coiled in the entrance room (TIA-942-B entrance room; outside plant per "
        "ANSI/TIA-758-B); counted at both buildings of every run between buildings. Measure from the "
        "site drawings.",
        ge=0,
        le=1_000,
    )
