"""A plan-wide GPU power limit (nvidia-smi -pl) applied to the catalog's GPU device types.

A GPU held under a power limit lowers its clock until its draw fits: with power growing as
the clock to the k-th power (CMOS dynamic power with voltage scaled along with the clock,
k = 3; the facility setting ``gpu_clock_power_exponent``) its sustained clock, and so its
compute-bound tensor throughput, is (limit / TDP)^(1/k) of the datasheet peak. Its HBM
bandwidth is left as it is (the memory clock is not what the cap throttles). A node's
typical and nameplate power fall by its GPUs x (TDP - limit).

``capped_catalog`` (``plan_catalog`` for a plan's own settings) gives the catalog the plan
is evaluated, auto-placed and exported to NetBox with: every GPU type with those
figures, so rack power, PDUs, cooling, cost, power dynamics and the workload model all
follow. A GPU whose TDP is at or below the limit runs uncapped.
"""

from __future__ import annotations

from collections.abc import Iterable

from planner.hardware.catalog import Catalog, DeviceType, GpuBlock


def limit_w(gpu: GpuBlock, limit: float | None, min_share: float) -> float:
    """The power limit a GPU runs under: the plan's, within what the GPU accepts (its minimum
    settable limit up to its TDP); its TDP when the plan sets none."""
    if limit is None:
        return gpu.tdp_w
    return min(gpu.tdp_w, max(lowest_limit_w(gpu, min_share), limit))


def lowest_limit_w(gpu: GpuBlock, min_share: float) -> float:
    """The lowest limit the GPU accepts: the catalog's figure, else ``min_share`` x its TDP."""
    return gpu.min_power_limit_w if gpu.min_power_limit_w is not None else min_share * gpu.tdp_w


def clock_factor(gpu: GpuBlock, watts: float, exponent: float) -> float:
    """Sustained clock under a limit of ``watts``, as a fraction of the uncapped one: (watts / TDP)^(1/k)."""
    return 1.0 if watts >= gpu.tdp_w else (watts / gpu.tdp_w) ** (1.0 / exponent)


def capped_device(d: DeviceType, watts: float, exponent: float) -> DeviceType:
    """The device type with its GPUs held at ``watts``: tensor peak x the clock factor,
    compute draw at most the limit, node power less GPUs x (TDP - limit)."""
    g = d.gpu
    if g is None or watts >= g.tdp_w:
        return d
    cut = d.gpus * (g.tdp_w - watts)
    gpu = g.model_copy(update={
        "bf16_tflops": g.bf16_tflops * clock_factor(g, watts, exponent),
        "compute_power_w": min(watts, g.compute_power_w if g.compute_power_w is not None else g.tdp_w),
        "comm_power_w": None if g.comm_power_w is None else min(watts, g.comm_power_w)})
    return d.model_copy(update={"gpu": gpu, "power_typical_w": max(0.0, d.power_typical_w - cut),
                                "power_max_w": max(0.0, d.power_max_w - cut)})


def capped_catalog(catalog: Catalog, limit: float | None, exponent: float, min_share: float) -> Catalog:
    """The catalog with every GPU type under the plan's limit; the catalog itself when there is none."""
    if limit is None:
        return catalog
    out = Catalog([capped_device(d, limit_w(d.gpu, limit, min_share), exponent) if d.gpu else d for d in catalog])
    out.origins, out.rack_types, out.components = catalog.origins, catalog.rack_types, catalog.components
    return out


def plan_catalog(plan, catalog: Catalog) -> Catalog:
    """The catalog as ``plan`` runs it: under the plan's GPU power limit (its facility settings),
    for everything that reads a device's power or peak (evaluation, auto-place, NetBox)."""
    f = plan.settings.facility
    return capped_catalog(catalog, f.gpu_power_limit_w, f.gpu_clock_power_exponent, f.gpu_min_power_limit_share)


def limit_problem(devices: Iterable[DeviceType], limit: float | None, min_share: float) -> str | None:
    """Why the plan's limit cannot be set on its GPUs, or None: below a GPU type's minimum, or
    above every GPU's TDP (nothing to cap)."""
    gpus = {d.gpu.model: d.gpu for d in devices if d.gpu is not None}
    if limit is None or not gpus:
        return None
    for model, g in sorted(gpus.items()):
        low = lowest_limit_w(g, min_share)
        if limit < low:
            return (f"GPU power limit {limit:,.0f} W is below the {low:,.0f} W the {model} accepts (its minimum "
                    f"power limit; allowed {low:,.0f} to {g.tdp_w:,.0f} W)")
    top = max(g.tdp_w for g in gpus.values())
    if limit > top:
        names = ", ".join(f"{m} {g.tdp_w:,.0f} W" for m, g in sorted(gpus.items()))
        return (f"GPU power limit {limit:,.0f} W is above the GPUs' TDP ({names}): a limit caps a GPU at or "
                f"below its TDP; leave it empty for no cap")
    return None
