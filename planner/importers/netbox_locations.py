"""NetBox locations back into the plan's buildings, halls and rows.

A site's locations nest (``Location.parent``). What each one is comes from its description
where the planner's export wrote it ("building at 300, 200 m on the campus", "data hall at
40, 30 m in its building", "row": ``planner.export.netbox_locations``), else from its depth:
a top-level location holding others is a building, its children halls, anything deeper a
row; a top-level location holding none is a row (as NetBox sites without buildings are read:
one building of one hall). A rack stands in the hall above its location and in the row its
location is, if it is one. Positions come from the planner's descriptions; NetBox locations
have none of their own, so other locations stand at the origin (the import says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from planner.importers.netbox_files import Row
from planner.plan.model import DEFAULT_BUILDING_NAME, DEFAULT_HALL_NAME, ID_PATTERN
from planner.text import escaped_name

BUILDING, HALL, ROW = "building", "data hall", "row"  # as the planner's export describes them
_AT = re.compile(r" at (-?[0-9]+(?:\.[0-9]+)?), (-?[0-9]+(?:\.[0-9]+)?) m")
_ID = re.compile(ID_PATTERN)
MAX_DEPTH = 20


@dataclass(slots=True)
class Campus:
    """The buildings the locations describe, as the plan file holds them (none: the plan's
    one default building; checked with the plan), and each location's (hall id, row name) for
    the racks in it."""

    buildings: list[dict] = field(default_factory=list)
    places: dict[str, tuple[str, str]] = field(default_factory=dict)
    unplaced: bool = False  # some building or hall had no position in its description

    def place(self, location: str) -> dict[str, str]:
        """The rack fields for a rack in ``location``: its hall and its row."""
        hall, row = self.places.get(location, ("", location))  # a location not listed: a row, as before
        return {"hall": hall, "row": escaped_name(row)[:100]}


def _role(loc: Row, depth: int, has_children: bool) -> str:
    text = loc["Description"].lower()
    for role in (BUILDING, HALL, ROW):
        if text == role or text.startswith(role + " at "):
            return role
    if depth == 0:
        return BUILDING if has_children else ROW
    return HALL if depth == 1 else ROW


def _id(slug: str, taken: set[str], fallback: str) -> str:
    wanted = slug if _ID.match(slug) and slug not in taken else fallback
    n = 1
    while wanted in taken:
        n += 1
        wanted = f"{fallback}-{n}"
    taken.add(wanted)
    return wanted


def read_campus(rows: list[Row]) -> Campus:
    """The campus of a site's locations (in the order NetBox lists them)."""
    by_name = {loc["Name"]: loc for loc in rows if loc["Name"]}
    parents = {loc["Parent"] for loc in rows if loc["Parent"]}

    def chain(name: str) -> list[str]:  # the location, its parent, ... up to the top (no loops)
        out = [name]
        while (parent := by_name[out[-1]]["Parent"]) in by_name and parent not in out and len(out) < MAX_DEPTH:
            out.append(parent)
        return out

    role = {name: _role(by_name[name], len(chain(name)) - 1, name in parents) for name in by_name}
    campus = Campus()
    if not any(r in (BUILDING, HALL) for r in role.values()):
        return campus  # rows only (or nothing): one building of one hall, the locations its rows
    taken: set[str] = set()

    def at(name: str) -> tuple[float, float]:
        m = _AT.search(by_name[name]["Description"]) if name else None
        campus.unplaced |= bool(name) and m is None
        return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)

    def new(name: str, fallback: str, default_name: str) -> dict:
        x, y = at(name)
        return {"id": _id(by_name[name]["Slug"] if name else "", taken, fallback),
                "name": escaped_name(name or default_name)[:100], "x_m": x, "y_m": y}

    buildings: dict[str, dict] = {}  # by location name ("" = a default building), in NetBox's order
    halls: dict[tuple[str, str], dict] = {}  # (building location, hall location) -> hall

    def hall(b_name: str, h_name: str) -> str:
        if b_name not in buildings:
            buildings[b_name] = new(b_name, f"building-{len(buildings) + 1}", DEFAULT_BUILDING_NAME) | {"halls": []}
        if (b_name, h_name) not in halls:
            halls[(b_name, h_name)] = new(h_name, f"hall-{len(halls) + 1}", DEFAULT_HALL_NAME)
            buildings[b_name]["halls"].append(halls[(b_name, h_name)])
        return halls[(b_name, h_name)]["id"]

    for name in by_name:
        if role[name] == BUILDING:
            buildings[name] = new(name, f"building-{len(buildings) + 1}", DEFAULT_BUILDING_NAME) | {"halls": []}
    for name in by_name:  # halls and rows, then racks standing in a building itself
        up = chain(name)
        b_name = next((n for n in up if role[n] == BUILDING), "")
        if role[name] != BUILDING:
            h_name = next((n for n in up if role[n] == HALL), "")
            campus.places[name] = (hall(b_name, h_name), name if role[name] == ROW else "")
    for name, b in buildings.items():
        campus.places.setdefault(name, (b["halls"][0]["id"] if b["halls"] else hall(name, ""), ""))
    campus.buildings = [b for b in buildings.values() if b["halls"]]
    return campus
