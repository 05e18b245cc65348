"""Cable routes across a campus: within a rack, a row, a hall, between halls and buildings.

The routes follow structured cabling as ANSI/TIA-942-B lays out a data centre: a hall's racks
are cabled over the overhead trays to the hall's horizontal distribution area (HDA), each HDA
to its building's main distribution area (MDA) in a star (backbone cabling), and buildings
reach each other over the campus backbone through their entrance rooms (outside plant:
ANSI/TIA-758-B). The planner puts a hall's HDA (its meet-me point) at the hall's origin, the
end of its first row (``Hall.x_m``/``y_m`` in its building), and a building's MDA and entrance
room at the building's origin (``Building.x_m``/``y_m`` on the campus).

Length of a run (a single cable end to end, as the schedule orders it):

- in a rack, in a row, across the rows of one hall: as ``planner.network.cables`` routes it
  (up to the tray, along and across the rows, down, plus the slack per link);
- between halls of one building: up to the tray, along the hall's trays to its HDA
  (|x| + |y| in the hall's frame), the backbone to the MDA (|x| + |y| of the hall's origin)
  and out to the other hall's HDA, along that hall to the rack and down; plus the slack per
  link and a service loop at each HDA (``FloorSettings.hall_loop_m``);
- between buildings: each end to its building's MDA as above, through each building's
  entrance (``FloorSettings.building_entrance_m``: down to the duct bank, the entrance room's
  slack) and along the duct bank between the entrance rooms, at right angles as trays run
  (|dx| + |dy| between the buildings' origins).

Halls on different storeys of a building are not modelled: place a hall's origin where its
riser lands to count the riser.

The longest run a speed can take is the longest reach of the catalog's optics and cables at
that speed (``reach_limit_m``); a run beyond it is an error finding (``reach_findings``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from planner.facility.floor import campus_spots
from planner.findings import Finding
from planner.hardware.catalog import Catalog
from planner.network.media import SINGLE_MODE_CLASSES
from planner.plan.campus import campus_of
from planner.plan.model import Plan

ROUTES = ("in-rack", "in-row", "in-hall", "inter-hall", "inter-building")
IN_RACK, IN_ROW, IN_HALL, INTER_HALL, INTER_BUILDING = range(len(ROUTES))
BEYOND_REACH = "network.cable.beyond_reach"


@dataclass(frozen=True, slots=True)
class Place:
    """Where a rack stands, as the routes need it: its hall and building (numbers in campus
    order), its row in the hall and its centre in the hall's frame."""

    hall: int
    building: int
    row: int
    x_m: float
    y_m: float


@dataclass(frozen=True, slots=True)
class CampusGeometry:
    """Every rack's place; per hall (by number) the backbone from its HDA to its building's
    MDA and its building's number; per building (by number) its origin on the campus."""

    places: dict[str, Place]
    hall_to_mda_m: tuple[float, ...]
    building_x_m: tuple[float, ...]
    building_y_m: tuple[float, ...]
    hall_building: tuple[int, ...] = ()


def campus_backbone(plan: Plan) -> CampusGeometry:
    """The campus's halls and buildings without the racks (``places`` empty): what the
    lengths between halls need but for each end's run inside its hall. O(halls)."""
    campus = campus_of(plan)
    building_number = {b.id: i for i, b in enumerate(campus.buildings)}
    halls = list(campus.halls.values())
    return CampusGeometry({}, tuple(abs(h.x_m) + abs(h.y_m) for _, h in halls),
                          tuple(b.x_m for b in campus.buildings), tuple(b.y_m for b in campus.buildings),
                          tuple(building_number[b.id] for b, _ in halls))


def campus_geometry(plan: Plan) -> CampusGeometry:
    """The plan's racks placed on its campus (one pass over the racks)."""
    campus = campus_of(plan)
    hall_number = {hall_id: i for i, hall_id in enumerate(campus.halls)}
    building_number = {b.id: i for i, b in enumerate(campus.buildings)}
    places = {rack_id: Place(hall_number[s.hall], building_number[s.building], s.row, s.hall_x_m, s.hall_y_m)
              for rack_id, s in campus_spots(plan).items()}
    return replace(campus_backbone(plan), places=places)


