"""The remedies of a rack's checks, as data (``planner.findings.Remedy``): what would mend
a rack over its power cap, weight or floor rating (split it), short of PDU positions or
outlets (a larger PDU of the same circuit, else split it), short of PDUs on a feed loss
(2N feeds), or holding a liquid-cooled node while air-cooled (move the node).
``planner.remedies`` turns each into an undoable command."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from planner.facility.distribution import size_feeds
from planner.facility.rack_result import RackResult
from planner.findings import Finding, Remedy
from planner.hardware.catalog import Catalog, DeviceType
from planner.numbers import counted
from planner.plan.autoplace import floor_limit_kg
from planner.plan.model import Placement, Plan, Rack

HoldsTooMuch = Callable[[Iterable[Placement]], bool]
"""Whether the rack with these devices fails a check of ``SPLIT_CODES`` (a what-if)."""

SPLIT_CODES = frozenset({"rack.power.over_cap", "rack.weight.over_limit", "rack.floor.over_rating",
                         "rack.power.pdu_positions"})
"""The checks a split mends: each says the rack holds too much."""


def with_remedies(findings: list[Finding], plan: Plan, rack: Rack, res: RackResult, catalog: Catalog,
                  holds_too_much: HoldsTooMuch) -> list[Finding]:
    """``findings`` with the remedy of each rack check that has one."""
    out = []
    for f in findings:
        remedy = _remedy(f.code, plan, rack, res, catalog, holds_too_much)
        out.append(f if remedy is None else replace(f, remedy=remedy))
    return out


def _remedy(code: str, plan: Plan, rack: Rack, res: RackResult, catalog: Catalog,
            holds_too_much: HoldsTooMuch) -> Remedy | None:
    if code in ("rack.power.pdu_positions", "rack.power.outlets"):
        larger = larger_pdu(plan, res, catalog)
        if larger is not None:
            pdu, per_feed = larger
            return Remedy("set_pdu", f"Use {pdu.model} PDUs: {per_feed} per feed in rack {rack.name}",
                          (("device", pdu.id),))
    if code == "rack.power.feed_loss":
        return _two_n(plan, res, catalog)
    if code in SPLIT_CODES and splittable(plan, rack, res, catalog):
        n = split_count(plan, rack, res, catalog, holds_too_much)
        return Remedy("split_rack", f"Split rack {rack.name}: move {counted(n, 'device')} into a rack "
                      "of its kind with room, or a new one", (("rack", rack.id), ("devices", n)))
    return None


def move_order(device: DeviceType, u: int, basis: str) -> tuple:
    """The order a split moves devices out in: GPU nodes first, the most power, then the
    heaviest, first, then by type, from the top down (how many move depends on the types alone)."""
    return (device.gpu is None, -device.power_w(basis), -device.weight_kg, device.id, -u)


# Split counts worked out, by the rack's own fields and its device counts, for the catalog and
# settings sections they were worked out under (held, so that no other object takes their
# ids; a settings edit replaces its section, and the cache starts again). A count is a
# what-if evaluation of the rack per device moved: 0.3 ms, on nearly every random drop on
# campus-1m, whose network racks are one switch from their cap (2026-12-02, 2-core machine).
# The hall a rack stands in is not in the key (no rack check reads it): racks of one kind in
# campus-1m's 32 halls share their counts; 1,000 random moves worked out 265 counts with it
# in the key, 100 ms, and 29 without, 10 ms (CPU time, 2026-12-05).
_SPLITS: dict[tuple, int] = {}
_SPLITS_UNDER: list = []
_RACK_FIELDS = tuple(f for f in Rack.model_fields if f not in ("id", "name", "row", "hall"))


def split_count(plan: Plan, rack: Rack, res: RackResult, catalog: Catalog, holds_too_much: HoldsTooMuch) -> int:
    """How many devices a split moves out, in ``move_order``, until the rack holds no more
    than its checks allow (worked on the rack's device counts, so that racks of one shape
    share it)."""
    settings = plan.settings
    under = [catalog, settings.facility, settings.power, settings.floor]
    if len(_SPLITS_UNDER) != len(under) or any(a is not b for a, b in zip(_SPLITS_UNDER, under)):
        _SPLITS.clear()
        _SPLITS_UNDER[:] = under
    key = (tuple(map(id, under)), tuple(getattr(rack, f) for f in _RACK_FIELDS), tuple(sorted(res.counts.items())))
    n = _SPLITS.get(key)
    if n is None:
        if len(_SPLITS) > 10_000:
            _SPLITS.clear()
        n = _SPLITS[key] = _split_count(plan, res, catalog, holds_too_much)
    return n


def _split_count(plan: Plan, res: RackResult, catalog: Catalog, holds_too_much: HoldsTooMuch) -> int:
    basis = plan.settings.facility.power_basis
    types = sorted((catalog[d] for d, n in res.counts.items() for _ in range(n)),
                   key=lambda d: move_order(d, 0, basis))
    kept = [Placement(id=f"x{i}", device=d.id, rack="what-if", u=1) for i, d in enumerate(types)]
    moved = 0
    while kept and holds_too_much(kept):
        kept.pop(0)
        moved += 1
    return moved


def larger_pdu(plan: Plan, res: RackResult, catalog: Catalog) -> tuple[DeviceType, int] | None:
    """The smallest catalog PDU on the same circuit (voltage and phases) as the plan's whose
    feeds for this rack fit the PDU positions and offer the outlets its cords need, with
    the PDUs per feed it takes; None when none does."""
    s = plan.settings.power
    current = catalog.get(s.pdu_device)
    if current is None or current.pdu is None or not res.feeds:
        return None
    cords = tuple((f.cords_c13, f.cords_c19) for f in res.feeds)
    options = []
    for d in catalog:
        block = d.pdu
        if block is None or d.id == current.id or (block.voltage_v, block.phases) != (
                current.pdu.voltage_v, current.pdu.phases):
            continue
        feeds = size_feeds(res.power_nameplate_kw, cords, d, s)
        if all(f.pdus <= s.max_pdus_per_feed and f.outlets_c13 >= f.cords_c13 and f.outlets_c19 >= f.cords_c19
               for f in feeds):
            options.append((d.pdu_kw(s.continuous_derating) or 0.0, d.id, d, max(f.pdus for f in feeds)))
    if not options:
        return None
    _, _, pdu, per_feed = min(options)
    return pdu, per_feed


def _two_n(plan: Plan, res: RackResult, catalog: Catalog) -> Remedy | None:
    """N+1 feeds that do not survive a feed loss: 2N feeds, each with the PDUs the whole
    nameplate needs, when those fit the rack's PDU positions."""
    s = plan.settings.power
    pdu = catalog.get(s.pdu_device)
    if pdu is None:
        return None
    feeds = size_feeds(res.power_nameplate_kw, tuple((f.cords_c13, f.cords_c19) for f in res.feeds), pdu,
                       s.model_copy(update={"feed_redundancy": "2N"}))
    per_feed = max(f.pdus for f in feeds)
    if per_feed > s.max_pdus_per_feed:
        return None
    return Remedy("add_pdus", f"Add PDUs: 2N feeds, {counted(per_feed, 'PDU')} on each feed",
                  (("redundancy", "2N"), ("pdus_per_feed", per_feed)))


