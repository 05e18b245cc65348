"""What a user asks the planner to design: a GPU system and how many, rack power and
cooling, the fabric, storage, the workload and the site's limits.

The intent is a pydantic model, so it can be saved, loaded and validated with the same
messages as the plan file. Every field left empty takes the plan settings' default (each
with its source); ``settings`` carries any further setting (section -> fields), as the
templates use it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from planner.errors import PlannerError
from planner.plan.model import MAX_BUILDINGS, MAX_HALLS, plain_name
from planner.settings.fabric import FabricTech
from planner.settings.workload import AttentionKernel, ModelPreset


class DesignError(PlannerError):
    """An intent the design cannot lay out; the message starts with the field it names."""


class RackSpec(BaseModel):
    """How new racks of one role are built: a name prefix, cooling and cap, or a catalog rack
    type (whose height, cooling, cap and rating win)."""

    model_config = ConfigDict(extra="forbid")
    _names = field_validator("prefix")(plain_name)  # it starts every rack's name

    prefix: str = Field(min_length=1, max_length=20)
    cooling: Literal["air", "liquid", "hybrid"] | None = None  # None: by the intent and the system
    power_cap_kw: float | None = Field(None, gt=0, le=1000)
    height_u: int = Field(42, ge=1, le=60)
    rear_door_hx: bool = False
    rack_type: str | None = None


class CampusSpec(BaseModel):
    """The buildings and data halls the racks stand in: each kind of rack spread evenly over
    ``buildings`` x ``halls_per_building`` halls, the fabric's switches with the nodes they
    serve (``planner.design.campus``)."""

    model_config = ConfigDict(extra="forbid")
    buildings: int = Field(1, ge=1, le=MAX_BUILDINGS)
    halls_per_building: int = Field(1, ge=1, le=MAX_HALLS)
    # Planner assumptions: a 10 m corridor between halls, 50 m of road and plant yard between buildings.
    hall_gap_m: float = Field(10.0, ge=0, le=1000, description="between the halls of a building, along their rows")
    building_gap_m: float = Field(50.0, ge=0, le=10_000, description="between buildings, across their rows")


class DeviceCount(BaseModel):
    model_config = ConfigDict(extra="forbid")
    device: str = Field(min_length=1, max_length=64)
    count: int | None = Field(None, ge=0, le=100_000, description="empty: sized from the write target")


class Intent(BaseModel):
    """A cluster to design. ``gpus`` is rounded up to whole nodes (or rack-scale systems);
    ``nodes`` gives the count of systems directly; with neither, an inference target
    (``requests_per_s``) sizes the GPUs."""

    model_config = ConfigDict(extra="forbid")
    system: str = Field(min_length=1, max_length=64, description="GPU node or rack-scale system (catalog id)")
    gpus: int | None = Field(None, ge=1, le=1_000_000)
    nodes: int | None = Field(None, ge=0, le=100_000)
    rack_kw: float | None = Field(None, gt=0, le=1000, description="rack power cap; empty: the settings' default")
    cooling: Literal["air", "liquid", "auto"] = Field("auto", description="auto: what the system needs")
    power_basis: Literal["typical", "nameplate"] | None = None
    fabric: FabricTech | None = None
    switch: str | None = Field(None, max_length=64, description="compute-fabric switch (catalog id)")
    tiers: Literal["auto", "2", "3"] | None = None
    oversubscription: float | None = Field(None, ge=1, le=16)
    storage: DeviceCount | None = DeviceCount(device="pfs-appliance")
    write_gbs_per_node: float | None = Field(None, gt=0, le=1000, description="checkpoint write target per node")
    checkpoint_write_s: float | None = Field(None, gt=0, le=100_000,
                                             description="a full checkpoint written within this time (s)")
    storage_capacity_tb: float | None = Field(None, gt=0, le=10_000_000, description="storage capacity, at least")
    model: ModelPreset | None = None
    params_b: float | None = Field(None, gt=0, le=100_000, description="custom model size, billion parameters")
    train_tokens_b: float | None = Field(None, gt=0, le=10_000_000)
    seq_len: int | None = Field(None, ge=1, le=10_000_000, description="training sequence length, tokens")
    batch_tokens: int | None = Field(None, ge=1, le=10**12,
                                     description="global batch, tokens; the design keeps it (whole sequences)")
    attention_kernel: AttentionKernel | None = Field(None, description="the attention kernel the training stack runs")
    inference: bool = False
    requests_per_s: float | None = Field(None, gt=0, le=10**9)
    prompt_tokens: int | None = Field(None, ge=1, le=10_000_000)
    output_tokens: int | None = Field(None, ge=1, le=10_000_000)
    latency_ms_per_token: float | None = Field(None, gt=0, le=100_000, description="time per output token target")
    spare_nodes: int | None = Field(None, ge=0, le=100_000,
                                    description="hot spares placed beyond the job's; empty: enough for 99% of the "
                                    "failures of the nodes expected in repair at once")
    floor_rating_kg_m2: float | None = Field(None, gt=0, le=100_000)
    air_cooling_limit_kw: float | None = Field(None, gt=0, le=200)
    settings: dict[str, dict[str, Any]] = Field(default_factory=dict, description="further settings by section")
    # How the racks are laid out (the templates' reference designs set these).
    gpu_rack: RackSpec = RackSpec(prefix="GPU")
    infra_rack: RackSpec = RackSpec(prefix="NET")
    storage_rack: RackSpec = RackSpec(prefix="STOR")
    cdu_rack: RackSpec = RackSpec(prefix="CDU", cooling="liquid")
    fabric_switches: bool = True
    storage_switches: bool = True
    management_switch: bool = True
    cdus: bool = True
    management: list[DeviceCount] = Field(default_factory=list, description="UFM, head nodes: in the network racks")
    campus: CampusSpec | None = Field(None, description="buildings and halls; empty = one hall")

    @property
    def serves(self) -> bool:
        """Whether the intent is an inference service (the flag, or the workload's setting)."""
        return bool(self.inference or (self.settings.get("workload") or {}).get("inference"))

    @model_validator(mode="after")
    def _one_count(self) -> Intent:
        if self.gpus is None and self.nodes is None and not (self.inference and self.requests_per_s):
            raise ValueError("give a GPU count (gpus), a node count (nodes) or an inference target (requests_per_s)")
        return self
