"""Power distribution inside a rack: A/B feeds, PDUs per feed, outlets and survivability.

A PDU's continuous capacity is its circuit's apparent power, sqrt(3) x V x I for three
phases (V line to line) or V x I for one, times the continuous-load derating (NEC
210.20(A): 80 %), at unity power factor. Feeds are sized on the rack's nameplate, the
load a feed must hold when everything draws its rating:

- 2N: feeds A and B each carry the whole nameplate alone (Uptime Institute Tier Standard:
  Topology): ceil(nameplate / PDU kW) PDUs on each feed;
- N+1: the PDUs the nameplate needs plus one spare, split over A and B: the rack survives
  losing one PDU, and losing a whole feed only if the other feed's PDUs hold the nameplate;
- N: one feed; losing it powers the rack off.

Power supply cords are split evenly over the feeds (a device with 6 PSUs puts 3 on A and
3 on B); each feed's PDUs must offer the C13 and C19 outlets its cords need.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from planner.findings import Finding
from planner.hardware.catalog import DeviceType
from planner.numbers import counted
from planner.settings import PowerSettings


@dataclass(frozen=True, slots=True)
class Feed:
    name: str
    pdus: int
    capacity_kw: float  # all its PDUs, derated
    load_kw: float  # its share of the nameplate with every feed up
    load_on_loss_kw: float  # what it carries when the other feed is lost (0 when it cannot)
    outlets_c13: int  # offered by its PDUs
    outlets_c19: int
    cords_c13: int  # needed by the devices' cords on this feed
    cords_c19: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "pdus": self.pdus, "capacity_kw": round(self.capacity_kw, 3),
                "load_kw": round(self.load_kw, 3), "load_on_loss_kw": round(self.load_on_loss_kw, 3),
                "outlets": {"c13": self.outlets_c13, "c19": self.outlets_c19},
                "cords": {"c13": self.cords_c13, "c19": self.cords_c19}}


def pdu_capacity_kw(pdu: DeviceType, derating: float) -> float | None:
    """Continuous kW of one PDU: kVA x derating (catalog 'pdu' block), else its rated kW."""
    return pdu.pdu_kw(derating)


def split_cords(count: int, feeds: int) -> tuple[int, ...]:
    """A device's cords over ``feeds`` feeds, the odd one on A (6 -> 3 + 3, 3 -> 2 + 1)."""
    if feeds == 1:
        return (count,)
    return (count - count // 2, count // 2)


def size_feeds(nameplate_kw: float, cords: tuple[tuple[int, int], ...], pdu: DeviceType,
               s: PowerSettings) -> tuple[Feed, ...]:
    """The rack's feeds: PDUs, capacity and load per feed. ``cords`` gives (C13, C19) per
    feed, already split. A feed takes the PDUs its share of the nameplate needs, or more when
    its cords need more outlets than those offer. An empty rack (0 kW) gets feeds without PDUs."""
    cap = pdu_capacity_kw(pdu, s.continuous_derating) or 0.0
    need = math.ceil(nameplate_kw / cap - 1e-9) if nameplate_kw > 0 and cap > 0 else 0
    if s.feed_redundancy == "2N":
        per_feed = [need, need]
    elif s.feed_redundancy == "N+1":
        total = need + 1 if need else 0
        per_feed = [total - total // 2, total // 2]
    else:
        per_feed = [need]
    pdu_block = pdu.pdu
    if pdu_block is not None and need:
        for i in range(len(per_feed)):
            c13, c19 = cords[i] if i < len(cords) else (0, 0)
            for n, offered in ((c13, pdu_block.outlets_c13), (c19, pdu_block.outlets_c19)):
                if n and offered:
                    per_feed[i] = max(per_feed[i], math.ceil(n / offered))
    total_pdus = sum(per_feed)
    feeds = []
    for i, n in enumerate(per_feed):
        other_cap = sum(per_feed[j] for j in range(len(per_feed)) if j != i) * cap
        own_cap = n * cap
        share = nameplate_kw * n / total_pdus if total_pdus else 0.0
        survives = len(per_feed) > 1 and other_cap + 1e-9 >= nameplate_kw
        feeds.append(Feed(
            name="AB"[i], pdus=n, capacity_kw=own_cap, load_kw=share,
            load_on_loss_kw=nameplate_kw if survives or len(per_feed) == 1 else 0.0,
            outlets_c13=n * (pdu_block.outlets_c13 if pdu_block else 0),
            outlets_c19=n * (pdu_block.outlets_c19 if pdu_block else 0),
            cords_c13=cords[i][0] if i < len(cords) else 0, cords_c19=cords[i][1] if i < len(cords) else 0))
    return tuple(feeds)


def feed_findings(rack_name: str, rack_id: str, nameplate_kw: float, feeds: tuple[Feed, ...], pdu: DeviceType,
                  s: PowerSettings, *, busbar: bool = False) -> list[Finding]:
    """Survivability, PDU positions and outlets, each naming the rack, the feed and the figures.
    A rack-scale rack (``busbar``) takes its feeds on power shelves and a bus bar, not on rack
    PDUs in the rack's PDU positions, so the positions are not counted against it."""
    out: list[Finding] = []
    if nameplate_kw <= 0 or not feeds:
        return out
    cap = pdu_capacity_kw(pdu, s.continuous_derating) or 0.0
    if len(feeds) == 1:
        out.append(Finding(
            "warning", "rack.power.single_feed",
            f"Rack {rack_name} has one feed (redundancy N): {feeds[0].pdus} x {cap:,.1f} kW PDUs carry its "
            f"{nameplate_kw:,.1f} kW nameplate, and losing feed A powers the rack off", rack_id))
    else:
        for f, other in ((feeds[0], feeds[1]), (feeds[1], feeds[0])):
            if other.capacity_kw + 1e-9 < nameplate_kw:
                out.append(Finding(
                    "warning", "rack.power.feed_loss",
                    f"Rack {rack_name}: losing feed {f.name} leaves feed {other.name} with {other.pdus} PDU"
                    f"{'s' if other.pdus != 1 else ''} ({other.capacity_kw:,.1f} kW) for a {nameplate_kw:,.1f} kW "
                    f"nameplate ({s.feed_redundancy}); use 2N feeds to survive a feed loss", rack_id))
                break
    for f in feeds:
        if f.pdus > s.max_pdus_per_feed and not busbar:
            out.append(Finding(
                "warning", "rack.power.pdu_positions",
                f"Rack {rack_name} feed {f.name} needs {f.pdus} x {cap:,.1f} kW PDUs for {nameplate_kw:,.1f} kW but "
                f"takes {s.max_pdus_per_feed}: choose a larger PDU or spread the load", rack_id))
        if pdu.pdu is not None:
            for kind, have, need in (("C13", f.outlets_c13, f.cords_c13), ("C19", f.outlets_c19, f.cords_c19)):
                if need > have:
                    out.append(Finding(
                        "warning", "rack.power.outlets",
                        f"Rack {rack_name} feed {f.name}: the devices' power cords need {need} {kind} outlets, its "
                        f"{counted(f.pdus, 'PDU')} offer {have}", rack_id))
    return out


def shelf_findings(device: DeviceType, where: str, rack_name: str, rack_id: str) -> list[Finding]:
    """A rack-scale system's power shelves must carry its nameplate without the spares."""
    sh = device.power_shelves
    if sh is None:
        return []
    usable = (sh.count - sh.spares) * sh.kw_each
    if usable + 1e-9 >= device.power_max_w / 1000:
        return []
    return [Finding(
        "error", "rack.power.shelves",
        f"{device.model} ({where}) in rack {rack_name}: {sh.count - sh.spares} of {sh.count} power shelves "
        f"x {sh.kw_each:g} kW = {usable:,.1f} kW carry less than its {device.power_max_w / 1000:,.1f} kW nameplate",
        rack_id)]
