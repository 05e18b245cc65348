"""Findings of one cause and one remedy as one line that says how many racks (or devices)
it concerns, as compilers group a diagnostic repeated over many places.

A typical-basis design of 100,000 H100 has one nameplate warning per rack: thousands of
lines that differ only in the rack's name and figures. Findings group by severity, code and
the kind of remedy they carry (``Finding.remedy.kind``, or none): a code names the cause, so
findings of one code and one kind of remedy are one finding over many places. A group of
one is the finding itself, its text unchanged; a larger group reads as ``GROUP_TEXTS`` says
for its code (a code without one groups only findings of the same text). The members stay
in ``Report.findings`` order, so ``where`` lists the places in plan order, and the groups
come in the order of their first member: errors, then warnings, then info.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from planner.findings import Finding, Remedy

# What a group of ``{n}`` findings of a code says: the cause and what to do, without the
# figures of any one rack (each member's own text keeps those).
GROUP_TEXTS = {
    "rack.power.nameplate_over_cap": "{n} racks fit their power cap at typical draw but not at nameplate: circuits "
                                     "and PDUs must carry the rating, and a power spike can trip the breaker. "
                                     "Confirm the facility allows it, or plan on the nameplate basis",
    "rack.power.over_cap": "{n} racks draw more than their power cap",
    "rack.power.single_feed": "{n} racks have one feed (redundancy N): losing it powers the rack off",
    "rack.power.feed_loss": "{n} racks cannot carry their nameplate on one feed when the other is lost; use 2N "
                            "feeds to survive a feed loss",
    "rack.power.pdu_positions": "{n} rack feeds need more PDUs than the rack takes: choose a larger PDU or spread "
                                "the load",
    "rack.power.outlets": "{n} rack feeds have fewer PDU outlets than the devices' power cords need",
    "rack.power.shelves": "{n} rack-scale systems have power shelves that carry less than their nameplate",
    "rack.floor.over_rating": "{n} racks load the floor above its rating: spread the load over more racks or have "
                              "the floor reinforced",
    "rack.cooling.air_limit": "{n} air-cooled racks put more heat into the air than the air-cooling limit; use "
                              "direct-to-chip liquid cooling",
    "rack.cooling.air_remainder": "{n} liquid-cooled racks still put more heat into the air than the air-cooling "
                                  "limit: add rear-door heat exchangers or spread the nodes",
    "rack.cooling.liquid_device_in_air_rack": "{n} liquid-cooled devices stand in air-cooled racks: set the racks' "
                                              "cooling to liquid and plumb them to a CDU, or move the devices "
                                              "where air-cooled GPU nodes share a rack",
    "rack.weight.over_limit": "{n} racks carry more than their weight rating",
    "rack.space.outside": "{n} devices reach above the top of their rack",
    "rack.space.overlap": "{n} devices overlap another device in their rack",
    "device.unknown_type": "{n} devices have a type the catalog does not have",
}


@dataclass(frozen=True, slots=True, eq=False)
class FindingGroup:
    """Findings of one severity, code and kind of remedy: one line. Read like a finding
    (``severity``, ``code``, ``message``, ``where``, ``remedy``); ``members`` are the findings,
    ``places`` where each is."""

    severity: str
    code: str
    message: str
    members: tuple[Finding, ...]

    @property
    def count(self) -> int:
        return len(self.members)

    @property
    def where(self) -> str | None:
        """The first member's place (what a click on the line selects first)."""
        return self.members[0].where

    @property
    def places(self) -> tuple[str, ...]:
        return tuple(f.where for f in self.members if f.where is not None)

    @property
    def remedy(self) -> Remedy | None:
        """A group of one's remedy; a larger group mends its members one by one."""
        return self.members[0].remedy if len(self.members) == 1 else None

    # One line reads the same as another: the same row of the checks list after an edit.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, FindingGroup) and (self.severity, self.code, self.message, self.count) == (
            other.severity, other.code, other.message, other.count)

    def __hash__(self) -> int:
        return hash((self.severity, self.code, self.message, self.count))

    def to_json(self) -> dict[str, Any]:
        """A finding's keys (``remedy`` the first member's), with ``count`` and ``where`` every place."""
        first = self.members[0].remedy
        return {"severity": self.severity, "code": self.code, "message": self.message, "count": self.count,
                "where": list(self.places), "remedy": first.to_json() if first is not None else None}


def group_key(f: Finding) -> tuple:
    """What findings of one group share: severity, code, kind of remedy, and the text unless
    the code has a group text."""
    return (f.severity, f.code, f.remedy.kind if f.remedy is not None else None,
            None if f.code in GROUP_TEXTS else f.message)


def group_findings(findings: Iterable[Finding]) -> list[FindingGroup]:
    """The findings as groups, in the order of each group's first member."""
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        key = group_key(f)
        members = groups.get(key)
        if members is None:
            groups[key] = [f]
        else:
            members.append(f)
    return [FindingGroup(m[0].severity, m[0].code, _text(m), tuple(m)) for m in groups.values()]


def _text(members: list[Finding]) -> str:
    first = members[0]
    if len(members) == 1:
        return first.message
    text = GROUP_TEXTS.get(first.code)
    return text.format(n=f"{len(members):,}") if text is not None else f"{first.message} ({len(members):,} times)"
