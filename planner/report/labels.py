"""Human labels and units for the report's section figures, shared by every renderer.

One table, used by the ``check`` text report, the workbook and the vendor pack, so a
figure reads the same everywhere: ``describe("network", "allreduce_ms", 101.459)`` ->
``("Gradient all-reduce per step", "101.5 ms")``. Identifiers become names (``ib400`` ->
"400G InfiniBand (NDR)", ``qm9700`` -> the catalog's title, ``True`` -> "on"); ``None``
is "-", or "not within the horizon" for a break-even that does not come within the
cost horizon (or ever).

Public API:
- ``describe(section, key, value, catalog=None) -> (label, text_with_unit)``;
- ``label(section, key)`` and ``unit(section, key)``;
- ``column(table, key)``: the header (with unit) of a column of the "fabrics" or "scaling" table;
- ``KEYS[section]``: the labelled keys in reading order (nested keys as "a.b.c");
- ``INFERENCE_LINES``: the serving figures of an inference plan (key, label, unit), and
  ``TRAINING_ONLY``, the training figures its text report leaves out.
"""

from __future__ import annotations

from typing import Any

from planner.costs.section import CostSection
from planner.report.power_dynamics_section import PowerDynamicsSection
from planner.facility.section import FacilitySection
from planner.goodput.section import GoodputSection
from planner.schedule.model import PART_NAMES
from planner.schedule.section import ScheduleSection
from planner.report.network_section import FabricRow, NetworkSection, ScalingPoint
from planner.storage.section import StorageSection
from planner.workload.section import WorkloadSection
from planner import vocabulary
from planner.figures import Figures, figure_fields
from planner.settings.costs import RENTAL_OPTIONS

# Nested figures of the fabric sizing, written "sizing.a.b" (the sizing record is the fabric
# planner's, not a report model).
_SIZING: dict[str, tuple[str, str]] = {
    "sizing.endpoints": ("Fabric endpoints (NIC ports)", ""),
    "sizing.radix": ("Ports per switch", ""),
    "sizing.tiers": ("Switch tiers", ""),
    "sizing.leaf_switches": ("Leaf switches", ""),
    "sizing.spine_switches": ("Spine switches", ""),
    "sizing.core_switches": ("Core switches", ""),
    "sizing.pods": ("Pods (three tiers)", ""),
    "sizing.scalable_units": ("Scalable units (rail-optimised)", ""),
    "sizing.ports_per_tier.leaf_down": ("Leaf ports down (to nodes)", ""),
    "sizing.ports_per_tier.leaf_up": ("Leaf ports up (to spines)", ""),
    "sizing.ports_per_tier.spine_down": ("Spine ports down (to leaves)", ""),
    "sizing.ports_per_tier.spine_up": ("Spine ports up (to core)", ""),
    "sizing.ports_per_tier.core": ("Core switch ports", ""),
    "sizing.cables_per_tier": ("Cables per tier", ""),
    "sizing.transceivers_per_tier": ("Transceivers per tier", ""),
}
# The report's section models and the tables' row models: their fields' metadata is the one
# source of each figure's title and unit.
MODELS: dict[str, type[Figures]] = {"facility": FacilitySection, "network": NetworkSection,
                                    "storage": StorageSection, "cost": CostSection, "workload": WorkloadSection,
                                    "goodput": GoodputSection, "power_dynamics": PowerDynamicsSection,
                                    "schedule": ScheduleSection}
ROWS: dict[str, type[Figures]] = {"fabrics": FabricRow, "scaling": ScalingPoint}


def _entries(model: type[Figures]) -> dict[str, tuple[str, str]]:
    return {name: (m.title, "id" if m.unit == "name" else m.unit) for name, m in figure_fields(model).items()}


# (section, key) -> (label, unit kind). Keys of nested dicts are joined with dots.
_TABLE: dict[str, dict[str, tuple[str, str]]] = {name: _entries(model) for name, model in MODELS.items()}
_TABLE["network"].pop("sizing")
_TABLE["network"].update(_SIZING)
for _key in ("curves", "bom"):
    _TABLE["cost"].pop(_key)
_TABLE["goodput"].pop("curve")  # a table: in --json, the workbook and the chart

