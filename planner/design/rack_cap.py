"""A GPU system that cannot stand within its racks' power cap is refused, with what does.

A node over the cap would need a rack it cannot have; a rack-scale system (an NVL72) is a
rack of its own and cannot be split over racks, so a cap below its draw cannot hold it.
The design refuses either, naming the cap, the system's draw on the plan's basis and the
catalog's GPU systems that stand within that cap (the most capable first), rather than
placing racks over a cap the user set.
"""

from __future__ import annotations

from planner.design.intent import DesignError
from planner.hardware.catalog import Catalog, DeviceType
from planner.text import with_article

SHOWN = 3  # alternatives named in the one-line message; the rest are counted (the catalog lists them all)


def refuse_over_cap(system: DeviceType, cap_kw: float, basis: str, catalog: Catalog, *, by_air: bool = False) -> None:
    """Raise a ``DesignError`` when one ``system`` draws more than ``cap_kw`` on ``basis``;
    ``by_air``: the cap is the air-cooling limit of air-cooled racks (lower than the rack cap),
    and the error names that limit's field, not the rack cap's."""
    kw = system.power_w(basis) / 1000
    if kw <= cap_kw + 1e-9:
        return
    other, name = ("nameplate", "max") if basis == "typical" else ("typical", "typical")
    draw = f"draws {kw:,.4g} kW {basis} ({system.power_w(other) / 1000:,.4g} kW {name})"
    limit = f"{cap_kw:,g} kW air-cooling limit of an air-cooled rack" if by_air else f"{cap_kw:,g} kW rack cap"
    if system.is_rack_scale:
        what = f"{with_article(system.model)} {draw}, more than the {limit}, and is one rack that cannot be split"
    else:
        what = f"one {system.model} {draw}, more than the {limit}"
    fits = _fitting(catalog, cap_kw, basis)
    # by name, with the id the command line's --system takes; names hold commas, so "; " between.
    # The list comes last: a long one cut short at the end of a line loses no remedy.
    names = "; ".join(f"{d.model} ({d.id}: {d.gpus} GPUs, {d.power_w(basis) / 1000:,.4g} kW)" for d in fits[:SHOWN])
    more = f"; and {len(fits) - SHOWN} more in the catalog" if len(fits) > SHOWN else ""
    alternatives = f", or choose a system that fits {cap_kw:,g} kW racks: {names}{more}" if fits else ""
    if by_air:
        liquid = ", or cool the GPU racks by liquid" if system.cooling != "air" else ""
        raise DesignError(f"air_cooling_limit_kw: {what}. Raise the air-cooling limit to at least "
                          f"{kw:,.4g} kW{liquid}{alternatives}")
    raise DesignError(f"rack_kw: {what}. Raise the rack cap to at least {kw:,.4g} kW{alternatives}")


def _fitting(catalog: Catalog, cap_kw: float, basis: str) -> list[DeviceType]:
    """The GPU systems that stand on their own (not a tray of a rack-scale system) within
    ``cap_kw`` on ``basis``, the most BF16 compute per system first, then in catalog order."""
    fits = [d for d in catalog if d.is_gpu_system and d.power_w(basis) / 1000 <= cap_kw + 1e-9]
    return sorted(fits, key=lambda d: -d.gpus * d.gpu.bf16_tflops)
