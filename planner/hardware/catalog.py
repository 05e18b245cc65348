"""Device types: what can be bought and placed in a rack.

The built-in catalog lives in ``resources/catalog/*.json``; users add their own files in
the same format (see README, "Your own catalog"). Every entry is validated on load and
carries the source of its figures.

Why it is long: the device type schema carries one validator per physical rule (GPUs, ports,
power, weight, PDU ratings) with the message each gives.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from planner.bounds import physical_number

from planner.errors import PlannerError, describe_validation_error
from planner.hardware.parts import Component, RackType
from planner.paths import resources_dir
from planner.readfile import json_kind, read_limited, strict_json

Category = Literal["gpu_server", "switch", "storage", "cdu", "pdu", "other"]
Cooling = Literal["air", "liquid"]
NetTech = Literal["infiniband", "ethernet"]

CATEGORY_TITLES: dict[str, str] = {
    "gpu_server": "GPU servers",
    "switch": "Switches",
    "storage": "Storage",
    "cdu": "Cooling (CDU)",
    "pdu": "Power (PDU)",
    "other": "Other",
}

CATALOG_SCHEMA_VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)

    _physical = field_validator("*")(physical_number)


class GpuBlock(_Strict):
    model: str = Field(min_length=1, max_length=100)
    count: int = Field(ge=1, le=1024)
    tdp_w: float = Field(gt=0, le=5000)
    memory_gb: float = Field(gt=0, le=10000)
    bf16_tflops: float = Field(gt=0, le=100000, description="BF16 dense tensor TFLOP/s, no sparsity")
    nvlink_gbs: float = Field(ge=0, le=100000, description="NVLink bandwidth per GPU, GB/s; 0 = none")
    ecc: bool = True
    memory_bandwidth_tbs: float | None = Field(default=None, gt=0, le=100,
                                               description="HBM bandwidth per GPU, TB/s (datasheet)")
    nvlink_domain: int | None = Field(default=None, ge=1, le=1_000_000,
                                      description="GPUs in one NVLink domain; empty = this device's own GPUs")
    nvls_allreduce_busbw_gbs: float | None = Field(
        default=None, gt=0, le=100000,
        description="NVLink SHARP (NVLS) all-reduce across the NVLink domain: nccl-tests busbw measured, GB/s; "
        "empty = no NVLS (ring all-reduce over NVLink)")
    compute_power_w: float | None = Field(
        default=None, gt=0, le=5000, description="draw per GPU while the training step computes, W; empty = tdp_w")
    min_power_limit_w: float | None = Field(
        default=None, gt=0, le=5000, description="the lowest power limit the GPU accepts (nvidia-smi 'Min Power "
        "Limit'), W; empty = the facility setting gpu_min_power_limit_share x tdp_w")
    kernel_curves: Literal["ampere", "hopper", "blackwell", "cdna3"] | None = Field(
        default=None, description="GPU generation whose measured GEMM and FlashAttention rates the step uses "
        "(A100: ampere; H100, H200: hopper; B200, B300: blackwell; MI300X, MI325X: cdna3); empty = none "
        "measured: the step borrows the H100 curves and says so")
    comm_power_w: float | None = Field(
        default=None, ge=0, le=5000, description="draw per GPU while the step waits (exposed communication, bubble, "
        "checkpoint), W; empty = the facility setting gpu_comm_power_share x tdp_w")

    @model_validator(mode="after")
    def _limit_below_tdp(self) -> GpuBlock:
        if self.min_power_limit_w is not None and self.min_power_limit_w > self.tdp_w:
            raise ValueError(f"minimum power limit {self.min_power_limit_w:g} W is above the TDP {self.tdp_w:g} W")
        return self

    @property
    def domain_gpus(self) -> int:
        """GPUs that reach each other over NVLink (8 on an HGX board, 72 in an NVL72 rack)."""
        return self.nvlink_domain if self.nvlink_domain is not None else (self.count if self.nvlink_gbs > 0 else 1)


class NicBlock(_Strict):
    count: int = Field(ge=1, le=128)
    gbps: float = Field(gt=0, le=3200)
    technology: NetTech
    purpose: Literal["compute", "storage"]
    model: str = Field("", max_length=64, description="the NIC's component id in the catalog, e.g. cx7-400-osfp")
    ports_per_module: int = Field(1, ge=1, le=8,
                                  description="ports that share one transceiver cage (2 on a twin-port OSFP)")
    planes: int = Field(1, ge=1, le=8, description="links of gbps / planes the NIC's rate can run over, one per "
                        "fabric plane (2 on ConnectX-8: XDR over two 400G planes); 1: one link at its rate")
    lane_gbps: float | None = Field(None, gt=0, le=400, description="the fastest lane it signals at (50 on an HDR "
                                    "ConnectX-6: 4 x 50G PAM4); a switch port of faster lanes cannot link to it; "
                                    "empty: not limited")

    @property
    def plane_gbps(self) -> float:
        """The rate of one of its links when its rate is spread over its planes."""
        return self.gbps / self.planes


class SwitchBlock(_Strict):
    ports: int = Field(ge=1, le=1024)
    gbps_per_port: float = Field(gt=0, le=3200)
    technology: NetTech
    sharp: bool = False
    ports_per_module: int = Field(1, ge=1, le=8,
                                  description="ports that share one transceiver cage (2 per twin-port OSFP cage)")
    lane_gbps: float | None = Field(None, gt=0, le=400, description="the lane rate its ports run (100 on NDR200's "
                                    "2 x 100G, 50 on HDR's 4 x 50G); a NIC of slower lanes cannot link; empty: "
                                    "any NIC of the port's rate")


class StorageBlock(_Strict):
    capacity_tb: float = Field(gt=0, le=1e6)
    read_gbs: float = Field(gt=0, le=1e5)
    write_gbs: float = Field(gt=0, le=1e5)


class LocalNvme(_Strict):
    """The NVMe data drives of one host (a node, or one compute tray of a rack-scale system),
    for checkpoints written locally: how many and each drive's sequential rates (datasheet)."""

    drives: int = Field(ge=1, le=64)
    drive_tb: float = Field(gt=0, le=1000)
    write_gbs_per_drive: float = Field(gt=0, le=100, description="sequential write, GB/s (drive datasheet)")
    read_gbs_per_drive: float = Field(gt=0, le=100, description="sequential read, GB/s (drive datasheet)")
    source: str = Field(min_length=1, max_length=2000)


