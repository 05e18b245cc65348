"""Auto-place: N devices of one type into racks, filled to their power cap, adding racks as needed.

A rack is filled no further than its own checks allow: its power cap on the plan's basis,
for an air-cooled rack the plan's air-cooling limit, and its weight rating. New racks are
liquid-cooled for liquid-cooled devices, and an air-cooled new rack is capped at the air
limit (plus a rear door's capacity when it has one), and the floor's rating under it, so
auto-place never adds a rack that warns about itself on power, air, weight or floor load."""

from __future__ import annotations

from typing import Any

from planner.hardware.power_limit import plan_catalog
from planner.plan.changes import ChangeSet
from planner.plan.commands import (AddDevice, AddRack, Command, CommandError, Macro, MoveDevice, _device_type,
                                   _RackNamer)
from planner.plan.names import LabelSeries
from planner.plan.space import free_slots, lowest_free_u


class AutoPlace(Command):
    """Place ``count`` devices of one type, filling racks to their power cap on the plan's
    basis (and to their height), first the given racks, then new racks as needed. With ``move``
    (ids of placed devices of that type) the slots found take those devices, moved, instead
    of new ones. ``labels`` continues a series the caller holds (a design placing ~100
    times over 71,679 devices reads the plan's labels once a prefix, not once a call)."""

    def __init__(self, device: str, count: int, *, racks: list[str] | None = None, new_rack_prefix: str = "Rack",
                 new_rack_fields: dict[str, Any] | None = None, label_prefix: str = "",
                 max_per_rack: int | None = None, move: list[str] | None = None, labels: LabelSeries | None = None,
                 together: bool = False):
        self.device, self.count = device, count
        self.together = together  # all into the first given rack with room for all, else new racks
        self.series = labels  # a series the caller keeps across many auto-places (a design), else read from the plan
        self.move = move
        self.max_per_rack = max_per_rack  # at most this many into each given rack (one CDU a rack)
        self.racks = racks
        self.new_rack_prefix = new_rack_prefix
        self.new_rack_fields = dict(new_rack_fields or {})
        self.label_prefix = label_prefix
        self._done: list[Command] = []
        self._title = device

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"Auto-place {self.count} x {self._title}"

    def do(self, plan, catalog):
        if self._done:  # redo: replay the same edits so ids stay stable for later commands
            return Macro(self.label, self._done).do(plan, catalog)
        catalog = plan_catalog(plan, catalog)  # devices at the draw the plan's GPU power limit leaves
        d = _device_type(catalog, self.device)
        self._title = d.title
        if not 0 <= self.count <= 1_000_000:
            raise CommandError("auto-place takes 0 to 1,000,000 devices")
        if self.move is not None and len(self.move) != self.count:
            raise CommandError(f"auto-place was given {len(self.move):,} devices to move for {self.count:,} slots")
        basis = plan.settings.facility.power_basis
        self._labels = self.series or (LabelSeries(plan, self.label_prefix) if self.label_prefix else None)
        self._moved = 0
        done: list[Command] = []
        remaining = self.count
        try:
            targets = self.racks if self.racks is not None else []
            if self.together:  # devices that stand together (a storage leaf-spine): one rack with room for all
                targets = next(([r] for r in targets if room_for(plan, catalog, r, d) >= remaining), [])
            for rack_id in targets:
                if remaining == 0:
                    break
                want = remaining if self.max_per_rack is None else min(remaining, self.max_per_rack)
                remaining -= self._fill(plan, catalog, d, rack_id, want, done)
            names = _RackNamer(plan, self.new_rack_prefix)
            fields = self._new_rack_fields(plan, d)
            while remaining > 0:
                add = AddRack(names.next(), **fields)
                add.do(plan, catalog)
                done.append(add)
                placed = self._fill(plan, catalog, d, add.rack_id, remaining, done)
                if placed == 0:
                    rack = plan.rack(add.rack_id)
                    height = "" if d.height_named else f", {d.u_height}U"
                    raise CommandError(f"one {d.model} ({d.power_w(basis) / 1000:g} kW{height}) does not fit "
                                       f"an empty {rack.height_u}U rack capped at {rack.power_cap_kw:g} kW")
                remaining -= placed
        except CommandError:
            for c in reversed(done):
                c.undo(plan, catalog)
            raise
        self._done = done
        return _collect_changes(done)

    def _new_rack_fields(self, plan, d) -> dict[str, Any]:
        """New racks: the device's cooling unless given, the plan's default cap, air racks within the air limit."""
        facility = plan.settings.facility
        fields = dict(self.new_rack_fields)
        fields.setdefault("cooling", d.cooling)
        fields.setdefault("power_cap_kw", facility.default_rack_cap_kw)
        if fields["cooling"] == "air":
            fields["power_cap_kw"] = min(fields["power_cap_kw"], air_limit_kw(facility, fields.get("rear_door_hx", False)))
        return fields

    def _fill(self, plan, catalog, d, rack_id, want, done) -> int:
        rack = plan.rack(rack_id)
        if rack is None:
            raise CommandError(f"there is no rack '{rack_id}'")
        placed, room = 0, min(want, room_for(plan, catalog, rack_id, d))  # its power, weight, PDUs and U
        while placed < room:
            u = lowest_free_u(plan, catalog, rack, d.u_height)
            if u is None:
                break
            if self.move is not None:
                add: Command = MoveDevice(self.move[self._moved], rack_id, u)
                self._moved += 1
            else:
                add = AddDevice(d.id, rack_id, u, label=self._labels.next() if self._labels else "")
            add.do(plan, catalog)
            done.append(add)
            placed += 1
        return placed

    def undo(self, plan, catalog):
        changes = ChangeSet()
        for c in reversed(self._done):
            changes = changes | c.undo(plan, catalog)
        return changes