KEYS: dict[str, list[str]] = {section: list(table) for section, table in _TABLE.items()}

# Workload figures of the training step a serving plan's text report leaves out (in --json still).
TRAINING_ONLY = ("flops_per_token", "seq_len", "global_batch_tokens", "train_tokens_b", "run_cost_usd")
# The serving figures of an inference plan (the workload's inference result, a record of its
# own): key, label, unit, in reading order.
INFERENCE_LINES = (
    ("weights_gb_per_gpu", "Inference weights per GPU", "GB"),
    ("kv_gb_per_gpu", "Inference KV cache per GPU (operating batch)", "GB"),
    ("tpot_ms", "Inference time per output token (operating batch)", "ms"),
    ("ttft_ms", "Inference time to first token", "ms"),
    ("batch", "Inference operating batch (sequences a replica)", ""),
    ("requests_per_s_per_replica", "Requests a replica serves", "requests/s"),
    ("output_tokens_per_s_per_gpu", "Inference output per GPU, prefill included", "tokens/s"),
    ("gpus_needed", "GPUs the requests target needs", ""),
)

# Dict keys inside a figure (rental options, cable tiers) -> words.
_SUBKEYS: dict[str, str] = {k: v.lower() for k, v in RENTAL_OPTIONS.items()} | {"spot": "spot",
    "build": "build", "rent_spot": "rent spot", "rent_reserved_1yr": "rent reserved 1-yr",
    "rent_reserved_3yr": "rent reserved 3-yr", "rent_on_demand": "rent on demand", "node-leaf": "node-leaf", "leaf-spine": "leaf-spine", "spine-core": "spine-core",
} | PART_NAMES


def label(section: str, key: str) -> str:
    """The figure's human label (keys missing from the table read as their words)."""
    entry = _TABLE.get(section, {}).get(key)
    return entry[0] if entry else key.rsplit(".", 1)[-1].replace("_", " ").capitalize()


def column(table: str, key: str) -> str:
    """The header, with its unit, of a column of a report table ("fabrics", "scaling")."""
    model = ROWS.get(table)
    meta = figure_fields(model).get(key) if model else None
    if meta is None:
        return key.replace("_", " ").capitalize()
    return meta.title if meta.unit in ("", "name", "yes/no", "tokens/s") else f"{meta.title} ({meta.unit})"


def unit(section: str, key: str) -> str:
    """The unit shown after the figure ("ms", "GB/s", "$", ...); "" for counts and names."""
    entry = _TABLE.get(section, {}).get(key)
    kind = entry[1] if entry else ""
    return "" if kind in ("id", "x", "fraction", "share") else kind


def describe(section: str, key: str, value: Any, catalog: Any = None) -> tuple[str, str]:
    """``(label, text_with_unit)`` for one figure of a report section.

    Dict values (per rental option, per cable tier) are written ``"spot never, reserved 1-yr
    23.2 months"``; identifiers are named (fabric technology title, switch catalog title
    when ``catalog`` is given, topology in words, booleans on/off).
    """
    entry = _TABLE.get(section, {}).get(key)
    kind = entry[1] if entry else _guess_kind(value)
    model = MODELS.get(section)
    meta = figure_fields(model).get(key) if model else None
    none = meta.none if meta else "-"
    if isinstance(value, dict):
        if not value:  # no entry at all: what the figure says then
            return label(section, key), meta.empty if meta else "-"
        parts = [f"{_SUBKEYS.get(k, str(k).replace('_', ' '))} {_one(v, kind, none)}" for k, v in value.items()]
        return label(section, key), ", ".join(parts)
    if kind == "id":
        return label(section, key), _name(key, value, catalog)
    return label(section, key), _one(value, kind, none)


def _one(value: Any, kind: str, none: str) -> str:
    return vocabulary.text(value, kind, none=none)


def _name(key: str, value: Any, catalog: Any) -> str:
    if isinstance(value, bool) or value is None:
        return _one(value, "", "-")
    if key.endswith("switch_model") and catalog is not None:
        device = catalog.get(value)
        return device.title if device is not None else f"{value} (not in the catalog)"
    return vocabulary.choice_title(value)


def _guess_kind(value: Any) -> str:
    return "" if isinstance(value, int) else "x"