def splittable(plan: Plan, rack: Rack, res: RackResult, catalog: Catalog) -> bool:
    """A rack of two or more devices, each of which alone fits an empty rack of its kind
    (power cap on the plan's basis, weight rating, floor rating): a split can mend it."""
    if sum(res.counts.values()) < 2:
        return False
    basis = plan.settings.facility.power_basis
    weight_kg = min(rack.max_weight_kg, floor_limit_kg(rack, plan.settings.floor))
    for device_id in res.counts:
        d = catalog.get(device_id)
        if d is None or d.is_rack_scale or d.power_w(basis) / 1000 > rack.power_cap_kw or d.weight_kg > weight_kg:
            return False
    return True


def cooling_remedy(rack: Rack) -> Remedy:
    """An air-cooled rack whose GPU nodes are all liquid-cooled becomes a liquid-cooled rack
    (plumbed to a CDU: the CDU check then counts its heat)."""
    return Remedy("set_rack_cooling", f"Set rack {rack.name}'s cooling to liquid", (("rack", rack.id),
                                                                                 ("cooling", "liquid")))


def move_remedy(device: DeviceType, placement_id: str, name: str) -> Remedy | None:
    """A liquid-cooled node in an air-cooled rack moves to a liquid-cooled rack; a rack-scale
    system is its rack, so it has none (its rack's cooling is set by hand)."""
    if device.is_rack_scale:
        return None
    return Remedy("move_to_liquid", f"Move {name} into a liquid-cooled rack", (("device", placement_id),))
