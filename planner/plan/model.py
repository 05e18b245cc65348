"""The plan document: racks, placements and settings. This model is the file format.

A plan file is JSON with a ``schema_version``; unknown keys are refused, files from a
newer version are refused with a message naming both versions, and older versions are
migrated in order (``planner.plan.migrations``).

Why it is long: it is the whole file format, one record a class (racks, devices, price
overrides, the cover's facts, buildings and halls, variants) with the plan's own lookups
and structural edits, which keep its indexes in step with its lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from planner.bounds import iso_date, physical_number

from planner.settings import Settings
from planner.text import name_problem

SCHEMA_VERSION = 13

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"
HALL_REF_PATTERN = r"^([A-Za-z0-9][A-Za-z0-9._:-]{0,63})?$"  # a hall id, or empty


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, validate_assignment=False, strict=True)


def plain_name(value: str) -> str:
    """A name as a field holds it: no control characters or text-direction overrides
    (``planner.text.name_problem``; format 8 on, older files are migrated by escaping them)."""
    problem = name_problem(value)
    if problem:
        raise ValueError(problem)
    return value


class _Doc(_Record):
    """A record with numbers: every field also passes ``physical_number``."""

    _physical = field_validator("*")(physical_number)


class Rack(_Record):
    """A rack on the floor. Only its two floats pass ``physical_number``: on all twelve fields
    campus-1m's 22,582 racks called it 271,000 times on opening."""

    _physical = field_validator("power_cap_kw", "max_weight_kg")(physical_number)
    _names = field_validator("name", "row")(plain_name)

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1, max_length=100)
    height_u: int = Field(42, ge=1, le=60, description="usable rack units")
    power_cap_kw: float = Field(30.0, gt=0, le=1000)
    cooling: Literal["air", "liquid", "hybrid"] = "air"
    max_weight_kg: float = Field(1360.0, gt=0, le=20000, description="static load rating")
    row: str = Field("", max_length=100, description="row name on the floor; racks of a row stand in plan order")
    rack_type: str = Field("", max_length=64, description="the catalog rack type it was built from; empty = conventional")
    width_mm: int = Field(600, ge=300, le=1500, description="footprint width")
    depth_mm: int = Field(1200, ge=300, le=2000, description="footprint depth")
    rear_door_hx: bool = Field(False, description="a rear-door heat exchanger takes the rack's air heat to water")
    hall: str = Field("", pattern=HALL_REF_PATTERN,
                      description="the data hall it stands in (a hall id); empty = the first building's first hall")


class Hall(_Doc):
    """A data hall: one floor of rows inside its building (NetBox: a location in the site).
    ``x_m``/``y_m`` place the hall floor's origin (its first row's front-left corner) inside
    its building; the limits are None where the plan's settings (or no limit) apply."""

    _names = field_validator("name")(plain_name)

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1, max_length=100)
    x_m: float = Field(0.0, ge=-100_000, le=100_000, description="the hall floor's origin in its building")
    y_m: float = Field(0.0, ge=-100_000, le=100_000)
    power_limit_kw: float | None = Field(None, gt=0, le=10_000_000,
                                         description="the IT power the hall may draw; None = no limit")
    floor_rating_kg_m2: float | None = Field(None, gt=0, le=100_000,
                                             description="the hall floor's rating; None = the floor settings'")


MAX_HALLS = 100  # per building


class Building(_Doc):
    """A building of the campus (NetBox: a site) with its data halls and its power plant.
    ``x_m``/``y_m`` place it on the campus. The plant figures are None where the plan's
    power settings apply: the UPS module and generator set sizes (their redundancy is always
    the power settings'); no utility feed limit and no transformers when left empty."""

    _names = field_validator("name")(plain_name)

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1, max_length=100)
    x_m: float = Field(0.0, ge=-100_000, le=100_000, description="the building's origin on the campus")
    y_m: float = Field(0.0, ge=-100_000, le=100_000)
    halls: list[Hall] = Field(min_length=1, max_length=MAX_HALLS)
    utility_feed_kw: float | None = Field(None, gt=0, le=10_000_000,
                                          description="the utility feed's capacity; None = not checked")
    transformer_kva: float | None = Field(None, gt=0, le=1_000_000,
                                          description="one MV/LV transformer's rating; None = no transformers sized")
    ups_module_kw: float | None = Field(None, gt=0, le=100_000, description="None = the power settings'")
    generator_kw: float | None = Field(None, gt=0, le=100_000, description="None = the power settings'")


