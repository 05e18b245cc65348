"""The campus as NetBox locations: each building a location of the site, each of its data halls
a child location (NetBox's ``Location`` has a ``parent``), each row of racks a location in
its hall; every rack, device and feed names the location it stands in (its row, or its hall
when it has no row).

NetBox's import forms find a location by name within the site (``LocationImportForm.parent``,
``RackImportForm.location``), so every location's name is unique in the site: a hall or row
whose name another location already has is named after what holds it ("South Hall 1",
"Hall 2 A"). The description says what a location is and where it stands ("building at 300,
200 m on the campus", "data hall at 40, 30 m in its building", "row"; NetBox's locations have
no position of their own), which the import (``planner.importers.netbox_locations``) reads back.
"""

from __future__ import annotations

from collections import Counter

from planner.export.netbox_existing import slugify
from planner.export.netbox_text import NAME, fit
from planner.plan.campus import campus_of
from planner.plan.model import Plan

BUILDING, HALL, ROW = "building", "data hall", "row"  # the locations' descriptions


def _metres(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".")


def _unique(names: Counter, wanted: str, holder: str) -> str:
    """``wanted`` fitted, or "holder wanted" when a location has that name already (then with
    a number, should that be taken too)."""
    name = fit(wanted, NAME)
    if names[name]:
        name = fit(f"{holder} {wanted}", NAME)
    base, n = name, 1
    while names[name]:
        n += 1
        name = fit(f"{base} {n}", NAME)
    names[name] += 1
    return name


def location_rows(plan: Plan, out, site: str) -> dict[str, str]:
    """Buildings, halls and rows into ``locations.csv`` (parents before children); returns each
    rack's location name by rack id."""
    campus = campus_of(plan)
    names: Counter = Counter()
    slugs: Counter = Counter()

    def add(name: str, parent: str, what: str) -> None:
        slug = slugify(name)
        slugs[slug] += 1
        if slugs[slug] > 1:
            slug = slugify(f"{name}-{slugs[slug]}")
        out.add("locations.csv", site=site, parent=parent, name=name, slug=slug, status="planned", description=what)

    hall_location: dict[str, str] = {}
    for b in campus.buildings:
        building = _unique(names, b.name, site)
        add(building, "", f"{BUILDING} at {_metres(b.x_m)}, {_metres(b.y_m)} m on the campus")
        for h in b.halls:
            hall_location[h.id] = _unique(names, h.name, building)
            add(hall_location[h.id], building, f"{HALL} at {_metres(h.x_m)}, {_metres(h.y_m)} m in its building")
    row_location: dict[tuple[str, str], str] = {}
    by_hall = campus.racks_by_hall(plan.racks)
    for hall_id, racks in by_hall.items():
        for row in dict.fromkeys(sorted(r.row for r in racks if r.row)):
            row_location[(hall_id, row)] = _unique(names, row, hall_location[hall_id])
            add(row_location[(hall_id, row)], hall_location[hall_id], ROW)
    return {r.id: row_location[(hall_id, r.row)] if r.row else hall_location[hall_id]
            for hall_id, racks in by_hall.items() for r in racks}
