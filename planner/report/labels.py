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
- ``KEYS[section]``: the labelled keys in reading order (nested keys as "a.b.c").
"""

from __future__ import annotations

from typing import Any

from planner.network.technologies import TECHNOLOGIES
from planner.settings.costs import RENTAL_OPTIONS

# Unit kinds -> how a number is written.
_FORMATS: dict[str, str] = {
    "": "{:,.0f}",
    "x": "{:,.2f}",
    "ms": "{:,.1f} ms",
    "s": "{:,.1f} s",
    "GB/s": "{:,.1f} GB/s",
    "GB": "{:,.1f} GB",
    "TB": "{:,.0f} TB",
    "kW": "{:,.1f} kW",
    "%": "{:,.1f}%",
    "months": "{:,.1f} months",
    "tokens/s": "{:,.0f} tokens/s",
    ":1": "{:g}:1",
    "$": "${:,.0f}",
    "$/month": "${:,.0f}/month",
    "$/GPU-h": "${:,.2f}/GPU-h",
    "fraction": "{:.0%}",
    "share": "{:.1%}",
    "days": "{:,.1f} days",
    "FLOPs": "{:,.4g} FLOPs",
    "B": "{:,.2f}B",
    "B tokens": "{:,.0f}B tokens",
}

# (section, key) -> (label, unit kind). Keys of nested dicts are joined with dots.
_TABLE: dict[str, dict[str, tuple[str, str]]] = {
    "network": {
        "fabric": ("Compute fabric", "id"),
        "topology": ("Topology", "id"),
        "switch_model": ("Fabric switch", "id"),
        "tiers": ("Switch tiers", ""),
        "leaf_switches": ("Leaf switches", ""),
        "spine_switches": ("Spine switches", ""),
        "core_switches": ("Core switches", ""),
        "switch_ports_needed": ("Switch ports needed", ""),
        "switch_ports_placed": ("Switch ports placed", ""),
        "switch_ports_cabled": ("Switch ports cabled", ""),
        "oversubscription": ("Leaf oversubscription (down:up)", ":1"),
        "cables": ("Fabric cables", ""),
        "transceivers": ("Transceivers", ""),
        "cables_per_tier": ("Cables per tier", ""),
        "transceivers_per_tier": ("Transceivers per tier", ""),
        "sharp": ("SHARP in-network reduction", "id"),
        "allreduce_ms": ("Gradient all-reduce per step", "ms"),
        "effective_bandwidth_gbs": ("Effective bandwidth per GPU (bytes sent / time)", "GB/s"),
        "node_effective_bandwidth_gbs": ("Effective bandwidth per node", "GB/s"),
        "bus_bandwidth_gbs": ("NCCL bus bandwidth per GPU (ring-relative)", "GB/s"),
        "node_bus_bandwidth_gbs": ("NCCL bus bandwidth per node (ring-relative)", "GB/s"),
        "compute_ms": ("Compute per step", "ms"),
        "exposed_comm_ms": ("Communication not hidden, per step", "ms"),
        "step_ms": ("Step time", "ms"),
        "gpu_idle_pct": ("GPUs idle waiting on communication", "%"),
        "tokens_per_s": ("Training throughput", "tokens/s"),
        "tokens_per_s_limit": ("Throughput at 100% of peak (limit)", "tokens/s"),
        "fabric_gb_per_gpu_step": ("Fabric traffic per GPU per step", "GB"),
        "nvlink_gb_per_gpu_step": ("NVLink traffic per GPU per step", "GB"),
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
    },
    "storage": {
        "storage_devices": ("Storage appliances", ""),
        "capacity_tb": ("Capacity", "TB"),
        "write_gbs": ("Filesystem write bandwidth", "GB/s"),
        "read_gbs": ("Filesystem read bandwidth", "GB/s"),
        "node_storage_gbs": ("Storage bandwidth per node (NICs and switch ports)", "GB/s"),
        "checkpoint_gb": ("Checkpoint size", "GB"),
        "checkpoint_write_s": ("Checkpoint write time", "s"),
        "checkpoint_stall_pct": ("Checkpoint stall (share of the interval)", "%"),
        "write_gbs_per_node": ("Checkpoint write, one node alone", "GB/s"),
        "write_gbs_per_node_all_writing": ("Checkpoint write per node, all nodes at once", "GB/s"),
    },
    "cost": {
        "capex_usd": ("Capex", "$"),
        "opex_usd_per_month": ("Opex", "$/month"),
        "energy_usd_per_month": ("Energy", "$/month"),
        "facility_usd_per_month": ("Facility", "$/month"),
        "staffing_usd_per_month": ("Staffing", "$/month"),
        "rent_usd_per_month": ("Renting the same GPUs", "$/month"),
        "break_even_months": ("Building pays off vs renting after", "months"),
        "break_even_usd": ("Spent by break-even", "$"),
        "horizon_months": ("Horizon", "months"),
        "tco_usd": ("Total cost of ownership over the horizon", "$"),
        "rent_total_usd": ("Renting over the horizon", "$"),
        "cost_per_gpu_hour": ("Cost per GPU-hour", "$/GPU-h"),
        "it_power_kw": ("IT power", "kW"),
        "utilisation": ("Utilisation", "fraction"),
    },
    "workload": {
        "model": ("Model", "id"),
        "params_b": ("Parameters (total)", "B"),
        "active_params_b": ("Active parameters per token", "B"),
        "flops_per_token": ("Training FLOPs per token (6N + 12 L s d)", "FLOPs"),
        "memory_per_gpu_gb": ("Memory needed per GPU", "GB"),
        "memory": ("Memory per GPU by kind (GB)", "x"),
        "gpu_memory_gb": ("Memory a GPU has", "GB"),
        "fits": ("Fits in GPU memory", "id"),
        "micro_batches": ("Micro-batches per step", ""),
        "pipeline_bubble": ("Pipeline bubble (share of the step)", "share"),
        "compute_s": ("Compute per step", "s"),
        "bubble_s": ("Pipeline bubble per step", "s"),
        "exposed_comm_s": ("Communication not hidden, per step", "s"),
        "step_time_s": ("Step time", "s"),
        "mfu": ("Model FLOP utilisation, end to end", "share"),
        "tokens_per_s": ("Training throughput", "tokens/s"),
        "tokens_per_s_limit": ("Throughput at 100% of peak (limit)", "tokens/s"),
        "time_to_train_days": ("Time to train the token budget", "days"),
        "train_tokens_b": ("Token budget", "B tokens"),
        "run_cost_usd": ("Cost of the training run", "$"),
        "tp_fabric_gb_per_gpu_step": ("Tensor-parallel fabric traffic per GPU per step", "GB"),
        "ep_fabric_gb_per_gpu_step": ("Expert-parallel fabric traffic per GPU per step", "GB"),
        "decode_tokens_per_s": ("Inference decode per GPU", "tokens/s"),
        "max_concurrent_sequences": ("Concurrent sequences per replica (KV cache)", ""),
        "inference": ("Inference sizing", "x"),
    },
}

# Columns of the report's tables (the fabric comparison, the scaling curve): (label with unit).
_COLUMNS: dict[str, dict[str, str]] = {
    "fabrics": {
        "sharp": "SHARP",
        "allreduce_ms": "All-reduce (ms)",
        "effective_bandwidth_gbs": "Effective per GPU (GB/s)",
        "node_effective_bandwidth_gbs": "Effective per node (GB/s)",
        "bus_bandwidth_gbs": "NCCL busbw per GPU (GB/s)",
        "node_bus_bandwidth_gbs": "NCCL busbw per node (GB/s)",
        "gpu_idle_pct": "GPU idle (%)",
        "tokens_per_s": "Tokens/s",
        "mfu": "End-to-end MFU (fraction)",
        "line_rate_gbps": "Line rate (Gb/s)",
    },
    "scaling": {
        "gpus": "GPUs",
        "speedup": "Speedup vs 1 GPU (x)",
        "efficiency": "Scaling efficiency (fraction)",
        "mfu": "End-to-end MFU (fraction)",
        "plan": "The plan's size",
    },
}
_TABLE["network"]["fabrics"] = ("Training on every fabric technology", "")
_TABLE["network"]["scaling"] = ("Scaling with the data-parallel width", "")

KEYS: dict[str, list[str]] = {section: list(table) for section, table in _TABLE.items()}

# Dict keys inside a figure (rental options, cable tiers) -> words.
_SUBKEYS: dict[str, str] = {k: v.lower() for k, v in RENTAL_OPTIONS.items()} | {"spot": "spot",
    "build": "build", "rent_spot": "rent spot", "rent_reserved_1yr": "rent reserved 1-yr",
    "rent_reserved_3yr": "rent reserved 3-yr", "rent_on_demand": "rent on demand", "node-leaf": "node-leaf", "leaf-spine": "leaf-spine", "spine-core": "spine-core",
}
# Figures whose None means "this does not happen (within the cost horizon)", not "not computed".
_NEVER = {("cost", "break_even_months"), ("cost", "break_even_usd")}
_TOPOLOGIES = {"rail_optimized": "rail-optimised fat tree", "fat_tree": "fat tree", "leaf_spine": "leaf-spine"}


def label(section: str, key: str) -> str:
    """The figure's human label (keys missing from the table read as their words)."""
    entry = _TABLE.get(section, {}).get(key)
    return entry[0] if entry else key.rsplit(".", 1)[-1].replace("_", " ").capitalize()


