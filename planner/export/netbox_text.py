"""Text as NetBox's fields hold it: the lengths of its models' fields, elided at a word.

The limits are the ``max_length`` of NetBox's models (netbox/dcim/models/, NetBox 4.4):
names of sites, locations, racks, manufacturers, roles, device types, power panels and feeds
100 characters; device names and component names (interfaces, power ports, outlets) 64;
slugs 100; descriptions 200 (every ``PrimaryModel`` and ``OrganizationalModel``); cable labels 100;
an inventory item's part id 50.
"""

from __future__ import annotations

from collections import Counter

NAME = 100
DEVICE_NAME = 64
COMPONENT_NAME = 64
DESCRIPTION = 200
PART_ID = 50  # an inventory item's part_id
LABEL = 100
ELLIPSIS = "…"


def fit(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters, else cut at the last word that fits, with "…"."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:  # a word boundary not too far back; else cut inside the long word
        cut = cut[:space]
    return cut.rstrip(" ,;:.-(") + ELLIPSIS


def unique_name(names: Counter, wanted: str, fallback: str, limit: int) -> str:
    """``wanted`` (fitted to ``limit``) unless it is taken, then ``wanted-fallback`` fitted so the
    fallback stays whole; counted in ``names``."""
    name = fit(wanted, limit)
    if not wanted or names[name]:
        tail = f"-{fallback}"[-limit:]
        name = fit(wanted or "device", limit - len(tail)) + tail
    names[name] += 1
    return name