MAX_BUILDINGS = 100
# A plan that lists no buildings is this one building with this one hall (``planner.plan.campus``).
DEFAULT_BUILDING_ID, DEFAULT_BUILDING_NAME = "building-1", "Building 1"
DEFAULT_HALL_ID, DEFAULT_HALL_NAME = "hall-1", "Hall 1"


class Placement(_Record):
    """A device in a rack. It has no float for ``physical_number`` to refuse, and leaves it out:
    campus-1m's 71,642 devices called it 358,000 times on opening."""

    _names = field_validator("label")(plain_name)

    id: str = Field(pattern=ID_PATTERN)
    device: str = Field(min_length=1, max_length=64, description="device type id in the catalog")
    rack: str = Field(pattern=ID_PATTERN)
    u: int = Field(ge=1, le=60, description="lowest rack unit the device occupies (U1 at the bottom)")
    label: str = Field("", max_length=200)


class PriceOverride(_Doc):
    """A unit price set for one bill-of-materials line (e.g. edited in an exported workbook),
    instead of the catalog's or a cost setting's price, with where it came from."""

    item: str = Field(min_length=1, max_length=300, description="the BOM line's item, as the workbook shows it")
    unit_usd: float = Field(ge=0, le=1e12)
    source: str = Field(min_length=1, max_length=500)


class PlanInfo(_Doc):
    """Who and where the plan is for, as the vendor pack's cover shows it. Every field may
    be empty; dates are ISO (YYYY-MM-DD)."""

    customer: str = Field("", max_length=200)
    site: str = Field("", max_length=200, description="the data centre, hall or address")
    contact: str = Field("", max_length=300, description="who answers questions: name, e-mail, phone")
    revision: str = Field("", max_length=40)
    date: str = Field("", max_length=10, description="issue date of this revision; empty = the export date")
    go_live: str = Field("", max_length=10, description="requested go-live (ready for service)")

    _real_date = field_validator("date", "go_live")(iso_date)

    def rows(self) -> list[tuple[str, str]]:
        """(title, value) of the fields that are filled in, in the cover's order."""
        titles = (("customer", "Customer"), ("site", "Site"), ("contact", "Contact"), ("revision", "Revision"),
                  ("date", "Date"), ("go_live", "Requested go-live"))
        return [(title, getattr(self, name)) for name, title in titles if getattr(self, name)]


DEFAULT_BASE_VARIANT = "Base"  # the base variant's name in a new plan

# Size limits (README "Your work is safe"): the largest plan every view and export handles
# within bounded memory and time. The campus-1m template (1,000,080 GPUs for the job) has
# 22,583 racks and 71,679 devices.
MAX_RACKS = 25_000
MAX_DEVICES = 200_000


def size_problem(racks: int, devices: int) -> str | None:
    """Why a plan of this size is refused, or None."""
    if racks > MAX_RACKS:
        return f"{racks:,} racks are more than a plan may have ({MAX_RACKS:,})"
    if devices > MAX_DEVICES:
        return f"{devices:,} devices are more than a plan may have ({MAX_DEVICES:,})"
    return None


def unknown_hall(rack: Rack, halls) -> str:
    """Why a rack naming a hall the campus lacks is refused."""
    known = ", ".join(list(halls)[:10]) + (", ..." if len(halls) > 10 else "")
    return (f"rack '{rack.id}' ({rack.name}) is in hall '{rack.hall}', which the plan's buildings do not have "
            f"(halls: {known})")


def hall_ids_of(buildings: list[Building]) -> list[str]:
    """Every hall's id in campus order (buildings in order, their halls in order; no buildings:
    the default hall); refuses a building or hall id used twice."""
    if not buildings:
        return [DEFAULT_HALL_ID]
    seen: set[str] = set()
    halls: dict[str, None] = {}
    for b in buildings:
        if b.id in seen:
            raise ValueError(f"building id '{b.id}' is used twice")
        seen.add(b.id)
        for h in b.halls:
            if h.id in halls:
                raise ValueError(f"hall id '{h.id}' is used twice (hall ids are unique across the campus)")
            halls[h.id] = None
    return list(halls)