def room_for(plan, catalog, rack_id: str, d) -> int:
    """How many ``d`` auto-place would put into a rack as it stands: its free U and what its
    power cap, weight rating and PDUs leave (``AutoPlace``'s fill, counted without placing)."""
    rack = plan.rack(rack_id)
    if rack is None:
        return 0
    cap_milliwatts, cap_g = rack_limits(plan, rack, own_rack=d.is_rack_scale)
    used_milliwatts, used_g = rack_load(plan, catalog, rack_id)
    p_milliwatts = round(d.power_w(plan.settings.facility.power_basis) * 1000)
    d_g = round(d.weight_kg * 1000)
    np_cap, np_used, d_np = nameplate_room(plan, catalog, rack_id, d)
    n = free_slots(plan, catalog, rack, d.u_height)
    for room, each in ((cap_milliwatts - used_milliwatts, p_milliwatts), (cap_g - used_g, d_g),
                       ((np_cap - np_used) if np_cap is not None else None, d_np)):
        if room is not None:  # a rack already past a limit takes nothing more, not even a device of 0 W
            n = 0 if room < 0 else n if each <= 0 else min(n, room // each)
    return n


def rack_limits(plan, rack, *, own_rack: bool = False) -> tuple[int, int]:
    """What a rack may hold, as (milliwatts on the plan's power basis, grams of devices): its
    power cap (for an air-cooled rack no more than the air limit) and the lower of its weight
    rating and what the floor carries under it (``own_rack``: for a rack-scale system, its own
    rack: ``enclosure_weight_kg``). Integers, so a fill adds up exactly."""
    facility = plan.settings.facility
    cap_kw = rack.power_cap_kw if rack.cooling != "air" else min(rack.power_cap_kw,
                                                                  air_limit_kw(facility, rack.rear_door_hx))
    cap_g = round(min(rack.max_weight_kg, floor_limit_kg(rack, plan.settings.floor, own_rack=own_rack)) * 1000)
    return round(cap_kw * 1e6), cap_g


def pdu_feeds_kw(plan, catalog) -> float | None:
    """The nameplate a conventional rack's feeds carry with the plan's PDU model in the PDU
    positions a feed takes: 2N feeds each carry the whole rack on their positions, N+1 spreads
    the PDUs the nameplate needs and one spare over both feeds, N is one feed (the PDU sizing of
    ``planner.facility.distribution.size_feeds`` by power; PDUs added for the power cords'
    outlets are not counted here). None without a PDU model in the catalog."""
    s = plan.settings.power
    pdu = catalog.get(s.pdu_device)
    cap = pdu.pdu_kw(s.continuous_derating) if pdu is not None and pdu.pdu is not None else None
    if not cap:
        return None
    return pdus_carrying(s) * cap


def pdus_carrying(power) -> int:
    """The PDUs whose ratings add up to what a rack's feeds carry (``pdu_feeds_kw``): N+1
    spreads the PDU positions of both feeds less the spare, 2N and N one feed's positions."""
    return 2 * power.max_pdus_per_feed - 1 if power.feed_redundancy == "N+1" else power.max_pdus_per_feed


def nameplate_room(plan, catalog, rack_id: str, d, ignore: frozenset[str] | set[str] = frozenset()
                   ) -> tuple[int | None, int, int]:
    """(milliwatts of nameplate the rack's PDU positions carry, None when unbounded: a
    rack-scale system brings its own power shelves, or no PDU model; what the rack holds at
    nameplate, ``ignore`` left out; what one ``d`` adds), for auto-place and replace alike."""
    feeds_kw = None if d.is_rack_scale else pdu_feeds_kw(plan, catalog)
    if feeds_kw is None:
        return None, 0, 0
    used = rack_load(plan, catalog, rack_id, ignore, basis="nameplate")[0]
    return round(feeds_kw * 1e6), used, round(d.power_w("nameplate") * 1000)


def rack_load(plan, catalog, rack_id: str, ignore: frozenset[str] | set[str] = frozenset(),
              basis: str | None = None) -> tuple[int, int]:
    """What a rack holds, as (milliwatts on the plan's power basis, or ``basis``, grams), the
    placements in ``ignore`` left out."""
    basis = basis or plan.settings.facility.power_basis
    members = [catalog[p.device] for p in plan.rack_members(rack_id).values()
               if p.device in catalog and p.id not in ignore]
    return (sum(round(m.power_w(basis) * 1000) for m in members), sum(round(m.weight_kg * 1000) for m in members))


def enclosure_weight_kg(floor, own_rack: bool) -> float:
    """The enclosure's weight a rack adds to its devices': none for a rack holding a rack-scale
    system (an NVL72 is its own rack, and its catalog weight, 1.36 t, the whole of it), else
    the floor settings' enclosure. The one rule the floor check, the design and auto-place use."""
    return 0.0 if own_rack else floor.enclosure_kg


def floor_limit_kg(rack, floor, *, own_rack: bool = False) -> float:
    """The devices' weight the floor carries under a rack: its rating over the rack's footprint
    and aisle share, less the enclosure (the floor check's own figures)."""
    return (floor.floor_rating_kg_m2 * rack.width_mm * (rack.depth_mm + floor.aisle_share_mm) / 1e6
            - enclosure_weight_kg(floor, own_rack))


def air_limit_kw(facility, rear_door_hx: bool) -> float:
    """The heat an air-cooled rack may put out: the air-cooling limit, plus what a rear-door
    heat exchanger takes to water (the air check's own figures)."""
    return facility.air_cooling_limit_kw + (facility.rear_door_kw if rear_door_hx else 0.0)


def _collect_changes(done: list[Command]) -> ChangeSet:
    """What a run of AddRack/AddDevice commands touched, gathered in one pass."""
    racks: set[str] = set()
    devices: list[str] = []
    structure = False
    for c in done:
        if isinstance(c, AddRack):
            racks.add(c.rack_id)
            structure = True
        elif isinstance(c, AddDevice):
            racks.add(c.rack)
            devices.append(c.placement_id)
    return ChangeSet(racks=frozenset(racks), devices=frozenset(devices), structure=structure)
