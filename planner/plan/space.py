"""Rack space: where a device fits, overlaps and devices sticking out of a rack."""

from __future__ import annotations

from collections.abc import Iterable

from planner.hardware.catalog import Catalog, DeviceType
from planner.plan.model import Placement, Plan, Rack


def occupied(members: Iterable[Placement], catalog: Catalog, ignore: frozenset[str] = frozenset()) -> list[tuple[int, int, str]]:
    """(bottom U, top U, placement id) of every device in a rack, sorted from the bottom."""
    spans = []
    for p in members:
        if p.id in ignore:
            continue
        d = catalog.get(p.device)
        h = d.u_height if d else 1
        spans.append((p.u, p.u + h - 1, p.id))
    spans.sort()
    return spans


def cooling_problem(rack: Rack, device: DeviceType) -> str | None:
    """Why a rack's cooling cannot take ``device``, or None: a liquid-cooled system (an NVL72,
    a direct-liquid-cooled HGX node, a CDU) needs a liquid or hybrid rack; an air rack has no
    manifolds to plumb it to. The desktop app's drag ghost shows this reason."""
    if device.cooling == "liquid" and rack.cooling == "air":
        return (f"{device.model} is liquid-cooled only and {rack.name} is an air-cooled rack: "
                "use a liquid or hybrid rack (or set this rack's cooling to liquid)")
    return None


def fit_problem(plan: Plan, catalog: Catalog, rack_id: str, u: int, device: DeviceType,
                ignore: frozenset[str] = frozenset()) -> str | None:
    """Why ``device`` cannot sit at ``u`` in the rack, or None when it fits."""
    reason = fit_reason(plan, catalog, rack_id, u, device, ignore)
    return reason[0] if reason else None


def fit_reason(plan: Plan, catalog: Catalog, rack_id: str, u: int, device: DeviceType,
               ignore: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """Why ``device`` cannot sit at ``u`` in the rack, in full and in the few words of the
    drag ghost's label ("sticks out of GPU-02"; "" where none are shorter), the first of
    cooling, sticking out and overlap; None when it fits."""
    rack = plan.rack(rack_id)
    if rack is None:
        return f"there is no rack '{rack_id}'", ""
    cooling = cooling_problem(rack, device)
    if cooling:
        return cooling, "liquid-cooled: not in an air rack"
    top = u + device.u_height - 1
    if u < 1 or top > rack.height_u:
        height = "" if device.height_named else f" ({device.u_height}U)"
        return (f"{device.model}{height} at U{u} would stick out of {rack.name} "
                f"(U1-U{rack.height_u})"), f"sticks out of {rack.name}"
    hit = overlapped(plan, catalog, rack_id, u, device, ignore)
    if hit:
        name, lo, hi = hit
        return f"U{u}-U{top} of {rack.name} overlaps {name} at U{lo}-U{hi}", f"overlaps {name}"
    return None


def overlapped(plan: Plan, catalog: Catalog, rack_id: str, u: int, device: DeviceType,
               ignore: frozenset[str] = frozenset()) -> tuple[str, int, int] | None:
    """The first device (its label, lowest and highest U) that ``device`` at ``u`` would overlap."""
    top = u + device.u_height - 1
    for lo, hi, pid in occupied(plan.rack_members(rack_id).values(), catalog, ignore):
        if lo <= top and u <= hi:
            other = plan.placement(pid)
            return (other.label or other.device if other else pid), lo, hi
    return None


def slot_near(plan: Plan, catalog: Catalog, rack: Rack, u: int, device: DeviceType,
              ignore: frozenset[str] = frozenset()) -> int:
    """Where a drop at ``u`` puts ``device`` when a U is too small to aim at (the zoomed-out
    floor): ``u`` itself if the device fits there, else the lowest U where it fits, else ``u``
    (the drop is then refused with the reason ``fit_problem`` gives: no room, or a rack whose
    cooling cannot take it at any U)."""
    if cooling_problem(rack, device) or fit_problem(plan, catalog, rack.id, u, device, ignore) is None:
        return u
    low = lowest_free_u(plan, catalog, rack, device.u_height, ignore)
    return u if low is None else low


def placement_near(plan: Plan, catalog: Catalog, rack: Rack, u: int) -> str | None:
    """The device of ``rack`` at ``u``, else the one nearest to it (the lower on a tie): what a
    press at that height picks when a U is under a pixel. None for an empty rack."""
    best = None
    for lo, hi, pid in occupied(plan.rack_members(rack.id).values(), catalog):
        distance = 0 if lo <= u <= hi else min(abs(u - lo), abs(u - hi))
        if best is None or distance < best[0]:
            best = (distance, pid)
    return best[1] if best else None


def lowest_free_u(plan: Plan, catalog: Catalog, rack: Rack, height: int,
                  ignore: frozenset[str] = frozenset()) -> int | None:
    """The lowest U where a device of ``height`` fits (the placements in ``ignore`` moved
    out of the way), or None when the rack has no room."""
    u = 1
    for lo, hi, _ in occupied(plan.rack_members(rack.id).values(), catalog, ignore):
        if lo - u >= height:
            return u
        u = max(u, hi + 1)
    return u if u + height - 1 <= rack.height_u else None


def free_slots(plan: Plan, catalog: Catalog, rack: Rack, height: int) -> int:
    """How many devices of ``height`` the rack's free space takes, each at the lowest U free
    (as ``lowest_free_u`` places them one after another): each gap's whole multiples."""
    slots, u = 0, 1
    for lo, hi, _ in occupied(plan.rack_members(rack.id).values(), catalog):
        slots += max(0, lo - u) // height
        u = max(u, hi + 1)
    return slots + max(0, rack.height_u - u + 1) // height


def space_findings(rack: Rack, spans: list[tuple[int, int, str]], names: dict[str, str] | None = None):
    """Yield (severity, code, message, where) for devices outside the rack or overlapping; the
    message names each device as the user sees it (``names``: placement id -> its label)."""
    top_seen, top_id = 0, None
    shown = (names or {}).get
    for lo, hi, pid in spans:
        if hi > rack.height_u:
            yield ("error", "rack.space.outside",
                   f"Device {shown(pid) or pid} occupies U{lo}-U{hi} but rack {rack.name} has only "
                   f"{rack.height_u}U", pid)
        if lo <= top_seen:
            yield ("error", "rack.space.overlap",
                   f"Device {shown(pid) or pid} at U{lo}-U{hi} overlaps device {shown(top_id) or top_id} in rack "
                   f"{rack.name}", pid)
        if hi > top_seen:
            top_seen, top_id = hi, pid