class Variant(_Doc):
    """A named variant of the plan, stored as what it overrides of the base variant: settings
    fields, racks and devices added or changed (whole records, by id), ids removed, and the
    order of racks and devices when it differs from the base's (``planner.plan.variants``)."""

    _names = field_validator("name")(plain_name)

    name: str = Field(min_length=1, max_length=100)
    settings: dict[str, dict[str, Any]] = Field(default_factory=dict, description="section -> field -> value")
    racks: list[Rack] = Field(default_factory=list, max_length=MAX_RACKS)
    removed_racks: list[str] = Field(default_factory=list, max_length=MAX_RACKS)
    placements: list[Placement] = Field(default_factory=list, max_length=MAX_DEVICES)
    removed_placements: list[str] = Field(default_factory=list, max_length=MAX_DEVICES)
    rack_order: list[str] | None = Field(None, max_length=MAX_RACKS)
    placement_order: list[str] | None = Field(None, max_length=MAX_DEVICES)
    own_layout: bool = Field(False, description="racks and devices all its own (a layout made elsewhere: a "
                             "sweep's point, an as-built import): the base's rack and device edits do not "
                             "reach it, as they reach a variant that overrides only what it changed")


MAX_VARIANTS = 100


class Plan(_Doc):
    _names = field_validator("name", "base_variant", "active_variant")(plain_name)

    schema_version: int = SCHEMA_VERSION
    name: str = Field("Untitled plan", min_length=1, max_length=200)
    description: str = Field("", max_length=5000)
    info: PlanInfo = Field(default_factory=PlanInfo)
    settings: Settings = Field(default_factory=Settings)
    price_overrides: list[PriceOverride] = Field(default_factory=list)
    # the campus: shared by all variants (a variant's racks carry their hall, not the halls)
    buildings: list[Building] = Field(default_factory=list, max_length=MAX_BUILDINGS,
                                      description="the campus's buildings and halls; none = one building of one hall")
    racks: list[Rack] = Field(default_factory=list, max_length=MAX_RACKS)
    placements: list[Placement] = Field(default_factory=list, max_length=MAX_DEVICES)
    base_variant: str = Field(DEFAULT_BASE_VARIANT, min_length=1, max_length=100,
                              description="the name of the base variant")
    variants: list[Variant] = Field(default_factory=list, max_length=MAX_VARIANTS,
                                    description="the other variants, as overrides of the base")
    active_variant: str = Field("", max_length=100, description="the variant shown and edited; empty = the base")

    _racks: dict[str, Rack] = PrivateAttr(default_factory=dict)
    _placements: dict[str, Placement] = PrivateAttr(default_factory=dict)
    _members: dict[str, dict[str, Placement]] = PrivateAttr(default_factory=dict)
    _counter: int = PrivateAttr(0)
    # While a variant other than the base is active, the base's state (JSON dumps of its
    # settings, racks and devices); the plan's own fields hold the active variant's state.
    _base_state: Any = PrivateAttr(None)
    _reserved_ids: frozenset = PrivateAttr(frozenset())  # ids the other variants use: never reissued

    @model_validator(mode="after")
    def _unique_ids_and_known_racks(self) -> Plan:
        known = self.hall_ids()
        halls = set(known)
        racks: dict[str, Rack] = {}
        for r in self.racks:
            if r.id in racks:
                raise ValueError(f"rack id '{r.id}' is used twice")
            if r.hall and r.hall not in halls:
                raise ValueError(unknown_hall(r, known))
            racks[r.id] = r
        placements: dict[str, Placement] = {}
        members: dict[str, dict[str, Placement]] = {rid: {} for rid in racks}
        for p in self.placements:
            if p.id in placements:
                raise ValueError(f"device id '{p.id}' is used twice")
            if p.rack not in racks:
                raise ValueError(f"device '{p.id}' is in rack '{p.rack}', which the plan does not have")
            placements[p.id] = p
            members[p.rack][p.id] = p
        self._racks, self._placements, self._members = racks, placements, members
        names = [self.base_variant] + [v.name for v in self.variants]
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise ValueError(f"the variant name '{twice}' is used twice")
        if self.active_variant and self.active_variant not in names:
            raise ValueError(f"the active variant '{self.active_variant}' is not one of the plan's variants")
        return self

    def hall_ids(self) -> list[str]:
        """Every hall's id in campus order (``hall_ids_of``)."""
        return hall_ids_of(self.buildings)

    @property
    def variant_names(self) -> list[str]:
        """The base's name, then the other variants' in order."""
        return [self.base_variant] + [v.name for v in self.variants]

    @property
    def current_variant(self) -> str:
        return self.active_variant or self.base_variant

    @property
    def title(self) -> str:
        """The plan's name, and the variant's where it is not the base: what a deliverable is
        headed by ("32 x DGX H100 (256 GPUs), variant Sweep: dgx-h200, 32 nodes"), so a
        variant's workbook or vendor pack says which variant it holds."""
        variant = self.current_variant
        return self.name if variant == DEFAULT_BASE_VARIANT else f"{self.name}, variant {variant}"

    # Private attributes are read through ``__pydantic_private__`` directly: pydantic's
    # ``__getattr__`` fallback for them costs more than the dict lookup itself, and these
    # methods run once per device when a 100,000-GPU plan is laid out.

    # -- lookups (O(1)) -------------------------------------------------------------
    def rack(self, rack_id: str) -> Rack | None:
        return self.__pydantic_private__["_racks"].get(rack_id)

    def placement(self, placement_id: str) -> Placement | None:
        return self.__pydantic_private__["_placements"].get(placement_id)

    def rack_members(self, rack_id: str) -> dict[str, Placement]:
        return self.__pydantic_private__["_members"].get(rack_id, {})

    def rack_index(self, rack_id: str) -> int:
        return next(i for i, r in enumerate(self.racks) if r.id == rack_id)

    def in_rack_order(self, rack_ids: Iterable[str]) -> list[str]:
        """The racks ``rack_ids`` names, each once, in plan order (one walk of the racks: a
        sort by ``rack_index`` walks them for every rack, 22,582 x 14,819 steps on campus-1m)."""
        position = {r.id: i for i, r in enumerate(self.racks)}
        return sorted(set(rack_ids), key=position.__getitem__)

    # -- structural edits; callers (commands) validate first --------------------------
    def insert_rack(self, rack: Rack, index: int | None = None) -> None:
        priv = self.__pydantic_private__
        self.racks.insert(len(self.racks) if index is None else index, rack)
        priv["_racks"][rack.id] = rack
        priv["_members"][rack.id] = {}

    def pop_rack(self, rack_id: str) -> tuple[int, Rack]:
        priv = self.__pydantic_private__
        i = self.rack_index(rack_id)
        rack = self.racks.pop(i)
        del priv["_racks"][rack_id]
        del priv["_members"][rack_id]
        return i, rack

    def insert_placement(self, p: Placement, index: int | None = None) -> None:
        priv = self.__pydantic_private__
        if index is None:
            self.placements.append(p)
        else:
            self.placements.insert(index, p)
        priv["_placements"][p.id] = p
        priv["_members"][p.rack][p.id] = p

    def pop_placement(self, placement_id: str) -> tuple[int, Placement]:
        priv = self.__pydantic_private__
        p = priv["_placements"].pop(placement_id)
        i = next(i for i, q in enumerate(self.placements) if q is p)
        del self.placements[i]
        del priv["_members"][p.rack][p.id]
        return i, p

    def relocate(self, placement_id: str, rack_id: str, u: int) -> None:
        priv = self.__pydantic_private__
        p = priv["_placements"][placement_id]
        if p.rack != rack_id:
            members = priv["_members"]
            del members[p.rack][p.id]
            members[rack_id][p.id] = p
            p.rack = rack_id
        p.u = u

    # -- ids --------------------------------------------------------------------------
    def new_id(self, prefix: str) -> str:
        """A fresh id that no rack or device of this plan uses."""
        priv = self.__pydantic_private__
        placements, racks = priv["_placements"], priv["_racks"]
        n = priv["_counter"]
        while True:
            n += 1
            candidate = f"{prefix}{n}"
            if candidate not in placements and candidate not in racks and candidate not in priv["_reserved_ids"]:
                priv["_counter"] = n
                return candidate

    def copy_plan(self) -> Plan:
        """An independent copy, variants and active variant included."""
        out = Plan.model_validate(self.model_dump())
        mine, theirs = self.__pydantic_private__, out.__pydantic_private__
        base = mine["_base_state"]  # JSON dumps, never changed in place: shared safely
        theirs["_base_state"], theirs["_reserved_ids"] = base, mine["_reserved_ids"]
        return out