class PduBlock(_Strict):
    """A rack PDU by its input circuit: capacity sqrt(3) x V x I (three-phase, V line to line)
    or V x I (single-phase), before the continuous-load derating."""

    voltage_v: float = Field(gt=0, le=1000, description="line-to-line for three-phase")
    phases: Literal[1, 3]
    breaker_a: float = Field(gt=0, le=1000)
    outlets_c13: int = Field(0, ge=0, le=200)
    outlets_c19: int = Field(0, ge=0, le=200)
    connector: str = Field("", max_length=100, description="the input plug, e.g. IEC 60309 560P6")

    @property
    def kva(self) -> float:
        return (3 ** 0.5 if self.phases == 3 else 1.0) * self.voltage_v * self.breaker_a / 1000


class PowerInlets(_Strict):
    """The device's power supply cords by the PDU outlet they plug into (C14 inlet -> C13
    outlet, C20 inlet -> C19 outlet), split evenly over the rack's feeds."""

    c13: int = Field(0, ge=0, le=64)
    c19: int = Field(0, ge=0, le=64)


class PowerShelves(_Strict):
    """Rack-scale systems: power shelves feed the system's busbar; the rack's feeds supply
    the shelves, not the trays."""

    count: int = Field(ge=1, le=64)
    kw_each: float = Field(gt=0, le=1000)
    spares: int = Field(0, ge=0, le=64, description="shelves beyond those the nameplate needs (N+spares)")


class RackStorage(_Strict):
    """Energy a rack-scale system stores in its power supplies to smooth its GPUs' load for the
    grid (GB300 NVL72: NVIDIA, 'How New GB300 NVL72 Features Provide Steady Power for AI', 2025)."""

    j_per_gpu: float = Field(gt=0, le=1_000_000, description="energy stored per GPU of the system, J")
    source: str = Field(min_length=1, max_length=2000)