def column(table: str, key: str) -> str:
    """The header, with its unit, of a column of a report table ("fabrics", "scaling")."""
    return _COLUMNS.get(table, {}).get(key) or key.replace("_", " ").capitalize()


def unit(section: str, key: str) -> str:
    """The unit shown after the figure ("ms", "GB/s", "$", ...); "" for counts and names."""
    entry = _TABLE.get(section, {}).get(key)
    kind = entry[1] if entry else ""
    return "" if kind in ("id", "x", "fraction") else kind


def describe(section: str, key: str, value: Any, catalog: Any = None) -> tuple[str, str]:
    """``(label, text_with_unit)`` for one figure of a report section.

    Dict values (per rental option, per cable tier) are written ``"spot never, reserved 1-yr
    23.2 months"``; identifiers are named (fabric technology title, switch catalog title
    when ``catalog`` is given, topology in words, booleans on/off).
    """
    entry = _TABLE.get(section, {}).get(key)
    kind = entry[1] if entry else _guess_kind(value)
    none = "not within the horizon" if (section, key) in _NEVER else "-"
    if isinstance(value, dict):
        parts = [f"{_SUBKEYS.get(k, str(k).replace('_', ' '))} {_one(v, kind, none)}" for k, v in value.items()]
        return label(section, key), ", ".join(parts)
    if kind == "id":
        return label(section, key), _name(key, value, catalog)
    return label(section, key), _one(value, kind, none)


def _one(value: Any, kind: str, none: str) -> str:
    if value is None:
        return none
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, float)):
        fmt = _FORMATS.get(kind, "{:,.2f}")
        if kind == "" and isinstance(value, float) and not value.is_integer():
            fmt = "{:,.2f}"
        if isinstance(value, int):  # whole numbers stay whole: '36 months', not '36.0 months'
            fmt = fmt.replace(",.1f", ",").replace(",.2f", ",")
        return fmt.format(value)
    return str(value)


def _name(key: str, value: Any, catalog: Any) -> str:
    if isinstance(value, bool) or value is None:
        return _one(value, "", "-")
    if key == "fabric" and value in TECHNOLOGIES:
        return TECHNOLOGIES[value].title
    if key == "topology":
        return _TOPOLOGIES.get(value, str(value).replace("_", " "))
    if key.endswith("switch_model") and catalog is not None:
        device = catalog.get(value)
        return device.title if device is not None else f"{value} (not in the catalog)"
    return str(value)


def _guess_kind(value: Any) -> str:
    return "" if isinstance(value, int) else "x"
