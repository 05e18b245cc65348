"""Bill of materials: what the plan places, plus what its layout implies.

Lines, in order: every placed device type (quantity = number placed, price from the
catalog); fabric cables and transceivers per tier (one cable per link, a transceiver at
each end of each link unless node-to-leaf runs are passive copper, REFERENCE "Fat-tree
sizing"); rack enclosures; rack PDUs the placed ones do not cover (each rack's feeds, sized on its
nameplate); CDUs the cooling
policy needs beyond those placed; facility power distribution (the guide: $50-100K).

Work is O(device types): device counts and PDUs come aggregated over the racks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from planner.hardware.catalog import CATEGORY_TITLES, Catalog
from planner.network.fabric import FabricSize
from planner.settings.costs import CostSettings
from planner.settings.power import PowerSettings

CABLING = "Cabling"
RACKS = "Racks"
FACILITY = "Facility"
TIER_TITLES = {"node-leaf": "node to leaf", "leaf-spine": "leaf to spine", "spine-core": "spine to core"}


@dataclass(slots=True, frozen=True)
class BomLine:
    category: str
    item: str
    part: str
    quantity: int
    unit_usd: float
    source: str
    price_setting: str | None = None  # the cost setting the unit price comes from, if any
    counts_as: str | None = None  # "pdu", "cdu", "cable" or "transceiver": a count other sheets show

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
                              counts_as=d.category if d.category in ("pdu", "cdu") else None)))
    lines.sort(key=lambda t: (t[0], t[1]))
    return [line for _, _, line in lines]


def cabling_lines(size: FabricSize | None, s: CostSettings) -> list[BomLine]:
    """Per fabric tier: one cable per link; transceiver modules at both ends (twin-port
    modules serve two links, ``FabricSize.transceivers_by_tier``), none on node-to-leaf
    links when they are passive DAC copper."""
    if size is None:
        return []
    lines = []
    modules = size.transceivers_by_tier()
    for tier, links in size.cables_by_tier().items():
        if links <= 0:
            continue
        dac = tier == "node-leaf" and s.node_leaf_dac
        title = TIER_TITLES[tier]
        lines.append(BomLine(CABLING, f"Fabric cable, {title}", "passive DAC" if dac else "OSFP cable", links,
                             s.cable_usd, f"Cost assumption 'Fabric cable': {_source(s, 'cable_usd')}", "cable_usd",
                             counts_as="cable"))
        if not dac:
            lines.append(BomLine(CABLING, f"Transceiver, {title} (both ends)", "OSFP transceiver", modules[tier],
                                 s.transceiver_usd, f"Cost assumption 'Transceiver': {_source(s, 'transceiver_usd')}",
                                 "transceiver_usd", counts_as="transceiver"))
    return lines


def build_bom(*, counts: dict[str, int], catalog: Catalog, settings: CostSettings, racks: int,
              pdus_needed: int, power: PowerSettings, fabric_size: FabricSize | None, cdus_needed: int,
              cdu_device: str, nodes: int) -> tuple[list[BomLine], list[str]]:
    """The bill of materials and a list of problems (one line each) that left something out.

    ``pdus_needed`` is the sum of the racks' PDUs on all feeds
    (``planner.facility.distribution``)."""
    problems: list[str] = []
    lines = device_lines(counts, catalog)
    lines += cabling_lines(fabric_size, settings)
    if racks:
        lines.append(BomLine(RACKS, "Rack enclosure", "42U rack", racks, settings.rack_usd,
                             f"Cost assumption 'Rack enclosure': {_source(settings, 'rack_usd')}", "rack_usd"))
    pdu = catalog.get(power.pdu_device)
    pdu_kw = pdu.pdu_kw(power.continuous_derating) if pdu is not None else None
    if pdu is None or not pdu_kw:
        problems.append(f"Rack PDU model '{power.pdu_device}' is not a PDU with a rated capacity in the catalog; "
                        "PDUs are left out of the bill of materials")
    else:
        placed = sum(n for i, n in counts.items() if (d := catalog.get(i)) is not None and d.category == "pdu")
        extra = pdus_needed - placed
        if extra > 0:
            feeds = {"2N": "A+B feeds, each carrying the whole rack (2N)", "N+1": "N+1 over A+B feeds",
                     "N": "one feed (N)"}[power.feed_redundancy]
            lines.append(BomLine(CATEGORY_TITLES["pdu"], f"{pdu.title} (by rack power)", pdu.model, extra,
                                 pdu.price_usd,
                                 f"{pdu_kw:.1f} kW per PDU at {power.continuous_derating:.0%} continuous load, {feeds}; "
                                 f"{pdus_needed} needed, {placed} placed. Price: {pdu.price_source or 'catalog'}", counts_as="pdu"))
    extra_cdus = cdus_needed - sum(n for i, n in counts.items()
                                   if (d := catalog.get(i)) is not None and d.category == "cdu")
    if extra_cdus > 0:
        cdu = catalog.get(cdu_device)
        if cdu is None:
            problems.append(f"CDU model '{cdu_device}' is not in the catalog; the {extra_cdus} CDUs the cooling "
                            "policy needs are left out of the bill of materials")
        else:
            lines.append(BomLine(CATEGORY_TITLES["cdu"], f"{cdu.title} (by cooling policy, not placed)", cdu.model,
                                 extra_cdus, cdu.price_usd, cdu.price_source or "catalog", counts_as="cdu"))
    if nodes and settings.facility_power_usd > 0:
        lines.append(BomLine(FACILITY, "Facility power distribution", "switchgear, busway, circuits", 1,
                             settings.facility_power_usd,
                             f"Cost assumption 'Facility power distribution': {_source(settings, 'facility_power_usd')}",
                             "facility_power_usd"))
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


def bom_total_usd(lines: Iterable[BomLine]) -> float:
    return sum(line.total_usd for line in lines)


def _source(s: CostSettings, name: str) -> str:
    from planner.settings import field_meta

    return field_meta(type(s), name)["source"]


def schedule_lines(schedule, s: CostSettings) -> list[BomLine]:
    """Cables by part and stock length, and transceivers by speed, from the cable schedule
    (``planner.network.cables``): what a cabling contractor orders. Priced per cable and
    per transceiver at the cost settings."""
    lines = [BomLine(CABLING, part, part, n, s.cable_usd,
                     f"Cable schedule, {part}; price: cost assumption 'Fabric cable'", "cable_usd")
             for part, n in sorted(schedule.by_part().items())]
    lines += [BomLine(CABLING, part, part, n, s.transceiver_usd,
                      f"Cable schedule: one at each end of each fibre run; price: cost assumption 'Transceiver'",
                      "transceiver_usd")
              for part, n in sorted(schedule.transceivers().items())]
    return lines