class DeviceType(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")
    vendor: str = Field(min_length=1, max_length=100)
    model: str = Field(min_length=1, max_length=200)
    category: Category
    u_height: int = Field(ge=1, le=60)
    weight_kg: float = Field(ge=0, le=5000)
    power_max_w: float = Field(ge=0, le=500_000, description="nameplate: maximum rated input power")
    power_typical_w: float = Field(ge=0, le=500_000, description="sustained draw in training")
    cooling: Cooling = "air"
    gpu: GpuBlock | None = None
    nics: tuple[NicBlock, ...] = Field((), strict=False)  # a JSON list; its items stay strict
    switch: SwitchBlock | None = None
    storage: StorageBlock | None = None
    cdu_capacity_kw: float | None = Field(default=None, gt=0, le=10_000)
    pdu_capacity_kw: float | None = Field(default=None, gt=0, le=1000,
                                          description="derated capacity; without a 'pdu' block only")
    pdu: PduBlock | None = None
    liquid_fraction: float | None = Field(default=None, ge=0, le=1,
                                          description="share of the heat a liquid-cooled device gives to liquid")
    power_inlets: PowerInlets | None = None
    local_nvme: LocalNvme | None = Field(default=None, description="data drives per host (each compute tray of "
                                         "a rack-scale system); empty: not known, no local checkpoint tier")
    power_shelves: PowerShelves | None = None
    rack_storage: RackStorage | None = Field(
        default=None, description="energy stored in the system's power supplies to smooth the load; empty = none")
    rack_type: str | None = Field(default=None, max_length=64,
                                  description="the rack type this system is built for (rack-scale systems and their trays)")
    compute_trays: int | None = Field(default=None, ge=1, le=1000,
                                      description="a whole rack-scale system: its compute trays (the fabric's nodes)")
    price_usd: float = Field(ge=0, le=1e9)
    price_source: str = Field(default="", max_length=2000)
    source: str = Field(min_length=1, max_length=2000)
    notes: str = Field(default="", max_length=4000)

    @model_validator(mode="after")
    def _blocks_match_category(self) -> DeviceType:
        if self.power_typical_w > self.power_max_w:
            raise ValueError(
                f"typical power {self.power_typical_w:g} W is above the nameplate {self.power_max_w:g} W"
            )
        required = {"gpu_server": "gpu", "switch": "switch", "storage": "storage", "cdu": "cdu_capacity_kw"}
        block = required.get(self.category)
        if block and getattr(self, block) is None:
            raise ValueError(f"a {self.category} needs a '{block}' block")
        return self

    # Derived figures used on hot paths.
    @property
    def gpus(self) -> int:
        return self.gpu.count if self.gpu else 0

    def power_w(self, basis: str) -> float:
        return self.power_max_w if basis == "nameplate" else self.power_typical_w

    def pdu_kw(self, derating: float) -> float | None:
        """A PDU's continuous capacity: its circuit's kVA x the derating at unity power factor
        (server supplies with active PFC run at 0.95-0.99), else the catalog's rated kW."""
        if self.pdu is not None:
            return self.pdu.kva * derating
        return self.pdu_capacity_kw

    @property
    def height_named(self) -> bool:
        """Whether the model's name gives its height ("..., 4U)"): a text adds it once, not twice."""
        return re.search(rf"\b{self.u_height}U\b", self.model) is not None

    def compute_nics(self) -> tuple[NicBlock, ...]:
        return tuple(n for n in self.nics if n.purpose == "compute")

    def storage_nics(self) -> tuple[NicBlock, ...]:
        return tuple(n for n in self.nics if n.purpose == "storage")

    @property
    def compute_nic_lane_gbps(self) -> float | None:
        """The slowest lanes its compute NICs signal at (None: none limited): a switch port of
        faster lanes cannot link to them (``planner.network.technologies.links_to``)."""
        lanes = [n.lane_gbps for n in self.compute_nics() if n.lane_gbps]
        return min(lanes) if lanes else None

    @property
    def compute_nic_count(self) -> int:
        """The compute NIC ports of one system (the guide: one a GPU for training)."""
        return sum(n.count for n in self.compute_nics())

    @property
    def lacks_compute_nics(self) -> bool:
        """The catalog lists this system's NICs and none of them is for compute (a workstation made
        to stand alone): nothing carries a job's traffic between two of them. A type whose NICs
        the catalog does not list is not judged here (its NICs are unknown, not absent)."""
        return bool(self.nics) and not self.compute_nic_count

    @property
    def title(self) -> str:
        return f"{self.vendor} {self.model}"

    @property
    def hosts(self) -> int:
        """The hosts one system is, each with its own CPUs, NICs, BMC and OS: a rack-scale
        system's compute trays (an NVL72: 18), else 1. A host is what fails and what the
        compute fabric wires as one of its nodes; a rack-scale system is still swapped whole."""
        return self.compute_trays or 1

    def nvme_gbs_per_gpu(self) -> tuple[float, float] | None:
        """The local NVMe's sequential write and read per GPU, GB/s: a host's drives x each
        drive's rate / the host's GPUs; None when the catalog has no figure."""
        if self.local_nvme is None or not self.gpus:
            return None
        n, per_host = self.local_nvme, self.gpus / self.hosts
        return n.drives * n.write_gbs_per_drive / per_host, n.drives * n.read_gbs_per_drive / per_host

    @property
    def is_rack_scale(self) -> bool:
        """A whole rack-scale system (an NVL72): dropped onto the floor as its own rack."""
        return self.compute_trays is not None

    @property
    def is_tray(self) -> bool:
        """A GPU tray of a rack-scale system (built for its rack type, not the whole system):
        placed tray by tray into that rack, never a system to design a plan of."""
        return self.gpu is not None and not self.is_rack_scale and self.rack_type is not None

    @property
    def is_gpu_system(self) -> bool:
        """A GPU node or a whole rack-scale system: what a plan is designed of."""
        return self.gpu is not None and not self.is_tray


class CatalogFile(_Strict):
    schema_version: int = Field(ge=1)
    devices: tuple[DeviceType, ...] = Field(strict=False)  # JSON lists; their items stay strict
    rack_types: tuple[RackType, ...] = Field((), strict=False)
    components: tuple[Component, ...] = Field((), strict=False)

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, v: int) -> int:
        if v > CATALOG_SCHEMA_VERSION:
            raise ValueError(
                f"catalog schema_version {v} is newer than this planner understands "
                f"({CATALOG_SCHEMA_VERSION}); update GPU Cluster Planner"
            )
        return v


