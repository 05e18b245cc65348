"""A rack's elevation as boxes and words: what every drawing of a rack shows.

The app's rack view (``ui/rack_items.py``) and the exported elevations (SVG, PNG, the
vendor pack's pages: ``ui/export/elevation.py``) both draw these. Positions are in rack
units (U1 at the bottom), colours are the palette's and figures are the vocabulary's
words, so a device reads the same on screen and on paper ("10.2 kW" in both). Nothing
here knows pixels, points or fonts: each renderer fits the words to its own boxes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from planner import vocabulary
from planner.facility.rack_result import RackResult
from planner.hardware.catalog import Catalog, DeviceType
from planner.plan.model import Placement, Rack
from planner.report.palette import category_color, load_color, text_color_on


def short_model(model: str) -> str:
    """A model name without its parenthesised details, the rule for a name too long for its
    box: "Quantum-2 QM9700 (64 x NDR 400G)" -> "Quantum-2 QM9700" (a legend gives the full name)."""
    return re.sub(r"\s*\([^)]*\)", "", model).strip() or model


@dataclass(frozen=True, slots=True)
class DeviceBox:
    """One placed device in its rack: the U it spans and the words written on it."""

    placement_id: str
    u: int  # the lowest U it occupies
    height_u: int
    category: str
    fill: str  # the palette's colour of its category
    ink: str  # text colour that reads on the fill
    name: str  # its label, else its id
    model: str  # the catalog model, or what is wrong with the placement
    power: str  # its power on the plan's power basis, compact ("10.2 kW")
    details: tuple[str, ...]  # "NVIDIA · 8 GPUs · liquid-cooled", "NVIDIA · 8 GPUs"; the vendor alone without GPUs
    known: bool  # whether the catalog has its device type

    @property
    def top_u(self) -> int:
        return self.u + self.height_u - 1

    @property
    def short_model(self) -> str:
        return short_model(self.model)


def device_box(placement: Placement, device: DeviceType | None, basis: str) -> DeviceBox:
    """The box of ``placement`` (its catalog type ``device``, None if unknown) on ``basis``
    ("typical" or "nameplate")."""
    category = device.category if device is not None else "other"
    fill = category_color(category)
    if device is None:
        return DeviceBox(placement.id, placement.u, 1, category, fill, text_color_on(fill),
                         placement.label or placement.id, f"unknown type '{placement.device}'", "", (), False)
    gpus = f"{device.vendor} · {device.gpus} GPUs"
    details = (f"{gpus} · {device.cooling}-cooled", gpus) if device.gpus else (device.vendor,)
    return DeviceBox(placement.id, placement.u, device.u_height, category, fill, text_color_on(fill),
                     placement.label or placement.id, device.model, vocabulary.watts(device.power_w(basis)), details,
                     True)


def device_boxes(placements: Iterable[Placement], catalog: Catalog, basis: str) -> list[DeviceBox]:
    return [device_box(p, catalog.get(p.device), basis) for p in placements]


def load_text(fraction: float) -> str:
    """Load as a percentage; just under the cap shows a decimal so it never reads "100%" unless it is."""
    if 0.995 <= fraction < 1.0:
        return f"{fraction * 100:.1f}%".replace("100.0%", "99.9%")
    return f"{fraction:.0%}"


@dataclass(frozen=True, slots=True)
class RackHeading:
    """The words and load colours above a rack."""

    title: str
    height_tag: str  # "42U · liquid"
    cooling_tag: str  # "LIQUID"
    power: str  # on the plan's basis against the cap: "40.8 / 41 kW"
    power_both: tuple[str, ...]  # both bases against the cap, longest wording first
    load: float  # on the plan's basis, a fraction of the cap
    load_colour: str
    worst_load: float  # the higher of the two bases
    worst_colour: str
    cooling: str  # "Liquid-cooled: 30.2 kW to liquid"
    space: str  # "24/42 U used · 32 GPUs"


def rack_heading(rack: Rack, res: RackResult | None, air_cooling_limit_kw: float | None = None,
                 title: str | None = None) -> RackHeading:
    """The heading of ``rack`` from its result ``res`` (None before the first evaluation); an
    air-cooled rack's cooling line names ``air_cooling_limit_kw`` when given."""
    name = rack.name if title is None else title
    # an air rack with a rear-door heat exchanger (RDHX): its heat leaves by the door's water
    cooling = rack.cooling if not rack.rear_door_hx or rack.cooling == "liquid" else (
        "RDHX" if rack.cooling == "air" else f"{rack.cooling} + RDHX")
    tags = (f"{rack.height_u}U · {cooling}", cooling.upper())
    if res is None:
        return RackHeading(name, *tags, "", (), 0.0, load_color(0.0), 0.0, load_color(0.0), "", "")
    space = f"{res.used_u}/{res.height_u} U used" + (f" · {res.gpus} GPUs" if res.gpus else "")
    worst = res.worst_load_fraction
    return RackHeading(name, *tags, vocabulary.power_of_cap(res.power_kw, res.cap_kw), tuple(_power_both(res)),
                       res.load_fraction, load_color(res.load_fraction), worst, load_color(worst),
                       _cooling(res, air_cooling_limit_kw, rack.rear_door_hx), space)


def _power_both(res: RackResult) -> list[str]:
    """"Typical 28.0 · nameplate 40.8 / 30 kW (93% / 136%)" and shorter wordings of it."""
    t, n, cap = res.power_typical_kw, res.power_nameplate_kw, f"{res.cap_kw:,.3g}"
    loads = f"({load_text(res.load_on('typical'))} / {load_text(res.load_on('nameplate'))})"
    return [f"Typical {t:,.1f} · nameplate {n:,.1f} / {cap} kW {loads}",
            f"Typ. {t:,.1f} · nameplate {n:,.1f} / {cap} kW {loads}",
            f"Typ. {t:,.1f} · npl. {n:,.1f} / {cap} kW {loads}",
            f"Typ. {t:,.1f} · npl. {n:,.1f} / {cap} kW"]


def _cooling(res: RackResult, air_cooling_limit_kw: float | None, rear_door: bool = False) -> str:
    """The rack's cooling line: its heat to liquid, or the heat it puts into the room (what the
    air-cooling limit is judged on: after a rear-door heat exchanger, what the door leaves)."""
    if res.cooling == "liquid":
        return f"Liquid-cooled: {vocabulary.kw(res.liquid_heat_milliwatts / 1e6)} to liquid"
    limit = f" (limit {air_cooling_limit_kw:g})" if air_cooling_limit_kw is not None else ""
    air = vocabulary.kw(res.air_basis_milliwatts / 1e6)
    return f"Rear door: {air} to air{limit}" if rear_door else f"Air-cooled: {air}{limit}"
