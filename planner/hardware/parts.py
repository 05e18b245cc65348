"""Catalog entries that are not placed on their own: rack types and components.

A rack type is an enclosure a rack of the plan is built from (height, footprint, load
rating, cooling, power cap); a rack-scale system such as an NVL72 names the rack type it
is built in. Components are the parts a device carries or a fabric consumes: NICs and
DPUs, transceivers (single- or twin-port) and cables by length. Each carries its source.
"""

from __future__ import annotations

import re

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from planner.bounds import physical_number

RackCooling = Literal["air", "liquid", "hybrid"]
ComponentKind = Literal["nic", "dpu", "transceiver", "cable"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)

    _physical = field_validator("*")(physical_number)


class _Entry(_Strict):
    """What every catalog entry has: an id, a name, a price and where its figures come from."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")
    vendor: str = Field(min_length=1, max_length=100)
    model: str = Field(min_length=1, max_length=200)
    price_usd: float = Field(ge=0, le=1e9)
    price_source: str = Field(default="", max_length=2000)
    source: str = Field(min_length=1, max_length=2000)
    notes: str = Field(default="", max_length=4000)

    @property
    def title(self) -> str:
        return f"{self.vendor} {self.model}"


class RackType(_Entry):
    height_u: int = Field(ge=1, le=60)
    width_mm: int = Field(ge=300, le=1500)
    depth_mm: int = Field(ge=300, le=2000)
    max_weight_kg: float = Field(gt=0, le=20000, description="static load rating")
    cooling: RackCooling
    power_cap_kw: float | None = Field(default=None, gt=0, le=1000,
                                       description="empty = the plan's default rack cap (conventional racks)")

    def rack_fields(self, default_cap_kw: float) -> dict:
        """The fields a plan rack of this type starts with."""
        return {"rack_type": self.id, "height_u": self.height_u, "width_mm": self.width_mm,
                "depth_mm": self.depth_mm, "max_weight_kg": self.max_weight_kg, "cooling": self.cooling,
                "power_cap_kw": self.power_cap_kw if self.power_cap_kw is not None else default_cap_kw}


_CONNECTOR = re.compile(r"(MPO|MTP|LC)(?![A-Z])")  # a fibre cable's form factor: its connector first


class Component(_Entry):
    kind: ComponentKind
    gbps: float = Field(gt=0, le=3200, description="line rate per port")
    ports: int = Field(1, ge=1, le=16, description="network ports (2 on a twin-port transceiver)")
    form_factor: str = Field("", max_length=100)
    power_w: float = Field(ge=0, le=1000)
    length_m: float | None = Field(default=None, gt=0, le=10000, description="cables: length")
    reach_m: float | None = Field(default=None, gt=0, le=100000, description="transceivers and cables: reach")
    medium: Literal["", "DAC", "ACC", "AOC", "MMF", "SMF", "Cat6A"] = Field(
        "", description="cables: the medium (planner.network.media); transceivers: MMF (SR) or SMF (DR, FR, LX)")
    link_layers: tuple[Literal["infiniband", "ethernet"], ...] = Field(
        (), strict=False, description="NICs: the link layers its ports can run, chosen per port when the cluster is "
        "deployed (a VPI adapter: InfiniBand and Ethernet); empty = only the technology a device lists it with")
    connector: Literal["", "MPO", "LC"] = Field(
        "", description="fibre transceivers: the connector of the fibre they take, MPO (parallel fibres: SR4, "
                        "SR8, DR4, DR8) or LC (duplex: 100GBASE-DR, FR4, LR4, 1000BASE-LX); empty = any fibre")

    @property
    def fibre_connector(self) -> str:
        """The connector a fibre part ends in: a transceiver's ``connector``; a fibre cable's form
        factor ("MPO-12", "MTP-16" -> MPO; "LC", "LC/UPC duplex" -> LC). Empty when unknown (any
        fibre fits)."""
        if self.kind == "transceiver":
            return self.connector
        if self.medium not in ("MMF", "SMF"):
            return ""
        named = _CONNECTOR.match(self.form_factor.strip().upper())
        return "" if named is None else {"MTP": "MPO"}.get(named.group(1), named.group(1))