class CatalogError(PlannerError):
    """A catalog file that cannot be used."""


class Catalog:
    """An ordered, read-only collection of device types keyed by id."""

    def __init__(self, devices: list[DeviceType] | tuple[DeviceType, ...] = ()):
        self._devices: dict[str, DeviceType] = {}
        self.origins: dict[str, str] = {}
        self.rack_types: dict[str, RackType] = {}
        self.components: dict[str, Component] = {}
        for d in devices:
            self._devices[d.id] = d

    def __contains__(self, device_id: object) -> bool:
        return device_id in self._devices

    def __getitem__(self, device_id: str) -> DeviceType:
        return self._devices[device_id]

    def nic_link_layers(self, nic: NicBlock) -> frozenset[str]:
        """The link layers a NIC's ports can run: the technology the device lists it with and,
        for a catalog component that says so (a VPI adapter), the others it runs."""
        part = self.components.get(nic.model) if nic.model else None
        return frozenset((nic.technology, *(part.link_layers if part is not None else ())))

    def get(self, device_id: str) -> DeviceType | None:
        return self._devices.get(device_id)

    def __iter__(self):
        return iter(self._devices.values())

    def __len__(self) -> int:
        return len(self._devices)

    def ids(self) -> list[str]:
        return list(self._devices)

    def by_category(self, category: str) -> list[DeviceType]:
        return [d for d in self._devices.values() if d.category == category]

    def placed(self, counts: dict[str, int], category: str) -> int:
        """How many of ``counts`` (device type -> devices) are of ``category`` ("cdu", "pdu"):
        the CDUs or PDUs placed, counted one way for the cooling check, the bill, the campus
        sums, the workbook and the vendor pack."""
        return sum(n for i, n in counts.items() if n and (d := self._devices.get(i)) is not None
                   and d.category == category)

    def extend(self, devices: tuple[DeviceType, ...], origin: str, *, allow_override: bool) -> None:
        for d in devices:
            if d.id in self._devices and not allow_override:
                raise CatalogError(f"{origin}: device id '{d.id}' is defined twice")
            self._devices[d.id] = d
            self.origins[d.id] = origin

    def extend_parts(self, rack_types: tuple[RackType, ...], components: tuple[Component, ...], origin: str, *,
                     allow_override: bool) -> None:
        for table, entries in ((self.rack_types, rack_types), (self.components, components)):
            for e in entries:
                if e.id in table and not allow_override:
                    raise CatalogError(f"{origin}: id '{e.id}' is defined twice")
                table[e.id] = e

    def rack_type(self, rack_type_id: str) -> RackType | None:
        return self.rack_types.get(rack_type_id)


