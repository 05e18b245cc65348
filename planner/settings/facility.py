"""Power and cooling settings."""

from __future__ import annotations

from typing import Literal

from planner.settings._base import Section, setting


class FacilitySettings(Section):
    power_basis: Literal["typical", "nameplate"] = setting(
        "typical",
        title="Power basis",
        source="The planning guide sizes racks on typical draw (7 kW per 8 x H100 node); "
        "nameplate (10.2 kW, DGX H100 user guide) is the conservative basis.",
    )
    pue: float = setting(
        1.56,
        title="PUE",
        unit="",
        source="Uptime Institute global survey 2023-24: industry average PUE ~1.56-1.58; new large builds 1.3 or better.",
        ge=1.0,
        le=3.0,
    )
    air_cooling_limit_kw: float = setting(
        25.0,
        title="Air-cooling limit per rack",
        unit="kW",
        source="Air cooling is practical up to about 20-30 kW per rack (sources differ); 25 kW is the midpoint.",
        gt=0,
        le=200,
    )
    cdu_policy: Literal["per_nodes", "capacity"] = setting(
        "per_nodes",
        title="CDU sizing",
        source="Planning guide: 'a CDU for every 8 nodes' (rule of thumb); by capacity uses the CDU's rated kW.",
    )
    nodes_per_cdu: int = setting(
        8,
        title="Liquid-cooled nodes per CDU",
        unit="nodes",
        source="Planning guide: 'direct-to-chip liquid cooling, with a CDU for every 8 nodes'.",
        ge=1,
        le=1000,
    )
    cdu_device: str = setting(
        "cdu-inrack-250",
        title="CDU model",
        source="REFERENCE: in-rack CDUs 50-250 kW (e.g. Supermicro 250 kW, 4U).",
        min_length=1,
        max_length=64,
    )
    default_rack_cap_kw: float = setting(
        30.0,
        title="Default rack power cap",
        unit="kW",
        source="Planning guide: 'Most colocation facilities cap at 30kW per rack'.",
        gt=0,
        le=1000,
    )
