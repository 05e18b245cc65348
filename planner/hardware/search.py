"""Catalog search: a device matches when every word of the query is found among its words
(model, vendor, id, category, cooling, GPU model, network technology and port speeds)."""

from __future__ import annotations

from planner.hardware.catalog import CATEGORY_TITLES, DeviceType

_TECH_WORDS = {"infiniband": ("infiniband", "ib"), "ethernet": ("ethernet", "roce")}


def _speed_words(gbps: float, technology: str) -> list[str]:
    g = f"{gbps:g}"
    words = [f"{g}g", f"{g}gb/s", f"{g}gbps"]
    if technology == "ethernet":
        words.append(f"{g}gbe")
    return words


def device_words(device: DeviceType) -> str:
    """Every word a user may search a device by, lower case, space separated."""
    words = [device.id, device.vendor, device.model, device.category.replace("_", " "),
             CATEGORY_TITLES.get(device.category, ""), device.cooling, f"{device.cooling}-cooled",
             f"{device.u_height}u"]
    if device.gpu:
        words += [device.gpu.model, "gpu"]
    if device.switch:
        words += ["switch", *_TECH_WORDS[device.switch.technology],
                  *_speed_words(device.switch.gbps_per_port, device.switch.technology)]
    for nic in device.nics:
        words += [*_TECH_WORDS[nic.technology], *_speed_words(nic.gbps, nic.technology), "nic"]
    if device.storage:
        words += ["storage", "filesystem"]
    if device.cdu_capacity_kw:
        words += ["cdu", "coolant", "liquid"]
    if device.pdu_capacity_kw:
        words += ["pdu", "power"]
    return " ".join(w.lower() for w in words if w)


def matches(device: DeviceType, query: str) -> bool:
    """True when every word of ``query`` occurs in the device's words (case-insensitive)."""
    words = device_words(device)
    return all(token in words for token in query.lower().split())
