"""Plan settings: one section per concern, each field with its unit and source."""

from __future__ import annotations

from pydantic import Field

from planner.settings._base import GUIDE, Section, field_meta
from planner.settings.costs import CostSettings
from planner.settings.fabric import FabricSettings
from planner.settings.facility import FacilitySettings
from planner.settings.floor import FloorSettings
from planner.settings.power import PowerSettings
from planner.settings.reliability import ReliabilitySettings
from planner.settings.schedule import ScheduleSettings
from planner.settings.storage import StorageSettings
from planner.settings.workload import WorkloadSettings


class Settings(Section):
    facility: FacilitySettings = Field(default_factory=FacilitySettings)
    power: PowerSettings = Field(default_factory=PowerSettings)
    floor: FloorSettings = Field(default_factory=FloorSettings)
    fabric: FabricSettings = Field(default_factory=FabricSettings)
    workload: WorkloadSettings = Field(default_factory=WorkloadSettings)
    storage: StorageSettings = Field(default_factory=StorageSettings)
    costs: CostSettings = Field(default_factory=CostSettings)
    reliability: ReliabilitySettings = Field(default_factory=ReliabilitySettings)
    schedule: ScheduleSettings = Field(default_factory=ScheduleSettings)


SECTIONS: tuple[str, ...] = tuple(Settings.model_fields)

__all__ = [
    "Settings",
    "SECTIONS",
    "GUIDE",
    "field_meta",
    "FacilitySettings",
    "PowerSettings",
    "FloorSettings",
    "FabricSettings",
    "WorkloadSettings",
    "StorageSettings",
    "CostSettings",
    "ReliabilitySettings",
    "ScheduleSettings",
]