MAX_CATALOG_BYTES = 5 * 1024 * 1024


def read_catalog_file(path: Path) -> tuple[DeviceType, ...]:
    """The device types of one catalog file (see ``read_catalog``)."""
    return read_catalog(path).devices


def read_catalog(path: Path) -> CatalogFile:
    """Read and validate one catalog file; raise CatalogError with a one-line reason."""
    path = Path(path)
    try:
        text = read_limited(path, MAX_CATALOG_BYTES, "catalog file").decode("utf-8")
    except PlannerError as exc:
        raise CatalogError(str(exc)) from None
    except UnicodeDecodeError:
        raise CatalogError(f"{path.name}: not a UTF-8 text file") from None
    try:
        data = strict_json(text, "catalog")
    except (json.JSONDecodeError, ValueError, RecursionError) as exc:
        raise CatalogError(f"{path.name}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise CatalogError(f"{path.name}: not a catalog file (expected a JSON object, found {json_kind(data)})")
    try:
        parsed = CatalogFile.model_validate(data)
    except ValidationError as exc:
        raise CatalogError(f"{path.name}: {describe_validation_error(exc, data)}") from None
    except RecursionError:
        raise CatalogError(f"{path.name}: the JSON is nested too deeply to be a catalog") from None
    dupes = sorted(i for i, n in Counter(d.id for d in parsed.devices).items() if n > 1)
    if dupes:
        raise CatalogError(f"{path.name}: device id '{dupes[0]}' is defined twice")
    return parsed



def builtin_catalog_files() -> list[Path]:
    return sorted((resources_dir() / "catalog").glob("*.json"))


def load_catalog(extra_files: list[Path] | tuple[Path, ...] = ()) -> Catalog:
    """The built-in catalog plus the user's own files (which may override built-in ids)."""
    catalog = Catalog()
    builtin = builtin_catalog_files()
    if not builtin:
        raise CatalogError(f"the built-in catalog is missing from {resources_dir()}: reinstall GPU Cluster Planner")
    for path, override in [(p, False) for p in builtin] + [(Path(p), True) for p in extra_files]:
        parsed = read_catalog(path)
        catalog.extend(parsed.devices, path.name, allow_override=override)
        catalog.extend_parts(parsed.rack_types, parsed.components, path.name, allow_override=override)
    _check_references(catalog)
    return catalog


def _check_references(catalog: Catalog) -> None:
    """Every rack type and NIC model a device names is in the catalog."""
    for d in catalog:
        if d.rack_type is not None and d.rack_type not in catalog.rack_types:
            raise CatalogError(f"{catalog.origins.get(d.id, 'catalog')}: device '{d.id}' names rack type "
                               f"'{d.rack_type}', which the catalog does not have")
        for n in d.nics:
            if n.model and n.model not in catalog.components:
                raise CatalogError(f"{catalog.origins.get(d.id, 'catalog')}: device '{d.id}' carries NIC "
                                   f"'{n.model}', which the catalog does not have")


_default: Catalog | None = None


def default_catalog() -> Catalog:
    """The built-in catalog, loaded once."""
    global _default
    if _default is None:
        _default = load_catalog()
    return _default