def between_halls_m(geo: CampusGeometry, floor, ha, hb, end_a, end_b):
    """The lengths of runs from hall ``ha`` to a different hall ``hb`` (numpy columns of hall
    numbers), as the module docstring routes them; ``end_a``, ``end_b``: the metres of each
    end inside its hall (up to the tray and along the hall's trays to its HDA)."""
    import numpy as np

    to_mda = np.array(geo.hall_to_mda_m, dtype=np.float64)
    building = np.array(geo.hall_building, dtype=np.int64)
    bx, by = (np.array(v, dtype=np.float64) for v in (geo.building_x_m, geo.building_y_m))
    ba, bb = building[ha], building[hb]
    length = end_a + to_mda[ha] + to_mda[hb] + end_b + floor.cable_slack_m + 2 * floor.hall_loop_m
    backbone = 2 * floor.building_entrance_m + np.abs(bx[ba] - bx[bb]) + np.abs(by[ba] - by[bb])
    return length + np.where(ba != bb, backbone, 0.0)


def campus_lengths(geo: CampusGeometry, floor, a, b, up, hall, x, y):
    """The lengths of runs between racks of different halls (``between_halls_m``). Numpy
    columns: the runs' end sites ``a``, ``b``; per site its metres up to the tray, its hall
    (number) and its place in the hall."""
    import numpy as np

    to_hda = np.abs(x) + np.abs(y)
    return between_halls_m(geo, floor, hall[a], hall[b], up[a] + to_hda[a], to_hda[b] + up[b])


def route_classes(same_rack, a, b, hall, building, row):
    """The route of each run (an index into ``ROUTES``), as numpy columns."""
    import numpy as np

    same_hall = hall[a] == hall[b]
    return np.where(same_rack, IN_RACK, np.where(
        same_hall, np.where(row[a] == row[b], IN_ROW, IN_HALL),
        np.where(building[a] == building[b], INTER_HALL, INTER_BUILDING))).astype(np.int8)


def reach_limit_m(catalog: Catalog, gbps: float) -> tuple[float, str]:
    """(the longest reach of the catalog's optics and cables that carry ``gbps``, that part's
    id): a transceiver of that rate per port, or a multi-port one of a higher rate split to it
    (as ``planner.costs.parts.module_part`` takes them); a cable of that rate or more. With no
    such part, the longest single-mode reach class (LR, 10 km) and no part."""
    best = (0.0, "")
    for c in catalog.components.values():
        if not c.reach_m or c.reach_m <= best[0]:
            continue
        carries = (c.gbps == gbps or (c.ports > 1 and c.gbps > gbps)) if c.kind == "transceiver" else \
            c.kind == "cable" and c.gbps >= gbps
        if carries:
            best = (c.reach_m, c.id)
    return best if best[1] else (SINGLE_MODE_CLASSES[-1][1], "")


@dataclass(frozen=True, slots=True)
class BeyondReach:
    """Runs of one tier and speed longer than anything in the catalog reaches."""

    tier: str
    gbps: float
    links: int
    longest_m: float
    limit_m: float
    part: str  # the catalog part with the longest reach ("" = none at this speed)
    example: int  # the longest such run's link index
    rack_id: str  # the rack at its first end


def reach_findings(sched) -> list[Finding]:
    """One error per tier and speed whose runs exceed every reach, naming the longest run."""
    out = []
    for x in sched.beyond_reach:
        link = sched.links[x.example]
        out.append(beyond_reach_finding(x.tier, x.gbps, x.links, x.longest_m, x.limit_m, x.part,
                                        f"rack {link.a.rack} to rack {link.b.rack}", x.rack_id))
    return out


def beyond_reach_finding(tier: str, gbps: float, links: int, longest_m: float, limit_m: float, part: str,
                         between: str, where: str | None) -> Finding:
    """The error for ``links`` runs of ``tier`` at ``gbps`` beyond every reach (``limit_m``,
    the catalog ``part`` reaching furthest), the longest ``longest_m`` ``between`` two ends."""
    reach = (f"the longest reach of any {gbps:g}G optic or cable in the catalog ({limit_m:,.0f} m, "
             f"'{part}')" if part else f"the longest single-mode reach class ({limit_m:,.0f} m; the "
             f"catalog has no {gbps:g}G optic)")
    return Finding(
        "error", BEYOND_REACH,
        f"{links:,} {tier} link{'s' if links > 1 else ''} at {gbps:g}G run{'s' if links == 1 else ''} "
        f"up to {longest_m:,.0f} m ({between}): beyond {reach}. Move the "
        "racks closer (or their halls and buildings), give each building its own switch tier, or add a "
        "longer-reach optic to the catalog.", where=where)
