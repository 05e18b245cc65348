"""Bill of materials: what the plan places, plus what its layout implies.

Lines, in order: every placed device type (quantity = number placed, price from the
catalog); cables and optics priced by part (``planner.costs.parts``: from the cable
schedule, or per fabric tier on plans too large to route on each edit); rack enclosures;
rack PDUs the placed ones do not cover (each rack's feeds, sized on its nameplate); CDUs
the cooling policy needs beyond those placed; facility power distribution and cooling
plant per kW of IT power.

Apart from the cabling, work is O(device types): device counts and PDUs come aggregated
over the racks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from planner.hardware.catalog import CATEGORY_TITLES, Catalog
from planner.settings import field_meta
from planner.settings.costs import CostSettings
from planner.settings.power import PowerSettings

CABLING = "Cabling"
RACKS = "Racks"
FACILITY = "Facility"


@dataclass(frozen=True, slots=True)
class BomLine:
    category: str
    item: str
    part: str
    quantity: int
    unit_usd: float
    source: str
    price_setting: str | None = None  # the cost setting the unit price comes from, if any
    counts_as: str | None = None  # "pdu", "cdu", "cable" or "transceiver": a count other sheets show
    # what the line buys, by kind and catalog id ("transceiver", "xcvr-400g-osfp-sr4"): the bill
    # of parts (``parts_bill``); None for what is not a catalog part (enclosures, facility)
    part_kind: str | None = None
    part_id: str | None = None
    tier: str | None = None  # the fabric tier a line of the per-tier estimate buys for ("node-leaf")

    @property
    def total_usd(self) -> float:
        return self.quantity * self.unit_usd

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "item": self.item, "part": self.part, "quantity": self.quantity,
                "unit_usd": round(self.unit_usd, 2), "total_usd": round(self.total_usd, 2), "source": self.source}


def device_lines(counts: dict[str, int], catalog: Catalog) -> list[BomLine]:
    """One line per placed device type, grouped by category in catalog category order."""
    order = list(CATEGORY_TITLES)
    lines = []
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        if d is None or n <= 0:
            continue
        source = d.price_source or f"catalog entry '{d.id}' (no price source given)"
        lines.append((order.index(d.category), d.title,
                      BomLine(CATEGORY_TITLES[d.category], d.title, d.model, n, d.price_usd, source,
                              counts_as=d.category if d.category in ("pdu", "cdu") else None,
                              part_kind=d.category, part_id=d.id)))
    lines.sort(key=lambda t: (t[0], t[1]))
    return [line for _, _, line in lines]


def build_bom(*, counts: dict[str, int], catalog: Catalog, settings: CostSettings, racks: int,
              pdus_needed: int, power: PowerSettings, cabling: list[BomLine], cdus_needed: int,
              cdu_device: str, nodes: int, it_kw: float = 0.0, rear_doors: int = 0,
              devices: list[BomLine] | None = None) -> tuple[list[BomLine], list[str]]:
    """The bill of materials and a list of problems (one line each) that left something out.

    ``cabling`` are the cable and optics lines (``planner.costs.parts``); ``pdus_needed``
    is the sum of the racks' PDUs on all feeds (``planner.facility.distribution``);
    ``it_kw`` the IT power on the plan's basis, which the facility's power distribution
    and cooling plant are priced per kW of; ``devices`` the lines ``device_lines(counts,
    catalog)`` gives, when the caller has them already (they stay while the counts do)."""
    problems: list[str] = []
    lines = list(devices) if devices is not None else device_lines(counts, catalog)
    lines += cabling
    if racks:
        lines.append(BomLine(RACKS, "Rack enclosure", "42U rack", racks, settings.rack_usd,
                             f"Cost assumption 'Rack enclosure': {_source(settings, 'rack_usd')}", "rack_usd"))
    if rear_doors:
        lines.append(BomLine(RACKS, "Rear-door heat exchanger", "rear door, to the CDU's loop", rear_doors,
                             settings.rear_door_usd,
                             f"Cost assumption 'Rear-door heat exchanger': {_source(settings, 'rear_door_usd')}",
                             "rear_door_usd"))
    pdu = catalog.get(power.pdu_device)
    pdu_kw = pdu.pdu_kw(power.continuous_derating) if pdu is not None else None
    if pdu is None or not pdu_kw:
        problems.append(f"Rack PDU model '{power.pdu_device}' is not a PDU with a rated capacity in the catalog; "
                        "PDUs are left out of the bill of materials")
    else:
        placed = catalog.placed(counts, "pdu")
        extra = pdus_needed - placed
        if extra > 0:
            feeds = {"2N": "A+B feeds, each carrying the whole rack (2N)", "N+1": "N+1 over A+B feeds",
                     "N": "one feed (N)"}[power.feed_redundancy]
            lines.append(BomLine(CATEGORY_TITLES["pdu"], f"{pdu.title} (by rack power)", pdu.model, extra,
                                 pdu.price_usd,
                                 f"{pdu_kw:.1f} kW per PDU at {power.continuous_derating:.0%} continuous load, {feeds}; "
                                 f"{pdus_needed} needed, {placed} placed. Price: {pdu.price_source or 'catalog'}", counts_as="pdu",
                                 part_kind="pdu", part_id=pdu.id))
    extra_cdus = cdus_needed - catalog.placed(counts, "cdu")
    if extra_cdus > 0:
        cdu = catalog.get(cdu_device)
        if cdu is None:
            problems.append(f"CDU model '{cdu_device}' is not in the catalog; the {extra_cdus} CDUs the cooling "
                            "policy needs are left out of the bill of materials")
        else:
            lines.append(BomLine(CATEGORY_TITLES["cdu"], f"{cdu.title} (by cooling policy, not placed)", cdu.model,
                                 extra_cdus, cdu.price_usd, cdu.price_source or "catalog", counts_as="cdu",
                                 part_kind="cdu", part_id=cdu.id))
    if nodes:
        for name, item, part in (("facility_power_usd_per_kw", "Facility power distribution",
                                  "switchgear, busway, circuits"),
                                 ("facility_cooling_usd_per_kw", "Facility cooling plant", "heat rejection")):
            rate = getattr(settings, name)
            if rate > 0 and it_kw > 0:
                lines.append(BomLine(FACILITY, item, f"{part}: {it_kw:,.1f} kW x ${rate:,.0f}/kW", 1, rate * it_kw,
                                     f"IT power {it_kw:,.1f} kW x cost assumption '{_title(settings, name)}': "
                                     f"{_source(settings, name)}", f"{name}*plan_it_kw"))
    return lines, problems


COUNTED = {"pdu": "PDUs", "cable": "Fabric cables", "transceiver": "Transceivers", "cdu": "CDUs"}


def bom_counts(lines: Iterable[BomLine]) -> dict[str, int]:
    """The counts other views show (PDUs, fabric cables, transceivers, CDUs), summed from
    the bill of materials: its lines are the one source of these numbers."""
    out = dict.fromkeys(COUNTED, 0)
    for line in lines:
        if line.counts_as in out:
            out[line.counts_as] += line.quantity
    return out


# The kinds of part the bill of parts counts, as ``check --json`` names them (cost.parts).
PART_KINDS = {"transceiver": "transceivers", "cable": "cables", "nic": "nics", "pdu": "pdus", "cdu": "cdus"}
NO_CATALOG_PART = "no-catalog-part"


def parts_bill(lines: Iterable[BomLine], counts: dict[str, int], catalog: Catalog) -> dict[str, dict[str, int]]:
    """The bill of parts: quantities by kind and catalog id, from which every output counts.

    Transceivers and cables of every network (compute, storage, management) and the PDUs and
    CDUs, placed or added, are the bill of materials' lines summed by catalog id (those the
    catalog has no part for under ``no-catalog-part``); NICs are those the placed devices
    carry (count per device x devices), by the NIC's catalog id (or ``no-catalog-part``)."""
    out: dict[str, dict[str, int]] = {name: {} for name in PART_KINDS.values()}
    for line in lines:
        if line.part_kind in PART_KINDS:
            group = out[PART_KINDS[line.part_kind]]
            key = line.part_id or NO_CATALOG_PART
            group[key] = group.get(key, 0) + line.quantity
    for device_id, n in counts.items():
        d = catalog.get(device_id)
        for nic in d.nics if d is not None and n > 0 else ():
            key = nic.model or NO_CATALOG_PART
            out["nics"][key] = out["nics"].get(key, 0) + nic.count * n
    return {name: dict(sorted(group.items())) for name, group in out.items()}


def bom_total_usd(lines: Iterable[BomLine]) -> float:
    return sum(line.total_usd for line in lines)


def _source(s: CostSettings, name: str) -> str:
    return field_meta(type(s), name)["source"]


def _title(s: CostSettings, name: str) -> str:
    return field_meta(type(s), name)["title"]
