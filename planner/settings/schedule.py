"""Build-out schedule settings: the order date, each part class's lead time, install and
commissioning times, how the plan comes online in phases and how its capex is paid."""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator

from planner.bounds import iso_date
from planner.settings._base import Section, setting

_LEAD = dict(unit="weeks", ge=0, le=520, why_high="a lead time of more than ten years is not a plan")
_IN_PLACE = " 0: already in place (e.g. a colocation provider's plant), nothing to wait for."


class ScheduleSettings(Section):
    order_date: str = setting(
        "",
        title="Order date",
        source="Planner assumption: every part is ordered on one day. Empty: months are counted from the "
        "order, without calendar dates; a date (YYYY-MM-DD) gives the ready and energized dates.",
        max_length=10,
    )
    phase_by: Literal["auto", "hall", "scalable_unit"] = setting(
        "auto",
        title="Phases",
        source="Automatic: by building and data hall on a campus of several halls, by scalable unit "
        "otherwise. Planner assumption: a hall comes online when its building's plant and its own "
        "equipment are in; a single hall comes online scalable unit by scalable unit (NVIDIA DGX "
        "SuperPOD reference architecture: the scalable unit is the building block).",
    )
    train_from: Literal["energized", "first_phase"] = setting(
        "energized",
        title="Training starts",
        source="Planner assumption: at energization, on every GPU. From the first phase: on the GPUs online, "
        "whole data-parallel replicas joining as their phases come online.",
    )
    plant: Literal["auto", "new", "in_place"] = setting(
        "auto",
        title="Facility plant",
        source="Planner assumption: automatic, as the costs' operating mode has it: in place in colocation "
        "(the provider's plant, paid for in the $/kW/month), new when the facility is owned. New: the "
        "building's power plant (transformer, switchgear, UPS, generator sets) and its cooling plant are "
        "ordered with the cluster, and their lead times count. In place: a colocation hall or an existing "
        "facility whose plant is there; only the equipment the plan places (GPU systems, switches, optics, "
        "storage, and CDUs where the plan has them) has lead times.",
    )
    transformer_weeks: float = setting(
        128.0,
        title="Lead time: power transformer",
        source="Wood Mackenzie, lead-time survey Q2 2025: large power transformers averaged 128 weeks "
        "from order (generator step-up units 144), as reported by POWER Magazine, 'Transformers in "
        "2026', January 2026." + _IN_PLACE,
        **_LEAD,
    )
    switchgear_weeks: float = setting(
        52.0,
        title="Lead time: switchgear",
        source="Planner assumption: 52 weeks, inside the 40-65 weeks trade reports give for data-centre "
        "medium- and low-voltage switchgear in 2025-26 (custom gear longer)." + _IN_PLACE,
        **_LEAD,
    )
    ups_weeks: float = setting(
        33.0,
        title="Lead time: UPS",
        source="Planner assumption: JLL's global average lead time of data-centre equipment, 33 weeks "
        "(2025; 42 weeks in the US), as reported by the trade press; no UPS-specific survey is "
        "public." + _IN_PLACE,
        **_LEAD,
    )
    generator_weeks: float = setting(
        52.0,
        title="Lead time: generator sets",
        source="Planner assumption: 52 weeks, between the 36-48 weeks quoted for sets above 100 kW "
        "(Barton Associates, 2026, as reported by the trade press) and the 18 months and more of "
        "large data-centre sets (Baudouin, 'Why lead time matters for data centre projects', "
        "2026)." + _IN_PLACE,
        **_LEAD,
    )
    cooling_weeks: float = setting(
        33.0,
        title="Lead time: CDUs and chillers",
        source="Planner assumption: JLL's global average lead time of data-centre equipment, 33 weeks "
        "(2025), as reported by the trade press." + _IN_PLACE,
        **_LEAD,
    )
    gpu_systems_weeks: float = setting(
        12.0,
        title="Lead time: GPU systems",
        source="Dell, H100 servers 8-12 weeks in April 2024 (down from 39 weeks late 2023), United Daily "
        "News as reported by The Register; allocation of a new generation can be far longer.",
        **_LEAD,
    )
    switches_weeks: float = setting(
        16.0,
        title="Lead time: network switches",
        source="Planner assumption: 16 weeks for fabric switches; vendors quote per order and "
        "publish no figure.",
        **_LEAD,
    )
    optics_weeks: float = setting(
        12.0,
        title="Lead time: optics and cables",
        source="Planner assumption: 12 weeks for transceivers and fibre assemblies at volume; stock "
        "parts ship in days.",
        **_LEAD,
    )
    storage_weeks: float = setting(
        10.0,
        title="Lead time: storage",
        source="Planner assumption: 10 weeks for parallel-filesystem appliances; vendors quote per "
        "order.",
        **_LEAD,
    )
    rack_install_days: float = setting(
        1.0,
        title="Install and test per rack",
        unit="crew-days",
        source="Planner assumption: one crew-day to set, cable and test a rack (deployment firms report "
        "several air-cooled HGX racks a day under good conditions, liquid-cooled racks slower).",
        ge=0,
        le=100,
    )
    crews_per_100_racks: float = setting(
        4.0,
        title="Install crews per 100 racks",
        unit="crews",
        source="Planner assumption: the installer staffs a hall to its size, four crews per 100 racks "
        "(at least one crew a hall) working five days a week: a hall's racks go in in about five "
        "weeks at one crew-day per rack.",
        gt=0,
        le=1000,
    )
    hall_commissioning_weeks: float = setting(
        8.0,
        title="Commissioning per hall",
        unit="weeks",
        source="Planner assumption: eight weeks of integrated systems testing (commissioning level 5) "
        "once a hall's plant is in, before its racks take load.",
        ge=0,
        le=520,
    )
    deposit_pct: float = setting(
        30.0,
        title="Paid on order",
        unit="%",
        source="Planner assumption: a deposit with the order and the balance when the phase is ready, "
        "as equipment is commonly bought; 30% is a common deposit.",
        ge=0,
        le=100,
    )

    _real_date = field_validator("order_date")(iso_date)
