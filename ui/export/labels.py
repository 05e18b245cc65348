"""Human labels and units for the report figures the exports print: the one place they live.

``describe(section, key, value) -> (label, text)`` has the shape of the core's own labeller
(``planner.labels.describe``, when it exists): swap this module's table for it then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TOPOLOGIES = {"rail_optimized": "rail-optimised", "fat_tree": "fat tree", "leaf_spine": "leaf-spine"}


def _fabric_title(value: Any) -> str:
    from planner.fabrics import TECHNOLOGIES  # the fabric's own name: "400G InfiniBand (NDR)"

    tech = TECHNOLOGIES.get(value) if isinstance(value, str) else None
    return tech.title if tech else str(value)


def number(value: Any, digits: int = 2) -> str:
    """1,234 for whole numbers; up to ``digits`` decimals, trailing zeros dropped, otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-" if value is None else str(value)
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}".rstrip("0").rstrip(".")


def _unit(unit: str, digits: int = 2) -> Callable[[Any], str]:
    space = "" if unit == "%" else " "
    return lambda v: f"{number(v, digits)}{space}{unit}" if isinstance(v, (int, float)) and not isinstance(v, bool) \
        else number(v)


# key -> (label, how to write the value). Units follow the report's key suffixes:
# _ms milliseconds, _gbs gigabytes per second, _pct percent, _per_s per second.
NETWORK: dict[str, tuple[str, Callable[[Any], str]]] = {
    "fabric": ("Compute fabric", _fabric_title),
    "topology": ("Topology", lambda v: TOPOLOGIES.get(v, str(v).replace("_", " "))),
    "switch_model": ("Switch model", str),
    "tiers": ("Switch tiers", number),
    "leaf_switches": ("Leaf switches", number),
    "spine_switches": ("Spine switches", number),
    "core_switches": ("Core switches", number),
    "switch_ports_needed": ("Switch ports needed", number),
    "switch_ports_placed": ("Switch ports placed in racks", number),
    "switch_ports_cabled": ("Switch ports cabled", number),
    "oversubscription": ("Leaf oversubscription (down:up)", lambda v: f"{number(v)}:1"),
    "cables": ("Fabric cables", number),
    "transceivers": ("Optical transceivers", number),
    "sharp": ("SHARP in-network reduction", lambda v: "yes" if v else "no"),
    "allreduce_ms": ("All-reduce time per step", _unit("ms", 1)),
    "bus_bandwidth_gbs": ("All-reduce bus bandwidth per GPU", _unit("GB/s", 1)),
    "node_bus_bandwidth_gbs": ("All-reduce bus bandwidth per node", _unit("GB/s", 1)),
    "gpu_idle_pct": ("GPU time waiting on the fabric", _unit("%", 1)),
    "tokens_per_s": ("Training throughput", _unit("tokens/s", 0)),
}
TIER_LINKS = {"node-leaf": "node to leaf", "leaf-spine": "leaf to spine", "spine-core": "spine to core"}

SECTIONS = {"network": NETWORK}


def describe(section: str, key: str, value: Any) -> tuple[str, str]:
    """(label, text with its unit) of one report figure; unknown keys read as plain words."""
    entry = SECTIONS.get(section, {}).get(key)
    if entry is None:
        text = key.replace("_", " ")
        return text[:1].upper() + text[1:], number(value) if not isinstance(value, bool) else ("yes" if value else "no")
    label, write = entry
    return label, write(value)
