"""Where a device's heat goes, and the water that carries it away.

A device's heat splits into liquid and air by its capture fraction: cold-plate servers
put most of their heat into the liquid loop and the rest (memory, NICs, power supplies)
into the room; air-cooled devices put it all into the air. Water flow for a heat load P:
Q = P / (c_p x rho x delta T) (the sensible heat equation, ASHRAE Handbook Fundamentals).
"""

from __future__ import annotations

from collections.abc import Iterable

from planner.hardware.catalog import DeviceType
from planner.settings import FacilitySettings


def capture_fraction(device: DeviceType, liquid_rack: bool, facility: FacilitySettings) -> float:
    """Share of ``device``'s heat that goes to liquid. Liquid-cooled devices (cold plates:
    the catalog's direct-liquid-cooled systems) use their catalog figure, else the default;
    an air-cooled device puts all its heat into the air (0), also in a liquid-cooled rack:
    without cold plates there is nothing to plumb to the rack's manifold."""
    if device.cooling == "liquid":
        return device.liquid_fraction if device.liquid_fraction is not None else facility.liquid_capture
    return 0.0


def liquid_heat(devices: Iterable[DeviceType], liquid_rack: bool, rear_door_hx: bool,
                facility: FacilitySettings) -> tuple[int, int]:
    """(liquid-cooled GPU nodes, design heat to liquid in mW) of one rack's devices: each
    device's nameplate x its capture fraction, plus what a rear-door heat exchanger takes
    from the rest (``door_milliwatts``). What the CDUs are sized on, by the design and the
    check alike."""
    return liquid_heat_of(((d, 1) for d in devices), liquid_rack, rear_door_hx, facility)


def liquid_heat_of(counted: Iterable[tuple[DeviceType, int]], liquid_rack: bool, rear_door_hx: bool,
                   facility: FacilitySettings) -> tuple[int, int]:
    """``liquid_heat`` of a rack's devices given as (device type, how many)."""
    nodes = nameplate = liquid = 0
    for d, n in counted:
        watts = round(d.power_max_w * 1000)
        nameplate += n * watts
        liquid += n * round(watts * capture_fraction(d, liquid_rack, facility))
        if d.gpu is not None and d.cooling == "liquid":
            nodes += n
    if rear_door_hx:
        liquid += door_milliwatts(nameplate - liquid, facility)
    return nodes, liquid


def door_milliwatts(air_milliwatts: int, facility: FacilitySettings) -> int:
    """Heat a rear-door heat exchanger takes from a rack's air to water: all of it up to
    the door's capacity."""
    return min(round(facility.rear_door_kw * 1e6), air_milliwatts)


def water_l_min(heat_kw: float, facility: FacilitySettings) -> float:
    """Coolant flow in litres per minute that removes ``heat_kw`` at the set temperature
    rise: Q = P / (c_p x rho x delta T) x 60 s."""
    if heat_kw <= 0:
        return 0.0
    return heat_kw / (facility.coolant_cp_kj_kg_k * facility.coolant_density_kg_l * facility.coolant_delta_t_k) * 60
